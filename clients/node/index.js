'use strict';
// node-postgres adapters for the glicko2 extension: a glicko2_rating comes
// back as a Rating, a float8range as an Interval, and both go back as query
// parameters (toPostgres).  Type OIDs differ between databases, so they are
// looked up on the connection: registerTypes(client) once per client.

class Interval {
  constructor(lower, upper) {
    this.lower = lower;
    this.upper = upper;
  }
  get width() { return this.upper - this.lower; }
  contains(x) {
    return (this.lower === null || this.lower <= x) && (this.upper === null || x <= this.upper);
  }
  toPostgres() {
    return '[' + (this.lower === null ? '' : String(this.lower)) + ',' +
      (this.upper === null ? '' : String(this.upper)) + ']';
  }
}

// Phi(x) - 1/2 for x >= 0: the series phi(x) (x + x^3/3 + x^5/(3 5) + ...)
// below 5, the upper tail's continued fraction beyond (both to about 1e-16).
function cdfAboveHalf(x) {
  const phi = Math.exp(-x * x / 2) / Math.sqrt(2 * Math.PI);
  if (x < 5) {
    let term = x, sum = x;
    for (let k = 1; k < 500 && term > 1e-17 * sum; k++) {
      term *= x * x / (2 * k + 1);
      sum += term;
    }
    return phi * sum;
  }
  let t = x;
  for (let k = 80; k >= 1; k--) t = x + k / t;
  return 0.5 - phi / t;
}

// The normal quantile for p in [1/2, 1): Acklam's approximation (1e-9),
// then Newton steps on cdfAboveHalf.
function upperQuantile(p) {
  const a = [-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
    1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00];
  const b = [-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
    6.680131188771972e+01, -1.328068155288572e+01];
  const c = [-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
    -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00];
  const d = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
    3.754408661907416e+00];
  let x;
  if (p <= 1 - 0.02425) {
    const q = p - 0.5, r = q * q;
    x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
      (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  } else {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
      ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  for (let i = 0; i < 3; i++) {
    x -= (cdfAboveHalf(x) - (p - 0.5)) / (Math.exp(-x * x / 2) / Math.sqrt(2 * Math.PI));
  }
  return x;
}

class Rating {
  constructor(rating = 1500, rd = 350, volatility = 0.06) {
    this.rating = rating;
    this.rd = rd;
    this.volatility = volatility;
  }
  // [rating - k rd, rating + k rd], as glicko2_interval(r, k); k = 2 is the paper's 95 %.
  interval(k = 2) { return new Interval(this.rating - k * this.rd, this.rating + k * this.rd); }
  get lower() { return this.interval().lower; }
  get upper() { return this.interval().upper; }
  // rating -/+ z rd with the normal quantile z, as glicko2_confidence_interval(r, confidence).
  confidenceInterval(confidence = 0.95) {
    if (!(confidence >= 0 && confidence < 1)) throw new RangeError('confidence must be in [0, 1), not ' + confidence);
    return this.interval(confidence === 0 ? 0 : upperQuantile(0.5 + confidence / 2));
  }
  toPostgres() { return '(' + this.rating + ',' + this.rd + ',' + this.volatility + ')'; }
  toJSON() { return { rating: this.rating, rd: this.rd, volatility: this.volatility }; }
}

function fields(text, open, close) {
  if (text.length < 2 || !open.includes(text[0]) || !close.includes(text[text.length - 1])) {
    throw new Error('not a glicko2 value: ' + text);
  }
  return text.slice(1, -1).split(',').map((f) => f.trim().replace(/^"|"$/g, ''));
}

function parseRating(text) {
  if (text === null) return null;
  const f = fields(text, '(', ')');
  if (f.length !== 3) throw new Error('a glicko2_rating has 3 fields: ' + text);
  return new Rating(Number(f[0]), Number(f[1]), Number(f[2]));
}

function parseInterval(text) {
  if (text === null || text === 'empty') return null;
  const [lower, upper] = fields(text, '[(', '])');
  return new Interval(lower === '' ? null : Number(lower), upper === '' ? null : Number(upper));
}

// An array's elements: {"(1500,350,0.06)","(1400,30,0.06)"} or {"[1,2]",...}.
function parseArray(parse) {
  return (text) => {
    if (text === null) return null;
    const inner = text.slice(1, -1);
    if (inner === '') return [];
    return inner.match(/"[^"]*"|[^,]+/g).map((e) => (e === 'NULL' ? null : parse(e.replace(/^"|"$/g, ''))));
  };
}

const TYPES_QUERY = `
SELECT t.typname::text AS name, t.oid::int8 AS oid, t.typarray::int8 AS array_oid
FROM pg_catalog.pg_extension e
JOIN pg_catalog.pg_depend d ON d.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass
     AND d.refobjid = e.oid AND d.classid = 'pg_catalog.pg_type'::pg_catalog.regclass AND d.deptype = 'e'
JOIN pg_catalog.pg_type t ON t.oid = d.objid
WHERE e.extname = 'glicko2' AND t.typname IN ('glicko2_rating', 'float8range')`;

// {oid: parser} for the extension's types in the database queryable is in.
async function parsers(queryable) {
  const { rows } = await queryable.query(TYPES_QUERY);
  const byName = Object.fromEntries(rows.map((r) => [r.name, r]));
  if (!byName.glicko2_rating || !byName.float8range) {
    throw new Error('the glicko2 extension is not installed in this database (CREATE EXTENSION glicko2)');
  }
  return {
    [byName.glicko2_rating.oid]: parseRating,
    [byName.glicko2_rating.array_oid]: parseArray(parseRating),
    [byName.float8range.oid]: parseInterval,
    [byName.float8range.array_oid]: parseArray(parseInterval),
  };
}

// One client (a Client, or a client from pool.connect()): its results
// read glicko2_rating and float8range as Rating and Interval from now on.
async function registerTypes(client) {
  const found = await parsers(client);
  for (const [oid, parse] of Object.entries(found)) client.setTypeParser(Number(oid), 'text', parse);
  return client;
}

// For a Pool: the `types` option, looked up once with any client of the
// same database, so every client the pool opens reads the types:
//   const pool = new pg.Pool({ ...config, types: await glicko2Types(client) })
async function glicko2Types(queryable, base) {
  const found = await parsers(queryable);
  const fallback = base || require('pg').types;
  return {
    getTypeParser(oid, format) {
      if ((format === undefined || format === 'text') && found[oid]) return found[oid];
      return fallback.getTypeParser(oid, format);
    },
  };
}

module.exports = { Rating, Interval, registerTypes, glicko2Types, parseRating, parseInterval };
