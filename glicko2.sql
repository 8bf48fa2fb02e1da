\echo Use "CREATE EXTENSION glicko2" to load this file. \quit

-- glicko2: Glicko-2 and Glicko-1 ratings (Glickman, "Example of the Glicko-2
-- system", 2022).  Ratings are stored on the public scale (1500 / 350).

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
CREATE FUNCTION glicko2_period_transfn(internal, glicko2_rating, glicko2_rating, float8)
  RETURNS internal AS 'MODULE_PATHNAME', 'glicko2_period_transfn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_period_transfn(internal, glicko2_rating, glicko2_rating, float8) IS
  'Transition function of glicko2_period';

CREATE FUNCTION glicko2_period_transfn(internal, glicko2_rating, glicko2_rating, float8, float8)
  RETURNS internal AS 'MODULE_PATHNAME', 'glicko2_period_transfn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_period_transfn(internal, glicko2_rating, glicko2_rating, float8, float8) IS
  'Transition function of glicko2_period with tau';

CREATE FUNCTION glicko1_period_transfn(internal, glicko1_rating, glicko1_rating, float8)
  RETURNS internal AS 'MODULE_PATHNAME', 'glicko1_period_transfn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko1_period_transfn(internal, glicko1_rating, glicko1_rating, float8) IS
  'Transition function of glicko1_period';

CREATE FUNCTION glicko_period_combinefn(internal, internal)
  RETURNS internal AS 'MODULE_PATHNAME', 'glicko_period_combinefn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko_period_combinefn(internal, internal) IS
  'Combine function of glicko2_period and glicko1_period: adds partial sums';

CREATE FUNCTION glicko_period_serialfn(internal)
  RETURNS bytea AS 'MODULE_PATHNAME', 'glicko_period_serialfn'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko_period_serialfn(internal) IS
  'Serialization function of glicko2_period and glicko1_period';

CREATE FUNCTION glicko_period_deserialfn(bytea, internal)
  RETURNS internal AS 'MODULE_PATHNAME', 'glicko_period_deserialfn'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko_period_deserialfn(bytea, internal) IS
  'Deserialization function of glicko2_period and glicko1_period';

CREATE FUNCTION glicko2_period_finalfn(internal)
  RETURNS glicko2_rating AS 'MODULE_PATHNAME', 'glicko2_period_finalfn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_period_finalfn(internal) IS
  'Final function of glicko2_period: the paper''s Steps 2-8';

CREATE FUNCTION glicko1_period_finalfn(internal)
  RETURNS glicko1_rating AS 'MODULE_PATHNAME', 'glicko1_period_finalfn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko1_period_finalfn(internal) IS
  'Final function of glicko1_period: Glicko-1''s update';

CREATE AGGREGATE glicko2_period(player glicko2_rating, opponent glicko2_rating, score float8) (
  SFUNC = glicko2_period_transfn,
  STYPE = internal,
  SSPACE = 72,
  FINALFUNC = glicko2_period_finalfn,
  COMBINEFUNC = glicko_period_combinefn,
  SERIALFUNC = glicko_period_serialfn,
  DESERIALFUNC = glicko_period_deserialfn,
  PARALLEL = SAFE
);
COMMENT ON AGGREGATE glicko2_period(glicko2_rating, glicko2_rating, float8) IS
  'One player''s Glicko-2 rating after one period''s games (tau 0.5); NULL ratings are unrated players, NULL scores are skipped';

CREATE AGGREGATE glicko2_period(player glicko2_rating, opponent glicko2_rating, score float8, tau float8) (
  SFUNC = glicko2_period_transfn,
  STYPE = internal,
  SSPACE = 72,
  FINALFUNC = glicko2_period_finalfn,
  COMBINEFUNC = glicko_period_combinefn,
  SERIALFUNC = glicko_period_serialfn,
  DESERIALFUNC = glicko_period_deserialfn,
  PARALLEL = SAFE
);
COMMENT ON AGGREGATE glicko2_period(glicko2_rating, glicko2_rating, float8, float8) IS
  'One player''s Glicko-2 rating after one period''s games with system constant tau';

CREATE AGGREGATE glicko1_period(player glicko1_rating, opponent glicko1_rating, score float8) (
  SFUNC = glicko1_period_transfn,
  STYPE = internal,
  SSPACE = 72,
  FINALFUNC = glicko1_period_finalfn,
  COMBINEFUNC = glicko_period_combinefn,
  SERIALFUNC = glicko_period_serialfn,
  DESERIALFUNC = glicko_period_deserialfn,
  PARALLEL = SAFE
);
COMMENT ON AGGREGATE glicko1_period(glicko1_rating, glicko1_rating, float8) IS
  'One player''s Glicko-1 rating after one period''s games; NULL ratings are unrated players, NULL scores are skipped';

------------------------------------------------------------------------------
-- Between periods
------------------------------------------------------------------------------

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

------------------------------------------------------------------------------
-- Dashboards: intervals, the Glicko-2 scale, JSON, explanations
------------------------------------------------------------------------------

-- PostgreSQL has no float8range, so the extension creates one in its own
-- schema.  CREATE EXTENSION fails if that schema already has a type of that
-- name (install the extension in a schema of its own, WITH SCHEMA); a
-- float8range of the user's in another schema is a different type: write
-- the extension's as <schema>.float8range where both are on the search_path.
CREATE TYPE float8range AS RANGE (subtype = pg_catalog.float8,
                                  subtype_diff = pg_catalog.float8mi);
COMMENT ON TYPE float8range IS
  'A range of double precision values (glicko2 creates it: PostgreSQL has none); glicko2_interval returns closed ranges [lower, upper]';
COMMENT ON FUNCTION float8range(float8, float8) IS
  'Range constructor of float8range: [lower, upper)';
COMMENT ON FUNCTION float8range(float8, float8, text) IS
  'Range constructor of float8range with bounds given as ''[]'', ''[)'', ''(]'' or ''()''';
-- PostgreSQL 14 and later also make a multirange type for every range type.
DO $$
BEGIN
  IF pg_catalog.current_setting('server_version_num')::pg_catalog.int4 OPERATOR(pg_catalog.>=) 140000 THEN
    EXECUTE $c$COMMENT ON TYPE @extschema@.float8multirange IS
      'Multirange of float8range (made by PostgreSQL with the range type)'$c$;
    EXECUTE $c$COMMENT ON FUNCTION @extschema@.float8multirange() IS
      'Multirange constructor of float8multirange: the empty multirange'$c$;
    EXECUTE $c$COMMENT ON FUNCTION @extschema@.float8multirange(@extschema@.float8range) IS
      'Multirange constructor of float8multirange from one range'$c$;
    EXECUTE $c$COMMENT ON FUNCTION @extschema@.float8multirange(VARIADIC @extschema@.float8range[]) IS
      'Multirange constructor of float8multirange from ranges'$c$;
    EXECUTE $c$COMMENT ON CAST (@extschema@.float8range AS @extschema@.float8multirange) IS
      'A float8range as a multirange of one range'$c$;
  END IF;
END
$$;

CREATE FUNCTION glicko2_interval(r glicko2_rating, deviations float8 DEFAULT 2)
  RETURNS float8range AS 'MODULE_PATHNAME', 'glicko2_interval_sql'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_interval(glicko2_rating, float8) IS
  'The closed interval [rating - k RD, rating + k RD] with k = deviations; k = 2 is the paper''s 95 % interval';

CREATE FUNCTION glicko2_lower(r glicko2_rating, deviations float8 DEFAULT 2)
  RETURNS float8 AS 'MODULE_PATHNAME', 'glicko2_lower_sql'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_lower(glicko2_rating, float8) IS
  'rating - k RD with k = deviations: the conservative rating of a leaderboard (index it: CREATE INDEX ON t (glicko2_lower(rating)))';

CREATE FUNCTION glicko2_upper(r glicko2_rating, deviations float8 DEFAULT 2)
  RETURNS float8 AS 'MODULE_PATHNAME', 'glicko2_upper_sql'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_upper(glicko2_rating, float8) IS
  'rating + k RD with k = deviations: the upper end of glicko2_interval';

CREATE FUNCTION glicko2_confidence_interval(r glicko2_rating, confidence float8 DEFAULT 0.95)
  RETURNS float8range AS 'MODULE_PATHNAME', 'glicko2_confidence_interval_sql'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_confidence_interval(glicko2_rating, float8) IS
  'The closed normal interval of the given confidence (0 <= confidence < 1): rating -/+ z RD with the exact quantile z (0.95: 1.959963984540054)';

CREATE TYPE glicko2_scaled AS (mu float8, phi float8, sigma float8);
COMMENT ON TYPE glicko2_scaled IS
  'A Glicko-2 rating on the paper''s internal scale (Step 2): mu = (r - 1500)/173.7178, phi = RD/173.7178, sigma = volatility';

CREATE FUNCTION glicko2_to_scaled(r glicko2_rating)
  RETURNS glicko2_scaled AS 'MODULE_PATHNAME', 'glicko2_to_scaled_sql'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_to_scaled(glicko2_rating) IS
  'The paper''s Step 2: a rating on the Glicko-2 scale (mu, phi, sigma)';

CREATE FUNCTION glicko2_from_scaled(s glicko2_scaled)
  RETURNS glicko2_rating AS 'MODULE_PATHNAME', 'glicko2_from_scaled_sql'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_from_scaled(glicko2_scaled) IS
  'The paper''s Step 8: a checked rating on the public scale from (mu, phi, sigma)';

CREATE FUNCTION glicko2_to_jsonb(r glicko2_rating)
  RETURNS jsonb AS 'MODULE_PATHNAME', 'glicko2_to_jsonb_sql'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_to_jsonb(glicko2_rating) IS
  'A rating as {"rating": ..., "rd": ..., "volatility": ...} with every digit: glicko2_from_jsonb gives back the same rating';

CREATE FUNCTION glicko2_from_jsonb(j jsonb)
  RETURNS glicko2_rating AS 'MODULE_PATHNAME', 'glicko2_from_jsonb_sql'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_from_jsonb(jsonb) IS
  'A checked rating from an object with exactly the numbers "rating", "rd" and "volatility"';

-- glicko2_explain: support functions take and return internal.
CREATE FUNCTION glicko2_explain_transfn(internal, glicko2_rating, glicko2_rating, float8)
  RETURNS internal AS 'MODULE_PATHNAME', 'glicko2_explain_transfn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_explain_transfn(internal, glicko2_rating, glicko2_rating, float8) IS
  'Transition function of glicko2_explain';

CREATE FUNCTION glicko2_explain_transfn(internal, glicko2_rating, glicko2_rating, float8, float8)
  RETURNS internal AS 'MODULE_PATHNAME', 'glicko2_explain_transfn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_explain_transfn(internal, glicko2_rating, glicko2_rating, float8, float8) IS
  'Transition function of glicko2_explain with tau';

CREATE FUNCTION glicko2_explain_combinefn(internal, internal)
  RETURNS internal AS 'MODULE_PATHNAME', 'glicko2_explain_combinefn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_explain_combinefn(internal, internal) IS
  'Combine function of glicko2_explain: adds the sums as glicko2_period does and appends the games';

CREATE FUNCTION glicko2_explain_serialfn(internal)
  RETURNS bytea AS 'MODULE_PATHNAME', 'glicko2_explain_serialfn'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_explain_serialfn(internal) IS
  'Serialization function of glicko2_explain';

CREATE FUNCTION glicko2_explain_deserialfn(bytea, internal)
  RETURNS internal AS 'MODULE_PATHNAME', 'glicko2_explain_deserialfn'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_explain_deserialfn(bytea, internal) IS
  'Deserialization function of glicko2_explain';

CREATE FUNCTION glicko2_explain_finalfn(internal)
  RETURNS jsonb AS 'MODULE_PATHNAME', 'glicko2_explain_finalfn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_explain_finalfn(internal) IS
  'Final function of glicko2_explain: the paper''s Steps 2-8 with every intermediate quantity';

CREATE AGGREGATE glicko2_explain(player glicko2_rating, opponent glicko2_rating, score float8) (
  SFUNC = glicko2_explain_transfn,
  STYPE = internal,
  SSPACE = 1024,
  FINALFUNC = glicko2_explain_finalfn,
  COMBINEFUNC = glicko2_explain_combinefn,
  SERIALFUNC = glicko2_explain_serialfn,
  DESERIALFUNC = glicko2_explain_deserialfn,
  PARALLEL = SAFE
);
COMMENT ON AGGREGATE glicko2_explain(glicko2_rating, glicko2_rating, float8) IS
  'Why a rating moved: glicko2_period''s update (tau 0.5) as jsonb with every quantity of the paper (mu, phi, each game''s g and E, v, delta, the Illinois iterations, sigma'', phi*, phi'', mu'', result); at most 10000 games';

CREATE AGGREGATE glicko2_explain(player glicko2_rating, opponent glicko2_rating, score float8, tau float8) (
  SFUNC = glicko2_explain_transfn,
  STYPE = internal,
  SSPACE = 1024,
  FINALFUNC = glicko2_explain_finalfn,
  COMBINEFUNC = glicko2_explain_combinefn,
  SERIALFUNC = glicko2_explain_serialfn,
  DESERIALFUNC = glicko2_explain_deserialfn,
  PARALLEL = SAFE
);
COMMENT ON AGGREGATE glicko2_explain(glicko2_rating, glicko2_rating, float8, float8) IS
  'Why a rating moved, with system constant tau: glicko2_period''s update as jsonb with every quantity of the paper; at most 10000 games';
