-- Matchmaking calls: every plausible positional and named call of
-- glicko2_pair, glicko2_lobbies and their _typed forms either means what it
-- says or is an error.  Each call below is written beside what it should
-- mean (the ids' type and every argument's value); its outcome (the ids'
-- type, the pairs or lobbies made) must be that of the call written out in
-- full, every argument in its declared place, or else the row says MEANS ...
-- NOT ...  A call that should fail has no meaning and shows its error.  The
-- queues are laid out so that the readings a call could be mistaken for
-- (max_gap for widen, ids' type for max_gap, teams for team_size, the key
-- columns) give other outcomes: the last block shows it.
CREATE TABLE q (player_id bigint PRIMARY KEY, rating glicko2_rating NOT NULL, queued_at timestamptz NOT NULL,
                who int NOT NULL, r glicko2_rating NOT NULL, since timestamptz NOT NULL);
-- Six clusters of two, rating gaps 40, 90, 140, 190, 240, 400 inside, 500
-- or more between: a tolerance of max_gap + 10 widen (everyone has waited
-- 10 s) pairs the clusters whose gap it reaches.  By who and r: gaps of 3.
INSERT INTO q
SELECT id, glicko2_rating(lo + CASE WHEN id % 2 = 0 THEN gap ELSE 0 END, 60), now(),
       100 + id, glicko2_rating(1500 + 3 * id, 60), now()
FROM (VALUES (1, 1000, 40), (2, 1600, 90), (3, 2300, 140), (4, 3000, 190), (5, 3700, 240), (6, 4500, 400))
       AS c(k, lo, gap),
     LATERAL (VALUES (2 * k - 1), (2 * k)) AS i(id);
-- Lobbies: ratings 1000 1005 1015 1030 1050 1075 (ids 1-6) and 2000 2010
-- 2030 2060 2100 2150 (ids 7-12): the best four of each cluster and the
-- six of each have one spread each (30, 60; 75, 150).
CREATE TABLE ql (LIKE q);
ALTER TABLE ql ADD PRIMARY KEY (player_id);
INSERT INTO ql
SELECT id, glicko2_rating(rating, 60), now(), 200 + id, glicko2_rating(1500 + 7 * id, 60), now()
FROM unnest(ARRAY[1000, 1005, 1015, 1030, 1050, 1075, 2000, 2010, 2030, 2060, 2100, 2150])
       WITH ORDINALITY AS x(rating, id);

-- A call's outcome, the queue untouched after it: the ids' type, then each
-- pair (higher rated first) or each lobby's teams with their p_win.
CREATE FUNCTION outcome(call text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  got text;
BEGIN
  BEGIN
    UPDATE q SET queued_at = now() - interval '10 s', since = now() - interval '20 s';
    UPDATE ql SET queued_at = now() - interval '10 s', since = now() - interval '20 s';
    IF call LIKE 'glicko2_pair%' THEN
      EXECUTE format($f$SELECT min(pg_typeof(player_a)::text) || ': ' ||
                            string_agg(player_a || '-' || player_b, ' ' ORDER BY player_a::text)
                     FROM %s$f$, call) INTO got;
    ELSE
      EXECUTE format($f$SELECT min(t) || ': ' || string_agg(format('%%s.%%s:%%s@%%s', lobby, team, ids, p), ' ' ORDER BY lobby, team)
                     FROM (SELECT lobby, team, min(pg_typeof(player_id)::text) AS t,
                                  string_agg(player_id::text, ',' ORDER BY player_id::text) AS ids,
                                  round(min(p_win)::numeric, 3) AS p
                           FROM %s GROUP BY lobby, team) l$f$, call) INTO got;
    END IF;
    RAISE SQLSTATE 'U0001';     -- undo the call's delete
  EXCEPTION
    WHEN SQLSTATE 'U0001' THEN
      RETURN got;
    WHEN OTHERS THEN
      RETURN 'ERROR ' || SQLSTATE || ': ' || SQLERRM;
  END;
END $$;

-- What a call should mean, written out in full.
CREATE FUNCTION pair_call(ids regtype, max_gap float8, widen float8,
                          player_column name, rating_column name, queued_column name)
  RETURNS text LANGUAGE sql AS $$
  SELECT format('glicko2_pair_typed(%L, NULL::%s, max_gap => %s, widen => %s, player_column => %L, rating_column => %L, queued_column => %L)',
                'q', ids, coalesce(max_gap::text, 'NULL'), widen, player_column, rating_column, queued_column)
$$;
CREATE FUNCTION lobbies_call(ids regtype, team_size int, teams int, max_gap float8, widen float8,
                             player_column name, rating_column name, queued_column name, method text)
  RETURNS text LANGUAGE sql AS $$
  SELECT format('glicko2_lobbies_typed(%L, %s, NULL::%s, teams => %s, max_gap => %s, widen => %s, player_column => %L, rating_column => %L, queued_column => %L, method => %L)',
                'ql', team_size, ids, teams, coalesce(max_gap::text, 'NULL'), widen,
                player_column, rating_column, queued_column, method)
$$;

CREATE TABLE pair_calls (n serial, call text, ids regtype, max_gap float8, widen float8,
                         player_column name, rating_column name, queued_column name);
INSERT INTO pair_calls (call, ids, max_gap, widen, player_column, rating_column, queued_column) VALUES
  -- positional, as SPEC orders them
  ($$glicko2_pair('q')$$,                      'text', 100, 5, 'player_id', 'rating', 'queued_at'),
  ($$glicko2_pair('q', 150)$$,                 'text', 150, 5, 'player_id', 'rating', 'queued_at'),
  ($$glicko2_pair('q', 50, 0)$$,               'text', 50, 0, 'player_id', 'rating', 'queued_at'),
  ($$glicko2_pair('q', 0, 50)$$,               'text', 0, 50, 'player_id', 'rating', 'queued_at'),
  ($$glicko2_pair('q', NULL)$$,                'text', NULL, 5, 'player_id', 'rating', 'queued_at'),
  -- the call that once meant "ids as bigint" is max_gap NULL, ids as text
  ($$glicko2_pair('q', NULL::bigint)$$,        'text', NULL, 5, 'player_id', 'rating', 'queued_at'),
  ($$glicko2_pair('q', 200::bigint)$$,         'text', 200, 5, 'player_id', 'rating', 'queued_at'),
  ($$glicko2_pair('q', 100, 5, 'who', 'r', 'since')$$, 'text', 100, 5, 'who', 'r', 'since'),
  ($$glicko2_pair('q', 100, 5, 'who')$$,       'text', 100, 5, 'who', 'rating', 'queued_at'),
  -- named, in any order
  ($$glicko2_pair(queue => 'q')$$,             'text', 100, 5, 'player_id', 'rating', 'queued_at'),
  ($$glicko2_pair('q', max_gap => 50)$$,       'text', 50, 5, 'player_id', 'rating', 'queued_at'),
  ($$glicko2_pair('q', widen => 0)$$,          'text', 100, 0, 'player_id', 'rating', 'queued_at'),
  ($$glicko2_pair('q', widen => 0, max_gap => 150)$$, 'text', 150, 0, 'player_id', 'rating', 'queued_at'),
  ($$glicko2_pair(widen => 0, queue => 'q', max_gap => 150)$$, 'text', 150, 0, 'player_id', 'rating', 'queued_at'),
  ($$glicko2_pair('q', max_gap => NULL)$$,     'text', NULL, 5, 'player_id', 'rating', 'queued_at'),
  ($$glicko2_pair('q', player_column => 'who')$$, 'text', 100, 5, 'who', 'rating', 'queued_at'),
  ($$glicko2_pair('q', queued_column => 'since', rating_column => 'r', player_column => 'who')$$,
                                               'text', 100, 5, 'who', 'r', 'since'),
  ($$glicko2_pair('q', 0, widen => 50)$$,      'text', 0, 50, 'player_id', 'rating', 'queued_at'),
  -- errors
  ($$glicko2_pair('q', player_type => NULL::bigint)$$, NULL, NULL, NULL, NULL, NULL, NULL),
  ($$glicko2_pair('q', NULL::uuid)$$,          NULL, NULL, NULL, NULL, NULL, NULL),
  ($$glicko2_pair('q', NULL::text)$$,          NULL, NULL, NULL, NULL, NULL, NULL),
  ($$glicko2_pair('q', 'who')$$,               NULL, NULL, NULL, NULL, NULL, NULL),
  ($$glicko2_pair('q', 50, max_gap => 60)$$,   NULL, NULL, NULL, NULL, NULL, NULL),
  ($$glicko2_pair(max_gap => 50, 'q')$$,       NULL, NULL, NULL, NULL, NULL, NULL),
  ($$glicko2_pair('q', NULL, NULL)$$,          NULL, NULL, NULL, NULL, NULL, NULL),
  ($$glicko2_pair(NULL)$$,                     NULL, NULL, NULL, NULL, NULL, NULL),
  ($$glicko2_pair()$$,                         NULL, NULL, NULL, NULL, NULL, NULL),
  -- the typed form: the ids' type a NULL written second, the rest as above
  ($$glicko2_pair_typed('q', NULL::bigint)$$,  'bigint', 100, 5, 'player_id', 'rating', 'queued_at'),
  ($$glicko2_pair_typed('q', NULL::bigint, 50, 0)$$, 'bigint', 50, 0, 'player_id', 'rating', 'queued_at'),
  ($$glicko2_pair_typed('q', NULL::bigint, widen => 0, max_gap => 150)$$, 'bigint', 150, 0, 'player_id', 'rating', 'queued_at'),
  ($$glicko2_pair_typed('q', NULL::text)$$,    'text', 100, 5, 'player_id', 'rating', 'queued_at'),
  ($$glicko2_pair_typed('q', NULL::int, queued_column => 'since', player_column => 'who', rating_column => 'r')$$,
                                               'int', 100, 5, 'who', 'r', 'since'),
  -- errors: the type not the key's, a value, the type named or left out
  ($$glicko2_pair_typed('q', NULL::int)$$,     NULL, NULL, NULL, NULL, NULL, NULL),
  ($$glicko2_pair_typed('q', 50)$$,            NULL, NULL, NULL, NULL, NULL, NULL),
  ($$glicko2_pair_typed('q', 50::bigint)$$,    NULL, NULL, NULL, NULL, NULL, NULL),
  ($$glicko2_pair_typed('q', NULL)$$,          NULL, NULL, NULL, NULL, NULL, NULL),
  ($$glicko2_pair_typed('q')$$,                NULL, NULL, NULL, NULL, NULL, NULL),
  ($$glicko2_pair_typed('q', max_gap => 50)$$, NULL, NULL, NULL, NULL, NULL, NULL),
  ($$glicko2_pair_typed('q', player_type => NULL::bigint)$$, NULL, NULL, NULL, NULL, NULL, NULL),
  ($$glicko2_pair_typed(queue => 'q', NULL::bigint)$$, NULL, NULL, NULL, NULL, NULL, NULL),
  ($$glicko2_pair_typed('q', max_gap => 50, player_type => NULL::bigint)$$, NULL, NULL, NULL, NULL, NULL, NULL);

SELECT call,
       CASE WHEN ids IS NULL OR got = meant THEN got ELSE 'MEANS ' || meant || ' NOT ' || got END AS outcome
FROM pair_calls,
     LATERAL (SELECT outcome(call) AS got,
                     outcome(pair_call(ids, max_gap, widen, player_column, rating_column, queued_column)) AS meant) o
ORDER BY n;

CREATE TABLE lobbies_calls (n serial, call text, ids regtype, team_size int, teams int, max_gap float8, widen float8,
                            player_column name, rating_column name, queued_column name, method text);
INSERT INTO lobbies_calls (call, ids, team_size, teams, max_gap, widen, player_column, rating_column, queued_column, method) VALUES
  -- positional, as SPEC orders them
  ($$glicko2_lobbies('ql', 2)$$,               'text', 2, 2, 200, 5, 'player_id', 'rating', 'queued_at', 'sum'),
  ($$glicko2_lobbies('ql', 2, 3)$$,            'text', 2, 3, 200, 5, 'player_id', 'rating', 'queued_at', 'sum'),
  ($$glicko2_lobbies('ql', 3, 2)$$,            'text', 3, 2, 200, 5, 'player_id', 'rating', 'queued_at', 'sum'),
  ($$glicko2_lobbies('ql', 2, 3, 100, 0)$$,    'text', 2, 3, 100, 0, 'player_id', 'rating', 'queued_at', 'sum'),
  ($$glicko2_lobbies('ql', 2, 3, 0, 25)$$,     'text', 2, 3, 0, 25, 'player_id', 'rating', 'queued_at', 'sum'),
  ($$glicko2_lobbies('ql', 2, 2, NULL, 0, 'who', 'r', 'since', 'mean')$$,
                                               'text', 2, 2, NULL, 0, 'who', 'r', 'since', 'mean'),
  -- named, in any order
  ($$glicko2_lobbies('ql', team_size => 2)$$,  'text', 2, 2, 200, 5, 'player_id', 'rating', 'queued_at', 'sum'),
  ($$glicko2_lobbies(team_size => 3, queue => 'ql')$$, 'text', 3, 2, 200, 5, 'player_id', 'rating', 'queued_at', 'sum'),
  ($$glicko2_lobbies('ql', 2, teams => 3)$$,   'text', 2, 3, 200, 5, 'player_id', 'rating', 'queued_at', 'sum'),
  ($$glicko2_lobbies('ql', 2, method => 'mean')$$, 'text', 2, 2, 200, 5, 'player_id', 'rating', 'queued_at', 'mean'),
  ($$glicko2_lobbies('ql', 2, widen => 0, max_gap => 100, teams => 3)$$,
                                               'text', 2, 3, 100, 0, 'player_id', 'rating', 'queued_at', 'sum'),
  ($$glicko2_lobbies('ql', 1, 3, method => 'composite', max_gap => NULL)$$,
                                               'text', 1, 3, NULL, 5, 'player_id', 'rating', 'queued_at', 'composite'),
  ($$glicko2_lobbies('ql', 2, player_column => 'who')$$, 'text', 2, 2, 200, 5, 'who', 'rating', 'queued_at', 'sum'),
  -- errors
  ($$glicko2_lobbies('ql', 2, NULL::bigint)$$, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  ($$glicko2_lobbies('ql', 2, player_type => NULL::bigint)$$, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  ($$glicko2_lobbies('ql', 2, NULL)$$,         NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  ($$glicko2_lobbies('ql', 2, 3, 'mean')$$,    NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  ($$glicko2_lobbies('ql', 2.5)$$,             NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  ($$glicko2_lobbies('ql')$$,                  NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  ($$glicko2_lobbies('ql', teams => 3)$$,      NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  -- the typed form: the ids' type a NULL written third, the rest as above
  ($$glicko2_lobbies_typed('ql', 2, NULL::bigint)$$, 'bigint', 2, 2, 200, 5, 'player_id', 'rating', 'queued_at', 'sum'),
  ($$glicko2_lobbies_typed('ql', 2, NULL::bigint, 3)$$, 'bigint', 2, 3, 200, 5, 'player_id', 'rating', 'queued_at', 'sum'),
  ($$glicko2_lobbies_typed('ql', 2, NULL::bigint, method => 'mean', teams => 3)$$,
                                               'bigint', 2, 3, 200, 5, 'player_id', 'rating', 'queued_at', 'mean'),
  ($$glicko2_lobbies_typed('ql', 2, NULL::text, 3, 100, 0)$$, 'text', 2, 3, 100, 0, 'player_id', 'rating', 'queued_at', 'sum'),
  ($$glicko2_lobbies_typed('ql', 1, NULL::int, player_column => 'who')$$, 'int', 1, 2, 200, 5, 'who', 'rating', 'queued_at', 'sum'),
  -- errors: a value where the type goes (here teams), the type named, left
  -- out, or after a named argument
  ($$glicko2_lobbies_typed('ql', 2, 3)$$,      NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  ($$glicko2_lobbies_typed('ql', 2, NULL::int)$$, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  ($$glicko2_lobbies_typed('ql', 2, teams => 3)$$, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  ($$glicko2_lobbies_typed('ql', 2, player_type => NULL::bigint)$$, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  ($$glicko2_lobbies_typed('ql', team_size => 2, NULL::bigint)$$, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  ($$glicko2_lobbies_typed('ql', NULL::bigint, 2)$$, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);

SELECT call,
       CASE WHEN ids IS NULL OR got = meant THEN got ELSE 'MEANS ' || meant || ' NOT ' || got END AS outcome
FROM lobbies_calls,
     LATERAL (SELECT outcome(call) AS got,
                     outcome(lobbies_call(ids, team_size, teams, max_gap, widen, player_column,
                                          rating_column, queued_column, method)) AS meant) o
ORDER BY n;

-- The queues tell the readings apart: each pair of meanings a call could be
-- mistaken between gives two outcomes.
SELECT what, outcome(a) <> outcome(b) AS told_apart
FROM (VALUES
  ('max_gap 50 widen 0 / max_gap 0 widen 50', pair_call('text', 50, 0, 'player_id', 'rating', 'queued_at'),
                                              pair_call('text', 0, 50, 'player_id', 'rating', 'queued_at')),
  ('max_gap 150 widen 0 / 0 and 150',         pair_call('text', 150, 0, 'player_id', 'rating', 'queued_at'),
                                              pair_call('text', 0, 150, 'player_id', 'rating', 'queued_at')),
  ('ids as text / as bigint',                 pair_call('text', NULL, 5, 'player_id', 'rating', 'queued_at'),
                                              pair_call('bigint', NULL, 5, 'player_id', 'rating', 'queued_at')),
  ('max_gap NULL / the default',              pair_call('text', NULL, 5, 'player_id', 'rating', 'queued_at'),
                                              pair_call('text', 100, 5, 'player_id', 'rating', 'queued_at')),
  ('player_column who / player_id',           pair_call('text', 100, 5, 'who', 'rating', 'queued_at'),
                                              pair_call('text', 100, 5, 'player_id', 'rating', 'queued_at')),
  ('rating_column r / rating',                pair_call('text', 100, 5, 'who', 'r', 'since'),
                                              pair_call('text', 100, 5, 'who', 'rating', 'since')),
  ('lobbies 2 x 3 / 3 x 2',                   lobbies_call('text', 2, 3, 200, 5, 'player_id', 'rating', 'queued_at', 'sum'),
                                              lobbies_call('text', 3, 2, 200, 5, 'player_id', 'rating', 'queued_at', 'sum')),
  ('lobbies teams 3 / the default 2',         lobbies_call('text', 2, 3, 200, 5, 'player_id', 'rating', 'queued_at', 'sum'),
                                              lobbies_call('text', 2, 2, 200, 5, 'player_id', 'rating', 'queued_at', 'sum')),
  ('lobbies max_gap 100 widen 0 / 0 and 100', lobbies_call('text', 2, 3, 100, 0, 'player_id', 'rating', 'queued_at', 'sum'),
                                              lobbies_call('text', 2, 3, 0, 100, 'player_id', 'rating', 'queued_at', 'sum')),
  ('lobbies method mean / sum',               lobbies_call('text', 2, 2, 200, 5, 'player_id', 'rating', 'queued_at', 'mean'),
                                              lobbies_call('text', 2, 2, 200, 5, 'player_id', 'rating', 'queued_at', 'sum')),
  ('lobbies ids as text / as bigint',         lobbies_call('text', 2, 2, 200, 5, 'player_id', 'rating', 'queued_at', 'sum'),
                                              lobbies_call('bigint', 2, 2, 200, 5, 'player_id', 'rating', 'queued_at', 'sum'))
) AS m(what, a, b);

-- Nothing was taken: every call's delete was undone.
SELECT (SELECT count(*) FROM q) AS in_q, (SELECT count(*) FROM ql) AS in_ql;
