'use strict';
// The node-postgres adapter (clients/node) against a real server, in the two
// databases test/shell/clients.sh makes (DB_A, DB_B: different type OIDs).
// Exits non-zero on any failure; a rating or interval that arrives as a
// string is a failure.
const pg = require('pg');
const { Rating, Interval, registerTypes, glicko2Types } = require('../../clients/node');

let failures = 0;
function check(what, ok, detail) {
  console.log((ok ? 'ok      ' : 'FAILED  ') + what + (ok ? '' : ': ' + JSON.stringify(detail)));
  if (!ok) failures++;
}
const close = (a, b) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
const same = (a, b) => a.rating === b.rating && a.rd === b.rd && a.volatility === b.volatility;

async function checks(database) {
  const raw = new pg.Client({ database });
  await raw.connect();
  const r0 = (await raw.query('SELECT glicko2_rating(1500, 200) AS r')).rows[0].r;
  check(`${database}: without registerTypes node-postgres gives strings (the problem solved)`, typeof r0 === 'string', r0);
  await raw.end();

  const client = new pg.Client({ database });
  await client.connect();
  await registerTypes(client);
  // A leaderboard with intervals (the table clients_test.py made).
  const board = (await client.query(
    `SELECT player_id, rating, glicko2_interval(rating) AS i, glicko2_lower(rating) AS lo, glicko2_upper(rating) AS hi,
            glicko2_interval(rating, 3) AS i3, glicko2_confidence_interval(rating, 0.9) AS ci
     FROM ratings ORDER BY glicko2_lower(rating) DESC`)).rows;
  check(`${database}: leaderboard ratings are Rating objects`, board.length === 12 && board.every((r) => r.rating instanceof Rating), board[0]);
  check(`${database}: leaderboard intervals are Interval objects`, board.every((r) => r.i instanceof Interval), board[0]);
  check(`${database}: interval()/lower/upper equal glicko2_interval/lower/upper`,
    board.every((r) => r.rating.interval().lower === r.i.lower && r.rating.interval().upper === r.i.upper &&
      r.rating.lower === r.lo && r.rating.upper === r.hi && r.rating.interval(3).upper === r.i3.upper), board[0]);
  check(`${database}: confidenceInterval(0.9) equals glicko2_confidence_interval`,
    board.every((r) => close(r.rating.confidenceInterval(0.9).lower, r.ci.lower) && close(r.rating.confidenceInterval(0.9).upper, r.ci.upper)), board[0]);
  // A live game written (the trigger of clients_test.py's tables), ratings read back.
  await client.query('TRUNCATE live_ratings, games');
  await client.query('INSERT INTO games VALUES ($1, $2, $3, $4)', [1, 2, 1, '2026-03-01 20:00+00']);
  await client.query('INSERT INTO games VALUES ($1, $2, $3, $4)', [3, 1, 0.5, '2026-03-03 08:00+00']);
  const live = (await client.query('SELECT player_id, rating FROM live_ratings ORDER BY player_id')).rows;
  check(`${database}: live ratings read back as docs/live.md documents them, every digit`,
    live.length === 3 && live.every((r) => r.rating instanceof Rating) &&
    same(live[0].rating, new Rating(1623.9194115899197, 256.34540959434145, 0.05999869089816603)) &&
    same(live[1].rating, new Rating(1337.7879985296545, 290.23050778223865, 0.05999967537233814)) &&
    same(live[2].rating, new Rating(1557.5286150807933, 286.8606713707285, 0.05999899847192374)), live);
  // Ratings and intervals as parameters.
  const r = new Rating(1464.0506705393013, 151.51652412385727, 0.059995984286488495);
  const back = (await client.query('SELECT $1::glicko2_rating AS r, $1::glicko2_rating = glicko2_rating(1464.0506705393013, 151.51652412385727, 0.059995984286488495) AS eq', [r])).rows[0];
  check(`${database}: a Rating parameter goes in and comes back bit for bit`, back.r instanceof Rating && same(back.r, r) && back.eq === true, back);
  const iv = (await client.query('SELECT $1::float8range @> 1500::float8 AS inside', [new Interval(1400, 1600)])).rows[0];
  check(`${database}: an Interval parameter is a float8range`, iv.inside === true, iv);
  const arr = (await client.query('SELECT array_agg(rating ORDER BY player_id) AS a, array_agg(glicko2_interval(rating)) AS b FROM ratings')).rows[0];
  check(`${database}: arrays of ratings and intervals are arrays of objects`,
    arr.a.length === 12 && arr.a.every((x) => x instanceof Rating) && arr.b.every((x) => x instanceof Interval), arr.a[0]);
  // A matchmaking round: Rating parameters in, pairs out.
  await client.query('BEGIN');
  await client.query('CREATE TEMP TABLE q (player_id int PRIMARY KEY, rating glicko2_rating NOT NULL, queued_at timestamptz NOT NULL DEFAULT now()) ON COMMIT DROP');
  for (let i = 1; i <= 6; i++) await client.query('INSERT INTO q (player_id, rating) VALUES ($1, $2)', [i, new Rating(1500 + 5 * i, 60)]);
  const pairs = (await client.query("SELECT player_a, player_b, rating_a, p_win FROM glicko2_pair_typed('q', NULL::int)")).rows;
  await client.query('COMMIT');
  check(`${database}: matchmaking round: 3 pairs, int ids, Rating objects`,
    pairs.length === 3 && pairs.every((p) => typeof p.player_a === 'number' && p.rating_a instanceof Rating && p.rating_a.rating === 1500 + 5 * p.player_a), pairs);
  const teams = (await client.query('SELECT glicko2_balance($1) AS t', [[0, 1, 2, 3].map((i) => new Rating(1500 + 10 * i, 50))])).rows[0].t;
  check(`${database}: glicko2_balance of an array of Rating`, JSON.stringify([...teams].sort()) === '[1,1,2,2]', teams);
  // A pool: the types option from glicko2Types, every client reads objects.
  const pool = new pg.Pool({ database, max: 2, types: await glicko2Types(client) });
  const got = await Promise.all([1, 2, 3].map((id) => pool.query('SELECT rating, glicko2_interval(rating) AS i FROM ratings WHERE player_id = $1', [id])));
  check(`${database}: a pool with glicko2Types gives objects on every client`,
    got.every((g) => g.rows[0].rating instanceof Rating && g.rows[0].i instanceof Interval), got[0].rows[0]);
  await pool.end();
  const oid = (await client.query("SELECT 'glicko2_rating'::regtype::oid::int AS oid")).rows[0].oid;
  await client.end();
  return oid;
}

(async () => {
  const oids = [];
  for (const db of [process.env.DB_A, process.env.DB_B]) oids.push(await checks(db));
  check('the two databases\' glicko2_rating OIDs differ', oids[0] !== oids[1], oids);
  console.log(`node clients: ${failures} failed`);
  process.exit(failures ? 1 : 0);
})().catch((e) => { console.error(e); process.exit(1); });
