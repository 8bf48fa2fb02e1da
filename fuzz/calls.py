#!/usr/bin/python3
"""calls.py -- a seeded bad-input generator over every SQL-callable function,
aggregate, procedure and trigger function of glicko2 (fuzz/README.md).

The functions are read from the catalog (pg_proc members of the extension),
so a new one is covered without an edit here; an argument type without a
generator below is a failure, not a silent skip.  Each call runs as an
unprivileged role (the owner of the test tables) in a transaction of its own,
against one "world": a schema holding the tables the extension reads and
writes (ratings, games, history, matches, queue, live games with the rating
trigger) in one of several shapes (plain, guarded and closed, partitioned,
inheritance, views, foreign, temporary, odd identifiers, row level security,
triggers, rules, wrong column types, missing columns, text keys).

A call fails the run when it
  - crashes a backend (the connection is lost, or the server restarted),
  - ends in an internal error (SQLSTATE class XX),
  - runs over the time limit (statement_timeout, --timeout),
  - errors but the tables it may write differ afterwards (compared row by
    row, as a superuser, before and after), or succeeds without writing
    every row it reports or must write (a close that leaves a player behind,
    a queue whose deleted rows are not the players returned, a live game
    whose two rows are not the two players' new ratings).
Known defects (KNOWN below, each with the issue that tracks it) are counted
apart and do not fail the run unless --strict.  Prints the counts: calls,
results, clean errors by SQLSTATE, crashes, XX000, timeouts, partial writes.
Needs python3-psycopg (Debian); connects with the PG* environment as a
superuser and works in a database of its own (--dbname, recreated).
"""
import argparse
import collections
import os
import random
import re
import sys
import threading
import time

import psycopg

# ---------------------------------------------------------------------------
# Known defects (issue 29): a failure matching one is counted as known.
# Remove an entry when its fix is on main; the CI run is then strict for it.
# Each: key -> (description, predicate(failure) -> bool, skip(plan) -> bool).
# skip: cases not even run while the defect stands (a crash restarts the
# server; an uncancellable call would hold the run for minutes).
# ---------------------------------------------------------------------------
KNOWN = {
    # The five defects of issue 29 were listed here until their fixes landed
    # (guard after a dropped ratings table, live trigger on partitioned and
    # inheritance tables, partial closes under RLS/triggers/rules, balance
    # not cancellable, XX000 of nested live triggers, queue rules, replay).
    # An entry: 'key': ('description', lambda failure: bool, lambda plan: bool).
}

FLOATS = ["NULL", "'NaN'", "'Infinity'", "'-Infinity'", "1e308", "-1e308", "1e-308", "5e-324",
          "'-0'", "0", "-1", "1", "0.5", "2", "1e6", "-1e6", "1e-3", "1e4", "1500", "350",
          "0.06", "2e9", "-1e-308", "1.7976931348623157e308"]
INTS = ["NULL", "0", "-1", "1", "2", "3", "4", "7", "16", "17", "64", "65", "1000",
        "2147483647", "-2147483648"]
BIGINTS = ["NULL", "0", "-1", "1", "2", "3", "9223372036854775807", "-9223372036854775808"]
TEXTS = ["NULL", "''", "'x'", "'individual'", "'composite'", "'sum'", "'mean'", "'SELECT 1'",
         "'''; SELECT 1; --'", "repeat('x', 10000)", "'NaN'", "'1'", "'3'", "'é'", "' '"]
NAMES = ["NULL", "''", "'nonexistent'", "'player_id'", "'rating'", "'period'", "'score'",
         "'opponent_id'", "'ctid'", "'xmin'", "'tableoid'", "'Player Id'", "'a\"b'",
         "repeat('n', 100)", "'rated_at'", "'home'", "'team'", "'place'", "'match_id'",
         "'queued_at'"]
BOOLS = ["NULL", "true", "false"]
TIMES = ["NULL", "'infinity'", "'-infinity'", "'2026-01-01 10:00+00'", "'4713-01-01 00:00+00 BC'",
         "'294276-12-31 00:00+00'", "now()", "'2000-01-01'"]
INTERVALS = ["NULL", "'0'", "'-1 day'", "'1 day'", "'1 microsecond'", "'178000000 years'",
             "'-178000000 years'", "'1 month'", "'1 hour'"]
JSONS = ["NULL", "'{}'", "'[]'", "'null'", "'\"x\"'", "'{\"rating\":1500,\"rd\":350,\"volatility\":0.06}'",
         "'{\"rating\":\"NaN\",\"rd\":350,\"volatility\":0.06}'", "'{\"rating\":1e400,\"rd\":1,\"volatility\":1}'",
         "'{\"rating\":1500}'", "'{\"rating\":null,\"rd\":350,\"volatility\":0.06}'",
         "'{\"rating\":1500,\"rd\":350,\"volatility\":0.06,\"x\":1}'",
         "'{\"rating\":[1],\"rd\":{},\"volatility\":true}'", "'{\"rating\":1500,\"rd\":-1,\"volatility\":0.06}'",
         "'{\"rating\":1e-400,\"rd\":1e-400,\"volatility\":1e-400}'",
         "(repeat('[', 5000) || repeat(']', 5000))"]
TIDS = ["NULL", "'(0,0)'", "'(0,1)'", "'(4294967295,65535)'", "'(1,291)'", "'(0,65535)'"]
BYTEAS = ["NULL", "'\\x'", "'\\xff'", "'\\x0001'", "decode(repeat('ff', 100000), 'hex')",
          "decode(repeat('00', 9), 'hex')"]
REGTYPES = ["NULL", "'integer'", "'bigint'", "'text'", "'glicko2_rating'", "'void'", "'anyelement'",
            "'record'", "0", "'date'", "'numeric'", "'float8'"]
PERIODS = ["NULL::int", "1", "2", "3", "4", "0", "-1", "2147483647", "1::bigint", "'1'::text", "'x'::text",
           "'2026-01-01'::date", "1.5::numeric", "'NaN'::float8", "true", "'1'::varchar",
           "NULL::text", "'{1}'::int[]", "glicko2_rating()"]


# Types whose values are drawn from one pool, and the cast each value gets.
POOLS = {'jsonb': (JSONS, 'jsonb'), 'timestamp with time zone': (TIMES, 'timestamptz'),
         'interval': (INTERVALS, 'interval'), 'tid': (TIDS, 'tid'), 'bytea': (BYTEAS, 'bytea'),
         'regtype': (REGTYPES, 'regtype')}


def rating_good(rng):
    return rng.choice([
        "glicko2_rating(1500, 200, 0.06)", "glicko2_rating(1400, 30, 0.06)",
        "glicko2_rating(1550, 100)", "glicko2_rating(1700, 300)", "glicko2_rating()",
        "glicko2_rating(1e6, 1e-3, 1e-6)", "glicko2_rating(-1e6, 1e4, 5)", "NULL::glicko2_rating"])


def rating_bad(rng):
    f = lambda: rng.choice(FLOATS)  # noqa: E731
    return rng.choice([
        f"ROW({f()}, {f()}, {f()})::glicko2_rating", "NULL::glicko2_rating",
        "ROW(NULL, NULL, NULL)::glicko2_rating", "ROW(1500, 350, NULL)::glicko2_rating",
        "ROW(1500, -350, 0.06)::glicko2_rating", "ROW(1e308, 1e308, 1e308)::glicko2_rating",
        "ROW(1500, 5e-324, 5e-324)::glicko2_rating", rating_good(rng)])


def g1_value(rng):
    f = lambda: rng.choice(FLOATS)  # noqa: E731
    return rng.choice(["glicko1_rating(1500, 200)", "glicko1_rating()", "NULL::glicko1_rating",
                       f"ROW({f()}, {f()})::glicko1_rating", "ROW(NULL, 1)::glicko1_rating"])


def scaled_value(rng):
    f = lambda: rng.choice(FLOATS)  # noqa: E731
    return rng.choice(["glicko2_to_scaled(glicko2_rating())", "NULL::glicko2_scaled",
                       f"ROW({f()}, {f()}, {f()})::glicko2_scaled", "ROW(0, 1, 0.06)::glicko2_scaled"])


def array_of(rng, elem, typ, huge, n=None):
    """An array literal of typ[] in one of the shapes a function must survive."""
    shape = rng.choice(['good', 'good', 'good', 'empty', 'null', 'nullelem', 'multidim', 'lowerbound',
                        'huge', 'one', 'bigdims'])
    if n is None:
        n = rng.randint(2, 12)
    if shape == 'good':
        return f"ARRAY[{', '.join(elem() for _ in range(n))}]::{typ}[]", None
    if shape == 'one':
        return f"ARRAY[{elem()}]::{typ}[]", None
    if shape == 'empty':
        return f"'{{}}'::{typ}[]", None
    if shape == 'null':
        return f"NULL::{typ}[]", None
    if shape == 'nullelem':
        items = [elem() for _ in range(n)]
        items[rng.randrange(n)] = f"NULL::{typ}"
        return f"ARRAY[{', '.join(items)}]::{typ}[]", None
    if shape == 'multidim':
        k = max(1, n // 2)
        return (f"ARRAY[ARRAY[{', '.join(elem() for _ in range(k))}], "
                f"ARRAY[{', '.join(elem() for _ in range(k))}]]::{typ}[]"), None
    if shape == 'lowerbound':
        return f"array_fill({elem()}, ARRAY[{n}], ARRAY[{rng.choice([0, -5, 2147483000])}])", None
    if shape == 'bigdims':
        return f"array_fill({elem()}, ARRAY[1, 1, 1, 1, 1, 1])", None
    # huge: n copies, generated in the server
    return f"(SELECT array_agg(({elem()})::{typ}) FROM generate_series(1, {huge}))", 'huge'


# ---------------------------------------------------------------------------
# Worlds: one schema each, the same logical tables in different shapes.
# ---------------------------------------------------------------------------
STD_COLS = dict(player_column='player_id', rating_column='rating', period_column='period',
                game_player_column='player_id', opponent_column='opponent_id', score_column='score',
                match_column='match_id', match_player_column='player_id', team_column='team',
                place_column='place', queued_column='queued_at', home_column='home',
                rated_at_column='rated_at')

PLAYERS = 12


def data_sql(s, key='bigint', cols=STD_COLS, ratings='ratings', games='games', matches='matches',
             queue='queue', live='live_games'):
    """Rows for the standard tables of schema s (quoted identifiers)."""
    c = {k: '"' + v.replace('"', '""') + '"' for k, v in cols.items()}
    cast = "::text" if key == 'text' else ""
    return f"""
INSERT INTO {s}.{ratings} ({c['player_column']}, {c['rating_column']}, {c['rated_at_column']})
SELECT i{cast}, CASE WHEN i % 5 = 0 THEN NULL ELSE glicko2_rating(1300 + 37 * i, 50 + 20 * i, 0.06) END,
       '2026-01-01'::timestamptz + i * interval '1 hour'
FROM generate_series(1, {PLAYERS - 2}) i;
INSERT INTO {s}.{games} ({c['period_column']}, {c['game_player_column']}, {c['opponent_column']}, {c['score_column']}, {c['home_column']})
SELECT p, ((i % {PLAYERS}) + 1){cast}, (((i * 7 + p) % {PLAYERS}) + 1){cast}, (i % 3) / 2.0, i % 2 = 0
FROM generate_series(1, 3) p, generate_series(1, {PLAYERS}) i
WHERE (i % {PLAYERS}) <> ((i * 7 + p) % {PLAYERS});
INSERT INTO {s}.{matches} ({c['match_column']}, {c['period_column']}, {c['match_player_column']}, {c['team_column']}, {c['place_column']})
SELECT m, p, (((m * 3 + i) % {PLAYERS}) + 1){cast}, i % 2, 1 + (i + m) % 2
FROM generate_series(1, 2) p, generate_series(1, 3) m, generate_series(0, 3) i;
INSERT INTO {s}.{queue} ({c['player_column']}, {c['rating_column']}, {c['queued_column']})
SELECT i{cast}, CASE WHEN i % 6 = 0 THEN NULL ELSE glicko2_rating(1400 + 25 * i, 60 + 10 * i, 0.06) END,
       now() - i * interval '10 seconds'
FROM generate_series(1, {PLAYERS}) i;
"""


def std_ddl(s, key='bigint', ratings_opts='', games_opts='', queue_opts='', history_opts='',
            ratings_pk='PRIMARY KEY', queue_pk='PRIMARY KEY'):
    return f"""
CREATE TABLE {s}.ratings (player_id {key} {ratings_pk}, rating glicko2_rating, rated_at timestamptz){ratings_opts};
CREATE TABLE {s}.games (period int, player_id {key}, opponent_id {key}, score float8, home boolean){games_opts};
CREATE TABLE {s}.history (player_id {key}, period int, rating glicko2_rating){history_opts};
CREATE TABLE {s}.matches (match_id int, period int, player_id {key}, team int, place int);
CREATE TABLE {s}.queue (player_id {key} {queue_pk}, rating glicko2_rating, queued_at timestamptz){queue_opts};
CREATE TABLE {s}.live_games (player_id {key}, opponent_id {key}, score float8, played_at timestamptz,
                             period int, home boolean);
"""


LIVE_TRIGGER = ("CREATE TRIGGER rate_games AFTER INSERT ON {s}.live_games FOR EACH ROW "
                "EXECUTE FUNCTION glicko2_rate_games('ratings');\n")


def world_sql(kind, s):
    """(setup run by the owner role, setup run by the superuser first, column names)."""
    cols = dict(STD_COLS)
    su = ''
    if kind == 'plain':
        body = std_ddl(s) + data_sql(s) + LIVE_TRIGGER.format(s=s)
    elif kind == 'textkey':
        body = std_ddl(s, key='text') + data_sql(s, key='text') + LIVE_TRIGGER.format(s=s)
    elif kind == 'guarded':
        body = (std_ddl(s) + data_sql(s) + LIVE_TRIGGER.format(s=s)
                + f"CALL glicko2_guard_games('{s}.games');\n"
                + f"CALL glicko2_close_period('{s}.ratings', '{s}.games', 1, history => '{s}.history');\n"
                + f"CALL glicko2_close_matches('{s}.ratings', '{s}.matches', 2, unguarded => true);\n")
    elif kind == 'part':
        body = (std_ddl(s, ratings_opts=' PARTITION BY RANGE (player_id)',
                        games_opts=' PARTITION BY LIST (period)',
                        queue_opts=' PARTITION BY RANGE (player_id)',
                        history_opts=' PARTITION BY RANGE (period)')
                + f"""
CREATE TABLE {s}.ratings_lo PARTITION OF {s}.ratings FOR VALUES FROM (MINVALUE) TO (7);
CREATE TABLE {s}.ratings_hi PARTITION OF {s}.ratings FOR VALUES FROM (7) TO (MAXVALUE);
CREATE TABLE {s}.games_1 PARTITION OF {s}.games FOR VALUES IN (1);
CREATE TABLE {s}.games_d PARTITION OF {s}.games DEFAULT;
CREATE TABLE {s}.queue_lo PARTITION OF {s}.queue FOR VALUES FROM (MINVALUE) TO (7);
CREATE TABLE {s}.queue_hi PARTITION OF {s}.queue FOR VALUES FROM (7) TO (MAXVALUE);
CREATE TABLE {s}.history_all PARTITION OF {s}.history FOR VALUES FROM (MINVALUE) TO (MAXVALUE);
""" + data_sql(s) + LIVE_TRIGGER.format(s=s))
    elif kind == 'inherit':
        body = (std_ddl(s) + f"""
CREATE TABLE {s}.ratings_child (PRIMARY KEY (player_id)) INHERITS ({s}.ratings);
CREATE TABLE {s}.games_child () INHERITS ({s}.games);
CREATE TABLE {s}.queue_child (PRIMARY KEY (player_id)) INHERITS ({s}.queue);
""" + data_sql(s, ratings='ratings_child', games='games_child', queue='queue_child')
                + f"UPDATE {s}.ratings_child SET player_id = player_id + 100 WHERE player_id > 6;\n"
                + f"INSERT INTO {s}.ratings SELECT * FROM {s}.ratings_child WHERE player_id <= 6;\n"
                + f"DELETE FROM ONLY {s}.ratings_child WHERE player_id <= 6;\n"
                + LIVE_TRIGGER.format(s=s))
    elif kind == 'view':
        body = (std_ddl(s).replace(f'{s}.ratings ', f'{s}.ratings_t ').replace(f'{s}.games ', f'{s}.games_t ')
                .replace(f'{s}.queue ', f'{s}.queue_t ').replace(f'{s}.matches ', f'{s}.matches_t ')
                .replace(f'{s}.history ', f'{s}.history_t ')
                + f"""
CREATE VIEW {s}.ratings AS SELECT * FROM {s}.ratings_t;
CREATE VIEW {s}.games AS SELECT * FROM {s}.games_t;
CREATE VIEW {s}.queue AS SELECT * FROM {s}.queue_t;
CREATE VIEW {s}.matches AS SELECT * FROM {s}.matches_t;
CREATE VIEW {s}.history AS SELECT * FROM {s}.history_t;
""" + data_sql(s, ratings='ratings_t', games='games_t', matches='matches_t', queue='queue_t')
                + f"CREATE MATERIALIZED VIEW {s}.games_mv AS SELECT * FROM {s}.games_t;\n"
                + LIVE_TRIGGER.format(s=s))
    elif kind == 'foreign':
        # postgres_fdw back to this database (tables in schema {s}_back), file_fdw for a games file
        su = f"""
CREATE SCHEMA {s}_back AUTHORIZATION fuzz_owner;
CREATE SERVER {s}_loop FOREIGN DATA WRAPPER postgres_fdw
  OPTIONS (host %(host)s, port %(port)s, dbname %(db)s);
CREATE USER MAPPING FOR fuzz_owner SERVER {s}_loop OPTIONS (user 'fuzz_owner', password_required 'false');
GRANT USAGE ON FOREIGN SERVER {s}_loop TO fuzz_owner;
CREATE SERVER {s}_file FOREIGN DATA WRAPPER file_fdw;
CREATE FOREIGN TABLE {s}.games_file (period int, player_id bigint, opponent_id bigint, score float8, home boolean)
  SERVER {s}_file OPTIONS (filename %(file)s, format 'csv');
ALTER FOREIGN TABLE {s}.games_file OWNER TO fuzz_owner;
"""
        body = (std_ddl(f'{s}_back') + data_sql(f'{s}_back') + f"""
CREATE FOREIGN TABLE {s}.ratings (player_id bigint NOT NULL, rating glicko2_rating, rated_at timestamptz)
  SERVER {s}_loop OPTIONS (schema_name '{s}_back', table_name 'ratings');
CREATE FOREIGN TABLE {s}.games (period int, player_id bigint, opponent_id bigint, score float8, home boolean)
  SERVER {s}_loop OPTIONS (schema_name '{s}_back', table_name 'games');
CREATE FOREIGN TABLE {s}.history (player_id bigint, period int, rating glicko2_rating)
  SERVER {s}_loop OPTIONS (schema_name '{s}_back', table_name 'history');
CREATE FOREIGN TABLE {s}.matches (match_id int, period int, player_id bigint, team int, place int)
  SERVER {s}_loop OPTIONS (schema_name '{s}_back', table_name 'matches');
CREATE FOREIGN TABLE {s}.queue (player_id bigint NOT NULL, rating glicko2_rating, queued_at timestamptz)
  SERVER {s}_loop OPTIONS (schema_name '{s}_back', table_name 'queue');
CREATE FOREIGN TABLE {s}.live_games (player_id bigint, opponent_id bigint, score float8, played_at timestamptz,
                                     period int, home boolean)
  SERVER {s}_loop OPTIONS (schema_name '{s}_back', table_name 'live_games');
""" + LIVE_TRIGGER.format(s=s))
    elif kind == 'temp':
        body = (std_ddl('pg_temp') + data_sql('pg_temp')
                + "CREATE TRIGGER rate_games AFTER INSERT ON pg_temp.live_games FOR EACH ROW "
                  "EXECUTE FUNCTION glicko2_rate_games('ratings');\n")
    elif kind == 'odd':
        cols = dict(STD_COLS, player_column='Player "Id"', rating_column="rat'ing", period_column='Per.iod',
                    game_player_column='Player "Id"', opponent_column='opp id', score_column='Sc;ore',
                    match_column='M', match_player_column='Player "Id"', team_column='tEAM',
                    place_column='$place', queued_column='queued at', home_column='HOME',
                    rated_at_column='rated_at')
        q = {k: '"' + v.replace('"', '""') + '"' for k, v in cols.items()}
        n = ODD_NAMES
        body = f"""
CREATE TABLE {s}.{n['ratings']} ({q['player_column']} bigint PRIMARY KEY, {q['rating_column']} glicko2_rating, rated_at timestamptz);
CREATE TABLE {s}.{n['games']} ({q['period_column']} int, {q['game_player_column']} bigint, {q['opponent_column']} bigint, {q['score_column']} float8, {q['home_column']} boolean);
CREATE TABLE {s}.{n['history']} (player_id bigint, period int, rating glicko2_rating);
CREATE TABLE {s}.{n['matches']} ({q['match_column']} int, {q['period_column']} int, {q['match_player_column']} bigint, {q['team_column']} int, {q['place_column']} int);
CREATE TABLE {s}.{n['queue']} ({q['player_column']} bigint PRIMARY KEY, {q['rating_column']} glicko2_rating, {q['queued_column']} timestamptz);
CREATE TABLE {s}.{n['live']} ({q['game_player_column']} bigint, {q['opponent_column']} bigint, {q['score_column']} float8, played_at timestamptz);
""" + data_sql(s, cols=cols, ratings=n['ratings'], games=n['games'], matches=n['matches'],
               queue=n['queue'], live=n['live']) + f"""
CREATE TRIGGER rate_games AFTER INSERT ON {s}.{n['live']} FOR EACH ROW
  EXECUTE FUNCTION glicko2_rate_games({lit(n['ratings'])}, 'player_column=Player "Id"', 'rating_column=rat''ing',
    'game_player_column=Player "Id"', 'opponent_column=opp id', 'score_column=Sc;ore');
"""
    elif kind == 'rls':
        body = std_ddl(s) + data_sql(s) + LIVE_TRIGGER.format(s=s)
        for t in ('ratings', 'queue', 'history', 'games', 'live_games'):
            body += f"""
ALTER TABLE {s}.{t} ENABLE ROW LEVEL SECURITY;
ALTER TABLE {s}.{t} FORCE ROW LEVEL SECURITY;
CREATE POLICY r ON {s}.{t} FOR SELECT USING (true);
CREATE POLICY i ON {s}.{t} FOR INSERT WITH CHECK (player_id % 2 = 0);
CREATE POLICY u ON {s}.{t} FOR UPDATE USING (player_id % 2 = 0);
CREATE POLICY d ON {s}.{t} FOR DELETE USING (player_id % 2 = 0);
"""
    elif kind == 'trig':
        body = std_ddl(s) + data_sql(s) + LIVE_TRIGGER.format(s=s) + f"""
CREATE FUNCTION {s}.skip_odd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (CASE WHEN TG_OP = 'DELETE' THEN OLD.player_id ELSE NEW.player_id END) % 2 = 1 THEN RETURN NULL; END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END $$;
CREATE TRIGGER skip_odd BEFORE UPDATE OR INSERT OR DELETE ON {s}.ratings FOR EACH ROW EXECUTE FUNCTION {s}.skip_odd();
CREATE TRIGGER skip_odd BEFORE DELETE ON {s}.queue FOR EACH ROW EXECUTE FUNCTION {s}.skip_odd();
CREATE TRIGGER skip_odd BEFORE INSERT ON {s}.history FOR EACH ROW EXECUTE FUNCTION {s}.skip_odd();
"""
    elif kind == 'rule':
        body = std_ddl(s) + data_sql(s) + LIVE_TRIGGER.format(s=s) + f"""
CREATE RULE nothing AS ON UPDATE TO {s}.ratings DO INSTEAD NOTHING;
CREATE RULE nothing AS ON DELETE TO {s}.queue DO INSTEAD NOTHING;
CREATE RULE nothing AS ON INSERT TO {s}.history DO INSTEAD NOTHING;
"""
    elif kind == 'wrong':
        body = f"""
CREATE TABLE {s}.ratings (player_id text PRIMARY KEY, rating text, rated_at text);
CREATE TABLE {s}.games (period text, player_id float8, opponent_id numeric, score text, home int);
CREATE TABLE {s}.history (player_id text, period text, rating jsonb);
CREATE TABLE {s}.matches (match_id float8, period timestamptz, player_id text, team text, place float8);
CREATE TABLE {s}.queue (player_id text PRIMARY KEY, rating float8[], queued_at date);
CREATE TABLE {s}.live_games (player_id float8, opponent_id text, score text, played_at date);
INSERT INTO {s}.ratings VALUES ('1', '(1500,350,0.06)', 'x'), ('2', 'bad', NULL);
INSERT INTO {s}.games VALUES ('1', 1, 2, '1', 1), ('1', 2.5, 1, 'x', 0);
INSERT INTO {s}.matches VALUES (1, now(), '1', 'a', 1), (1, now(), '2', 'b', 2);
INSERT INTO {s}.queue VALUES ('1', '{{1500,350,0.06}}', now()), ('2', NULL, now());
CREATE TRIGGER rate_games AFTER INSERT ON {s}.live_games FOR EACH ROW EXECUTE FUNCTION glicko2_rate_games('ratings');
"""
    elif kind == 'nocols':
        body = f"""
CREATE TABLE {s}.ratings (id int PRIMARY KEY);
CREATE TABLE {s}.games (x int);
CREATE TABLE {s}.history (y int);
CREATE TABLE {s}.matches (z int);
CREATE TABLE {s}.queue (w int);
CREATE TABLE {s}.live_games (v int);
INSERT INTO {s}.ratings VALUES (1), (2); INSERT INTO {s}.games VALUES (1); INSERT INTO {s}.queue VALUES (1);
CREATE TRIGGER rate_games AFTER INSERT ON {s}.live_games FOR EACH ROW EXECUTE FUNCTION glicko2_rate_games('ratings');
"""
    else:
        raise ValueError(kind)
    return body, su, cols


WORLD_KINDS = ['plain', 'textkey', 'guarded', 'part', 'inherit', 'view', 'foreign', 'temp', 'odd',
               'rls', 'trig', 'rule', 'wrong', 'nocols']
LOGICAL = {'ratings': 'ratings', 'games': 'games', 'history': 'history', 'matches': 'matches',
           'queue': 'queue', 'live': 'live_games'}
ODD_NAMES = {'ratings': '"Rat ""ings"""', 'games': '"Ga;mes"', 'history': '"hist ory"',
             'matches': '"Matches\'"', 'queue': '"Queue."', 'live': '"live Games"'}


class World:
    def __init__(self, kind):
        self.kind = kind
        self.schema = 'pg_temp' if kind == 'temp' else f'w_{kind}'
        self.rels = {}      # logical name -> regclass text (qualified, quoted)
        self.cols = STD_COLS
        self.tables = []    # regclass texts of every table whose rows are compared


def lit(s):
    return "'" + s.replace("'", "''") + "'"


class Fuzzer:
    def __init__(self, a):
        self.a = a
        self.rng = random.Random(a.seed)
        self.counts = collections.Counter()
        self.errors = collections.Counter()
        self.failures = []
        self.known = collections.Counter()
        self.skipped = collections.Counter()
        self.procs_called = collections.Counter()
        self.restarts = 0
        self.log = open(a.log, 'w') if a.log else None

    # ---- connections -----------------------------------------------------
    def connect_admin(self, dbname='postgres'):
        return psycopg.connect(dbname=dbname, autocommit=True)

    def setup(self):
        a = self.a
        with self.connect_admin() as c:
            c.execute(f'DROP DATABASE IF EXISTS {a.dbname} WITH (FORCE)')
            c.execute(f'CREATE DATABASE {a.dbname}')
            if not c.execute("SELECT 1 FROM pg_roles WHERE rolname = 'fuzz_owner'").fetchone():
                c.execute("CREATE ROLE fuzz_owner NOLOGIN")
        self.admin = self.connect_admin(a.dbname)
        ad = self.admin
        ad.execute("CREATE EXTENSION glicko2")
        # an unlogged table is emptied by crash recovery: a restart leaves it empty
        ad.execute("CREATE UNLOGGED TABLE fuzz_alive (x int); INSERT INTO fuzz_alive VALUES (1)")
        ad.execute(f"GRANT CREATE ON DATABASE {a.dbname} TO fuzz_owner")
        ad.execute("GRANT CREATE ON SCHEMA public TO fuzz_owner")
        self.have_fdw = bool(ad.execute(
            "SELECT count(*) = 2 FROM pg_available_extensions WHERE name IN ('postgres_fdw', 'file_fdw')"
        ).fetchone()[0])
        if self.have_fdw:
            ad.execute("CREATE EXTENSION postgres_fdw")
            ad.execute("CREATE EXTENSION file_fdw")
            # postgres_fdw connects back as fuzz_owner: it must be able to log in
            ad.execute("ALTER ROLE fuzz_owner LOGIN")
        self.procs = self.read_procs()
        self.worlds = {}
        kinds = [k for k in WORLD_KINDS if k != 'foreign' or self.have_fdw]
        if not self.have_fdw:
            print('calls: postgres_fdw/file_fdw not available: foreign tables skipped')
        for k in kinds:
            self.worlds[k] = World(k)
        self.build_worlds(initial=True)

    def read_procs(self):
        rows = self.admin.execute("""
          SELECT p.oid, quote_ident(n.nspname) || '.' || quote_ident(p.proname), p.prokind, p.proretset, p.provariadic <> 0,
                 coalesce(p.proargnames, '{}'), p.pronargs, p.pronargdefaults,
                 ARRAY(SELECT format_type(t, NULL) FROM unnest(p.proargtypes::oid[]) t),
                 format_type(p.prorettype, NULL),
                 coalesce(p.proargmodes::text[], '{}'),
                 pg_get_function_identity_arguments(p.oid)
          FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
          JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
          JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'glicko2'
          ORDER BY p.proname, p.oid""").fetchall()
        procs = []
        for (oid, name, kind, retset, variadic, argnames, nargs, ndef, types, rettype, modes, ident) in rows:
            innames = [n for n, m in zip(argnames, modes or ['i'] * len(argnames)) if m in ('i', 'b', 'v')] \
                if modes else list(argnames)
            innames += [''] * (nargs - len(innames))
            qname, name = name, name.split('.')[-1].strip('"')
            procs.append(dict(oid=oid, name=name, qname=qname, kind=kind, retset=retset, variadic=variadic,
                              argnames=innames[:nargs], nargs=nargs, ndef=ndef, types=types,
                              rettype=rettype, ident=ident,
                              outcols=[n for n, m in zip(argnames, modes) if m in ('o', 't')]))
        return procs

    def world_setup_sql(self, w):
        body, su, cols = world_sql(w.kind, w.schema)
        return body, su, cols

    def build_worlds(self, initial=False, only=None):
        """(Re)create the worlds (all, or only those named) as they were at the start."""
        ad = self.admin
        for k, w in self.worlds.items():
            if only is not None and k not in only:
                continue
            body, su, cols = self.world_setup_sql(w)
            w.cols = cols
            if w.kind == 'temp':
                continue        # made in the fuzzing session (temporary tables are per session)
            ad.execute(f"DROP SCHEMA IF EXISTS {w.schema}, {w.schema}_back CASCADE")
            ad.execute(f"DELETE FROM glicko2_closes WHERE ratings::text LIKE '{w.schema}.%'")
            for srv in ('loop', 'file'):
                ad.execute(f"DROP SERVER IF EXISTS {w.schema}_{srv} CASCADE")
            ad.execute(f"CREATE SCHEMA {w.schema} AUTHORIZATION fuzz_owner")
            if su:
                path = f"/tmp/{self.a.dbname}-games.csv"
                with open(path, 'w') as f:
                    f.write('1,1,2,1,true\n1,2,3,0.5,\n2,3,1,0,false\n')
                os.chmod(path, 0o644)
                info = self.admin.info
                ad.execute(su % dict(host=lit(info.host), port=lit(str(info.port)), db=lit(self.a.dbname),
                                     file=lit(path)))
            with ad.transaction():
                ad.execute("SET LOCAL ROLE fuzz_owner")
                ad.execute("SET LOCAL search_path = public")
                ad.execute(body)
            self.register(ad, w)

    def register(self, conn, w):
        names = ODD_NAMES if w.kind == 'odd' else LOGICAL
        w.rels = {}
        for logical, rel in names.items():
            r = conn.execute(f"SELECT to_regclass({lit(w.schema + '.' + rel)})::oid").fetchone()[0]
            if r is not None:
                w.rels[logical] = conn.execute(
                    "SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname) FROM pg_class c "
                    "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = %s", (r,)).fetchone()[0]
        # every table of the world (partitions and children too), and the backing tables
        w.tables = [row[0] for row in conn.execute(
            "SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname IN (%s, %s) AND c.relkind IN ('r', 'm') ORDER BY 1",
            (w.schema if w.kind != 'temp' else conn.execute("SELECT nspname FROM pg_namespace WHERE oid = pg_my_temp_schema()").fetchone()[0],
             w.schema + '_back')).fetchall()]

    def session(self):
        """The fuzzing session: a superuser connection that runs each call as fuzz_owner."""
        self.conn = psycopg.connect(dbname=self.a.dbname, autocommit=True)
        self.conn.execute(f"SET statement_timeout = {self.a.timeout}")
        self.conn.execute("SET search_path = public")
        self.conn.execute("SET client_min_messages = warning")
        self.backend = self.conn.info.backend_pid
        w = self.worlds['temp']
        body, _, _ = world_sql('temp', 'pg_temp')
        with self.conn.transaction():
            self.conn.execute("SET LOCAL ROLE fuzz_owner")
            self.conn.execute(body)
        self.register(self.conn, w)

    # ---- values -------------------------------------------------------------
    def rel_value(self, w, logical, good):
        rng = self.rng
        if good and logical in w.rels:
            return lit(w.rels[logical]) + '::regclass'
        other = rng.choice(list(self.worlds.values()))
        choices = ["NULL::regclass", "0::regclass", "'pg_class'::regclass", "'glicko2_closes'::regclass",
                   "'glicko2_rating'::regclass", "4294967295::oid::regclass", "'pg_toast.pg_toast_1255'::regclass",
                   "'pg_am'::regclass", "'pg_stat_activity'::regclass"]
        choices += [lit(r) + '::regclass' for r in other.rels.values()]
        choices += [lit(t) + '::regclass' for t in other.tables]
        return rng.choice(choices)

    def value(self, typ, argname, w, proc, plan):
        """A literal of type typ for argument argname: usually what the world
        makes good, else something bad of that type."""
        rng = self.rng
        good = rng.random() < self.a.good
        cols = w.cols
        if typ == 'regclass':
            logical = {'ratings': 'ratings', 'games': 'games', 'source': 'games', 'matches': 'matches',
                       'queue': 'queue', 'history': 'history', 'rel': rng.choice(['ratings', 'games']),
                       'relation': 'games'}.get(argname, 'ratings')
            if proc['name'] == 'glicko2_close_matches' and argname == 'matches':
                logical = 'matches'
            if argname == 'history' and rng.random() < 0.5 and good:
                return 'NULL::regclass'
            return self.rel_value(w, logical, good)
        if typ == 'name':
            if good and argname in cols:
                if argname == 'home_column' and proc['name'] != 'glicko2_fit_advantage':
                    return rng.choice(['NULL::name', lit(cols[argname])])
                return lit(cols[argname])
            if good and argname == 'col':
                return lit(rng.choice(list(cols.values())))
            return rng.choice(NAMES + [lit(v) for v in cols.values()]) + '::name'
        if typ == 'double precision':
            goods = {'tau': ['0.5', '0.3', '1.2'], 'max_rd': ['350', 'NULL'], 'rd': ['350', '30'],
                     'volatility': ['0.06'], 'advantage': ['0', '50'], 'max_gap': ['100', '400'],
                     'widen': ['5', '0'], 'periods': ['1', '0.5', '3'], 'c': ['34.6', '63.2'],
                     'deviations': ['2', '1.96'], 'confidence': ['0.95', '0.5'], 'score': ['0', '0.5', '1'],
                     'elapsed_periods': ['0', '1'], 'rating': ['1500', '1200'],
                     'party_advantage': ['0', '40'], 'size_advantage': ['0', '25']}
            if good and argname in goods:
                return rng.choice(goods[argname]) + '::float8'
            return rng.choice(FLOATS) + '::float8'
        if typ == 'integer':
            if good and argname in ('teams', 'team_size'):
                return rng.choice(['2', '3', '1'])
            return rng.choice(INTS) + '::int'
        if typ == 'bigint':
            if argname == 'handle' and plan.get('handle') and good:
                return 'h.handle'
            if argname in ('close_number', 'n_games') and good:
                return rng.choice(['0', '1', 'NULL::bigint'])
            return rng.choice(BIGINTS) + '::bigint'
        if typ == 'text':
            if good:
                g = self.text_good(argname, w, proc)
                if g is not None:
                    return g
            return rng.choice(TEXTS) + '::text'
        if typ == 'boolean':
            return rng.choice(BOOLS)
        if typ == 'glicko2_rating':
            return rating_good(rng) if good else rating_bad(rng)
        if typ == 'glicko1_rating':
            return g1_value(rng)
        if typ == 'glicko2_scaled':
            return scaled_value(rng)
        if typ in POOLS:
            pool, cast = POOLS[typ]
            return rng.choice(pool) + '::' + cast
        if typ == 'oid':
            if good and w.rels.get('games'):
                return (f"coalesce((SELECT t.oid FROM pg_trigger t WHERE t.tgrelid = {lit(w.rels['games'])}::regclass "
                        "ORDER BY t.oid LIMIT 1), 0)")
            return rng.choice(['0', '1', '4294967295', "'pg_class'::regclass::oid", 'NULL::oid',
                               "(SELECT min(oid) FROM pg_trigger)"])
        if typ == 'oid[]':              # the tables of a teammates store's rows (glicko2_teammates_write)
            return rng.choice(['NULL::oid[]', "'{}'::oid[]", 'ARRAY[0]::oid[]', 'ARRAY[NULL]::oid[]',
                               "ARRAY['pg_class'::regclass::oid]"])
        if typ == 'tid[]':              # ... and their TIDs
            return rng.choice(['NULL::tid[]', "'{}'::tid[]", "ARRAY['(0,1)']::tid[]", 'ARRAY[NULL]::tid[]',
                               "ARRAY['(4294967295,65535)', '(0,1)']::tid[]"])
        if typ == 'anyelement':
            if good and proc['name'] in ('glicko2_pair_typed', 'glicko2_lobbies_typed'):   # the ids' type
                return 'NULL::text' if w.kind in ('textkey', 'wrong') else rng.choice(['NULL::bigint', 'NULL::int'])
            if argname == 'player':
                return rng.choice(['1::bigint', '3::bigint', "'1'::text", 'NULL::bigint', '1', '-1::bigint',
                                   "'x'::text", '1.5::numeric'])
            return rng.choice(['1', '2', '3'] if good else PERIODS)
        if typ in ('anyarray', 'anycompatiblearray', 'bigint[]', 'integer[]', 'double precision[]',
                   'glicko2_rating[]', 'text[]', 'float8range[]'):
            return self.array_value(typ, argname, plan, good)
        if typ == '"any"':  # party labels (parties, parties_a, parties_b): an array of any type
            if rng.random() < 0.3:
                return 'NULL'
            if not good and rng.random() < 0.3:
                return rng.choice(["'{a}'::text", "1", "ARRAY['{}'::json]", "ARRAY[ARRAY[1, 2], ARRAY[1, 2]]"])
            return self.array_value(rng.choice(['integer[]', 'text[]', 'bigint[]']), argname, plan, good)
        if typ == 'float8range':
            return rng.choice(["NULL::float8range", "'empty'::float8range", "'[1,2]'::float8range",
                               "'(,)'::float8range", "'[-Infinity,Infinity]'::float8range",
                               "'[NaN,NaN]'::float8range"])
        if typ == 'glicko2_closes':     # a close's record (replay and recompute close again from one)
            r = w.rels.get('ratings')
            if good and r:
                return (f"(SELECT c FROM glicko2_closes c WHERE c.ratings = {lit(r)}::regclass "
                        "ORDER BY c.close_number DESC LIMIT 1)")
            return rng.choice(['NULL::glicko2_closes',
                               '(SELECT c FROM glicko2_closes c ORDER BY c.close_number LIMIT 1)',
                               "jsonb_populate_record(NULL::glicko2_closes, '{\"ratings\": \"pg_class\", "
                               "\"period\": \"1\", \"tau\": 0.5, \"method\": \"sum\", \"match_column\": \"nope\"}')"])
        if typ == 'name[]':             # a matches close's columns, as glicko2_close_apply records them
            return rng.choice(['NULL::name[]', "'{}'::name[]", 'ARRAY[NULL]::name[]',
                               "ARRAY['match_id', 'player_id', 'team', 'place', NULL, NULL]::name[]"])
        if typ == 'pg_ddl_command':
            # (only pg_event_trigger_ddl_commands() makes one; the type has no input)
            return 'NULL::pg_ddl_command'
        if typ == 'regprocedure':
            return rng.choice(["'glicko2_refuse_closed_games()'::regprocedure", "'pg_catalog.now()'::regprocedure",
                               'NULL::regprocedure', "'glicko2_rate_matches()'::regprocedure"])
        raise KeyError(f'no generator for type {typ} (argument {argname} of {proc["name"]})')

    def text_good(self, argname, w, proc):
        rng = self.rng
        r, g = w.rels.get('ratings'), w.rels.get('games')
        c = {k: '"' + v.replace('"', '""') + '"' for k, v in w.cols.items()}
        if argname == 'method':
            return rng.choice(["'individual'", "'composite'"])
        if argname in ('through', 'period_text'):
            return rng.choice(["'1'", "'2'", "'3'"])
        if argname == 'ratings_query' and r:
            return lit(f"SELECT r.{c['player_column']}, r.{c['rating_column']} FROM {r} r")
        if argname == 'games_query' and g:
            return lit(f"SELECT g.{c['game_player_column']}, g.{c['opponent_column']}, g.{c['score_column']} "
                       f"FROM {g} g WHERE g.{c['period_column']} = CAST($1 AS int)")
        if argname == 'games_sql' and g:
            return lit(f"SELECT g.{c['game_player_column']}, g.{c['opponent_column']}, g.{c['score_column']} "
                       f"FROM {g} g WHERE g.{c['period_column']} = CAST($1 AS int)")
        if argname in ('what', 'procedure_name', 'argument', 'source_argument'):
            return "'fuzz'"
        return None

    def array_value(self, typ, argname, plan, good):
        rng = self.rng
        n = plan.setdefault('n', rng.randint(2, 10))
        huge = self.a.huge
        if typ == 'glicko2_rating[]':
            elem = lambda: rating_good(rng) if rng.random() < 0.9 else rating_bad(rng)  # noqa: E731
            base = 'glicko2_rating'
        elif typ == 'integer[]':
            elem = lambda: rng.choice(['1', '2', '3', '1', '2', '0', '-1', '2147483647'])  # noqa: E731
            base = 'int'
        elif typ == 'bigint[]':
            elem = lambda: rng.choice(['1', '2', '1', '3', '0', '-1', '9223372036854775807'])  # noqa: E731
            base = 'bigint'
        elif typ == 'double precision[]':
            elem = lambda: rng.choice(['0.5', '0.2', '1.2', '0', '40'] + FLOATS)  # noqa: E731
            base = 'float8'
        elif typ == 'text[]':
            elem = lambda: rng.choice(TEXTS[1:])  # noqa: E731
            base = 'text'
        elif typ == 'float8range[]':
            elem = lambda: "'[1,2]'::float8range"  # noqa: E731
            base = 'float8range'
        else:  # polymorphic: players, teams
            base = rng.choice(['bigint', 'int', 'text']) if argname == 'players' else rng.choice(['int', 'text', 'bigint'])
            if base == 'text':
                elem = lambda: rng.choice(["'a'", "'b'", "'c'", "'a'"])  # noqa: E731
            else:
                elem = lambda: rng.choice(['1', '2', '3', '4', '1'])  # noqa: E731
        if good and rng.random() < 0.6:
            v, h = f"ARRAY[{', '.join(elem() for _ in range(n))}]::{base}[]", None
        else:
            v, h = array_of(rng, elem, base, huge, n if rng.random() < 0.7 else None)
        if h:
            plan['huge'] = True
        return v

    # ---- plans ----------------------------------------------------------------
    def plan_call(self, proc):
        rng = self.rng
        w = self.worlds[rng.choice(list(self.worlds))]
        plan = dict(proc=proc['name'], world=w.kind, op='call', ident=proc['ident'])
        nargs = proc['nargs']
        # trailing defaulted arguments: sometimes left out
        keep = nargs
        if proc['ndef'] and rng.random() < 0.4:
            keep = nargs - rng.randint(0, proc['ndef'])
        vals = []
        for i in range(keep):
            v = self.value(proc['types'][i], proc['argnames'][i], w, proc, plan)
            if proc['variadic'] and i == nargs - 1:
                v = 'VARIADIC ' + v
            vals.append(v)
        args = ', '.join(vals)
        name = proc['qname']
        pre = ''
        if 'handle' in proc['argnames'] and 'h.handle' in args:
            r, g = w.rels.get('ratings'), w.rels.get('games')
            plan['handle'] = True
            pre = (f"WITH h AS MATERIALIZED (SELECT k.handle FROM glicko2_close_compute("
                   f"{self.text_good('ratings_query', w, proc) or 'NULL'}, "
                   f"{self.text_good('games_query', w, proc) or 'NULL'}, 0.5, 350, 'fuzz', '1') k) ")
            del r, g
        if proc['kind'] == 'p':
            sql = f"CALL {name}({args})"
        elif proc['kind'] == 'a':
            sql = self.aggregate_sql(proc, w, plan)
        elif proc['rettype'] == 'record' and not proc['outcols']:
            coldef = self.coldef(name, w)
            sql = f"{pre}SELECT count(*) FROM {'h, ' if pre else ''}{name}({args}) AS x({coldef})"
        elif proc['retset'] or proc['rettype'] == 'record':
            sql = f"{pre}SELECT count(*) FROM {'h, ' if pre else ''}{name}({args}) x"
        else:
            sql = f"{pre}SELECT {name}({args}){' FROM h' if pre else ''}"
        plan['sql'] = sql
        plan['w'] = w
        return plan

    def coldef(self, name, w):
        rng = self.rng
        key = 'text' if w.kind in ('textkey', 'wrong') else 'bigint'
        good = {'glicko2_close_ratings': f'player {key}, rating glicko2_rating, games bigint, is_new boolean',
                'glicko2_close_ratings_capped':
                    f'player {key}, rating glicko2_rating, games bigint, is_new boolean, capped boolean',
                'glicko2_close_new_players': f'player {key}, rating glicko2_rating'}.get(name.split('.')[-1], 'x int')
        return rng.choice([good, good, good, 'x int', f'player {key}', 'a text, b text, c text, d text',
                           'player int, rating float8, games int, is_new int',
                           f'player {key}, rating glicko2_rating, games bigint, is_new boolean, extra int'])

    def aggregate_sql(self, proc, w, plan):
        rng = self.rng
        rows = []
        n = rng.choice([0, 1, 2, 3, 5, 8])
        player = self.value(proc['types'][0], 'player', w, proc, plan)
        for _ in range(n):
            vals = [player if rng.random() < 0.9 else self.value(proc['types'][0], 'player', w, proc, plan)]
            for i in range(1, proc['nargs']):
                vals.append(self.value(proc['types'][i], proc['argnames'][i], w, proc, plan))
            rows.append('(' + ', '.join(['1'] + vals) + ')')
        cols = ', '.join(f'a{i}' for i in range(proc['nargs']))
        typed = ', '.join(f'a{i}::{t}' for i, t in enumerate(proc['types']))
        call = f"{proc['qname']}({typed})"
        if rng.random() < 0.1:
            # a period of many games (SPEC: 10 000), generated in the server
            plan['huge'] = True
            src = (f"(SELECT i % 3 AS g, {player} AS a0, "
                   + ', '.join(f"{self.value(proc['types'][i], proc['argnames'][i], w, proc, plan)} AS a{i}"
                               for i in range(1, proc['nargs']))
                   + f" FROM generate_series(1, {self.a.huge * 10}) i) v")
            return f"SELECT {call} FROM {src} GROUP BY g"
        if not rows:
            src = f"(SELECT 1, {', '.join('NULL' for _ in range(proc['nargs']))} WHERE false) v(g, {cols})"
            return f"SELECT {call} FROM {src}"
        src = f"(VALUES {', '.join(rows)}) v(g, {cols})"
        form = rng.choice(['plain', 'group', 'window', 'moving', 'filter', 'order'])
        if form == 'group':
            return f"SELECT {call} FROM {src} GROUP BY g"
        if form == 'window':
            return f"SELECT {call} OVER (ORDER BY a0::text) FROM {src}"
        if form == 'moving':
            return f"SELECT {call} OVER (ORDER BY a0::text ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM {src}"
        if form == 'filter':
            return f"SELECT {call} FILTER (WHERE random() < 2) FROM {src}"
        if form == 'order':
            return f"SELECT {proc['qname']}({typed} ORDER BY a1::text) FROM {src}"
        return f"SELECT {call} FROM {src}"

    def plan_live(self):
        """Rows into a live games table: the rating trigger (glicko2_rate_games), its
        options fuzzed by a trigger of our own now and then."""
        rng = self.rng
        w = self.worlds[rng.choice(list(self.worlds))]
        plan = dict(proc='glicko2_rate_games', world=w.kind, op='live', w=w)
        live = w.rels.get('live')
        if not live:
            return None
        pre = []
        if rng.random() < 0.3:
            opts = [rng.choice(["'ratings'", "'nonexistent'", "''", "'games'", "'queue'", "'Rat \"ings\"'",
                                "'pg_class'", "'w_plain.ratings'"])]
            for _ in range(rng.randint(0, 3)):
                opts.append(lit(rng.choice(['tau=NaN', 'tau=-1', 'tau=', 'tau=0.5', 'tau=1e308', 'period=-1 day',
                                            'period=0', 'period=x', 'period=1 microsecond', 'max_rd=none',
                                            'max_rd=0', 'max_rd=NaN', 'player_column=x', 'foo=bar', '=', 'tau',
                                            'rating_column=rated_at', 'rated_at_column=rating',
                                            'score_column=player_id', 'played_at_column=score',
                                            'played_at_column=nonexistent', 'game_player_column=score',
                                            'period=178000000 years', 'tau=1e-308'])))
            timing = rng.choice(['AFTER INSERT', 'AFTER INSERT', 'BEFORE INSERT', 'AFTER UPDATE OR DELETE',
                                 'AFTER INSERT OR UPDATE'])
            each = rng.choice(['ROW', 'ROW', 'STATEMENT'])
            pre.append(f"DROP TRIGGER IF EXISTS rate_games ON {live}")
            pre.append(f"CREATE TRIGGER rate_games {timing} ON {live} FOR EACH {each} "
                       f"EXECUTE FUNCTION glicko2_rate_games({', '.join(opts)})")
            plan['custom_trigger'] = True
        key = 'text' if w.kind in ('textkey', 'wrong') else 'bigint'
        rows = []
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            p = rng.choice(['1', '2', '3', '5', '11', '12', '20', 'NULL', '-1', '0', '9223372036854775807', '8', '100', '106'])
            o = rng.choice(['2', '3', '4', '7', '8', '100', '1', 'NULL', '13', '107'])
            sc = rng.choice(['1', '0', '0.5', '1', '0', "'NaN'", '2', '-1', 'NULL', "'Infinity'", '0.25'])
            at = rng.choice(["'2026-03-01 10:00+00'", "'2026-03-01 10:00+00'", 'NULL', "'infinity'",
                             "'-infinity'", "'2025-01-01'", "'294276-12-31 00:00+00'"])
            rows.append((p, o, sc, at))
        c = {k: '"' + v.replace('"', '""') + '"' for k, v in w.cols.items()}
        if w.kind == 'wrong':
            cols = 'player_id, opponent_id, score'
            vals = ', '.join(f"({p}, {o}, {sc}::text)" for p, o, sc, _ in rows)
        elif w.kind == 'nocols':
            cols, vals = 'v', '(1)'
        else:
            cols = f"{c['game_player_column']}, {c['opponent_column']}, {c['score_column']}, played_at"
            vals = ', '.join(f"(({p})::{key}, ({o})::{key}, {sc}::float8, {at}::timestamptz)" for p, o, sc, at in rows)
        plan['pre'] = pre
        plan['rows'] = rows
        plan['sql'] = f"INSERT INTO {live} ({cols}) VALUES {vals}"
        return plan

    def plan_guard(self):
        """Writes to a games table under the guard trigger (glicko2_refuse_closed_games),
        its arguments fuzzed by a trigger of our own now and then; DDL around it."""
        rng = self.rng
        w = self.worlds[rng.choice(['guarded', 'guarded', 'plain', 'part', 'odd', 'view', 'inherit'])]
        g = w.rels.get('games')
        plan = dict(proc='glicko2_refuse_closed_games', world=w.kind, op='guard', w=w)
        if not g:
            return None
        pre = []
        if rng.random() < 0.4:
            args = [lit(rng.choice(['ratings', 'nonexistent', '', 'period_column=x', 'period_column=period',
                                    'period_column=', 'period_column=score', 'games', 'pg_class', 'queue',
                                    'history', 'period_column=player_id']))
                    for _ in range(rng.randint(0, 2))]
            timing = rng.choice(['BEFORE INSERT OR UPDATE OR DELETE', 'AFTER INSERT', 'BEFORE TRUNCATE',
                                 'BEFORE INSERT'])
            each = 'STATEMENT' if 'TRUNCATE' in timing else rng.choice(['ROW', 'ROW', 'STATEMENT'])
            pre.append(f"CREATE TRIGGER fuzz_guard {timing} ON {g} FOR EACH {each} "
                       f"EXECUTE FUNCTION glicko2_refuse_closed_games({', '.join(args)})")
            plan['custom_trigger'] = True
        ddl = rng.choice([None, None, None, 'drop-ratings', 'rename-ratings', 'drop-history', 'alter-period',
                          'drop-period', 'rename-games', 'drop-player-col'])
        if ddl and w.rels.get('ratings'):
            r = w.rels['ratings']
            ddl_sql = {'drop-ratings': f"DROP TABLE {r} CASCADE",
                       'rename-ratings': f"ALTER TABLE {r} RENAME TO ratings_renamed",
                       'drop-history': f"DROP TABLE IF EXISTS {w.rels.get('history', r)} CASCADE",
                       'alter-period': f"ALTER TABLE {g} ALTER COLUMN period TYPE text",
                       'drop-period': f"ALTER TABLE {g} DROP COLUMN period CASCADE",
                       'rename-games': f"ALTER TABLE {g} RENAME TO games_renamed",
                       'drop-player-col': f"ALTER TABLE {r} DROP COLUMN player_id CASCADE"}[ddl]
            pre.append(ddl_sql)
            plan['ddl'] = ddl
            if ddl == 'rename-games':
                g = f"{w.schema}.games_renamed"
        c = {k: '"' + v.replace('"', '""') + '"' for k, v in w.cols.items()}
        per = rng.choice(['1', '2', '5', 'NULL', '0', '-2147483648'])
        stmt = rng.choice(['insert', 'update', 'delete', 'truncate', 'copy'])
        pc = c['period_column'] if not ddl or 'period' not in ddl else 'period'
        if stmt == 'insert':
            sql = (f"INSERT INTO {g} ({pc}, {c['game_player_column']}, {c['opponent_column']}, {c['score_column']}) "
                   f"VALUES ({per}, 1, 2, 1)")
        elif stmt == 'update':
            sql = f"UPDATE {g} SET {c['score_column']} = 0.5 WHERE {pc} = {rng.choice(['1', '2', '3'])}"
        elif stmt == 'delete':
            sql = f"DELETE FROM {g} WHERE {pc} = {rng.choice(['1', '2', '3'])}"
        elif stmt == 'truncate':
            sql = f"TRUNCATE {g}"
        else:
            # (a many-row write, as COPY would do; COPY FROM needs a file or a superuser)
            sql = (f"INSERT INTO {g} ({pc}, {c['game_player_column']}, {c['opponent_column']}, {c['score_column']}) "
                   f"SELECT {per}, 1, 2, 1 FROM generate_series(1, 3)")
        plan['pre'] = pre
        plan['sql'] = sql
        return plan

    def plan_trigger(self):
        """Any trigger function of the extension (from the catalog) attached with
        fuzzed arguments, timing and level to a table of a world, then fired by
        rows copied from that table, an UPDATE or a DELETE."""
        rng = self.rng
        triggers = [p for p in self.procs if p['rettype'] == 'trigger']
        proc = rng.choice(triggers)
        w = self.worlds[rng.choice(list(self.worlds))]
        logical = rng.choice([k for k in ('matches', 'live', 'games', 'ratings', 'queue') if k in w.rels])
        rel = w.rels[logical]
        args = [rng.choice(["'ratings'", "'nonexistent'", "''", "'games'", "'matches'", "'pg_class'",
                            lit(ODD_NAMES['ratings'])])]
        for _ in range(rng.randint(0, 3)):
            args.append(lit(rng.choice(['method=sum', 'method=mean', 'method=individual', 'method=composite',
                                        'method=x', 'method=', 'tau=NaN', 'tau=-1', 'tau=0.5', 'tau=1e308',
                                        'max_rd=none', 'max_rd=0', 'period=1 day', 'period=-1 day',
                                        'period=0', 'period_column=period', 'period_column=x', 'player_column=x',
                                        'match_column=team', 'team_column=place', 'place_column=player_id',
                                        'weight_column=score', 'played_at_column=x', 'foo=bar', '='])))
        level = rng.choice(['ROW', 'STATEMENT', 'STATEMENT'])
        timing = rng.choice(['AFTER INSERT', 'AFTER INSERT', 'BEFORE INSERT', 'AFTER UPDATE', 'AFTER DELETE'])
        ref = ''
        if level == 'STATEMENT' and timing.startswith('AFTER') and rng.random() < 0.8:
            ref = ' REFERENCING ' + {'INSERT': 'NEW TABLE AS n', 'UPDATE': 'OLD TABLE AS o NEW TABLE AS n',
                                     'DELETE': 'OLD TABLE AS o'}[timing.split()[1]]
        pre = [f"CREATE TRIGGER fuzz_any {timing} ON {rel}{ref} FOR EACH {level} "
               f"EXECUTE FUNCTION {proc['qname']}({', '.join(args)})"]
        verb = timing.split()[1]
        if verb == 'INSERT':
            sql = f"INSERT INTO {rel} SELECT * FROM {rel} LIMIT {rng.choice([1, 2, 8])}"
        elif verb == 'UPDATE':
            sql = f"UPDATE {rel} SET {self.some_col(w, logical)}"
        else:
            sql = f"DELETE FROM {rel}"
        return dict(proc=proc['name'], world=w.kind, op='trigger', w=w, pre=pre, sql=sql, custom_trigger=True)

    def some_col(self, w, logical):
        """col = col for a column of that table (an UPDATE that changes nothing)."""
        if w.kind == 'nocols':
            col = {'matches': 'z', 'live': 'v', 'games': 'x', 'ratings': 'id', 'queue': 'w'}[logical]
        elif w.kind == 'wrong':
            col = 'player_id'
        else:
            col = {'matches': w.cols['match_column'], 'live': w.cols['opponent_column'],
                   'games': w.cols['score_column'], 'ratings': w.cols['rating_column'],
                   'queue': w.cols['rating_column']}[logical]
        q = '"' + col.replace('"', '""') + '"'
        return f"{q} = {q}"

    def plan_partition(self):
        """A partition created in / attached to a guarded partitioned games table
        (the event trigger glicko2_guard_new_partitions)."""
        rng = self.rng
        w = self.worlds['part']
        g = w.rels.get('games')
        pre = [f"CALL glicko2_guard_games({lit(g)})"]
        if rng.random() < 0.5:
            pre.append(f"CALL glicko2_close_period({lit(w.rels['ratings'])}, {lit(g)}, 1)")
        per = rng.choice(['1', '2', '9'])
        sql = rng.choice([
            f"CREATE TABLE {w.schema}.games_x PARTITION OF {g} FOR VALUES IN (42)",
            f"DO $$ BEGIN ALTER TABLE {g} DETACH PARTITION {w.schema}.games_d; "
            f"CREATE TABLE {w.schema}.games_y (LIKE {g}); INSERT INTO {w.schema}.games_y VALUES ({per}, 1, 2, 1, true); "
            f"ALTER TABLE {g} ATTACH PARTITION {w.schema}.games_y FOR VALUES IN ({per}); END $$",
            f"CREATE TABLE {w.schema}.games_z PARTITION OF {g} FOR VALUES IN (77) PARTITION BY LIST (player_id)",
        ])
        return dict(proc='glicko2_guard_new_partitions', world=w.kind, op='ddl', w=w, pre=pre, sql=sql)

    # ---- the state a call may write -----------------------------------------
    def read(self, sql, params=None):
        """Rows of a query inside the running transaction, or None if it fails
        (a table the call dropped), without undoing the call."""
        c = self.conn
        c.execute("SAVEPOINT r")
        try:
            rows = c.execute(sql, params).fetchall()
            c.execute("RELEASE SAVEPOINT r")
            return rows
        except psycopg.Error:
            c.execute("ROLLBACK TO SAVEPOINT r")
            return None

    def snapshot(self, w):
        """Per table: key -> (tableoid, ctid, row text), read as the superuser
        (row level security does not hide rows from it)."""
        snap = {}
        for t in w.tables + ['public.glicko2_closes']:
            rows = self.read(f"SELECT x.tableoid::regclass::text || ':' || x.ctid::text, x::text FROM ONLY {t} x")
            snap[t] = None if rows is None else dict(rows)
        return snap

    # ---- running -----------------------------------------------------------
    def run_one(self, plan):
        """Runs one plan in a transaction of its own, rolled back at the end;
        returns None or a failure dict."""
        c = self.conn
        w = plan['w']
        sql = plan['sql']
        result = None
        fail = None
        t0 = time.monotonic()
        try:
            c.execute("BEGIN")
            c.execute("SAVEPOINT snap")
            before = self.snapshot(w)
            before_keys = self.keys(w)
            c.execute("SET LOCAL ROLE fuzz_owner")
            c.execute("SAVEPOINT call")
            try:
                for p in plan.get('pre', []):
                    c.execute(p)
                cur = c.execute(sql)
                result = cur.fetchall() if cur.description else []
                self.counts['results'] += 1
                plan['ok'] = True
            except psycopg.Error as e:
                if c.broken or c.closed:
                    raise
                st = e.sqlstate or '?????'
                msg = (e.diag.message_primary or str(e)).splitlines()[0] if e.diag else str(e)
                if st == '57014':       # query_canceled: statement_timeout
                    fail = dict(kind='timeout', sqlstate=st, message=msg)
                elif st.startswith('XX'):
                    fail = dict(kind='xx000', sqlstate=st, message=msg)
                else:
                    self.errors[st] += 1
                    plan['error'] = (st, msg)
                c.execute("ROLLBACK TO SAVEPOINT call")
            c.execute("RESET ROLE")
            took = time.monotonic() - t0
            if took > self.a.timeout / 1000.0 + 1 and (fail is None or fail['kind'] == 'timeout'):
                # the cancel came late: a loop that does not check for interrupts
                fail = dict(kind='timeout', sqlstate='-', message=f'{took:.1f} s, cancel late')
            elif fail and fail['kind'] == 'timeout' and plan.get('huge'):
                # work in proportion to a huge input, cancelled in time: not a failure
                self.counts['cancelled in time (huge input)'] += 1
                fail = None
            if fail is None:
                fail = self.check(plan, w, before, before_keys, result)
            c.execute("ROLLBACK")
        except psycopg.Error as e:
            if not (c.broken or c.closed):
                raise
            fail = dict(kind='crash', sqlstate='-', message=str(e).splitlines()[0] if str(e) else 'connection lost')
            self.recover()
        if fail:
            fail.update(proc=plan['proc'], world=plan['world'], op=plan['op'], sql=sql,
                        pre=plan.get('pre', []))
        return fail

    def keys(self, w):
        """Key columns of the ratings and queue tables: player -> ctid (for the checks)."""
        out = {}
        c = {k: '"' + v.replace('"', '""') + '"' for k, v in w.cols.items()}
        for logical in ('ratings', 'queue'):
            rel = w.rels.get(logical)
            if not rel or w.kind in ('wrong', 'nocols'):
                continue
            rows = self.read(
                f"SELECT x.{c['player_column']}::text, x.tableoid::text || x.ctid::text, x.{c['rating_column']}::text, "
                f"{'x.rated_at::text' if logical == 'ratings' else 'NULL'} FROM {rel} x")
            if rows is not None:
                out[logical] = {r[0]: r[1:] for r in rows}
        return out

    def check(self, plan, w, before, before_keys, result):
        """After the call (as the superuser, still inside its transaction)."""
        c = self.conn
        after = self.snapshot(w)
        if not plan.get('ok'):
            # an error: nothing written (the call's savepoint rolled back; this
            # also catches writes that escape it)
            for t in before:
                if before[t] != after[t]:
                    return dict(kind='partial', sqlstate='-', message=f'{t} changed by a call that failed')
            return None
        proc = plan['proc']
        after_keys = self.keys(w)
        if proc in ('glicko2_close_period', 'glicko2_close_matches', 'glicko2_replay', 'glicko2_replay_matches',
                    'glicko2_recompute') \
                and 'ratings' in after_keys and plan['op'] == 'call':
            rat = after_keys['ratings']
            old = before_keys.get('ratings', {})
            rel = w.rels['ratings']
            # the ratings table the call closed (it may be another world's)
            m = re.search(r"\(\s*'([^']*(?:''[^']*)*)'::regclass", plan['sql'])
            if not m or m.group(1).replace("''", "'") != rel:
                return None
            rec = c.execute("SELECT players, period FROM glicko2_closes WHERE ratings = %s::regclass "
                            "ORDER BY close_number DESC LIMIT 1", (rel,)).fetchone()
            stale = [k for k, v in rat.items() if k in old and old[k][0] == v[0]]
            if rec is None and not rat:
                return None     # (a replay of games without periods: emptied, nothing to close)
            if rec is None:
                return dict(kind='partial', sqlstate='-', message=f'{proc} succeeded but recorded no close of {rel}')
            if stale or rec[0] != len(rat):
                return dict(kind='partial', sqlstate='-',
                            message=f'{proc} recorded {rec[0]} players of {len(rat)}, left {len(stale)} rows unwritten '
                                    f'(e.g. {sorted(stale)[:3]})')
        if proc in ('glicko2_pair', 'glicko2_lobbies', 'glicko2_pair_typed', 'glicko2_lobbies_typed') \
                and 'queue' in before_keys and plan['op'] == 'call':
            rel = w.rels['queue']
            m = re.search(r"\(\s*'([^']*(?:''[^']*)*)'::regclass", plan['sql'])
            if m and m.group(1).replace("''", "'") == rel:
                gone = set(before_keys['queue']) - set(after_keys.get('queue', {}))
                n = result[0][0] if result else 0
                per_row = 2 if proc.startswith('glicko2_pair') else 1
                if len(gone) != n * per_row:
                    return dict(kind='partial', sqlstate='-',
                                message=f'{proc} returned {n} rows but deleted {len(gone)} queue rows')
        if plan['op'] == 'live' and not plan.get('custom_trigger') and 'ratings' in after_keys:
            return self.check_live(plan, w, before_keys['ratings'], after_keys['ratings'])
        return None

    def check_live(self, plan, w, old, new):
        """A one-game insert through the world's own trigger (default options):
        the two players' rows are exactly glicko2_game of their grown pre-game
        ratings, and no other row changed."""
        if len(plan['rows']) != 1:
            return None
        p, o, sc, at = plan['rows'][0]
        changed = {k for k in new if k not in old or old[k] != new[k]}
        if not changed <= {p, o}:
            return dict(kind='partial', sqlstate='-', message=f'live game {p}-{o} changed rows {sorted(changed)}')
        c = self.conn
        pre = lambda k: old.get(k, (None, None, None))  # noqa: E731
        row = c.execute(
            "SELECT glicko2_game(glicko2_rating_at(%s::glicko2_rating, %s::timestamptz, %s::timestamptz), "
            "glicko2_rating_at(%s::glicko2_rating, %s::timestamptz, %s::timestamptz), %s::float8)::text, "
            "glicko2_game(glicko2_rating_at(%s::glicko2_rating, %s::timestamptz, %s::timestamptz), "
            "glicko2_rating_at(%s::glicko2_rating, %s::timestamptz, %s::timestamptz), 1 - %s::float8)::text",
            (pre(p)[1], pre(p)[2], at.strip("'"), pre(o)[1], pre(o)[2], at.strip("'"), sc.strip("'"),
             pre(o)[1], pre(o)[2], at.strip("'"), pre(p)[1], pre(p)[2], at.strip("'"), sc.strip("'"))).fetchone()
        got = (new.get(p, (None, None))[1], new.get(o, (None, None))[1])
        if got != row:
            return dict(kind='partial', sqlstate='-',
                        message=f'live game {p}-{o} score {sc}: wrote {got}, expected {row}')
        return None

    def recover(self):
        """After a lost connection: wait for the server, count a restart, rebuild."""
        self.counts['crashes'] += 1
        try:
            self.admin.close()
        except psycopg.Error:
            pass
        for _ in range(120):      # (a connection made while the server restarts may be cut too)
            try:
                time.sleep(1)
                c = self.connect_admin(self.a.dbname)
                alive = c.execute("SELECT count(*) FROM fuzz_alive").fetchone()[0]
                break
            except psycopg.OperationalError:
                continue
        self.admin = c
        if not alive:
            self.restarts += 1
            c.execute("INSERT INTO fuzz_alive VALUES (1)")
        self.build_worlds()
        self.session()

    # ---- main loop ---------------------------------------------------------
    def next_plan(self):
        rng = self.rng
        r = rng.random()
        if r < 0.12:
            return self.plan_live()
        if r < 0.20:
            return self.plan_guard()
        if r < 0.22:
            return self.plan_partition()
        if r < 0.27:
            return self.plan_trigger()
        callable_procs = [p for p in self.procs if 'internal' not in p['types']
                          and p['rettype'] not in ('trigger', 'event_trigger')]
        return self.plan_call(rng.choice(callable_procs))

    def run(self):
        a = self.a
        self.setup()
        self.session()
        # coverage: every function, aggregate and procedure is reached somehow
        uncovered = []
        for p in self.procs:
            how = ('call' if 'internal' not in p['types'] and p['rettype'] not in ('trigger', 'event_trigger')
                   else 'aggregate support' if 'internal' in p['types']
                   else 'trigger')
            if how == 'aggregate support':
                owners = self.admin.execute(
                    "SELECT count(*) FROM pg_aggregate WHERE %s IN (aggtransfn, aggfinalfn, aggcombinefn, "
                    "aggserialfn, aggdeserialfn)", (p['oid'],)).fetchone()[0]
                if not owners:
                    uncovered.append(p['ident'])
        if uncovered:
            print('calls: functions with internal arguments that no aggregate uses:', uncovered)
        t_end = time.monotonic() + a.seconds if a.seconds else None
        # one pass over every callable function first, then random ones
        order = [p for p in self.procs if 'internal' not in p['types']
                 and p['rettype'] not in ('trigger', 'event_trigger')]
        i = 0
        while i < a.calls and (t_end is None or time.monotonic() < t_end):
            if i < len(order) * 3:
                plan = self.plan_call(order[i % len(order)])
            else:
                plan = self.next_plan()
            if plan is None:
                continue
            i += 1
            skip = [k for k, (_, _, s) in KNOWN.items() if not a.strict and s(plan)]
            if skip:
                self.skipped[skip[0]] += 1
                continue
            self.counts['calls'] += 1
            self.procs_called[plan['proc']] += 1
            if plan.get('ddl') or plan['op'] == 'ddl':
                for p in self.procs:        # DDL fires the event triggers
                    if p['rettype'] == 'event_trigger':
                        self.procs_called[p['name']] += 1
            fail = self.run_one(plan)
            if self.log:
                self.log.write(f"{plan['world']}\t{plan['sql'][:2000]}\t"
                               f"{fail['kind'] if fail else plan.get('error', ('ok',))[0]}\t"
                               f"{fail['message'] if fail else plan.get('error', ('', ''))[1]}\n")
            if fail:
                known = [k for k, (_, pred, _) in KNOWN.items() if pred(fail)]
                if known and not a.strict:
                    self.known[known[0]] += 1
                    self.counts[fail['kind'] + ' (known)'] += 1
                else:
                    if fail['kind'] != 'crash':
                        self.counts[fail['kind']] += 1
                    self.failures.append(fail)
        self.run_layout()
        self.report()
        return 1 if self.failures else 0

    # ---- table layout and bulk live inserts, two sessions -----------------------
    def layout_session(self):
        c = psycopg.connect(dbname=self.a.dbname, autocommit=True)
        c.execute(f"SET statement_timeout = {self.a.timeout}")
        c.execute("SET lock_timeout = 2000")
        c.execute("SET client_min_messages = warning")
        c.execute("SET ROLE fuzz_owner")
        return c

    def layout_exec(self, conn, sql, counts):
        """One statement of a layout round; its outcome counted; a failure
        (XX, crash, out of shared memory) recorded."""
        try:
            conn.execute(sql)
            counts['ok'] += 1
        except psycopg.Error as e:
            if conn.broken or conn.closed:
                self.failures.append(dict(kind='crash', sqlstate='-', proc='layout', world='layout',
                                          message='connection lost', sql=sql, pre=[]))
                self.counts['crashes'] += 1
                return
            st = e.sqlstate or '?????'
            msg = (e.diag.message_primary or str(e)).splitlines()[0] if e.diag else str(e)
            if st.startswith('XX') or st == '53200':
                self.counts['xx000' if st.startswith('XX') else 'out of shared memory'] += 1
                self.failures.append(dict(kind='xx000' if st.startswith('XX') else 'lock table', sqlstate=st,
                                          proc='layout', world='layout', message=msg, sql=sql, pre=[]))
            else:
                self.errors[st] += 1
                self.layout_errors[st] += 1
                if os.environ.get("FUZZ_LAYOUT_DEBUG"):
                    print("layout:", st, msg, "|", sql[:200])
            if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                conn.execute("ROLLBACK")

    def layout_round(self, i, a_conn, b_conn):
        """A guarded games table (partitioned, or an inheritance parent), period 1
        closed; then a random sequence of DETACH/ATTACH PARTITION (plain,
        DEFAULT, CONCURRENTLY, a sub-partitioned table), NO INHERIT/INHERIT,
        writes of any period into the tables attached or not, and closes, by two
        sessions, now and then one inside a transaction while the other's
        statement runs at once.  Afterwards no closed period may hold more games
        (read through the games table) than its close read: a game more is a
        late game never rated."""
        rng = self.rng
        s = f"lay{i}"
        inherit = rng.random() < 0.4
        ad = self.admin
        ad.execute(f"DROP SCHEMA IF EXISTS {s} CASCADE")
        ad.execute(f"CREATE SCHEMA {s} AUTHORIZATION fuzz_owner")
        part = '' if inherit else ' PARTITION BY RANGE (player_id)'
        setup = [f"CREATE TABLE {s}.r (player_id bigint PRIMARY KEY, rating glicko2_rating)",
                 f"CREATE TABLE {s}.g (period int, player_id bigint, opponent_id bigint, score float8){part}"]
        tables = ['t0', 't1', 't2', 't3']
        bound = {t: f"FROM ({100 * k}) TO ({100 * k + 100})" for k, t in enumerate(tables)}
        for k, t in enumerate(tables):
            if inherit:
                setup.append(f"CREATE TABLE {s}.{t} () INHERITS ({s}.g)")
            elif t == 't3':
                # (sub-partitioned: a late game can hide one level down)
                setup.append(f"CREATE TABLE {s}.{t} PARTITION OF {s}.g FOR VALUES {bound[t]} PARTITION BY LIST (period)")
                setup.append(f"CREATE TABLE {s}.{t}_any PARTITION OF {s}.{t} DEFAULT")
            else:
                setup.append(f"CREATE TABLE {s}.{t} PARTITION OF {s}.g FOR VALUES {bound[t]}")
        setup.append(f"INSERT INTO {s}.g SELECT 1 + j % 2, 100 * (j % 4) + j % 50, 1 + j % 7, (j % 3) / 2.0 "
                     f"FROM generate_series(1, 40) j")
        setup.append(f"CALL glicko2_guard_games('{s}.g')")
        setup.append(f"CALL glicko2_close_period('{s}.r', '{s}.g', 1)")
        with ad.transaction():
            ad.execute("SET LOCAL ROLE fuzz_owner")
            for q in setup:
                ad.execute(q)
        state = {'closed': 1, 'away': set()}
        counts = collections.Counter()

        def op():
            t = rng.choice(tables)
            kind = rng.choice(['away', 'back', 'write', 'write', 'write-parent', 'close', 'update', 'bulk'])
            if state['away'] and rng.random() < 0.5:
                # (what found the late game: a table away takes a game, then comes back)
                t = rng.choice(sorted(state['away']))
                kind = rng.choice(['write', 'bulk', 'update', 'back', 'back'])
            k = tables.index(t)
            if kind == 'back':
                state['away'].discard(t)
            if kind == 'away':
                state['away'].add(t)
                if inherit:
                    return f"ALTER TABLE {s}.{t} NO INHERIT {s}.g"
                return f"ALTER TABLE {s}.g DETACH PARTITION {s}.{t}" + (' CONCURRENTLY' if rng.random() < 0.3 else '')
            if kind == 'back':
                if inherit:
                    return f"ALTER TABLE {s}.{t} INHERIT {s}.g"
                return f"ALTER TABLE {s}.g ATTACH PARTITION {s}.{t} " + \
                    (f"FOR VALUES {bound[t]}" if rng.random() < 0.8 else 'DEFAULT')
            per = rng.randint(0, state['closed'] + 2)
            if kind == 'write':
                return f"INSERT INTO {s}.{t} VALUES ({per}, {100 * k + rng.randint(0, 99)}, {rng.randint(1, 9)}, 1)"
            if kind == 'write-parent':
                return f"INSERT INTO {s}.g VALUES ({per}, {rng.randint(0, 399)}, {rng.randint(1, 9)}, 0)"
            if kind == 'update':
                return f"UPDATE {s}.{t} SET period = {per} WHERE player_id % 7 = {rng.randint(0, 6)}"
            if kind == 'bulk':
                return (f"INSERT INTO {s}.{t} SELECT {per}, {100 * k} + j % 100, 1 + j % 9, 1 "
                        f"FROM generate_series(1, {rng.choice([10, 1000, 20000])}) j")
            state['closed'] += 1
            return f"CALL glicko2_close_period('{s}.r', '{s}.g', {state['closed']})"

        for _ in range(rng.randint(4, 14)):
            if rng.random() < 0.3:
                # one session's transaction, the other's statement meanwhile
                first, second = (a_conn, b_conn) if rng.random() < 0.5 else (b_conn, a_conn)
                q1, q2, q3 = op(), op(), op()
                if 'CONCURRENTLY' in q1 or 'CONCURRENTLY' in q3:
                    continue        # (not inside a transaction block)
                first.execute("BEGIN")
                self.layout_exec(first, q1, counts)
                th = threading.Thread(target=self.layout_exec, args=(second, q2, counts))
                th.start()
                th.join(0.05)
                self.layout_exec(first, q3, counts)
                if first.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                    first.execute("COMMIT" if rng.random() < 0.8 else "ROLLBACK")
                th.join()
            else:
                self.layout_exec(rng.choice([a_conn, b_conn]), op(), counts)
        # (a DETACH ... CONCURRENTLY cut short leaves a partition pending: finish it)
        for t in tables:
            if not inherit:
                try:
                    ad.execute(f"ALTER TABLE {s}.g DETACH PARTITION {s}.{t} FINALIZE")
                except psycopg.Error:
                    pass
        late = ad.execute(
            f"SELECT c.period, c.games, (SELECT count(*) FROM {s}.g x WHERE x.period = c.period::int) "
            f"FROM glicko2_closes c WHERE c.ratings = '{s}.r'::regclass ORDER BY c.close_number").fetchall()
        self.counts['layout statements'] += sum(counts.values())
        for period, read, now in late:
            if now > read:
                self.counts['late games'] += 1
                self.failures.append(dict(kind='late', sqlstate='-', proc='glicko2_guard_new_partitions',
                                          world='inherit' if inherit else 'part',
                                          message=f'{s}: period {period} closed with {read} games, '
                                                  f'now {now} (a late game never rated)',
                                          sql='', pre=[]))
        ad.execute(f"DELETE FROM glicko2_closes WHERE ratings = '{s}.r'::regclass")
        ad.execute(f"DROP SCHEMA {s} CASCADE")

    def bulk_round(self, i, a_conn, b_conn):
        """Bulk live inserts: one statement (or a transaction of several) of
        1 000 to 50 000 matches into a table with glicko2_rate_matches, while the
        other session writes matches of its own, some with the same match ids;
        afterwards every player's rated_at is the time of his last match written,
        and no statement ran out of shared memory."""
        rng = self.rng
        s = f"bulk{i}"
        ad = self.admin
        ad.execute(f"DROP SCHEMA IF EXISTS {s} CASCADE")
        ad.execute(f"CREATE SCHEMA {s} AUTHORIZATION fuzz_owner")
        with ad.transaction():
            ad.execute("SET LOCAL ROLE fuzz_owner")
            ad.execute(f"CREATE TABLE {s}.r (player_id bigint PRIMARY KEY, rating glicko2_rating, rated_at timestamptz)")
            ad.execute(f"CREATE TABLE {s}.m (match_id bigint, player_id bigint, team int, place int, "
                       f"played_at timestamptz NOT NULL DEFAULT statement_timestamp())")
            ad.execute(f"CREATE INDEX ON {s}.m (match_id)")
            ad.execute(f"CREATE TRIGGER rate AFTER INSERT ON {s}.m REFERENCING NEW TABLE AS n "
                       f"FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('{s}.r')")
        counts = collections.Counter()

        def matches(lo, n, players):
            size = rng.choice([2, 2, 3, 4])
            return (f"INSERT INTO {s}.m (match_id, player_id, team, place) "
                    f"SELECT m, 1 + (m * {size} + k) % {players}, k + 1, k + 1 "
                    f"FROM generate_series({lo}, {lo + n - 1}) m, generate_series(0, {size - 1}) k")

        n = rng.choice([1000, 5000, 20000, 50000])
        bulk = [matches(1, n, rng.choice([50, 400, 5000]))]
        if rng.random() < 0.3:
            bulk.append(matches(n + 1, rng.choice([10, 3000]), 400))
        small = matches(rng.choice([7, n + 100000]), rng.choice([1, 3]), 400)
        a_conn.execute("BEGIN")
        for q in bulk:
            self.layout_exec(a_conn, q, counts)
        th = threading.Thread(target=self.layout_exec, args=(b_conn, small, counts))
        th.start()
        th.join(0.05)
        if a_conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
            a_conn.execute("COMMIT")
        th.join()
        self.counts['bulk statements'] += sum(counts.values())
        bad = ad.execute(
            f"SELECT count(*) FROM (SELECT player_id, max(played_at) AS last FROM {s}.m GROUP BY 1) x "
            f"LEFT JOIN {s}.r r USING (player_id) WHERE r.rated_at IS DISTINCT FROM x.last "
            f"OR r.rating IS NULL").fetchone()[0]
        self.counts['bulk matches'] += ad.execute(f"SELECT count(DISTINCT match_id) FROM {s}.m").fetchone()[0]
        if bad:
            self.failures.append(dict(kind='partial', sqlstate='-', proc='glicko2_rate_matches', world='bulk',
                                      message=f'{s}: {bad} players whose last match is not their rating',
                                      sql=bulk[0], pre=[]))
            self.counts['partial'] += 1
        ad.execute(f"DROP SCHEMA {s} CASCADE")

    def run_layout(self):
        a = self.a
        if not (a.layout or a.bulk):
            return
        self.layout_errors = collections.Counter()
        a_conn, b_conn = self.layout_session(), self.layout_session()
        for i in range(a.layout):
            self.layout_round(i, a_conn, b_conn)
        for i in range(a.bulk):
            self.bulk_round(i, a_conn, b_conn)
        a_conn.close()
        b_conn.close()
        print(f"calls: layout rounds {a.layout} ({self.counts['layout statements']} statements), late games "
              f"{self.counts['late games']}; bulk rounds {a.bulk} ({self.counts['bulk matches']} matches rated in "
              f"{self.counts['bulk statements']} statements), out of shared memory "
              f"{self.counts['out of shared memory']}; their clean errors: " +
              ', '.join(f'{k} {v}' for k, v in sorted(self.layout_errors.items(), key=lambda x: -x[1])))

    def report(self):
        a = self.a
        c = self.counts
        clean = sum(self.errors.values())
        print(f"calls: seed {a.seed}, {c['calls']} calls over {len(self.procs_called)} functions and triggers "
              f"of {len(self.procs)} in the extension, {len(self.worlds)} worlds")
        print(f"calls: results {c['results']}, clean errors {clean}, crashes {c['crashes']} "
              f"(server restarts {self.restarts}), XX000 {c['xx000']}, over the time limit {c['timeout']}, "
              f"partial writes {c['partial']}; huge inputs cancelled in time "
              f"{c['cancelled in time (huge input)']}")
        print("calls: clean errors by SQLSTATE: " +
              ', '.join(f'{k} {v}' for k, v in sorted(self.errors.items(), key=lambda x: -x[1])))
        for k, v in sorted(self.known.items()):
            print(f"calls: known defect {k}: {v} ({KNOWN[k][0]})")
        for k, v in sorted(self.skipped.items()):
            print(f"calls: not run while known defect {k} stands: {v}")
        never = sorted({p['name'] for p in self.procs} - set(self.procs_called)
                       - {p['name'] for p in self.procs if 'internal' in p['types']})
        if never:
            print('calls: never reached: ' + ', '.join(never))
        seen = set()
        for f in self.failures:
            sig = (f['kind'], f['proc'], f['world'], re.sub(r'\d+', 'N', f['message'])[:80])
            if sig in seen and not a.verbose:
                continue
            seen.add(sig)
            print(f"FAIL {f['kind']} {f['sqlstate']} {f['proc']} [{f['world']}]: {f['message']}")
            for p in f['pre']:
                print(f"     pre: {p[:400]}")
            print(f"     sql: {f['sql'][:1500]}")
        print(f"calls: {'FAILED' if self.failures else 'ok'} ({len(self.failures)} failures)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--calls', type=int, default=int(os.environ.get('FUZZ_CALLS', 1500)))
    ap.add_argument('--seed', type=int, default=int(os.environ.get('FUZZ_SEED', 1)))
    ap.add_argument('--seconds', type=float, default=float(os.environ.get('FUZZ_SECONDS', 0)),
                    help='stop after this many seconds (0: run all --calls)')
    ap.add_argument('--timeout', type=int, default=5000, help='statement_timeout per call, ms')
    ap.add_argument('--huge', type=int, default=int(os.environ.get('FUZZ_HUGE', 300)),
                    help='elements of a huge array (aggregates: 10x rows)')
    ap.add_argument('--good', type=float, default=0.75, help='chance of a well-formed argument')
    ap.add_argument('--dbname', default='glicko2_fuzz')
    ap.add_argument('--layout', type=int, default=int(os.environ.get('FUZZ_LAYOUT', 0)),
                    help='rounds of DETACH/ATTACH, NO INHERIT/INHERIT, writes and closes by two sessions')
    ap.add_argument('--bulk', type=int, default=int(os.environ.get('FUZZ_BULK', 0)),
                    help='rounds of bulk live match inserts (1 000 to 50 000 matches in one statement)')
    ap.add_argument('--strict', action='store_true', help='known defects fail the run too')
    ap.add_argument('--log', help='write every call and its outcome to this file')
    ap.add_argument('--verbose', action='store_true')
    a = ap.parse_args()
    if a.seconds and 'FUZZ_CALLS' not in os.environ and '--calls' not in sys.argv:
        a.calls = 10 ** 9
    sys.exit(Fuzzer(a).run())


if __name__ == '__main__':
    main()
