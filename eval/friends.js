// The evaluation of issue 33 (eval/README.md, "Friends"): leagues where
// friends queue together (lib/friends_sim.js), rated by the team model with
// the store of teammates' covariances, by today's team model, by TrueSkill
// and OpenSkill; scored as run.js scores (log loss from period-start
// ratings, slope, % of hidden strengths inside rating +- 2 RD).
//   node eval/run.js --friends [--together never,0.7,always] [--edges off,on]
//                    [--formats hunt,4v4] [--worlds sum,mean] [--size full|ci]
//                    [--seed N] [--no-peers] [--reference] [--leaver-policy full] [--edge-model none]
//                    [--fit-prior] [--prior-candidates 150,200,...] [--fit-through P] [--sd POINTS]
//                    [--live] [--fit-edges [--edge-curve]] [--edges-at P,S] [--check] [--out DIR]
// --edges on: a party edge, a size edge and leavers (friends_sim.js).
// --reference: rate with the JavaScript reference implementations only (no
// database).  Without it the extension closes the leagues (glicko2_close_matches,
// with and without a teammates store) and the references must agree (1e-9).
// --leaver-policy full: the closes count every leaver with weight 1 (a league
// that rates a leaver on his team's result in full), the scoring as always.
// --fit-prior: also each Glicko rater at the max_rd (the league's prior: new
// players start at 1500 / least(350, max_rd)) a league would choose with
// glicko2_fit_matches over the candidates on periods 1..--fit-through only
// (the burn-in), with and without the store as it rates (teammates => true /
// false) and the edges given; rows with prior 'fitted' beside the default's.
// --fit-edges: the party and size advantages each league would fit, against
// the truth (needs the database): max_rd fitted on the burn-in without edges
// (as --fit-prior does), then glicko2_fit_team_advantages at it on the whole
// league, with the store; and glicko2_fit_matches' log loss there with the
// fitted edges, with none and with the truth.  --edge-curve: also the log
// loss 10, 20 and 40 points either side of each fitted advantage.
// --edges-at P,S: every league rated with party advantage P and size
// advantage S (a league's fitted edges) instead of the simulation's: the
// leagues without edges too, as one that fitted an edge not there would.
// --live: also the league rated live (glicko2_rate_matches, one INSERT a
// match, a period a day; needs the database even with --reference), without
// ('live') and with a teammates store ('live store'), scored from the
// ratings as of each period's start as the closes are.
import { mkdirSync, writeFileSync } from 'node:fs';
import { SCALE } from './lib/sim.js';
import { PARTY_EDGE, SIZE_EDGE, simulateFriends } from './lib/friends_sim.js';
import { Metrics, leastSquares } from './lib/metrics.js';
import { newRating } from './lib/glicko2.js';
import { closePeriod, teamOf, teamWinProbability } from './lib/team_model.js';
import { closePeriodTeammates, teammatesWinProbability } from './lib/teammates.js';
import { loadPeers } from './lib/peers.js';
import { predictPairs } from './lib/raters.js';
import { fitFriends, fitFriendsEdges, fitFriendsPrior, fitFriendsPriorAt, friendsLoss, rateFriends, rateFriendsLive } from './lib/pg.js';

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
const sd0 = Number(opt('sd', 250)) / SCALE;   // the strengths' SD in period 1 (points)
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
const fitPriorOn = flag('fit-prior');
const liveOn = flag('live');
const fitEdgesOn = flag('fit-edges');
const edgeCurveOn = flag('edge-curve');
const priorCandidates = opt('prior-candidates', '150,200,250,300,350').split(',').map(Number);
const fitThrough = Number(opt('fit-through', size.from - 1));
const freshAt = (maxRd) => ({ ...newRating(), rd: Math.min(350, maxRd) });
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

// The edges the leagues with edges are rated with: the simulation's, or
// --edges-at P,S (as a league that fitted P and S would rate itself).
const RATED = opt('edges-at') ? Object.fromEntries(opt('edges-at').split(',').map((v, k) => [k ? 'size' : 'party', Number(v)]))
  : { party: PARTY_EDGE, size: SIZE_EDGE };

// teamOf's edges of a match: each player's party label in it.
const edgesOf = (m) => {
  const label = new Map();
  for (const t of m.teams) t.players.forEach((id, j) => label.set(id, t.party[j]));
  return { ...RATED, partyOf: (id) => label.get(id) };
};

// A Glicko rater: closes[k] = {ratings, store} after period k + 1.
// fresh: a new player's rating (the closes' least(350, max_rd)).
function scoreGlicko(method, periods, strengths, closes, withStore, from = size.from, fresh = newRating()) {
  const metrics = new Metrics(from);
  let state = { ratings: new Map(), store: new Map() };
  periods.forEach((matches, k) => {
    const ratingOf = (id) => state.ratings.get(id) ?? fresh;
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
  return { ...metrics.summary(), slope_by_period: metrics.slope };
}

function referenceCloses(method, periods, withStore, maxRd = 350) {
  const closes = [];
  let state = { ratings: new Map(), store: new Map() };
  const initialRd = freshAt(maxRd).rd;
  for (const matches of periods) {
    if (withStore) state = closePeriodTeammates(state.ratings, state.store, matches, method, { maxRd, share: shareIn, edges: edgesNow });
    else state = { ratings: closePeriod(state.ratings, matches, method, { maxRd, initialRd, share: shareIn, edges: edgesNow }), store: new Map() };
    closes.push(state);
  }
  return closes;
}
// The reference's choice of max_rd: the log loss of periods 1..fitThrough
// at each candidate (glicko2_fit_matches' score), the lowest chosen.
function referencePriorFit(method, periods, strengths, withStore) {
  const early = periods.slice(0, fitThrough), losses = {};
  let best = null;
  for (const c of priorCandidates) {
    losses[c] = scoreGlicko(method, early, strengths, referenceCloses(method, early, withStore, c), withStore, 1, freshAt(c)).log_loss;
    if (best === null || losses[c] < losses[best]) best = c;
  }
  return { best, losses };
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

// Who queues together: coverage and slope (metrics.js's, per period then
// averaged) among the friends and among the solos; and the friends' slope
// split in two: of each group's mean strength on its mean rating
// (slope_group_mean), and of each friend's strength minus his group's mean on
// his rating minus its mean (slope_within: how the split among friends is
// shrunk), with the SDs of those differences (points).
function coverageBy(groups, strengths, closes) {
  const friend = new Set(groups.flat());
  const c = { friends: new Metrics(size.from), solos: new Metrics(size.from) };
  const split = { mean: [], within: [], sdRating: [], sdStrength: [] };
  const mean = (a) => a.reduce((x, y) => x + y, 0) / a.length;
  closes.forEach((s, k) => {
    const part = { friends: new Map(), solos: new Map() };
    for (const [id, r] of s.ratings) part[friend.has(id) ? 'friends' : 'solos'].set(id, r);
    for (const b of ['friends', 'solos']) if (part[b].size) c[b].ratings(k + 1, part[b], strengths[k]);
    if (k + 1 < size.from) return;
    const gm = [[], []], wd = [[], []];
    for (const g of groups) {
      if (!g.every((id) => s.ratings.has(id))) continue;
      const r = g.map((id) => s.ratings.get(id).rating), x = g.map((id) => 1500 + SCALE * strengths[k][id - 1]);
      gm[0].push(mean(r)); gm[1].push(mean(x));
      g.forEach((_, j) => { wd[0].push(r[j] - mean(r)); wd[1].push(x[j] - mean(x)); });
    }
    if (gm[0].length < 2) return;
    split.mean.push(leastSquares(...gm).slope);
    split.within.push(leastSquares(...wd).slope);
    split.sdRating.push(Math.sqrt(mean(wd[0].map((d) => d * d))));
    split.sdStrength.push(Math.sqrt(mean(wd[1].map((d) => d * d))));
  });
  const f = c.friends.summary(), o = c.solos.summary();
  return { friends: f.coverage, solos: o.coverage, slope_friends: f.slope, slope_solos: o.slope,
           slope_group_mean: mean(split.mean), slope_within: mean(split.within),
           sd_within_rating: mean(split.sdRating), sd_within_strength: mean(split.sdStrength) };
}

const results = [], checks = [], edgeFits = [];
let failed = false;
function agreement(what, ext, ref) {
  // (where: the quantity and the period of the worst difference, both values)
  let worst = 0, where = '';
  const note = (d, k, f, e, r) => {
    if (Number.isNaN(d) || d > worst) { worst = Number.isNaN(d) ? Infinity : d; where = `${f}, period ${k + 1}: ${e} (reference ${r})`; }
  };
  ext.forEach((close, k) => {
    for (const [id, r] of close.ratings) {
      const q = ref[k].ratings.get(id);
      if (!q) { worst = Infinity; continue; }
      for (const f of ['rating', 'rd', 'volatility']) note(Math.abs(r[f] - q[f]) / Math.max(1, Math.abs(q[f])), k, f, r[f], q[f]);
    }
    if (close.ratings.size !== ref[k].ratings.size) worst = Infinity;
    if (close.store) {
      for (const [p, c] of ref[k].store) {
        const e = close.store.get(p);
        if (e === undefined) worst = Infinity;
        else note(Math.abs(e - c) / Math.max(1, Math.abs(c)), k, 'covariance', e, c);
      }
      if (close.store.size !== ref[k].store.size) worst = Infinity;
    }
  });
  const ok = worst <= 1e-9;
  checks.push({ check: `extension = reference, ${what}`, worst, ok, where });
  if (!ok) failed = true;
}

const t0 = Date.now();
for (const format of formats)
  for (const tg of togethers)
    for (const edges of edgeOpts) {
      const league = simulateFriends(format, { ...size, seed, sd0, together: TOGETHER[tg], edges: edges === 'on', leavers: edges === 'on' });
      for (const world of worlds) {
        const matches = league.worlds[world];
        const periods = byPeriod(matches);
        const label = `${format} ${world} together ${tg}${edges === 'on' ? ' +edges+leavers' : ''}`;
        edgesNow = (edges === 'on' || opt('edges-at')) && edgeModel ? edgesOf : null;
        const row = (rater, source, r, extra = {}) => {
          results.push({ format, world, together: tg, edges, rater, source, ...r, ...extra });
          log(`${label} ${rater}${extra.max_rd ? ` max_rd ${extra.max_rd} (${extra.prior})` : ''} (${source}): log loss ${r.log_loss.toFixed(4)}, slope ${r.slope.toFixed(3)}, inside ${r.coverage.toFixed(1)} %, mean RD ${r.mean_rd.toFixed(0)}` +
              (extra.friends !== undefined ? `, friends ${extra.friends.toFixed(1)} %, solos ${extra.solos.toFixed(1)} %` : ''));
        };
        const refToday = referenceCloses(world, periods, false);
        const refMates = referenceCloses(world, periods, true);
        let today = refToday, mates = refMates, source = 'reference';
        const edgeArgs = edgesNow ? RATED : null;
        const schema = `f_${format.replace(/\W/g, '')}_${world}_${tg.replace(/\W/g, '')}_${edges}`;
        if (!reference) {
          const ext = rateFriends(schema, matches, size.periods, world, { fullLeavers, edges: edgeArgs });
          agreement(`${label} today`, ext.today, refToday);
          agreement(`${label} teammates`, ext.teammates, refMates);
          today = ext.today; mates = ext.teammates; source = 'extension';
          // glicko2_fit_matches scores the league as the closes rated it
          // (with --check: its log loss = the harness's, 1e-9)
          if (flag('check')) {
            const fit = fitFriends(schema, world, edgeArgs);
            for (const [k, closes, store] of [['teammates', mates, true], ['today', today, false]]) {
              const want = scoreGlicko(world, periods, league.strengths, closes, store, 1).log_loss;
              const worst = Math.abs(fit[k] - want) / want;
              checks.push({ check: `glicko2_fit_matches = harness log loss, ${label} ${k}`, worst, ok: worst <= 1e-9 });
              if (!(worst <= 1e-9)) failed = true;
            }
          }
        }
        if (fitEdgesOn && !reference) {
          const truth = edges === 'on' ? { party: PARTY_EDGE, size: SIZE_EDGE } : { party: 0, size: 0 };
          const none = { party: 0, size: 0 };
          const t = Date.now();
          const prior = fitFriendsPriorAt(schema, world, fitThrough, priorCandidates, none);
          const fit = fitFriendsEdges(schema, world, prior.best);
          const loss = { fitted: fit.logLoss, none: friendsLoss(schema, world, prior.best, none), truth: friendsLoss(schema, world, prior.best, truth) };
          const seconds = (Date.now() - t) / 1000;
          // --edge-curve: the log loss along each fitted advantage (the
          // other at its fit), to see the curve the standard error reads
          const curve = edgeCurveOn ? { party: {}, size: {} } : undefined;
          if (curve)
            for (const k of ['party', 'size'])
              if (fit[`${k}Se`] != null)
                for (const d of [-40, -20, -10, 10, 20, 40])
                  curve[k][d] = friendsLoss(schema, world, prior.best, { ...fit, [k]: fit[k] + d });
          if (curve) log(`${label}: log loss along the fit (offset: loss) ${JSON.stringify(curve)}`);
          edgeFits.push({ format, world, together: tg, edges, truth, max_rd: prior.best, fit, loss, seconds, curve });
          log(`${label}: edges fitted ${fit.party.toFixed(1)} ± ${fit.partySe?.toFixed(1) ?? '-'}, ${fit.size.toFixed(1)} ± ${fit.sizeSe?.toFixed(1) ?? '-'} at max_rd ${prior.best} (truth ${truth.party}, ${truth.size}); ` +
              `log loss ${loss.fitted.toFixed(5)} fitted, ${loss.none.toFixed(5)} none, ${loss.truth.toFixed(5)} truth (${seconds} s, ${fit.evaluations} replays)`);
        }
        // The prior a league would fit on the burn-in (the reference's; with
        // the extension glicko2_fit_matches', which must agree), the closes at it.
        const fits = {}, fitted = {};
        if (fitPriorOn) {
          for (const [k, store] of [['teammates', true], ['today', false]]) {
            fits[k] = referencePriorFit(world, periods, league.strengths, store);
            if (!reference) {
              const ext = fitFriendsPrior(schema, world, fitThrough, priorCandidates, edgeArgs, store);
              let worst = ext.best === fits[k].best ? 0 : Infinity;
              for (const c of priorCandidates)
                worst = Math.max(worst, Math.abs(ext.losses[c] - fits[k].losses[c]) / fits[k].losses[c]);
              checks.push({ check: `glicko2_fit_matches' max_rd = the reference's, ${label} ${k}`, worst, ok: worst <= 1e-9 });
              if (!(worst <= 1e-9)) failed = true;
              fits[k] = ext;
            }
            fitted[k] = referenceCloses(world, periods, store, fits[k].best);
            log(`${label} ${k}: max_rd ${fits[k].best} fitted on periods 1-${fitThrough} (${JSON.stringify(fits[k].losses)})`);
          }
          // the extension's closes at the fitted max_rds (one league a max_rd)
          if (!reference)
            for (const rd of new Set(Object.values(fits).map((f) => f.best))) {
              const ext = rateFriends(`${schema}_p${rd}`, matches, size.periods, world, { fullLeavers, edges: edgeArgs, maxRd: rd });
              for (const k of Object.keys(fits)) {
                if (fits[k].best !== rd) continue;
                agreement(`${label} ${k} at max_rd ${rd}`, ext[k], fitted[k]);
                fitted[k] = ext[k];
              }
            }
        }
        for (const [k, store] of [['teammates', true], ['today', false]]) {
          if (fits[k]) {
            const rd = fits[k].best;
            row(k, source, scoreGlicko(world, periods, league.strengths, fitted[k], store, size.from, freshAt(rd)),
                { ...coverageBy(league.groups, league.strengths, fitted[k]), max_rd: rd, prior: 'fitted', losses: fits[k].losses });
          }
          const closes = k === 'teammates' ? mates : today;
          row(k, source, scoreGlicko(world, periods, league.strengths, closes, store),
              { ...coverageBy(league.groups, league.strengths, closes), ...(fitPriorOn ? { max_rd: 350, prior: 'default' } : {}) });
        }
        if (liveOn) {
          const live = rateFriendsLive(`${schema}_live`, matches, size.periods, world, { fullLeavers, edges: edgeArgs });
          for (const [k, store] of [['live store', true], ['live', false]]) {
            const closes = store ? live.teammates : live.today;
            row(k, 'extension', scoreGlicko(world, periods, league.strengths, closes, store),
                coverageBy(league.groups, league.strengths, closes));
          }
        }
        for (const peer of peers) row(peer.name, 'npm', scorePeer(peer, periods, league.strengths));
      }
    }

const fmtLeague = (r) => `${r.format === 'hunt' ? 'Hunt' : r.format} | ${r.world} | ${r.together} | ${r.edges}`;
const maxRdCell = (r) => (r.max_rd === undefined ? '' : r.prior === 'fitted' ? `${r.max_rd} (fitted)` : String(r.max_rd));
let md = `| format | world | together | edges, leavers | rater |${fitPriorOn ? ' max_rd |' : ''} log loss | slope | % inside ±2 RD | friends | solos | slope friends | slope solos | mean RD |\n|---|---|---|---|---|${fitPriorOn ? '---|' : ''}---|---|---|---|---|---|---|---|\n`;
for (const r of results)
  md += `| ${fmtLeague(r)} | ${r.rater === 'teammates' ? '**store**' : r.rater} |${fitPriorOn ? ` ${maxRdCell(r)} |` : ''} ${r.log_loss.toFixed(4)} | ${r.slope.toFixed(3)} | ${r.coverage.toFixed(1)} | ${r.friends === undefined ? '' : r.friends.toFixed(1)} | ${r.solos === undefined ? '' : r.solos.toFixed(1)} | ${r.slope_friends === undefined ? '' : r.slope_friends.toFixed(3)} | ${r.slope_solos === undefined ? '' : r.slope_solos.toFixed(3)} | ${r.mean_rd.toFixed(0)} |\n`;
if (fitPriorOn) {
  md += `\nThe log loss of periods 1–${fitThrough} at each candidate max_rd (the fit's own numbers; bold: chosen):\n\n`;
  md += `| format | world | together | edges, leavers | rater | ${priorCandidates.map((c) => `at ${c}`).join(' | ')} |\n|---|---|---|---|---|${priorCandidates.map(() => '---').join('|')}|\n`;
  for (const r of results.filter((x) => x.prior === 'fitted'))
    md += `| ${fmtLeague(r)} | ${r.rater === 'teammates' ? 'store' : r.rater} | ${priorCandidates.map((c) => (c === r.max_rd ? `**${r.losses[c].toFixed(5)}**` : r.losses[c].toFixed(5))).join(' | ')} |\n`;
}
if (edgeFits.length) {
  const within = (x, t) => (t === 0 ? x === 0 : Math.abs(x - t) <= 0.25 * t);
  const pair = (e) => `${e.party.toFixed(1)}, ${e.size.toFixed(1)}`;
  const se = (v) => (v == null ? '–' : v.toFixed(1));
  md += `\nThe edges each league would fit (party, size in points): max_rd fitted on periods 1–${fitThrough} without edges, then glicko2_fit_team_advantages at it (the store, the world's method), with its standard errors; within 25 % of the truth (where the truth is 0: fitted 0); the log loss of the whole league with the fitted edges, with none and with the truth:\n\n`;
  md += `| format | world | together | edges, leavers | truth | max_rd | fitted | standard errors | within 25 % | log loss: fitted | none | truth | fitted − none | replays |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n`;
  for (const f of edgeFits)
    md += `| ${fmtLeague(f)} | ${pair(f.truth)} | ${f.max_rd} | ${pair(f.fit)} | ${se(f.fit.partySe)}, ${se(f.fit.sizeSe)} | ${within(f.fit.party, f.truth.party) ? 'yes' : 'no'}, ${within(f.fit.size, f.truth.size) ? 'yes' : 'no'} | ` +
          `${f.loss.fitted.toFixed(5)} | ${f.loss.none.toFixed(5)} | ${f.loss.truth.toFixed(5)} | ${(f.loss.fitted - f.loss.none).toFixed(5)} | ${f.fit.evaluations} |\n`;
}
if (checks.length) {
  md += `\n| check | worst difference | | where |\n|---|---|---|---|\n`;
  for (const c of checks) md += `| ${c.check} | ${c.worst.toExponential(2)} | ${c.ok ? 'ok' : 'FAILED'} | ${c.where ?? ''} |\n`;
}
const settings = { ...size, seed, sd: sd0 * SCALE, formats, worlds, together: togethers, edges: edgeOpts, leaver_policy: fullLeavers ? 'full' : 'shares',
                   edge_model: edgeModel ? 'given' : 'none',
                   ...(fitPriorOn ? { prior_candidates: priorCandidates, fit_through: fitThrough } : {}),
                   rated_edges: RATED, peers: peers.map((p) => p.name), reference, live: liveOn, fit_edges: fitEdgesOn, seconds: (Date.now() - t0) / 1000 };
mkdirSync(outDir, { recursive: true });
writeFileSync(`${outDir}/friends.json`, JSON.stringify({ settings, results, checks, edge_fits: edgeFits }, null, 1) + '\n');
writeFileSync(`${outDir}/friends.md`, md);
console.log(md);
console.log(`settings: ${JSON.stringify(settings)}`);
if (flag('check') && failed) process.exit(1);
