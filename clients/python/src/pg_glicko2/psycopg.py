"""psycopg 3: glicko2_rating as Rating and float8range as Interval, both ways.

    register_glicko2(conn)                          # a Connection or a Cursor
    ConnectionPool(conninfo, configure=register_glicko2)
    await register_glicko2_async(aconn)             # an AsyncConnection
    AsyncConnectionPool(conninfo, configure=register_glicko2_async)
"""
import struct

from psycopg import sql
from psycopg.adapt import Dumper, Loader
from psycopg.pq import Format, TransactionStatus
from psycopg.types import TypeInfo
from psycopg.types.composite import CompositeInfo, register_composite

from . import TYPES_QUERY, Interval, Rating, format_interval, parse_interval, types_found

__all__ = ["register_glicko2", "register_glicko2_async"]

_EMPTY, _LB_INC, _UB_INC, _LB_INF, _UB_INF = 0x01, 0x02, 0x04, 0x08, 0x10


class IntervalLoader(Loader):
    def load(self, data):
        return parse_interval(bytes(data).decode())


class IntervalBinaryLoader(Loader):
    format = Format.BINARY

    def load(self, data):
        data = bytes(data)
        flags = data[0]
        if flags & _EMPTY:
            return None
        at, bounds = 1, []
        for infinite in (flags & _LB_INF, flags & _UB_INF):
            if infinite:
                bounds.append(None)
            else:
                (value,) = struct.unpack_from("!d", data, at + 4)
                bounds.append(value)
                at += 12
        return Interval(*bounds)


def _interval_dumper(oid):
    class IntervalDumper(Dumper):
        def dump(self, obj):
            return format_interval(obj).encode()

    IntervalDumper.oid = oid
    return IntervalDumper


def _register(context, rating_info, found):
    register_composite(rating_info, context, factory=Rating)
    oid, array_oid, schema = found["float8range"]
    TypeInfo("float8range", oid, array_oid).register(context)
    adapters = context.adapters
    adapters.register_loader(oid, IntervalLoader)
    adapters.register_loader(oid, IntervalBinaryLoader)
    adapters.register_dumper(Interval, _interval_dumper(oid))


def register_glicko2(context):
    """Register the types on a connection (or cursor): one call, any time before use."""
    conn = getattr(context, "connection", context)
    idle = conn.info.transaction_status == TransactionStatus.IDLE
    found = types_found(conn.execute(TYPES_QUERY).fetchall())
    info = CompositeInfo.fetch(conn, sql.Identifier(found["glicko2_rating"][2], "glicko2_rating"))
    if idle and conn.info.transaction_status != TransactionStatus.IDLE:
        conn.rollback()         # only read the catalogue: leave no transaction open (a pool refuses that)
    _register(context, info, found)


async def register_glicko2_async(context):
    """register_glicko2 for an AsyncConnection (or async cursor)."""
    conn = getattr(context, "connection", context)
    idle = conn.info.transaction_status == TransactionStatus.IDLE
    cur = await conn.execute(TYPES_QUERY)
    found = types_found(await cur.fetchall())
    info = await CompositeInfo.fetch(conn, sql.Identifier(found["glicko2_rating"][2], "glicko2_rating"))
    if idle and conn.info.transaction_status != TransactionStatus.IDLE:
        await conn.rollback()
    _register(context, info, found)
