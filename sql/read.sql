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
CREATE FUNCTION glicko2_internal.glicko2_explain_transfn(internal, glicko2_rating, glicko2_rating, float8)
  RETURNS internal AS 'MODULE_PATHNAME', 'glicko2_explain_transfn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_internal.glicko2_explain_transfn(internal, glicko2_rating, glicko2_rating, float8) IS
  'Transition function of glicko2_explain';

CREATE FUNCTION glicko2_internal.glicko2_explain_transfn(internal, glicko2_rating, glicko2_rating, float8, float8)
  RETURNS internal AS 'MODULE_PATHNAME', 'glicko2_explain_transfn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_internal.glicko2_explain_transfn(internal, glicko2_rating, glicko2_rating, float8, float8) IS
  'Transition function of glicko2_explain with tau';

CREATE FUNCTION glicko2_internal.glicko2_explain_combinefn(internal, internal)
  RETURNS internal AS 'MODULE_PATHNAME', 'glicko2_explain_combinefn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_internal.glicko2_explain_combinefn(internal, internal) IS
  'Combine function of glicko2_explain: adds the sums as glicko2_period does and appends the games';

CREATE FUNCTION glicko2_internal.glicko2_explain_serialfn(internal)
  RETURNS bytea AS 'MODULE_PATHNAME', 'glicko2_explain_serialfn'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_internal.glicko2_explain_serialfn(internal) IS
  'Serialization function of glicko2_explain';

CREATE FUNCTION glicko2_internal.glicko2_explain_deserialfn(bytea, internal)
  RETURNS internal AS 'MODULE_PATHNAME', 'glicko2_explain_deserialfn'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_internal.glicko2_explain_deserialfn(bytea, internal) IS
  'Deserialization function of glicko2_explain';

CREATE FUNCTION glicko2_internal.glicko2_explain_finalfn(internal)
  RETURNS jsonb AS 'MODULE_PATHNAME', 'glicko2_explain_finalfn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_internal.glicko2_explain_finalfn(internal) IS
  'Final function of glicko2_explain: the paper''s Steps 2-8 with every intermediate quantity';

CREATE AGGREGATE glicko2_explain(player glicko2_rating, opponent glicko2_rating, score float8) (
  SFUNC = glicko2_internal.glicko2_explain_transfn,
  STYPE = internal,
  SSPACE = 1024,
  FINALFUNC = glicko2_internal.glicko2_explain_finalfn,
  COMBINEFUNC = glicko2_internal.glicko2_explain_combinefn,
  SERIALFUNC = glicko2_internal.glicko2_explain_serialfn,
  DESERIALFUNC = glicko2_internal.glicko2_explain_deserialfn,
  PARALLEL = SAFE
);
COMMENT ON AGGREGATE glicko2_explain(glicko2_rating, glicko2_rating, float8) IS
  'Why a rating moved: glicko2_period''s update (tau 0.5) as jsonb with every quantity of the paper (mu, phi, each game''s g and E, v, delta, the Illinois iterations, sigma'', phi*, phi'', mu'', result); at most 10000 games';

CREATE AGGREGATE glicko2_explain(player glicko2_rating, opponent glicko2_rating, score float8, tau float8) (
  SFUNC = glicko2_internal.glicko2_explain_transfn,
  STYPE = internal,
  SSPACE = 1024,
  FINALFUNC = glicko2_internal.glicko2_explain_finalfn,
  COMBINEFUNC = glicko2_internal.glicko2_explain_combinefn,
  SERIALFUNC = glicko2_internal.glicko2_explain_serialfn,
  DESERIALFUNC = glicko2_internal.glicko2_explain_deserialfn,
  PARALLEL = SAFE
);
COMMENT ON AGGREGATE glicko2_explain(glicko2_rating, glicko2_rating, float8, float8) IS
  'Why a rating moved, with system constant tau: glicko2_period''s update as jsonb with every quantity of the paper; at most 10000 games';
