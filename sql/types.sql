\echo Use "CREATE EXTENSION glicko2" to load this file. \quit

-- glicko2: Glicko-2 and Glicko-1 ratings (Glickman, "Example of the Glicko-2
-- system", 2022).  Ratings are stored on the public scale (1500 / 350).

-- Helpers the documented functions call and users should not (aggregate
-- support functions, the closes' steps, column checks, event trigger
-- functions) live in a schema of their own, so the extension's schema holds
-- only the documented API.  Every role may use it, as every role may call
-- the functions that call them; only the extension's owner creates in it.
CREATE SCHEMA glicko2_internal;
COMMENT ON SCHEMA glicko2_internal IS
  'Internal helpers of the glicko2 extension: not to be called directly; their arguments may change without notice';
GRANT USAGE ON SCHEMA glicko2_internal TO PUBLIC;

------------------------------------------------------------------------------
-- Types and constructors
------------------------------------------------------------------------------

CREATE TYPE glicko2_rating AS (rating float8, rd float8, volatility float8);
COMMENT ON TYPE glicko2_rating IS
  'A Glicko-2 rating on the public scale: rating, rating deviation (RD) and volatility';

CREATE TYPE glicko1_rating AS (rating float8, rd float8);
COMMENT ON TYPE glicko1_rating IS
  'An original Glicko (Glicko-1) rating: rating and rating deviation (RD)';

CREATE FUNCTION glicko2_rating(rating float8 DEFAULT 1500, rd float8 DEFAULT 350,
                               volatility float8 DEFAULT 0.06)
  RETURNS glicko2_rating
  AS 'MODULE_PATHNAME', 'glicko2_rating_make'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_rating(float8, float8, float8) IS
  'A checked Glicko-2 rating; the defaults are the paper''s unrated player (1500, 350, 0.06)';

CREATE FUNCTION glicko1_rating(rating float8 DEFAULT 1500, rd float8 DEFAULT 350)
  RETURNS glicko1_rating
  AS 'MODULE_PATHNAME', 'glicko1_rating_make'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko1_rating(float8, float8) IS
  'A checked Glicko-1 rating; the defaults are the unrated player (1500, 350)';

------------------------------------------------------------------------------
-- Rating-period aggregates
------------------------------------------------------------------------------

-- Support functions take and return internal, so they cannot be called from SQL.
CREATE FUNCTION glicko2_internal.glicko2_period_transfn(internal, glicko2_rating, glicko2_rating, float8)
  RETURNS internal AS 'MODULE_PATHNAME', 'glicko2_period_transfn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_internal.glicko2_period_transfn(internal, glicko2_rating, glicko2_rating, float8) IS
  'Transition function of glicko2_period';

CREATE FUNCTION glicko2_internal.glicko2_period_transfn(internal, glicko2_rating, glicko2_rating, float8, float8)
  RETURNS internal AS 'MODULE_PATHNAME', 'glicko2_period_transfn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_internal.glicko2_period_transfn(internal, glicko2_rating, glicko2_rating, float8, float8) IS
  'Transition function of glicko2_period with tau';

CREATE FUNCTION glicko2_internal.glicko2_period_transfn(internal, glicko2_rating, glicko2_rating, float8, float8, float8)
  RETURNS internal AS 'MODULE_PATHNAME', 'glicko2_period_advantage_transfn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_internal.glicko2_period_transfn(internal, glicko2_rating, glicko2_rating, float8, float8, float8) IS
  'Transition function of glicko2_period with tau and the player''s advantage';

CREATE FUNCTION glicko2_internal.glicko1_period_transfn(internal, glicko1_rating, glicko1_rating, float8)
  RETURNS internal AS 'MODULE_PATHNAME', 'glicko1_period_transfn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_internal.glicko1_period_transfn(internal, glicko1_rating, glicko1_rating, float8) IS
  'Transition function of glicko1_period';

CREATE FUNCTION glicko2_internal.glicko_period_combinefn(internal, internal)
  RETURNS internal AS 'MODULE_PATHNAME', 'glicko_period_combinefn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_internal.glicko_period_combinefn(internal, internal) IS
  'Combine function of glicko2_period and glicko1_period: adds partial sums';

CREATE FUNCTION glicko2_internal.glicko_period_serialfn(internal)
  RETURNS bytea AS 'MODULE_PATHNAME', 'glicko_period_serialfn'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_internal.glicko_period_serialfn(internal) IS
  'Serialization function of glicko2_period and glicko1_period';

CREATE FUNCTION glicko2_internal.glicko_period_deserialfn(bytea, internal)
  RETURNS internal AS 'MODULE_PATHNAME', 'glicko_period_deserialfn'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_internal.glicko_period_deserialfn(bytea, internal) IS
  'Deserialization function of glicko2_period and glicko1_period';

CREATE FUNCTION glicko2_internal.glicko2_period_finalfn(internal)
  RETURNS glicko2_rating AS 'MODULE_PATHNAME', 'glicko2_period_finalfn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_internal.glicko2_period_finalfn(internal) IS
  'Final function of glicko2_period: the paper''s Steps 2-8';

CREATE FUNCTION glicko2_internal.glicko1_period_finalfn(internal)
  RETURNS glicko1_rating AS 'MODULE_PATHNAME', 'glicko1_period_finalfn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_internal.glicko1_period_finalfn(internal) IS
  'Final function of glicko1_period: Glicko-1''s update';

-- SSPACE: the 80-byte state as allocated (a 128-byte chunk and its header),
-- for the planner's estimate of a hash aggregate's memory.
CREATE AGGREGATE glicko2_period(player glicko2_rating, opponent glicko2_rating, score float8) (
  SFUNC = glicko2_internal.glicko2_period_transfn,
  STYPE = internal,
  SSPACE = 144,
  FINALFUNC = glicko2_internal.glicko2_period_finalfn,
  COMBINEFUNC = glicko2_internal.glicko_period_combinefn,
  SERIALFUNC = glicko2_internal.glicko_period_serialfn,
  DESERIALFUNC = glicko2_internal.glicko_period_deserialfn,
  PARALLEL = SAFE
);
COMMENT ON AGGREGATE glicko2_period(glicko2_rating, glicko2_rating, float8) IS
  'One player''s Glicko-2 rating after one period''s games (tau 0.5); NULL ratings are unrated players, NULL scores are skipped';

CREATE AGGREGATE glicko2_period(player glicko2_rating, opponent glicko2_rating, score float8, tau float8) (
  SFUNC = glicko2_internal.glicko2_period_transfn,
  STYPE = internal,
  SSPACE = 144,
  FINALFUNC = glicko2_internal.glicko2_period_finalfn,
  COMBINEFUNC = glicko2_internal.glicko_period_combinefn,
  SERIALFUNC = glicko2_internal.glicko_period_serialfn,
  DESERIALFUNC = glicko2_internal.glicko_period_deserialfn,
  PARALLEL = SAFE
);
COMMENT ON AGGREGATE glicko2_period(glicko2_rating, glicko2_rating, float8, float8) IS
  'One player''s Glicko-2 rating after one period''s games with system constant tau';

-- advantage: points added to the player's rating inside E for this game
-- (+A at home or with the first move, -A away, 0 on neutral ground), as
-- Glickman's Glicko-Boost does for white; 0 is the 4-argument form bit for bit.
CREATE AGGREGATE glicko2_period(player glicko2_rating, opponent glicko2_rating, score float8,
                                tau float8, advantage float8) (
  SFUNC = glicko2_internal.glicko2_period_transfn,
  STYPE = internal,
  SSPACE = 144,
  FINALFUNC = glicko2_internal.glicko2_period_finalfn,
  COMBINEFUNC = glicko2_internal.glicko_period_combinefn,
  SERIALFUNC = glicko2_internal.glicko_period_serialfn,
  DESERIALFUNC = glicko2_internal.glicko_period_deserialfn,
  PARALLEL = SAFE
);
COMMENT ON AGGREGATE glicko2_period(glicko2_rating, glicko2_rating, float8, float8, float8) IS
  'One player''s Glicko-2 rating after one period''s games with system constant tau, the player''s rating counting advantage points more in each game''s expected score (+A home, -A away, 0 neutral)';

CREATE AGGREGATE glicko1_period(player glicko1_rating, opponent glicko1_rating, score float8) (
  SFUNC = glicko2_internal.glicko1_period_transfn,
  STYPE = internal,
  SSPACE = 144,
  FINALFUNC = glicko2_internal.glicko1_period_finalfn,
  COMBINEFUNC = glicko2_internal.glicko_period_combinefn,
  SERIALFUNC = glicko2_internal.glicko_period_serialfn,
  DESERIALFUNC = glicko2_internal.glicko_period_deserialfn,
  PARALLEL = SAFE
);
COMMENT ON AGGREGATE glicko1_period(glicko1_rating, glicko1_rating, float8) IS
  'One player''s Glicko-1 rating after one period''s games; NULL ratings are unrated players, NULL scores are skipped';

------------------------------------------------------------------------------
-- Between periods
------------------------------------------------------------------------------

-- The unrated player of a league whose RD is capped at max_rd: the closes,
-- the live triggers and glicko2_fit_matches start a new player so.
CREATE FUNCTION glicko2_internal.glicko2_unrated(max_rd float8)
  RETURNS glicko2_rating AS 'MODULE_PATHNAME', 'glicko2_unrated_sql'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_internal.glicko2_unrated(float8) IS
  'The unrated player of a league capped at max_rd: 1500 / least(350, max_rd) / 0.06 (NULL: no cap, the paper''s 1500 / 350 / 0.06), as its closes and live triggers start a new or NULL-rated player';

CREATE FUNCTION glicko2_idle(r glicko2_rating, periods float8 DEFAULT 1,
                             max_rd float8 DEFAULT 350)
  RETURNS glicko2_rating AS 'MODULE_PATHNAME', 'glicko2_idle_sql'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_idle(glicko2_rating, float8, float8) IS
  'Step 6 alone for periods without games: RD grows as sqrt(phi^2 + t sigma^2) up to max_rd (NULL: no cap)';

-- c = 34.6: Glickman, "The Glicko system", Step 1: an RD of 50 returns to
-- 350 after 100 periods, c = sqrt((350^2 - 50^2) / 100).
CREATE FUNCTION glicko1_idle(r glicko1_rating, periods float8 DEFAULT 1,
                             c float8 DEFAULT 34.6, max_rd float8 DEFAULT 350)
  RETURNS glicko1_rating AS 'MODULE_PATHNAME', 'glicko1_idle_sql'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko1_idle(glicko1_rating, float8, float8, float8) IS
  'Glicko-1 RD growth for periods without games: sqrt(RD^2 + c^2 t) up to max_rd (NULL: no cap); c = 34.6 takes RD 50 to 350 in 100 periods (Glickman)';

------------------------------------------------------------------------------
-- Predictions
------------------------------------------------------------------------------

CREATE FUNCTION glicko2_g(rd float8)
  RETURNS float8 AS 'MODULE_PATHNAME', 'glicko2_g_sql'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_g(float8) IS
  'The paper''s g(phi) = 1/sqrt(1 + 3 phi^2/pi^2) for an RD on the public scale: how much an opponent''s uncertainty damps a game';

CREATE FUNCTION glicko2_expected(player glicko2_rating, opponent glicko2_rating)
  RETURNS float8 AS 'MODULE_PATHNAME', 'glicko2_expected_sql'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_expected(glicko2_rating, glicko2_rating) IS
  'The paper''s E(mu, mu_j, phi_j): the player''s expected score against the opponent, using the opponent''s RD only';

CREATE FUNCTION glicko2_win_probability(a glicko2_rating, b glicko2_rating)
  RETURNS float8 AS 'MODULE_PATHNAME', 'glicko2_win_probability_sql'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_win_probability(glicko2_rating, glicko2_rating) IS
  'Predicted score of a against b counting both players'' uncertainty: E with g(sqrt(phi_a^2 + phi_b^2)); p(a,b) + p(b,a) = 1';

CREATE FUNCTION glicko2_win_probability(a glicko2_rating, b glicko2_rating, advantage float8)
  RETURNS float8 AS 'MODULE_PATHNAME', 'glicko2_win_probability_advantage_sql'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_win_probability(glicko2_rating, glicko2_rating, float8) IS
  'Predicted score of a against b counting both RDs, a''s rating counting advantage points more (home, first move; negative away); p(a,b,A) + p(b,a,-A) = 1';
