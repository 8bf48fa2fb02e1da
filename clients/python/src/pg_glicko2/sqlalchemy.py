"""SQLAlchemy column types for glicko2_rating and float8range, any driver.

    from pg_glicko2.sqlalchemy import RatingType, IntervalType
    Column("rating", RatingType)

Values are sent as text cast to the type and read from whatever the driver
gives (text, a psycopg or asyncpg object, or an already adapted one).
"""
from sqlalchemy import cast, types
from sqlalchemy.types import UserDefinedType

from . import Interval, Rating, format_interval, format_rating, parse_interval, parse_rating

__all__ = ["RatingType", "IntervalType"]


def _to_rating(value):
    if value is None or isinstance(value, Rating):
        return value
    if isinstance(value, str):
        return parse_rating(value)
    return Rating(*tuple(value))          # an asyncpg Record, a namedtuple


def _to_interval(value):
    if value is None or isinstance(value, Interval):
        return value
    if isinstance(value, str):
        return parse_interval(value)
    if getattr(value, "isempty", False):  # psycopg Range, asyncpg Range
        return None
    return Interval(value.lower, value.upper)


class _Named(UserDefinedType):
    """A type by name only, for a cast."""
    cache_ok = True

    def __init__(self, name):
        self.name = name

    def get_col_spec(self, **kw):
        return self.name


def _cast_text(bindvalue, name):
    # Sent as text and cast by the server: every driver sends text as is.
    return cast(cast(bindvalue, types.Text), _Named(name))


class _TextType(UserDefinedType):
    """A glicko2 type sent as text cast by the server, read by a converter."""
    cache_ok = True
    type_name = None

    def get_col_spec(self, **kw):
        return self.type_name

    def bind_expression(self, bindvalue):
        return _cast_text(bindvalue, self.type_name)

    def bind_processor(self, dialect):
        write = type(self).write
        return lambda value: None if value is None else write(value)

    def result_processor(self, dialect, coltype):
        return type(self).read


class RatingType(_TextType):
    cache_ok = True
    type_name = "glicko2_rating"
    write = staticmethod(format_rating)
    read = staticmethod(_to_rating)


class IntervalType(_TextType):
    cache_ok = True
    type_name = "float8range"
    write = staticmethod(format_interval)
    read = staticmethod(_to_interval)
