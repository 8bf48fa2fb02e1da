"""Python objects for the glicko2 PostgreSQL extension's types.

Rating is a glicko2_rating (rating, rd, volatility on the public Glicko
scale); Interval a float8range as glicko2_interval returns it (closed,
[lower, upper]).  The driver adapters (pg_glicko2.psycopg, .asyncpg,
.sqlalchemy) read and write them; this module needs no driver.
"""
from statistics import NormalDist
from typing import NamedTuple, Optional

__all__ = ["Rating", "Interval", "parse_rating", "parse_interval", "format_rating", "format_interval"]


class Interval(NamedTuple):
    """A closed interval [lower, upper] (a float8range from glicko2)."""

    lower: Optional[float]
    upper: Optional[float]

    @property
    def width(self) -> float:
        return self.upper - self.lower

    def contains(self, x: float) -> bool:
        return (self.lower is None or self.lower <= x) and (self.upper is None or x <= self.upper)


class Rating(NamedTuple):
    """A glicko2_rating; glicko2_rating() in SQL is Rating(1500, 350, 0.06)."""

    rating: float = 1500.0
    rd: float = 350.0
    volatility: float = 0.06

    def interval(self, k: float = 2.0) -> Interval:
        """[rating - k rd, rating + k rd], as glicko2_interval(r, k); k = 2 is the paper's 95 %."""
        return Interval(self.rating - k * self.rd, self.rating + k * self.rd)

    @property
    def lower(self) -> float:
        """rating - 2 rd, as glicko2_lower(r)."""
        return self.interval().lower

    @property
    def upper(self) -> float:
        """rating + 2 rd, as glicko2_upper(r)."""
        return self.interval().upper

    def confidence_interval(self, confidence: float = 0.95) -> Interval:
        """rating -/+ z rd with the normal quantile z, as glicko2_confidence_interval(r, confidence)."""
        if not 0.0 <= confidence < 1.0:
            raise ValueError(f"confidence must be in [0, 1), not {confidence!r}")
        return self.interval(NormalDist().inv_cdf(0.5 + confidence / 2.0))


def _fields(text: str, open_: str, close: str) -> list:
    if len(text) < 2 or text[0] not in open_ or text[-1] not in close:
        raise ValueError(f"not a glicko2 value: {text!r}")
    return [f.strip().strip('"') for f in text[1:-1].split(",")]


def parse_rating(text: Optional[str]) -> Optional[Rating]:
    """A Rating from glicko2_rating's text form, '(1500,350,0.06)'."""
    if text is None:
        return None
    fields = _fields(text, "(", ")")
    if len(fields) != 3:
        raise ValueError(f"a glicko2_rating has 3 fields, not {len(fields)}: {text!r}")
    return Rating(*(float(f) for f in fields))


def parse_interval(text: Optional[str]) -> Optional[Interval]:
    """An Interval from float8range's text form, '[1300,1700]' (empty: None)."""
    if text is None or text == "empty":
        return None
    lower, upper = _fields(text, "[(", "])")
    return Interval(float(lower) if lower else None, float(upper) if upper else None)


def format_rating(r) -> str:
    """glicko2_rating's text form of a Rating (or any 3-sequence), every digit kept."""
    rating, rd, volatility = r
    return f"({float(rating)!r},{float(rd)!r},{float(volatility)!r})"


def format_interval(i) -> str:
    lower, upper = i
    return "[" + ("" if lower is None else repr(float(lower))) + "," + ("" if upper is None else repr(float(upper))) + "]"


# The extension's types in the current database: their OIDs differ from one
# database to the next, so every adapter looks them up on its connection.
TYPES_QUERY = """
SELECT t.typname::text, t.oid::int8, t.typarray::int8, n.nspname::text
FROM pg_catalog.pg_extension e
JOIN pg_catalog.pg_depend d ON d.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass
     AND d.refobjid = e.oid AND d.classid = 'pg_catalog.pg_type'::pg_catalog.regclass AND d.deptype = 'e'
JOIN pg_catalog.pg_type t ON t.oid = d.objid
JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace
WHERE e.extname = 'glicko2' AND t.typname IN ('glicko2_rating', 'float8range')
"""


def types_found(rows) -> dict:
    """{typname: (oid, array oid, schema)} from TYPES_QUERY's rows; an error if glicko2 is not installed."""
    found = {name: (oid, array, schema) for name, oid, array, schema in rows}
    if set(found) != {"glicko2_rating", "float8range"}:
        raise LookupError("the glicko2 extension is not installed in this database (CREATE EXTENSION glicko2)")
    return found
