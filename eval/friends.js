// The evaluation of issue 33 (eval/README.md, "Friends"): leagues where
// friends queue together (lib/friends_sim.js), rated by the team model with
// the store of teammates' covariances, by today's team model, by TrueSkill
// and OpenSkill; scored as run.js scores (log loss from period-start
// ratings, slope, % of hidden strengths inside rating +- 2 RD).
//   node eval/run.js --friends [--together never,0.7,always] [--edges off,on]
//                    [--formats hunt,4v4] [--worlds sum,mean] [--size full|ci]
//                    [--seed N] [--no-peers] [--reference] [--leaver-policy full] [--edge-model none]
//                    [--check] [--out DIR]
// --edges on: a party edge, a size edge and leavers (friends_sim.js).
// --reference: rate with the JavaScript reference implementations only (no
// database).  Without it the extension closes the leagues (glicko2_close_matches,
// with and without a teammates store) and the references must agree (1e-9).
// --leaver-policy full: the closes count every leaver with weight 1 (a league
// that rates a leaver on his team's result in full), the scoring as always.
import { mkdirSync, writeFileSync } from 'node:fs';
import { SCALE } from './lib/sim.js';
import { PARTY_EDGE, SIZE_EDGE, simulateFriends } from './lib/friends_sim.js';
import { Metrics } from './lib/metrics.js';
import { newRating } from './lib/glicko2.js';
import { closePeriod, teamOf, teamWinProbability } from './lib/team_model.js';
import { closePeriodTeammates, teammatesWinProbability } from './lib/teammates.js';
import { loadPeers } from './lib/peers.js';
import { predictPairs } from './lib/raters.js';
import { fitFriends, rateFriends } from './lib/pg.js';

const SIZES = {
  full: { players: 600, periods: 30, rounds: 12, from: 10 },
  ci: { players: 120, periods: 8, rounds: 6, from: 3 },
};
const args = process.argv.slice(2);
const opt = (name, def) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : def; };
const flag = (name) => args.includes(`--${name}`);
const size = { ...SIZES[opt('size', 'full')] };
for (const k of ['players', 'periods', 'rounds', 'from']) if (opt(k)) size[k] = Number(opt(k));
const seed = Number(opt('seed', 33));
const outDir = opt('out', 'eval/out');
const formats = opt('formats', 'hunt,4v4').split(',');
const worlds = opt('worlds', 'sum,mean').split(',');
const TOGETHER = { never: 0, '0.7': 0.7, always: 1 };
const togethers = opt('together', 'never,0.7,always').split(',');
const edgeOpts = opt('edges', 'off,on').split(',');
const reference = flag('reference');
const fullLeavers = opt('leaver-policy', 'shares') === 'full';
// --edge-model none: leagues with edges rated without them (advantages 0);
// default: with the simulation's party and size edges, as a league that
// fitted them would (the party column and both advantages in the closes).
const edgeModel = opt('edge-model', 'given') === 'given';
let edgesNow = null;   // the edges of the league being rated (edgesOf), or null
const log = (s) => console.error(s);
const peers = flag('no-peers') ? [] : (await loadPeers()) ?? [];

const byPeriod = (matches) => {
  const out = Array.from({ length: size.periods }, () => []);
  for (const m of matches) out[m.period - 1].push(m);
  return out;
};
// a player's share in a match as the closes see it
const shareIn = (m, id) => {
  if (fullLeavers) return 1;
  for (const t of m.teams) { const j = t.players.indexOf(id); if (j >= 0) return t.weight[j]; }
  throw new Error(`player ${id} not in match ${m.id}`);
};

// teamOf's edges of a match: each player's party label in it.
const edgesOf = (m) => {
  const label = new Map();
  for (const t of m.teams) t.players.forEach((id, j) => label.set(id, t.party[j]));
  return { party: PARTY_EDGE, size: SIZE_EDGE, partyOf: (id) => label.get(id) };
};

// A Glicko rater: closes[k] = {ratings, store} after period k + 1.
function scoreGlicko(method, periods, strengths, closes, withStore, from = size.from) {
  const metrics = new Metrics(from);
  let state = { ratings: new Map(), store: new Map() };
  periods.forEach((matches, k) => {
    const ratingOf = (id) => state.ratings.get(id) ?? newRating();
    for (const m of matches)
      predictPairs(metrics, k + 1, m, (w, l) => {
        const e = edgesNow && edgesNow(m);
        const ta = teamOf(w.players, method, ratingOf, (id) => shareIn(m, id), e);
        const tb = teamOf(l.players, method, ratingOf, (id) => shareIn(m, id), e);
        return withStore ? teammatesWinProbability(ta, tb, state.store) : teamWinProbability(ta, tb);
      });
    state = closes[k];
    metrics.ratings(k + 1, state.ratings, strengths[k]);
  });
  return metrics.summary();
}

function referenceCloses(method, periods, withStore) {
  const closes = [];
  let state = { ratings: new Map(), store: new Map() };
  for (const matches of periods) {
    if (withStore) state = closePeriodTeammates(state.ratings, state.store, matches, method, { share: shareIn, edges: edgesNow });
    else state = { ratings: closePeriod(state.ratings, matches, method, { share: shareIn, edges: edgesNow }), store: new Map() };
    closes.push(state);
  }
  return closes;
}
function scorePeer(peer, periods, strengths) {
  const metrics = new Metrics(size.from);
  const state = new Map();
  const get = (id) => { if (!state.has(id)) state.set(id, peer.fresh()); return state.get(id); };
  periods.forEach((matches, k) => {
    const start = new Map(state);
    const at = (id) => start.get(id) ?? peer.fresh();
    for (const m of matches)
      predictPairs(metrics, k + 1, m, (w, l) => peer.winProbability(w.players.map(at), l.players.map(at)));
    for (const m of matches) {
      const teams = m.teams.map((t) => t.players.map(get));
      const partial = !fullLeavers && m.teams.some((t) => t.weight.some((x) => x < 1));
      const out = peer.rate(teams, m.teams.map((t) => t.place), partial ? m.teams.map((t) => t.weight) : null);
      m.teams.forEach((t, ti) => t.players.forEach((id, j) => state.set(id, out[ti][j])));
    }
    const pts = new Map();
    for (const [id, r] of state) pts.set(id, { rating: 1500 + SCALE * peer.unit * r.mu, rd: SCALE * peer.unit * r.sigma });
    metrics.ratings(k + 1, pts, strengths[k]);
  });
  return metrics.summary();
}

// Who queues together: coverage among friends who always do and among solos.
function coverageBy(groups, strengths, closes) {
  const friend = new Set(groups.flat());
  const c = { friends: [0, 0], solos: [0, 0] };
  closes.forEach((s, k) => {
    if (k + 1 < size.from) return;
    for (const [id, r] of s.ratings) {
      const x = 1500 + SCALE * strengths[k][id - 1];
      const b = friend.has(id) ? c.friends : c.solos;
      b[0] += Math.abs(r.rating - x) <= 2 * r.rd ? 1 : 0; b[1]++;
    }
  });
  return { friends: 100 * c.friends[0] / c.friends[1], solos: 100 * c.solos[0] / c.solos[1] };
}

const results = [], checks = [];
let failed = false;
function agreement(what, ext, ref) {
  let worst = 0;
  ext.forEach((close, k) => {
    for (const [id, r] of close.ratings) {
      const q = ref[k].ratings.get(id);
      if (!q) { worst = Infinity; continue; }
      for (const f of ['rating', 'rd', 'volatility']) worst = Math.max(worst, Math.abs(r[f] - q[f]) / Math.max(1, Math.abs(q[f])));
    }
    if (close.ratings.size !== ref[k].ratings.size) worst = Infinity;
    if (close.store) {
      for (const [p, c] of ref[k].store) {
        const e = close.store.get(p);
        worst = Math.max(worst, e === undefined ? Infinity : Math.abs(e - c) / Math.max(1, Math.abs(c)));
      }
      if (close.store.size !== ref[k].store.size) worst = Infinity;
    }
  });
  const ok = worst <= 1e-9;
  checks.push({ check: `extension = reference, ${what}`, worst, ok });
  if (!ok) failed = true;
}

const t0 = Date.now();
for (const format of formats)
  for (const tg of togethers)
    for (const edges of edgeOpts) {
      const league = simulateFriends(format, { ...size, seed, together: TOGETHER[tg], edges: edges === 'on', leavers: edges === 'on' });
      for (const world of worlds) {
        const matches = league.worlds[world];
        const periods = byPeriod(matches);
        const label = `${format} ${world} together ${tg}${edges === 'on' ? ' +edges+leavers' : ''}`;
        edgesNow = edges === 'on' && edgeModel ? edgesOf : null;
        const row = (rater, source, r, extra = {}) => {
          results.push({ format, world, together: tg, edges, rater, source, ...r, ...extra });
          log(`${label} ${rater} (${source}): log loss ${r.log_loss.toFixed(4)}, slope ${r.slope.toFixed(3)}, inside ${r.coverage.toFixed(1)} %, mean RD ${r.mean_rd.toFixed(0)}` +
              (extra.friends !== undefined ? `, friends ${extra.friends.toFixed(1)} %, solos ${extra.solos.toFixed(1)} %` : ''));
        };
        const refToday = referenceCloses(world, periods, false);
        const refMates = referenceCloses(world, periods, true);
        let today = refToday, mates = refMates, source = 'reference';
        if (!reference) {
          const schema = `f_${format.replace(/\W/g, '')}_${world}_${tg.replace(/\W/g, '')}_${edges}`;
          const ext = rateFriends(schema, matches, size.periods, world,
                                  { fullLeavers, edges: edgesNow ? { party: PARTY_EDGE, size: SIZE_EDGE } : null });
          agreement(`${label} today`, ext.today, refToday);
          agreement(`${label} teammates`, ext.teammates, refMates);
          today = ext.today; mates = ext.teammates; source = 'extension';
          // glicko2_fit_matches scores the league as the closes rated it
          // (with --check: its log loss = the harness's, 1e-9)
          if (flag('check')) {
            const fit = fitFriends(schema, world, edgesNow ? { party: PARTY_EDGE, size: SIZE_EDGE } : null);
            for (const [k, closes, store] of [['teammates', mates, true], ['today', today, false]]) {
              const want = scoreGlicko(world, periods, league.strengths, closes, store, 1).log_loss;
              const worst = Math.abs(fit[k] - want) / want;
              checks.push({ check: `glicko2_fit_matches = harness log loss, ${label} ${k}`, worst, ok: worst <= 1e-9 });
              if (!(worst <= 1e-9)) failed = true;
            }
          }
        }
        row('teammates', source, scoreGlicko(world, periods, league.strengths, mates, true), coverageBy(league.groups, league.strengths, mates));
        row('today', source, scoreGlicko(world, periods, league.strengths, today, false), coverageBy(league.groups, league.strengths, today));
        for (const peer of peers) row(peer.name, 'npm', scorePeer(peer, periods, league.strengths));
      }
    }

let md = `| format | world | together | edges, leavers | rater | log loss | slope | % inside ±2 RD | friends | solos | mean RD |\n|---|---|---|---|---|---|---|---|---|---|---|\n`;
for (const r of results)
  md += `| ${r.format === 'hunt' ? 'Hunt' : r.format} | ${r.world} | ${r.together} | ${r.edges} | ${r.rater === 'teammates' ? '**teammates**' : r.rater} | ${r.log_loss.toFixed(4)} | ${r.slope.toFixed(3)} | ${r.coverage.toFixed(1)} | ${r.friends === undefined ? '' : r.friends.toFixed(1)} | ${r.solos === undefined ? '' : r.solos.toFixed(1)} | ${r.mean_rd.toFixed(0)} |\n`;
if (checks.length) {
  md += `\n| check | worst difference | |\n|---|---|---|\n`;
  for (const c of checks) md += `| ${c.check} | ${c.worst.toExponential(2)} | ${c.ok ? 'ok' : 'FAILED'} |\n`;
}
const settings = { ...size, seed, formats, worlds, together: togethers, edges: edgeOpts, leaver_policy: fullLeavers ? 'full' : 'shares',
                   edge_model: edgeModel ? 'given' : 'none',
                   peers: peers.map((p) => p.name), reference, seconds: (Date.now() - t0) / 1000 };
mkdirSync(outDir, { recursive: true });
writeFileSync(`${outDir}/friends.json`, JSON.stringify({ settings, results, checks }, null, 1) + '\n');
writeFileSync(`${outDir}/friends.md`, md);
console.log(md);
console.log(`settings: ${JSON.stringify(settings)}`);
if (flag('check') && failed) process.exit(1);
