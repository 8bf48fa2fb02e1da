// Rating a league with the extension itself: the matches copied into a table,
// every period closed with glicko2_close_matches for each method, the ratings
// after each close read back from the history tables.  Runs psql against the
// cluster of PGHOST/PGPORT (eval/run.sh starts a throwaway one).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { matchRows } from './sim.js';

export function psql(sql, { file } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'glicko2-eval-'));
  try {
    const script = join(dir, 'script.sql');
    writeFileSync(script, sql);
    const out = spawnSync('psql', ['-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-f', script],
                          { encoding: 'utf8', maxBuffer: 1 << 30 });
    if (out.status !== 0) throw new Error(`psql failed: ${out.stderr}`);
    return out.stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Which methods the installed extension's glicko2_close_matches accepts.
export function extensionMethods(candidates) {
  psql('CREATE EXTENSION IF NOT EXISTS glicko2;');
  return candidates.filter((m) => {
    try {
      psql(`BEGIN;
CREATE TEMP TABLE r (player_id int PRIMARY KEY, rating glicko2_rating);
CREATE TEMP TABLE g (match_id int, period int, player_id int, team int, place int);
INSERT INTO g VALUES (1, 1, 1, 1, 1), (1, 1, 2, 2, 2);
CALL glicko2_close_matches('r', 'g', 1, '${m}', unguarded => true);
ROLLBACK;`);
      return true;
    } catch {
      return false;
    }
  });
}

// Closes every period of one league with each method; returns
// { closes: {method: [Map id -> rating] per period}, seconds: {method: s},
//   refused: {method: 'the error'} } (a refused close leaves the periods
// closed before it; later ones are missing from closes).
// initialRd: every player's rating row made before period 1 (1500, initialRd,
// 0.06), or null to let the closes add players (at 1500 / least(350, max_rd)
// / 0.06); maxRd: the closes' max_rd (null: their default, 350).
export function rateWithExtension(schema, matches, periods, methods,
                                  { tau = 0.5, initialRd = null, maxRd = null } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'glicko2-eval-'));
  try {
    const csv = join(dir, 'matches.csv'), out = join(dir, 'history.csv');
    writeFileSync(csv, matchRows(matches).map((r) => r.join(',')).join('\n') + '\n');
    const ids = [...new Set(matches.flatMap((m) => m.teams.flatMap((t) => t.players)))];
    let sql = `SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS glicko2;
DROP SCHEMA IF EXISTS ${schema} CASCADE;
CREATE SCHEMA ${schema};
SET search_path = ${schema}, public;
CREATE TABLE matches (match_id int, period int, player_id int, team int, place int);
\\copy matches FROM '${csv}' CSV
CREATE INDEX ON matches (period);
ANALYZE matches;
CALL glicko2_guard_games('matches');
`;
    for (const m of methods) {
      sql += `CREATE TABLE r_${m} (player_id int PRIMARY KEY, rating glicko2_rating);
CREATE TABLE h_${m} (player_id int, period int, rating glicko2_rating);
`;
      if (initialRd !== null)
        sql += `INSERT INTO r_${m} SELECT unnest(ARRAY[${ids.join(',')}]), ROW(1500, ${initialRd}, 0.06)::glicko2_rating;\n`;
    }
    psql(sql);
    const seconds = {}, refused = {};
    for (const m of methods) {
      let closes = `SET search_path = ${schema}, public;\nSELECT clock_timestamp() AS t0 \\gset\n`;
      for (let p = 1; p <= periods; p++)
        closes += `CALL glicko2_close_matches('r_${m}', 'matches', ${p}, '${m}', tau => ${tau}, history => 'h_${m}'${maxRd === null ? '' : `, max_rd => ${maxRd}`});\n`;
      closes += `SELECT extract(epoch FROM clock_timestamp() - :'t0'::timestamptz);\n`;
      try {
        seconds[m] = Number(psql(closes).trim());
      } catch (e) {
        const hit = /ERROR:\s*(.*)/.exec(e.message);
        refused[m] = hit ? hit[1] : e.message;
      }
    }
    psql(`\\copy (${methods.map((m) => `SELECT '${m}', period, player_id, (rating).rating, (rating).rd, (rating).volatility FROM ${schema}.h_${m}`).join(' UNION ALL ')}) TO '${out}' CSV\n`);
    const closes = Object.fromEntries(methods.map((m) => [m, Array.from({ length: periods }, () => new Map())]));
    for (const line of readFileSync(out, 'utf8').split('\n')) {
      if (!line) continue;
      const [m, p, id, rating, rd, volatility] = line.split(',');
      closes[m][Number(p) - 1].set(Number(id), { rating: Number(rating), rd: Number(rd), volatility: Number(volatility) });
    }
    for (const m of methods) closes[m] = closes[m].filter((c) => c.size > 0);
    return { closes, seconds, refused };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// glicko2_fit_matches' log loss of each method (tau 0.5, without a teammates
// store, as rateWithExtension closes) on one league's matches (rateWithExtension's table), or null when the extension has no such
// function; a method whose replay fails maps to its error.
export function fitMatches(schema, methods) {
  const has = psql(`SELECT to_regproc('glicko2_fit_matches') IS NOT NULL;`).trim() === 't';
  if (!has) return null;
  const out = {};
  for (const m of methods) {
    try {
      out[m] = Number(psql(`SELECT log_loss FROM glicko2_fit_matches('${schema}.matches', ARRAY['${m}'], '{0.5}', teammates => false);`).trim());
    } catch (e) {
      out[m] = e.message;
    }
  }
  return out;
}

// The honest choice of a league's prior: glicko2_fit_matches of one method
// (tau 0.5) over candidate max_rds on the league's periods 1..through only
// (rateWithExtension's table); returns { best, losses: {max_rd: log loss} }.
// args: more of glicko2_fit_matches' arguments (SQL text).
export function fitPrior(schema, method, through, candidates, { args = '', teammates = false } = {}) {
  const out = psql(`CREATE OR REPLACE VIEW ${schema}.fit_window AS SELECT * FROM ${schema}.matches WHERE period <= ${through};
SELECT max_rd, log_loss, best FROM glicko2_fit_matches('${schema}.fit_window', ARRAY['${method}'], '{0.5}', '{${candidates.join(',')}}'${args},
                                                 teammates => ${teammates});`);
  const losses = {};
  let best = null;
  for (const line of out.trim().split('\n')) {
    const [rd, loss, isBest] = line.split('|');
    losses[rd] = Number(loss);
    if (isBest === 't') best = Number(rd);
  }
  return { best, losses };
}

// Issue 33's friend leagues (friends.js): every period closed with the
// world's method twice, as today (r_today) and with a teammates store
// (r_mates, glicko2_teammates_create), each player's share in the weight
// column (1 for everyone with fullLeavers); edges: { party, size } points,
// with the party column (null: none); maxRd: the closes' max_rd (null: their
// default).  Returns { today, teammates }:
// per period { ratings: Map id -> rating, store: Map 'a,b' -> covariance }.
export function rateFriends(schema, matches, periods, method, { fullLeavers = false, edges = null, maxRd = null } = {}) {
  const edgeArgs = (edges ? `, party_column => 'party', party_advantage => ${edges.party}, size_advantage => ${edges.size}` : '') +
    (maxRd === null ? '' : `, max_rd => ${maxRd}`);
  const dir = mkdtempSync(join(tmpdir(), 'glicko2-eval-'));
  try {
    const csv = join(dir, 'matches.csv'), out = join(dir, 'history.csv'), pairs = join(dir, 'pairs.csv');
    const rows = [];
    for (const m of matches)
      m.teams.forEach((t, ti) => t.players.forEach((id, j) =>
        rows.push([m.id, m.period, id, ti + 1, t.place, fullLeavers ? 1 : t.weight[j], t.party[j] ?? ''].join(','))));
    writeFileSync(csv, rows.join('\n') + '\n');
    let sql = `SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS glicko2;
DROP SCHEMA IF EXISTS ${schema} CASCADE;
CREATE SCHEMA ${schema};
SET search_path = ${schema}, public;
CREATE TABLE matches (match_id int, period int, player_id int, team int, place int, weight float8, party int);
\\copy matches FROM '${csv}' CSV
CREATE INDEX ON matches (period);
ANALYZE matches;
CALL glicko2_guard_games('matches');
CREATE TABLE r_today (player_id int PRIMARY KEY, rating glicko2_rating);
CREATE TABLE h_today (player_id int, period int, rating glicko2_rating);
CREATE TABLE r_mates (player_id int PRIMARY KEY, rating glicko2_rating);
CREATE TABLE h_mates (player_id int, period int, rating glicko2_rating);
CALL glicko2_teammates_create('${schema}.mates', 'r_mates');
CREATE TABLE s_mates (period int, player_a int, player_b int, covariance float8);
`;
    for (let p = 1; p <= periods; p++)
      sql += `CALL glicko2_close_matches('r_today', 'matches', ${p}, '${method}', history => 'h_today'${edgeArgs});
CALL glicko2_close_matches('r_mates', 'matches', ${p}, '${method}', history => 'h_mates', teammates => 'mates'${edgeArgs});
INSERT INTO s_mates SELECT ${p}, player_a, player_b, covariance FROM mates;
`;
    psql(sql);
    psql(`\\copy (SELECT 'today', period, player_id, (rating).rating, (rating).rd, (rating).volatility FROM ${schema}.h_today UNION ALL SELECT 'mates', period, player_id, (rating).rating, (rating).rd, (rating).volatility FROM ${schema}.h_mates) TO '${out}' CSV
\\copy (SELECT period, player_a, player_b, covariance FROM ${schema}.s_mates) TO '${pairs}' CSV
`);
    return readFriends(out, pairs, periods);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// rateFriends' and rateFriendsLive's result from their CSVs: out (rater
// 'today' or 'mates', period, player, rating, rd, volatility) and pairs
// (period, player_a, player_b, covariance).
function readFriends(out, pairs, periods) {
  const empty = () => Array.from({ length: periods }, () => ({ ratings: new Map(), store: new Map() }));
  const res = { today: empty(), teammates: empty() };
  for (const line of readFileSync(out, 'utf8').split('\n')) {
    if (!line) continue;
    const [m, p, id, rating, rd, volatility] = line.split(',');
    res[m === 'today' ? 'today' : 'teammates'][Number(p) - 1].ratings.set(Number(id), { rating: Number(rating), rd: Number(rd), volatility: Number(volatility) });
  }
  for (const line of readFileSync(pairs, 'utf8').split('\n')) {
    if (!line) continue;
    const [p, a, b, c] = line.split(',');
    res.teammates[Number(p) - 1].store.set(`${a},${b}`, Number(c));
  }
  res.today.forEach((c) => { c.store = null; });
  return res;
}

// The edges of a friend league as glicko2_fit_matches' arguments.
const fitEdgeArgs = (edges) => (edges ? `, party_advantages => '{${edges.party}}', size_advantages => '{${edges.size}}', party_column => 'party'` : '');

// glicko2_fit_matches' log loss of one friend league (rateFriends' schema)
// with the world's method at tau 0.5, with and without the teammates store
// (teammates => true / false), the edges as the closes had them.
export function fitFriends(schema, method, edges = null) {
  const q = (t) => Number(psql(`SELECT log_loss FROM glicko2_fit_matches('${schema}.matches', ARRAY['${method}'], '{0.5}'${fitEdgeArgs(edges)}, teammates => ${t});`).trim());
  return { teammates: q(true), today: q(false) };
}

// The prior a friend league would choose (rateFriends' schema): fitPrior with
// or without the teammates store, the edges as the closes have them.
export const fitFriendsPrior = (schema, method, through, candidates, edges, teammates) =>
  fitPrior(schema, method, through, candidates, { args: fitEdgeArgs(edges), teammates });

// The edges a friend league would fit (rateFriends' schema):
// glicko2_fit_team_advantages with the world's method at tau 0.5 and max_rd,
// the party column 'party'.  Returns { party, size, logLoss, evaluations,
// partySe, sizeSe } (a standard error null where not fitted or determined).
export function fitFriendsEdges(schema, method, maxRd) {
  const [party, size, logLoss, , evaluations, partySe, sizeSe] = psql(`SELECT * FROM glicko2_fit_team_advantages('${schema}.matches', '${method}', 0.5, ${maxRd}, 'party');`)
    .trim().split('|').map((v) => (v === '' ? null : Number(v)));
  return { party, size, logLoss, evaluations, partySe, sizeSe };
}

// glicko2_fit_matches' log loss of a friend league (the store) at max_rd
// with the edges { party, size }.
export const friendsLoss = (schema, method, maxRd, edges) =>
  Number(psql(`SELECT log_loss FROM glicko2_fit_matches('${schema}.matches', ARRAY['${method}'], '{0.5}', '{${maxRd}}',
    party_advantages => '{${edges.party}}', size_advantages => '{${edges.size}}', party_column => 'party');`).trim());

// The max_rd a friend league would fit with the edges it fitted
// (rateFriends' schema): fitPrior with the store and those edges.
export const fitFriendsPriorAt = (schema, method, through, candidates, edges) =>
  fitPrior(schema, method, through, candidates, { args: `, party_advantages => '{${edges.party}}', size_advantages => '{${edges.size}}', party_column => 'party'`, teammates: true });

// A friend league rated live: every match its own INSERT, in match order,
// into a matches table with the live trigger glicko2_rate_matches (period
// '1 day', a league period a day, its matches spread over the day), once
// without and once with a teammates store ('teammates=...'); fullLeavers and
// edges as rateFriends.  Returns { today, teammates } as rateFriends: per
// period the ratings as of the next period's start (RD grown to it by
// glicko2_rating_at, as matchmaking would read them) and the store then.
export function rateFriendsLive(schema, matches, periods, method, { fullLeavers = false, edges = null } = {}) {
  const opts = `'method=${method}', 'period=1 day'` +
    (edges ? `, 'party_column=party', 'party_advantage=${edges.party}', 'size_advantage=${edges.size}'` : '');
  const day = 86400000, start = Date.UTC(2026, 0, 1);
  const dir = mkdtempSync(join(tmpdir(), 'glicko2-eval-'));
  try {
    const csv = join(dir, 'matches.csv'), out = join(dir, 'ratings.csv'), pairs = join(dir, 'pairs.csv');
    const count = new Map(), seen = new Map(), rows = [];
    for (const m of matches) count.set(m.period, (count.get(m.period) ?? 0) + 1);
    for (const m of matches) {
      const k = seen.get(m.period) ?? 0;
      seen.set(m.period, k + 1);
      const at = new Date(start + (m.period - 1) * day + Math.floor((k * (day - 1000)) / count.get(m.period))).toISOString();
      m.teams.forEach((t, ti) => t.players.forEach((id, j) =>
        rows.push([m.id, m.period, id, ti + 1, t.place, fullLeavers ? 1 : t.weight[j], t.party[j] ?? '', at].join(','))));
    }
    writeFileSync(csv, rows.join('\n') + '\n');
    let sql = `SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS glicko2;
DROP SCHEMA IF EXISTS ${schema} CASCADE;
CREATE SCHEMA ${schema};
SET search_path = ${schema}, public;
CREATE TABLE src (match_id int, period int, player_id int, team int, place int, weight float8, party int, played_at timestamptz);
\\copy src FROM '${csv}' CSV
CREATE INDEX ON src (match_id);
CREATE TABLE l_today (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
CREATE TABLE l_mates (LIKE l_today INCLUDING ALL);
CALL glicko2_teammates_create('${schema}.mates', '${schema}.l_mates');
CREATE TABLE m_today (match_id int, player_id int, team int, place int, played_at timestamptz, weight float8, party int,
                      PRIMARY KEY (match_id, player_id));
CREATE TABLE m_mates (LIKE m_today INCLUDING ALL);
CREATE TRIGGER rate AFTER INSERT ON m_today REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('l_today', ${opts});
CREATE TRIGGER rate AFTER INSERT ON m_mates REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('l_mates', ${opts}, 'teammates=mates');
CREATE TABLE snap (rater text, period int, player_id int, rating glicko2_rating);
CREATE TABLE s_mates (period int, player_a int, player_b int, covariance float8);
CREATE PROCEDURE rate_period(p int, period_end timestamptz) LANGUAGE plpgsql AS $$
DECLARE
  m record;
BEGIN
  FOR m IN SELECT DISTINCT match_id, played_at FROM src WHERE period = p ORDER BY played_at, match_id LOOP
    INSERT INTO m_today SELECT match_id, player_id, team, place, played_at, weight, party FROM src WHERE match_id = m.match_id;
    INSERT INTO m_mates SELECT match_id, player_id, team, place, played_at, weight, party FROM src WHERE match_id = m.match_id;
  END LOOP;
  INSERT INTO snap SELECT 'today', p, player_id, glicko2_rating_at(rating, rated_at, period_end, '1 day') FROM l_today;
  INSERT INTO snap SELECT 'mates', p, player_id, glicko2_rating_at(rating, rated_at, period_end, '1 day') FROM l_mates;
  INSERT INTO s_mates SELECT p, player_a, player_b, covariance FROM mates;
END $$;
`;
    for (let p = 1; p <= periods; p++)
      sql += `CALL rate_period(${p}, '${new Date(start + p * day).toISOString()}');\n`;
    psql(sql);
    psql(`\\copy (SELECT rater, period, player_id, (rating).rating, (rating).rd, (rating).volatility FROM ${schema}.snap) TO '${out}' CSV
\\copy (SELECT period, player_a, player_b, covariance FROM ${schema}.s_mates) TO '${pairs}' CSV
`);
    return readFriends(out, pairs, periods);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
