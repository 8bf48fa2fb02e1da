------------------------------------------------------------------------------
-- A period close on Citus's workers (glicko2_close_period and
-- glicko2_close_matches on distributed tables; docs/citus.md, "Close")
------------------------------------------------------------------------------

-- One player's game sides into his period's sums (src/close_sides.c): the
-- terms as the pass computes them, added in double-double, so the sums do
-- not depend on which node or in which order the sides were added.
CREATE FUNCTION glicko2_internal.glicko2_side_sums_transfn(internal, float8, float8, float8, float8, float8)
  RETURNS internal AS 'MODULE_PATHNAME', 'glicko2_side_sums_transfn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_internal.glicko2_side_sums_transfn(internal, float8, float8, float8, float8, float8) IS
  'Transition function of glicko2_side_sums';

CREATE FUNCTION glicko2_internal.glicko2_side_sums_finalfn(internal)
  RETURNS float8[] AS 'MODULE_PATHNAME', 'glicko2_side_sums_finalfn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_internal.glicko2_side_sums_finalfn(internal) IS
  'Final function of glicko2_side_sums: {information, information_low, surprise, surprise_low, games}';

CREATE AGGREGATE glicko2_internal.glicko2_side_sums(
  rating float8, opponent_rating float8, opponent_rd float8, score float8, advantage float8) (
  SFUNC = glicko2_internal.glicko2_side_sums_transfn,
  STYPE = internal,
  SSPACE = 64,
  FINALFUNC = glicko2_internal.glicko2_side_sums_finalfn
);
COMMENT ON AGGREGATE glicko2_internal.glicko2_side_sums(float8, float8, float8, float8, float8) IS
  'Helper of glicko2_close_on_workers: one player''s period sums from his game sides (his pre-period rating, the opponent''s rating and RD, the score, his advantage), as float8[] {information, information_low, surprise, surprise_low, games}; a NULL is an error';

-- The same sums from game sides given as their terms (a team match's sides,
-- computed on the match's shard by glicko2_match_sides).
CREATE FUNCTION glicko2_internal.glicko2_term_sums_transfn(internal, float8, float8)
  RETURNS internal AS 'MODULE_PATHNAME', 'glicko2_term_sums_transfn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_internal.glicko2_term_sums_transfn(internal, float8, float8) IS
  'Transition function of glicko2_term_sums';

CREATE AGGREGATE glicko2_internal.glicko2_term_sums(information float8, surprise float8) (
  SFUNC = glicko2_internal.glicko2_term_sums_transfn,
  STYPE = internal,
  SSPACE = 64,
  FINALFUNC = glicko2_internal.glicko2_side_sums_finalfn
);
COMMENT ON AGGREGATE glicko2_internal.glicko2_term_sums(float8, float8) IS
  'Helper of glicko2_close_matches_on_workers: one player''s period sums from his game sides'' terms (glicko2_match_sides''s information and surprise), as glicko2_side_sums gives them; a NULL is an error';

CREATE FUNCTION glicko2_internal.glicko2_sides_result(
  player anyelement, pre glicko2_rating, sums float8[], tau float8, max_rd float8, caps float8[],
  OUT rating glicko2_rating, OUT capped boolean)
  AS 'MODULE_PATHNAME', 'glicko2_sides_result'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_internal.glicko2_sides_result(anyelement, glicko2_rating, float8[], float8, float8, float8[]) IS
  'Helper of glicko2_close_write_on_workers: a player''s new rating from his pre-period rating (NULL: unrated) and glicko2_side_sums or glicko2_term_sums (NULL: no games), as the pass computes it (caps {min_rating, max_change, max_volatility}), and whether a floor or cap changed it; rating NULL for an unrated player without games';

-- Whether Citus hash-distributes a table by this column: false where Citus
-- is not installed (its catalog is read only where it exists).
CREATE FUNCTION glicko2_internal.glicko2_citus_hash_by(relation regclass, col name)
  RETURNS boolean
  LANGUAGE sql STABLE PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $$
  SELECT glicko2_internal.glicko2_citus_ask(format(
    'SELECT EXISTS (SELECT FROM pg_catalog.pg_dist_partition p WHERE p.logicalrelid OPERATOR(pg_catalog.=) $1'
    ' AND p.partmethod OPERATOR(pg_catalog.=) ''h'' '
    ' AND pg_catalog.column_to_column_name(p.logicalrelid, p.partkey) OPERATOR(pg_catalog.=) %L)', col), relation)
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_citus_hash_by(regclass, name) IS
  'Helper of the closes on the workers: whether Citus hash-distributes the table by this column; false without Citus';

-- Whether a close of ratings from games can run on Citus's workers: both
-- hash-distributed by the player columns, co-located.
CREATE FUNCTION glicko2_internal.glicko2_citus_colocated(
  ratings regclass, player_column name, games regclass, game_player_column name)
  RETURNS boolean
  LANGUAGE sql STABLE PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $$
  SELECT glicko2_internal.glicko2_citus_hash_by(ratings, player_column)
         AND glicko2_internal.glicko2_citus_hash_by(games, game_player_column)
         AND glicko2_internal.glicko2_citus_ask(format(
               'SELECT count(DISTINCT p.colocationid) = 1 FROM pg_catalog.pg_dist_partition p'
               ' WHERE p.logicalrelid OPERATOR(pg_catalog.=) ANY (ARRAY[$1, %s])', games::oid), ratings)
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_citus_colocated(regclass, name, regclass, name) IS
  'Helper of glicko2_close_period: whether Citus distributes ratings by player_column and games by game_player_column, hash-distributed and co-located (the close then runs on the workers); false without Citus';

-- The games of a period checked as the pass checks them, on the workers:
-- the first bad game (its message least, as the pass keeps it) is an error
-- with the pass's message and SQLSTATE, before anything is written.
CREATE FUNCTION glicko2_internal.glicko2_close_games_refuse(
  games regclass, what text, game_sql text, period_text text)
  RETURNS bigint
  LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
  SET search_path = pg_catalog, pg_temp
  SET extra_float_digits = 1
AS $$
DECLARE
  n_games bigint;
  n_bad bigint;
  first_bad text;
BEGIN
  -- game_sql yields (player, opponent, score) of the period ($1).
  EXECUTE format($sql$
    SELECT count(*), count(why), min(why || format(': player %%s, opponent %%s, score %%s',
                                                   coalesce(player::text, 'NULL'), coalesce(opponent::text, 'NULL'),
                                                   coalesce(score::text, 'NULL')))
    FROM (SELECT g.*, CASE WHEN g.player IS NULL OR g.opponent IS NULL THEN 'NULL player'
                           WHEN g.player = g.opponent THEN 'self-play'
                           WHEN g.score IS NULL THEN 'NULL score'
                           WHEN NOT (CAST(g.score AS float8) >= 0 AND CAST(g.score AS float8) <= 1)
                             THEN 'score outside [0, 1]' END AS why
          FROM (%s) g) c
    $sql$, game_sql) INTO n_games, n_bad, first_bad USING period_text;
  IF n_bad > 0 THEN
    RAISE EXCEPTION 'bad game in %: %', what, first_bad
      USING ERRCODE = CASE WHEN first_bad LIKE 'self-play%' THEN '22023'
                           WHEN first_bad LIKE 'score%' THEN '22003'
                           ELSE '23502' END,
            DETAIL = format('%s of the period''s %s games are refused (self-play, a NULL player, a NULL score or a score outside [0, 1]); nothing was changed.',
                            n_bad, n_games);
  END IF;
  RETURN n_games;
END
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_close_games_refuse(regclass, text, text, text) IS
  'Helper of glicko2_close_on_workers: refuses a period with a bad game (self-play, a NULL player, a NULL score, a score outside [0, 1]) with the message of the single-node pass, naming the least one; returns the number of games';

-- The name of a close's work table on Citus (suffix: which one), in the
-- ratings table's schema: glicko2_close_<ratings oid>_<suffix>.  The close
-- creates it, distributed, and drops it before it returns; the locks of
-- glicko2_close_lock keep a second close of the same ratings out meanwhile.
CREATE FUNCTION glicko2_internal.glicko2_close_work_table(ratings regclass, suffix text)
  RETURNS text
  LANGUAGE sql STABLE PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $$
  SELECT format('%I.%I', n.nspname, 'glicko2_close_' || ratings::oid || '_' || suffix)
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = ratings
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_close_work_table(regclass, text) IS
  'Helper of the closes on Citus''s workers: the qualified name of a work table of a close of ratings (glicko2_close_<oid>_<suffix> in the ratings table''s schema)';

-- The end of a close on the workers, shared by glicko2_close_on_workers and
-- glicko2_close_matches_on_workers: every player's outcome on his shard
-- into work table N (player, rating, games, is_new, capped), from sums_sql,
-- a query of (player, sums) (glicko2_side_sums or glicko2_term_sums over
-- work tables co-located with the ratings) and the player's pre-period
-- rating; then co-located statements update the ratings, add the new players
-- and write the history; N is dropped again.  Returns the counts the record
-- needs; every row read written or an ERROR.
CREATE FUNCTION glicko2_internal.glicko2_close_write_on_workers(
  ratings regclass, work_n text, sums_sql text, what text, period_text text,
  tau float8, max_rd float8, caps float8[], history regclass, player_column name, rating_column name,
  OUT n_players bigint, OUT n_played bigint, OUT n_new bigint, OUT n_sides bigint, OUT n_capped bigint)
  LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
  SET search_path = pg_catalog, pg_temp
  SET datestyle = 'ISO, YMD'
  SET intervalstyle = 'postgres'
  SET extra_float_digits = 1
AS $$
DECLARE
  key_type regtype := glicko2_internal.glicko2_column_type(ratings, player_column, 'player_column');
  n_known bigint;
  n_meant_new bigint;
  n_played_known bigint;
  n_updated bigint;
  n_history bigint;
BEGIN
  EXECUTE format('CREATE UNLOGGED TABLE %s (player %s, rating @extschema@.glicko2_rating, games bigint, is_new boolean, capped boolean)',
                 work_n, key_type);
  EXECUTE 'SELECT pg_catalog.create_distributed_table($1, $2, colocate_with => $3)' USING work_n, 'player', ratings::text;
  EXECUTE format($sql$
    INSERT INTO %1$s (player, rating, games, is_new, capped)
    SELECT coalesce(r.%3$I, s.player), res.rating, coalesce(CAST(s.sums[5] AS bigint), 0), r.%3$I IS NULL, res.capped
    FROM %2$s r
    FULL JOIN (%5$s) s ON s.player = r.%3$I
    CROSS JOIN LATERAL glicko2_internal.glicko2_sides_result(coalesce(r.%3$I, s.player), r.%4$I, s.sums, $1, $2, $3) res
    $sql$, work_n, ratings, player_column, rating_column, sums_sql)
    USING tau, max_rd, caps;

  EXECUTE format('SELECT count(*) FILTER (WHERE NOT is_new), count(*) FILTER (WHERE is_new),'
                 ' coalesce(sum(games), 0), count(*) FILTER (WHERE capped),'
                 ' count(*) FILTER (WHERE NOT is_new AND games > 0) FROM %s', work_n)
    INTO n_known, n_meant_new, n_sides, n_capped, n_played_known;
  EXECUTE format('UPDATE %1$s t SET %2$I = n.rating FROM %3$s n WHERE t.%4$I = n.player AND NOT n.is_new',
                 ratings, rating_column, work_n, player_column);
  GET DIAGNOSTICS n_updated = ROW_COUNT;
  EXECUTE format('INSERT INTO %1$s (%2$I, %3$I) SELECT n.player, n.rating FROM %4$s n WHERE n.is_new',
                 ratings, player_column, rating_column, work_n);
  GET DIAGNOSTICS n_new = ROW_COUNT;
  -- Every row the pass read updated, every new player added.
  PERFORM glicko2_internal.glicko2_require_written(ratings, n_updated, n_known, 'update of ' || what),
          glicko2_internal.glicko2_require_written(ratings, n_new, n_meant_new, 'insert of new players of ' || what);
  IF history IS NOT NULL THEN
    EXECUTE format('INSERT INTO %1$s (player_id, period, rating) SELECT n.player, CAST($1 AS %2$s), n.rating FROM %3$s n',
                   history, glicko2_internal.glicko2_column_type(history, 'period', 'history'), work_n)
      USING period_text;
    GET DIAGNOSTICS n_history = ROW_COUNT;
    PERFORM glicko2_internal.glicko2_require_written(history, n_history, n_updated + n_new, 'history of ' || what);
  END IF;
  EXECUTE format('DROP TABLE %s', work_n);
  n_players := n_updated + n_new;
  n_played := n_played_known + n_new;
END
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_close_write_on_workers(regclass, text, text, text, text, float8, float8, float8[], regclass, name, name) IS
  'Helper of the closes on Citus''s workers: every player''s new rating on his shard from a query of his period''s sums (glicko2_side_sums or glicko2_term_sums) and his pre-period rating (glicko2_sides_result), into a work table co-located with the ratings; the ratings updated, new players added, history written, the work table dropped; returns the counts of the record (every row read written or an ERROR)';

-- glicko2_close_period's computation and writes on Citus's workers, for
-- ratings and games distributed by the player and co-located (and history,
-- if given, best co-located too).  In the caller's transaction (Citus
-- commits every node's part with two-phase commit): the pre-period ratings
-- travel worker to worker as float8 columns in two repartitioned
-- INSERT ... SELECT, into work tables co-located with the ratings and
-- dropped again before commit, so that every game side meets both players'
-- pre-period ratings on its player's node; each shard sums its players'
-- sides (glicko2_side_sums), and glicko2_close_write_on_workers computes
-- and writes their new ratings.  The coordinator sends the statements and
-- reads counts; the record of the close is its own.
--   A (opponent, player, player_rating, player_rd, score, advantage):
--     each game, at its opponent's shard, with its player's rating;
--   B (player, rating, opponent_rating, opponent_rd, score, advantage):
--     each game's player side, back at its player's shard, with both ratings;
--   N (glicko2_close_write_on_workers): every player's outcome.
CREATE FUNCTION glicko2_internal.glicko2_close_on_workers(
  ratings regclass, games regclass, period_text text, period_type regtype, close_number bigint,
  tau float8, max_rd float8, history regclass, player_column name, rating_column name,
  period_column name, game_player_column name, opponent_column name, score_column name,
  advantage float8, home_column name, min_rating float8, max_change float8, max_volatility float8)
  RETURNS void
  LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
  SET search_path = pg_catalog, pg_temp
  SET datestyle = 'ISO, YMD'
  SET intervalstyle = 'postgres'
  SET extra_float_digits = 1
AS $$
DECLARE
  key_type regtype := glicko2_internal.glicko2_column_type(ratings, player_column, 'player_column');
  unrated @extschema@.glicko2_rating := glicko2_internal.glicko2_unrated(max_rd);
  what text := format('period %s of %s', period_text, games);
  work_a text := glicko2_internal.glicko2_close_work_table(ratings, 'a');
  work_b text := glicko2_internal.glicko2_close_work_table(ratings, 'b');
  -- The pre-period rating and RD of a ratings row r, the unrated player's
  -- where NULL or absent (float8 literals read back to the same doubles).
  pre_rating text := format('coalesce((r.%I).rating, CAST(%L AS float8))', rating_column, unrated.rating::text);
  pre_rd text := format('coalesce((r.%I).rd, CAST(%L AS float8))', rating_column, unrated.rd::text);
  advantage_sql text := 'CAST(0 AS float8)';
  n_games bigint;
  w record;
BEGIN
  IF home_column IS NOT NULL THEN
    advantage_sql := format('CASE WHEN g.%1$I THEN CAST(%2$L AS float8) WHEN NOT g.%1$I THEN -CAST(%2$L AS float8) ELSE CAST(0 AS float8) END',
                            home_column, advantage::text);
  END IF;
  -- Every game checked before anything is written.
  n_games := glicko2_internal.glicko2_close_games_refuse(games, what, format(
    'SELECT CAST(g.%1$I AS %4$s) AS player, CAST(g.%2$I AS %4$s) AS opponent, g.%3$I AS score FROM %5$s g WHERE g.%6$I = CAST($1 AS %7$s)',
    game_player_column, opponent_column, score_column, key_type, games, period_column, period_type), period_text);

  -- The work tables: unlogged, distributed like the ratings.
  EXECUTE format('CREATE UNLOGGED TABLE %s (opponent %2$s, player %2$s, player_rating float8, player_rd float8, score float8, advantage float8)',
                 work_a, key_type);
  EXECUTE format('CREATE UNLOGGED TABLE %s (player %2$s, rating float8, opponent_rating float8, opponent_rd float8, score float8, advantage float8)',
                 work_b, key_type);
  EXECUTE 'SELECT pg_catalog.create_distributed_table($1, $2, colocate_with => $3)' USING work_a, 'opponent', ratings::text;
  EXECUTE 'SELECT pg_catalog.create_distributed_table($1, $2, colocate_with => $3)' USING work_b, 'player', ratings::text;

  -- Each game to its opponent's shard, with its player's pre-period rating.
  EXECUTE format('INSERT INTO %1$s SELECT g.%2$I, g.%3$I, %4$s, %5$s, CAST(g.%6$I AS float8), %7$s'
                 ' FROM %8$s g LEFT JOIN %9$s r ON r.%10$I = g.%3$I WHERE g.%11$I = CAST($1 AS %12$s)',
                 work_a, opponent_column, game_player_column, pre_rating, pre_rd, score_column, advantage_sql,
                 games, ratings, player_column, period_column, period_type)
    USING period_text;
  -- Its player's side back to the player's shard, with the opponent's rating.
  EXECUTE format('INSERT INTO %1$s SELECT a.player, a.player_rating, %2$s, %3$s, a.score, a.advantage'
                 ' FROM %4$s a LEFT JOIN %5$s r ON r.%6$I = a.opponent',
                 work_b, pre_rating, pre_rd, work_a, ratings, player_column);
  -- Every player's outcome on his shard: the opponent sides of A (the
  -- opponent's rating local) and the player sides of B, summed.
  w := glicko2_internal.glicko2_close_write_on_workers(ratings, glicko2_internal.glicko2_close_work_table(ratings, 'n'),
         format($sql$
           SELECT x.player, glicko2_internal.glicko2_side_sums(x.rating, x.opponent_rating, x.opponent_rd, x.score, x.advantage) AS sums
           FROM (SELECT a.opponent AS player, %4$s AS rating, a.player_rating AS opponent_rating,
                        a.player_rd AS opponent_rd, 1 - a.score AS score, -a.advantage AS advantage
                 FROM %1$s a LEFT JOIN %2$s r ON r.%3$I = a.opponent
                 UNION ALL
                 SELECT b.player, b.rating, b.opponent_rating, b.opponent_rd, b.score, b.advantage FROM %5$s b) x
           GROUP BY x.player
           $sql$, work_a, ratings, player_column, pre_rating, work_b),
         what, period_text, tau, max_rd, ARRAY[min_rating, max_change, max_volatility], history,
         player_column, rating_column);
  IF w.n_sides <> 2 * n_games THEN
    RAISE EXCEPTION 'period % of % not closed: % game sides were summed for % games', period_text, ratings, w.n_sides, n_games
      USING ERRCODE = 'XX000';
  END IF;
  EXECUTE format('DROP TABLE %s, %s', work_a, work_b);

  PERFORM glicko2_internal.glicko2_close_record(ratings, games, period_text, close_number,
            w.n_players, w.n_played, w.n_new, n_games, tau, max_rd,
            advantage, home_column, min_rating, max_change, max_volatility, w.n_capped);
END
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_close_on_workers(regclass, regclass, text, regtype, bigint, float8, float8, regclass, name, name, name, name, name, name, float8, name, float8, float8, float8) IS
  'Helper of glicko2_close_period on ratings and games Citus distributes by the player, co-located: the same close computed and written on the workers (the pre-period ratings moved worker to worker in repartitioned INSERT ... SELECT into work tables dropped before commit), recorded on the coordinator';

-- glicko2_close_matches's computation and writes on Citus's workers, for
-- ratings Citus distributes by the player and matches it distributes by the
-- match (no teammates store).  As glicko2_close_on_workers, in the caller's
-- transaction: each match row goes to its player's shard (a repartitioned
-- INSERT ... SELECT) and comes back to its match's shard with the player's
-- pre-period rating as float8 columns (a second one), so that every match
-- meets its players' ratings on one node; there glicko2_match_sides, the
-- single-node close's reduction, computes each game side's terms, and the
-- terms travel to their player's shard (a third); each shard sums its
-- players' terms (glicko2_term_sums) and glicko2_close_write_on_workers
-- computes and writes their new ratings.  The coordinator sends the
-- statements and reads counts; the record of the close is its own.
--   P (player, match, team, place, weight, party): the period's rows, at
--     the player's shard (co-located with the ratings);
--   M (match, player, team, place, weight, party, rating, rd, volatility):
--     the same rows with the player's rating (NULL: unrated), at the match's
--     shard (co-located with the matches);
--   T (player, information, surprise): every game side's terms, at the
--     player's shard;
--   N (glicko2_close_write_on_workers): every player's outcome.
-- match_columns are glicko2_close_matches's {match, player, team, place,
-- weight, party}; weight_sql reads a row's play share over alias g;
-- n_rows, the period's rows, is checked against what each step moved.
CREATE FUNCTION glicko2_internal.glicko2_close_matches_on_workers(
  ratings regclass, matches regclass, period_text text, period_type regtype, close_number bigint,
  method text, tau float8, max_rd float8, history regclass, player_column name, rating_column name,
  period_column name, match_columns name[], weight_sql text, party_advantage float8, size_advantage float8,
  min_rating float8, max_change float8, max_volatility float8, n_rows bigint)
  RETURNS void
  LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
  SET search_path = pg_catalog, pg_temp
  SET datestyle = 'ISO, YMD'
  SET intervalstyle = 'postgres'
  SET extra_float_digits = 1
AS $$
DECLARE
  key_type regtype := glicko2_internal.glicko2_column_type(ratings, player_column, 'player_column');
  match_type regtype := glicko2_internal.glicko2_column_type(matches, match_columns[1], 'match_column');
  team_type regtype := glicko2_internal.glicko2_column_type(matches, match_columns[3], 'team_column');
  party_type text := 'boolean';
  party_sql text := 'CAST(NULL AS boolean)';
  what text := format('period %s of %s', period_text, matches);
  work_p text := glicko2_internal.glicko2_close_work_table(ratings, 'p');
  work_m text := glicko2_internal.glicko2_close_work_table(ratings, 'm');
  work_t text := glicko2_internal.glicko2_close_work_table(ratings, 't');
  n bigint;
  n_terms bigint;
  w record;
BEGIN
  IF match_columns[6] IS NOT NULL THEN
    party_type := glicko2_internal.glicko2_column_type(matches, match_columns[6], 'party_column');
    party_sql := format('g.%I', match_columns[6]);
  END IF;
  EXECUTE format('CREATE UNLOGGED TABLE %s (player %s, match %s, team %s, place bigint, weight float8, party %s)',
                 work_p, key_type, match_type, team_type, party_type);
  EXECUTE format('CREATE UNLOGGED TABLE %s (match %s, player %s, team %s, place bigint, weight float8, party %s,'
                 ' rating float8, rd float8, volatility float8)',
                 work_m, match_type, key_type, team_type, party_type);
  EXECUTE format('CREATE UNLOGGED TABLE %s (player %s, information float8, surprise float8)', work_t, key_type);
  EXECUTE 'SELECT pg_catalog.create_distributed_table($1, $2, colocate_with => $3)' USING work_p, 'player', ratings::text;
  EXECUTE 'SELECT pg_catalog.create_distributed_table($1, $2, colocate_with => $3)' USING work_m, 'match', matches::text;
  EXECUTE 'SELECT pg_catalog.create_distributed_table($1, $2, colocate_with => $3)' USING work_t, 'player', ratings::text;

  -- Each row to its player's shard.
  EXECUTE format('INSERT INTO %1$s SELECT CAST(g.%2$I AS %3$s), g.%4$I, g.%5$I, CAST(g.%6$I AS bigint), %7$s, %8$s'
                 ' FROM %9$s g WHERE g.%10$I = CAST($1 AS %11$s)',
                 work_p, match_columns[2], key_type, match_columns[1], match_columns[3], match_columns[4],
                 weight_sql, party_sql, matches, period_column, period_type)
    USING period_text;
  GET DIAGNOSTICS n = ROW_COUNT;
  PERFORM glicko2_internal.glicko2_require_written(work_p::regclass, n, n_rows, 'rows of ' || what);
  -- Back to its match's shard with the player's pre-period rating.
  EXECUTE format('INSERT INTO %1$s SELECT p.match, p.player, p.team, p.place, p.weight, p.party,'
                 ' (r.%2$I).rating, (r.%2$I).rd, (r.%2$I).volatility'
                 ' FROM %3$s p LEFT JOIN %4$s r ON r.%5$I = p.player',
                 work_m, rating_column, work_p, ratings, player_column);
  GET DIAGNOSTICS n = ROW_COUNT;
  PERFORM glicko2_internal.glicko2_require_written(work_m::regclass, n, n_rows, 'rows of ' || what);
  -- Each match's game sides as their terms (the single-node close's
  -- reduction, which refuses a bad match), to their player's shard.
  EXECUTE format($sql$
    INSERT INTO %1$s
    SELECT s.player, s.information, s.surprise
    FROM (SELECT array_agg(m.player) AS ps, array_agg(m.team) AS ts, array_agg(m.place) AS pls,
                 array_agg(CASE WHEN m.rating IS NULL AND m.rd IS NULL AND m.volatility IS NULL THEN NULL
                                ELSE CAST(ROW(m.rating, m.rd, m.volatility) AS @extschema@.glicko2_rating) END) AS rs,
                 %3$s AS ws, %4$s AS pts
          FROM %2$s m GROUP BY m.match) x
    CROSS JOIN LATERAL @extschema@.glicko2_match_sides(x.ps, x.ts, x.pls, x.rs, $1, x.ws, $2, x.pts, $3, $4) s
    $sql$, work_t, work_m,
    CASE WHEN match_columns[5] IS NULL THEN 'CAST(NULL AS float8[])' ELSE 'array_agg(m.weight)' END,
    CASE WHEN match_columns[6] IS NULL THEN 'NULL' ELSE 'array_agg(m.party)' END)
    USING method, max_rd, party_advantage, size_advantage;
  GET DIAGNOSTICS n_terms = ROW_COUNT;

  w := glicko2_internal.glicko2_close_write_on_workers(ratings, glicko2_internal.glicko2_close_work_table(ratings, 'n'),
         format('SELECT t.player, glicko2_internal.glicko2_term_sums(t.information, t.surprise) AS sums FROM %s t GROUP BY t.player',
                work_t),
         what, period_text, tau, max_rd, ARRAY[min_rating, max_change, max_volatility], history,
         player_column, rating_column);
  IF w.n_sides <> n_terms THEN
    RAISE EXCEPTION 'period % of % not closed: % game sides were summed of % computed', period_text, ratings, w.n_sides, n_terms
      USING ERRCODE = 'XX000';
  END IF;
  EXECUTE format('DROP TABLE %s, %s, %s', work_p, work_m, work_t);

  PERFORM glicko2_internal.glicko2_close_record(ratings, matches, period_text, close_number,
            w.n_players, w.n_played, w.n_new, n_rows, tau, max_rd, 0, NULL,
            min_rating, max_change, max_volatility, w.n_capped,
            method, match_columns, party_advantage, size_advantage);
END
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_close_matches_on_workers(regclass, regclass, text, regtype, bigint, text, float8, float8, regclass, name, name, name, name[], text, float8, float8, float8, float8, float8, bigint) IS
  'Helper of glicko2_close_matches on ratings Citus distributes by the player and matches it distributes by the match (no teammates store): the same close computed and written on the workers (each match row moved to its player''s shard and back with his pre-period rating, each match''s game sides computed on its shard by glicko2_match_sides, the terms moved to their players'' shards, all in repartitioned INSERT ... SELECT into work tables dropped before commit), recorded on the coordinator';
