"""The Python adapters (clients/python) against a real server: psycopg 3
(connection, binary cursor, pool, async), asyncpg (its own decoding
turned into the same objects), SQLAlchemy.  Run by
test/shell/clients.sh with the package pip-installed on PYTHONPATH and two
databases whose glicko2 types have different OIDs (DB_A: the extension in
public; DB_B: in schema rate, after other types).  Exits non-zero on any
failure; a rating or interval that arrives as a string is a failure."""
import asyncio
import os
import sys

import psycopg
from psycopg_pool import ConnectionPool

import pg_glicko2
from pg_glicko2 import Interval, Rating
from pg_glicko2.psycopg import register_glicko2, register_glicko2_async

DBS = [os.environ["DB_A"], os.environ["DB_B"]]
failures = 0


def check(what, ok, detail=""):
    global failures
    print(("ok      " if ok else "FAILED  ") + what + ("" if ok else f": {detail}"))
    failures += not ok


def close(a, b, tol=1e-9):
    return a is not None and b is not None and abs(a - b) <= tol * max(1.0, abs(b))


# The live example of docs/live.md: two games, its documented ratings.
LIVE_SETUP = """
CREATE TABLE live_ratings (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
CREATE TABLE games (player_id int, opponent_id int, score float8, played_at timestamptz NOT NULL DEFAULT now());
CREATE TRIGGER rate_games AFTER INSERT ON games FOR EACH ROW EXECUTE FUNCTION glicko2_rate_games('live_ratings');
CREATE TABLE queue (player_id bigint PRIMARY KEY, rating glicko2_rating NOT NULL, queued_at timestamptz NOT NULL DEFAULT now());
"""
LIVE_DOCUMENTED = {1: Rating(1623.9194115899197, 256.34540959434145, 0.05999869089816603),
                   2: Rating(1337.7879985296545, 290.23050778223865, 0.05999967537233814),
                   3: Rating(1557.5286150807933, 286.8606713707285, 0.05999899847192374)}


def psycopg_checks(dbname):
    with psycopg.connect(dbname=dbname, autocommit=True) as conn:
        raw = conn.execute("SELECT glicko2_rating(1500, 200), glicko2_interval(glicko2_rating(1500, 200))").fetchone()
        check(f"{dbname}: without the adapter psycopg gives strings (the problem solved)",
              isinstance(raw[0], str) and isinstance(raw[1], str), repr(raw))
        register_glicko2(conn)
        conn.execute(LIVE_SETUP)
        # A leaderboard: ratings and intervals as objects, equal to the server's.
        conn.execute("CREATE TABLE ratings AS SELECT i AS player_id, glicko2_rating(1400 + 17 * i, 40 + 9 * i) AS rating"
                     " FROM generate_series(1, 12) i")
        rows = conn.execute("SELECT player_id, rating, glicko2_interval(rating), glicko2_lower(rating), glicko2_upper(rating),"
                            " glicko2_interval(rating, 3), glicko2_confidence_interval(rating, 0.9)"
                            " FROM ratings ORDER BY glicko2_lower(rating) DESC").fetchall()
        check(f"{dbname}: leaderboard ratings are Rating objects",
              all(type(r[1]) is Rating for r in rows), repr(rows[0][1]))
        check(f"{dbname}: leaderboard intervals are Interval objects",
              all(type(r[2]) is Interval for r in rows), repr(rows[0][2]))
        check(f"{dbname}: Rating.interval/lower/upper equal glicko2_interval/lower/upper",
              all(r[1].interval() == r[2] and r[1].lower == r[3] and r[1].upper == r[4]
                  and r[1].interval(3) == r[5] for r in rows), repr(rows[0]))
        check(f"{dbname}: Rating.confidence_interval(0.9) equals glicko2_confidence_interval",
              all(close(r[1].confidence_interval(0.9).lower, r[6].lower) and
                  close(r[1].confidence_interval(0.9).upper, r[6].upper) for r in rows), repr(rows[0]))
        check(f"{dbname}: leaderboard order by lower bound",
              [r[1].lower for r in rows] == sorted((r[1].lower for r in rows), reverse=True))
        # Binary results too.
        with conn.cursor(binary=True) as cur:
            b = cur.execute("SELECT rating, glicko2_interval(rating) FROM ratings WHERE player_id = 5").fetchone()
        t = conn.execute("SELECT rating, glicko2_interval(rating) FROM ratings WHERE player_id = 5").fetchone()
        check(f"{dbname}: binary cursor gives the same objects", tuple(b) == tuple(t) and type(b[0]) is Rating, repr(b))
        # A live game written with parameters, its ratings read back.
        conn.execute("INSERT INTO games VALUES (%s, %s, %s, %s)", (1, 2, 1.0, "2026-03-01 20:00+00"))
        conn.execute("INSERT INTO games VALUES (%s, %s, %s, %s)", (3, 1, 0.5, "2026-03-03 08:00+00"))
        live = dict(conn.execute("SELECT player_id, rating FROM live_ratings").fetchall())
        check(f"{dbname}: live ratings read back as docs/live.md documents them, every digit",
              live == LIVE_DOCUMENTED and all(type(v) is Rating for v in live.values()), repr(live))
        # Ratings as parameters: exact round trip, arrays, and an Interval.
        r = Rating(1464.0506705393013, 151.51652412385727, 0.059995984286488495)
        back = conn.execute("SELECT %s::glicko2_rating, %s = glicko2_rating(1464.0506705393013, 151.51652412385727, 0.059995984286488495)",
                            (r, r)).fetchone()
        check(f"{dbname}: a Rating parameter goes in and comes back bit for bit", back[0] == r and back[1] is True, repr(back))
        got = conn.execute("SELECT glicko2_period(%s, (%s::glicko2_rating[])[i], (%s::float8[])[i]) FROM generate_series(1, 3) i",
                           (Rating(1500, 200), [Rating(1400, 30), Rating(1550, 100), Rating(1700, 300)], [1, 0, 0])).fetchone()[0]
        check(f"{dbname}: the paper's example with Rating parameters (1464.06, 151.52, 0.05999)",
              type(got) is Rating and round(got.rating, 2) == 1464.05 and round(got.rd, 2) == 151.52
              and round(got.volatility, 5) == 0.06, repr(got))
        iv = conn.execute("SELECT %s @> 1500::float8, %s::text", (Interval(1400.0, 1600.0), Interval(1400.0, 1600.0))).fetchone()
        check(f"{dbname}: an Interval parameter is a float8range", iv == (True, "[1400,1600]"), repr(iv))
        # A matchmaking round: ratings in, pairs out with ids in the key's type.
        with conn.transaction():
            with conn.cursor() as cur:
                cur.executemany("INSERT INTO queue (player_id, rating) VALUES (%s, %s)",
                                [(i, Rating(1500 + 5 * i, 60)) for i in range(1, 9)])
            pairs = conn.execute("SELECT player_a, player_b, rating_a, rating_b, p_win FROM glicko2_pair_typed('queue', NULL::bigint)").fetchall()
        check(f"{dbname}: matchmaking round: 4 pairs, int ids, Rating objects",
              len(pairs) == 4 and all(type(p[0]) is int and type(p[2]) is Rating and p[2].rating == 1500 + 5 * p[0]
                                      for p in pairs), repr(pairs))
        teams = conn.execute("SELECT glicko2_balance(%s)", ([Rating(1500 + 10 * i, 50) for i in range(4)],)).fetchone()[0]
        check(f"{dbname}: glicko2_balance of a Rating list", sorted(teams) == [1, 1, 2, 2], repr(teams))
        arr = conn.execute("SELECT array_agg(rating ORDER BY player_id) FROM ratings").fetchone()[0]
        check(f"{dbname}: a glicko2_rating[] is a list of Rating", type(arr) is list and all(type(x) is Rating for x in arr), repr(arr)[:80])


def pool_checks(dbname):
    with ConnectionPool(f"dbname={dbname}", min_size=2, max_size=2, configure=register_glicko2, timeout=10) as pool:
        got = []
        for _ in range(3):
            with pool.connection() as conn:
                got.append(conn.execute("SELECT rating, glicko2_interval(rating) FROM ratings WHERE player_id = 1").fetchone())
        check(f"{dbname}: a psycopg pool configured with register_glicko2 gives objects on every connection",
              all(type(a) is Rating and type(b) is Interval for a, b in got), repr(got))


async def async_checks(dbname):
    conn = await psycopg.AsyncConnection.connect(dbname=dbname)
    await register_glicko2_async(conn)
    cur = await conn.execute("SELECT rating, glicko2_interval(rating) FROM ratings WHERE player_id = 2")
    row = await cur.fetchone()
    await conn.rollback()
    await conn.close()
    check(f"{dbname}: psycopg async connection gives objects", type(row[0]) is Rating and type(row[1]) is Interval, repr(row))


async def asyncpg_checks(dbname):
    import asyncpg
    from pg_glicko2.asyncpg import interval, rating
    conn = await asyncpg.connect(database=dbname)
    row = await conn.fetchrow("SELECT rating, glicko2_interval(rating) AS i, glicko2_lower(rating) AS lo FROM ratings WHERE player_id = 3")
    r, i = rating(row[0]), interval(row["i"])
    check(f"{dbname}: asyncpg values become Rating and Interval", type(r) is Rating and type(i) is Interval
          and r.interval() == i and r.lower == row["lo"], repr(row))
    r = Rating(1623.9194115899197, 256.34540959434145, 0.05999869089816603)
    back = await conn.fetchrow("SELECT $1::glicko2_rating AS r, $1::glicko2_rating = glicko2_rating(1623.9194115899197, 256.34540959434145, 0.05999869089816603) AS eq", r)
    check(f"{dbname}: asyncpg: a Rating parameter round trip", rating(back["r"]) == r and back["eq"] is True, repr(back))
    await conn.close()


def sqlalchemy_checks(dbname):
    import sqlalchemy as sa
    from pg_glicko2.sqlalchemy import IntervalType, RatingType
    engine = sa.create_engine(f"postgresql+psycopg2:///{dbname}")
    meta = sa.MetaData()
    players = sa.Table("sa_players", meta, sa.Column("id", sa.Integer, primary_key=True), sa.Column("rating", RatingType))
    meta.create_all(engine)
    with engine.begin() as c:
        c.execute(players.insert(), [{"id": 1, "rating": Rating(1700, 80)}, {"id": 2, "rating": Rating(1600, 50, 0.07)}])
        rows = c.execute(sa.select(players.c.id, players.c.rating,
                                   sa.func.glicko2_interval(players.c.rating, type_=IntervalType))
                         .order_by(players.c.id)).all()
        col = c.execute(sa.text("SELECT format_type(atttypid, NULL) FROM pg_attribute WHERE attrelid = 'sa_players'::regclass AND attname = 'rating'")).scalar()
    check(f"{dbname}: SQLAlchemy RatingType column is glicko2_rating", col == "glicko2_rating", col)
    check(f"{dbname}: SQLAlchemy reads Rating and Interval",
          rows[0][1] == Rating(1700, 80) and type(rows[0][1]) is Rating and rows[0][2] == Interval(1540.0, 1860.0)
          and rows[1][1] == Rating(1600, 50, 0.07), repr(rows))
    engine.dispose()


def oids(dbname):
    with psycopg.connect(dbname=dbname) as conn:
        return pg_glicko2.types_found(conn.execute(pg_glicko2.TYPES_QUERY).fetchall())


check("the two databases' glicko2_rating OIDs differ", oids(DBS[0])["glicko2_rating"][0] != oids(DBS[1])["glicko2_rating"][0])
check("pip installed the package (not the source tree)", "site-packages" in pg_glicko2.__file__ or os.environ.get("PIP_TARGET", "//") in pg_glicko2.__file__,
      pg_glicko2.__file__)
for db in DBS:
    psycopg_checks(db)
    pool_checks(db)
    asyncio.run(async_checks(db))
    asyncio.run(asyncpg_checks(db))
    sqlalchemy_checks(db)
print(f"python clients: {failures} failed")
sys.exit(1 if failures else 0)
