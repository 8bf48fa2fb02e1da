"""asyncpg: Rating and Interval from what asyncpg returns, Rating as a parameter.

asyncpg decodes both types by itself, a glicko2_rating as a Record
(r["rating"], r["rd"], r["volatility"]) and a float8range as an
asyncpg.Range, and it allows no custom codec on composite or range types
(asyncpg 0.27: "cannot use custom codec on non-scalar type").  So nothing
is registered: rating() and interval() turn its values into the objects
the other adapters return, and a Rating (a tuple) is a glicko2_rating
parameter as it is.

    row = await conn.fetchrow("SELECT rating, glicko2_interval(rating) AS i FROM ratings")
    rating(row["rating"]).confidence_interval(0.9), interval(row["i"]).width
"""
from . import Interval, Rating

__all__ = ["rating", "interval"]


def rating(value):
    """A Rating from asyncpg's Record of a glicko2_rating (None stays None)."""
    return None if value is None else Rating(*value)


def interval(value):
    """An Interval from asyncpg's Range of a float8range (empty or None: None)."""
    if value is None or value.isempty:
        return None
    return Interval(value.lower, value.upper)
