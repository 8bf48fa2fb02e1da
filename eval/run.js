// The evaluation of issue 25 (eval/README.md): simulated team leagues with
// hidden strengths, rated by the extension's methods, by an independent
// reference implementation of the team model, and by TrueSkill and OpenSkill;
// scored by predictive log loss, correlation, slope and interval coverage.
//   node eval/run.js [--size full|ci] [--players N] [--periods N] [--rounds N]
//                    [--from PERIOD] [--seed N] [--out DIR] [--formats a,b]
//                    [--worlds sum,mean] [--sd POINTS] [--initial-rd RD] [--no-peers] [--check]
//                    [--fit-prior] [--prior-candidates 150,200,...] [--fit-through P]
// Needs a cluster (PGHOST...) with the extension installed: eval/run.sh.
import { mkdirSync, writeFileSync } from 'node:fs';
import { FORMATS, SCALE, simulate } from './lib/sim.js';
import { byPeriod, glickoProbability, referenceCloses, scoreGlicko, scorePeer } from './lib/raters.js';
import { loadPeers } from './lib/peers.js';
import { extensionMethods, fitMatches, fitPrior, psql, rateWithExtension } from './lib/pg.js';

// --friends: issue 33's leagues where friends queue together (friends.js).
if (process.argv.includes('--friends')) {
  await import('./friends.js');
  process.exit(0);
}

const SIZES = {
  // issue 25's leagues
  full: { players: 600, periods: 30, rounds: 12, from: 10 },
  // seconds, for CI (test/shell/evaluation.sh)
  ci: { players: 48, periods: 8, rounds: 6, from: 3 },
};

const args = process.argv.slice(2);
const opt = (name, def) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : def; };
const flag = (name) => args.includes(`--${name}`);
const size = { ...SIZES[opt('size', 'full')] };
if (!size.players) throw new Error('--size must be full or ci');
for (const k of ['players', 'periods', 'rounds', 'from']) if (opt(k)) size[k] = Number(opt(k));
const seed = Number(opt('seed', 25));
const outDir = opt('out', 'eval/out');
const formats = opt('formats', Object.keys(FORMATS).join(',')).split(',');
const worlds = opt('worlds', 'sum,mean').split(',');
const initialRd = opt('initial-rd', null);
// The SD of the strengths in period 1, in points (Glicko's prior for a new
// player, RD 350, is a population of SD 350).
const sd = Number(opt('sd', 250));
if (!(sd > 0 && sd < Infinity)) throw new Error('--sd must be a positive number of points');
const GLICKO = ['sum', 'mean', 'individual', 'composite'];
// --fit-prior: the protocol a league would follow to choose its max_rd (the
// RD of knowing nothing about a player): glicko2_fit_matches over these
// candidates on periods 1..fitThrough only (default: the burn-in, before the
// first period scored), then the whole league closed with the chosen one.
const fitPriorOn = flag('fit-prior');
const priorCandidates = opt('prior-candidates', '150,200,250,300,350').split(',').map(Number);
const fitThrough = Number(opt('fit-through', size.from - 1));
const fitted = [];

const inExtension = extensionMethods(GLICKO);
const peers = flag('no-peers') ? [] : (await loadPeers()) ?? [];
if (!flag('no-peers') && peers.length === 0)
  console.error('TrueSkill/OpenSkill not installed (cd eval && npm ci): peers left out');
const refOpts = initialRd === null ? {} : { initialRd: Number(initialRd) };
const log = (s) => console.error(s);
log(`extension methods: ${inExtension.join(', ')}; reference: sum, mean; peers: ${peers.map((p) => p.name).join(', ') || 'none'}`);

const results = [];
const checks = [];
let failed = false;

// The extension's ratings must be the reference implementation's (1e-9).
function agreement(format, world, method, ext, ref) {
  let worst = 0;
  ext.forEach((close, k) => {
    for (const [id, r] of close) {
      const q = ref[k].get(id);
      if (!q) { worst = Infinity; continue; }
      for (const f of ['rating', 'rd', 'volatility'])
        worst = Math.max(worst, Math.abs(r[f] - q[f]) / Math.max(1, Math.abs(q[f])));
    }
    if (close.size !== ref[k].size) worst = Infinity;
  });
  const ok = worst <= 1e-9;
  checks.push({ check: `extension = reference, ${format} ${world} '${method}'`, worst, ok });
  if (!ok) failed = true;
}

// The extension's glicko2_team_win_probability against the harness's formula
// (the one the predictions use), on teams of the league's last ratings.
function probabilityCheck(format, method, matches, close) {
  const ratingOf = (id) => close.get(id);
  const pairs = matches.slice(-40).flatMap((m) => m.teams.slice(1).map((t) => [m.teams[0].players, t.players]));
  const arr = (ps) => `ARRAY[${ps.map((id) => { const r = ratingOf(id); return `ROW(${r.rating},${r.rd},${r.volatility})`; }).join(',')}]::glicko2_rating[]`;
  const withMethod = method === 'sum' || method === 'mean' || inExtension.includes('sum');
  const sql = pairs.map(([a, b]) => `SELECT glicko2_team_win_probability(${arr(a)}, ${arr(b)}${withMethod ? `, '${method}'` : ''});`).join('\n');
  const got = psql(sql).trim().split('\n').map(Number);
  let worst = 0;
  pairs.forEach(([a, b], k) => { worst = Math.max(worst, Math.abs(got[k] - glickoProbability(method, a, b, ratingOf))); });
  const ok = worst <= 1e-12;
  checks.push({ check: `glicko2_team_win_probability = harness formula, ${format} '${method}'`, worst, ok });
  if (!ok) failed = true;
}

const t0 = Date.now();
for (const format of formats) {
  const league = simulate(format, { ...size, seed, sd0: sd / SCALE });
  for (const world of worlds) {
    const matches = league.worlds[world];
    const periods = byPeriod(matches, size.periods);
    const row = (method, source, r, seconds) => {
      results.push({ format, world, method, source, ...r, seconds });
      log(`${format} ${world} ${method} (${source}): log loss ${r.log_loss.toFixed(4)}, r ${r.correlation.toFixed(3)}, slope ${r.slope.toFixed(3)}, inside ${r.coverage.toFixed(1)} %, mean RD ${r.mean_rd.toFixed(0)}`);
    };
    const schema = `l_${format.replace(/\W/g, '')}_${world}`;
    const ext = rateWithExtension(schema, matches, size.periods, inExtension,
                                  { initialRd: initialRd === null ? null : Number(initialRd) });
    // glicko2_fit_matches replays the league as the closes did: its log loss
    // (every period) must be the harness's from the closes' ratings.
    const fit = flag('check') ? fitMatches(schema, inExtension) : null;
    for (const method of Object.keys(fit ?? {})) {
      if (ext.refused[method]) {
        const ok = typeof fit[method] === 'string';
        checks.push({ check: `glicko2_fit_matches refuses what the close refused, ${format} ${world} '${method}'`, worst: 0, ok });
        if (!ok) failed = true;
        continue;
      }
      const want = scoreGlicko(method, periods, league.strengths, ext.closes[method], 1).log_loss;
      const worst = typeof fit[method] === 'number' ? Math.abs(fit[method] - want) / want : Infinity;
      checks.push({ check: `glicko2_fit_matches = harness log loss, ${format} ${world} '${method}'`, worst, ok: worst <= 1e-9 });
      if (!(worst <= 1e-9)) failed = true;
    }
    for (const method of GLICKO) {
      if (inExtension.includes(method) && ext.refused[method]) {
        const at = ext.closes[method].length + 1;
        const worst = Math.max(...ext.closes[method].flatMap((c) => [...c.values()].map((r) => Math.abs(r.rating - 1500))));
        results.push({ format, world, method, source: 'extension',
                       refused: `close of period ${at} refused ("${ext.refused[method].replace(/\|/g, "/")}"); ratings written before it up to ${worst.toPrecision(3)} points from 1500` });
        log(`${format} ${world} ${method} (extension): ${results.at(-1).refused}`);
      } else if (inExtension.includes(method)) {
        row(method, 'extension', scoreGlicko(method, periods, league.strengths, ext.closes[method], size.from), ext.seconds[method]);
        if (method === 'composite' || inExtension.includes('sum'))
          probabilityCheck(format, method, periods[size.periods - 1], ext.closes[method][size.periods - 2]);
      }
      if (method === 'sum' || method === 'mean') {
        const t = Date.now();
        const ref = referenceCloses(method, periods, refOpts);
        const seconds = (Date.now() - t) / 1000;
        if (inExtension.includes(method)) agreement(format, world, method, ext.closes[method], ref);
        else row(method, 'reference', scoreGlicko(method, periods, league.strengths, ref, size.from), seconds);
        // In 1v1 every method is the paper's Glicko-2: the reference's 'sum'
        // must be the extension's 'composite' (checks glicko2.js before the
        // team methods exist in C).
        if (format === '1v1' && method === 'sum' && inExtension.includes('composite'))
          agreement(format, world, 'sum = composite', ext.closes.composite, ref);
      }
    }
    for (const peer of peers) {
      const t = Date.now();
      row(peer.name, 'npm', scorePeer(peer, periods, league.strengths, size.from), (Date.now() - t) / 1000);
    }
    if (fitPriorOn && inExtension.includes(world)) {
      const method = world;
      const t = Date.now();
      const fit = fitPrior(schema, method, fitThrough, priorCandidates);
      const fitSeconds = (Date.now() - t) / 1000;
      const extFit = rateWithExtension(`${schema}_fit`, matches, size.periods, [method], { maxRd: fit.best });
      if (extFit.refused[method]) throw new Error(`${format} ${world}: close at max_rd ${fit.best} refused: ${extFit.refused[method]}`);
      const fresh = { rating: 1500, rd: Math.min(350, fit.best), volatility: 0.06 };
      const r = scoreGlicko(method, periods, league.strengths, extFit.closes[method], size.from, fresh);
      const maxRdSeen = Math.max(...extFit.closes[method].flatMap((c) => [...c.values()].map((x) => x.rd)));
      // The reference implementation, started and capped alike, must agree.
      agreement(format, world, `${method}, max_rd ${fit.best}`, extFit.closes[method],
                referenceCloses(method, periods, { maxRd: fit.best, initialRd: fresh.rd }));
      const rdOk = maxRdSeen <= fit.best;
      checks.push({ check: `no RD above the fitted max_rd ${fit.best}, ${format} ${world}`, worst: Math.max(0, maxRdSeen - fit.best), ok: rdOk });
      if (!rdOk) failed = true;
      fitted.push({ format, world, method, max_rd: fit.best, losses: fit.losses, fit_seconds: fitSeconds,
                    max_rd_seen: maxRdSeen, ...r });
      log(`${format} ${world} ${method}, fitted max_rd ${fit.best} (${JSON.stringify(fit.losses)}, ${fitSeconds} s): log loss ${r.log_loss.toFixed(4)}, slope ${r.slope.toFixed(3)}, inside ${r.coverage.toFixed(1)} %, mean RD ${r.mean_rd.toFixed(0)}, max RD ${maxRdSeen.toFixed(1)}`);
    }
  }
}

// Goals (issue 25), for the method that matches the world.
const goals = [];
for (const format of formats)
  for (const world of worlds) {
    const r = results.find((x) => x.format === format && x.world === world && x.method === world);
    const ts = results.find((x) => x.format === format && x.world === world && x.method === 'trueskill');
    if (!r || r.refused) { goals.push({ format, world, method: world, slope: false, coverage: false, log_loss: false }); continue; }
    goals.push({ format, world, method: world, source: r.source,
                 slope: r.slope >= 0.9 && r.slope <= 1.1, coverage: r.coverage >= 92 && r.coverage <= 97,
                 log_loss: ts ? r.log_loss <= ts.log_loss : null });
  }

const fmt = (x, d) => x.toFixed(d);
const label = (format) => (format === 'hunt' ? 'Hunt' : format);
let md = `| format | world | method | log loss | correlation | slope | % inside ±2 RD | mean RD |\n|---|---|---|---|---|---|---|---|\n`;
for (const r of results) {
  let m = `${r.method}${r.source === 'reference' ? ' (reference)' : ''}`;
  if (r.method === r.world) m = `**${m}**`;
  md += r.refused ? `| ${label(r.format)} | ${r.world} | ${m} | refused (below) | | | | |\n`
    : `| ${label(r.format)} | ${r.world} | ${m} | ${fmt(r.log_loss, 4)} | ${fmt(r.correlation, 3)} | ${fmt(r.slope, 3)} | ${fmt(r.coverage, 1)} | ${fmt(r.mean_rd, 0)} |\n`;
}
md += `\n| format | world (method) | slope 0.9–1.1 | 92–97 % inside | log loss ≤ TrueSkill's |\n|---|---|---|---|---|\n`;
const yn = (b) => (b === null ? 'n/a' : b ? 'met' : '**missed**');
for (const g of goals) {
  const r = results.find((x) => x.format === g.format && x.world === g.world && x.method === g.world);
  const ts = results.find((x) => x.format === g.format && x.world === g.world && x.method === 'trueskill');
  md += `| ${label(g.format)} | ${g.world} | ${yn(g.slope)} (${fmt(r.slope, 3)}) | ${yn(g.coverage)} (${fmt(r.coverage, 1)}) | ${yn(g.log_loss)}${ts ? ` (${fmt(r.log_loss, 4)} vs ${fmt(ts.log_loss, 4)})` : ''} |\n`;
}
if (fitPriorOn) {
  md += `\nWith the prior fitted (max_rd chosen by glicko2_fit_matches on periods 1–${fitThrough} from {${priorCandidates.join(', ')}}; scored over periods ${size.from}–${size.periods}):\n\n`;
  md += `| format | world (method) | max_rd chosen | log loss | correlation | slope | % inside ±2 RD | mean RD | slope 0.9–1.1 | 92–97 % inside | log loss ≤ TrueSkill's |\n|---|---|---|---|---|---|---|---|---|---|---|\n`;
  for (const f of fitted) {
    const ts = results.find((x) => x.format === f.format && x.world === f.world && x.method === 'trueskill');
    md += `| ${label(f.format)} | ${f.world} | ${f.max_rd} | ${fmt(f.log_loss, 4)} | ${fmt(f.correlation, 3)} | ${fmt(f.slope, 3)} | ${fmt(f.coverage, 1)} | ${fmt(f.mean_rd, 0)} | ${yn(f.slope >= 0.9 && f.slope <= 1.1)} | ${yn(f.coverage >= 92 && f.coverage <= 97)} | ${ts ? `${yn(f.log_loss <= ts.log_loss)} (vs ${fmt(ts.log_loss, 4)})` : 'n/a'} |\n`;
  }
  md += `\n| format | world | ${priorCandidates.map((c) => `log loss at ${c}`).join(' | ')} |\n|---|---|${priorCandidates.map(() => '---').join('|')}|\n`;
  for (const f of fitted)
    md += `| ${label(f.format)} | ${f.world} | ${priorCandidates.map((c) => { const v = f.losses[String(c)]; return v === undefined ? '' : (c === f.max_rd ? `**${fmt(v, 4)}**` : fmt(v, 4)); }).join(' | ')} |\n`;
}
const refused = results.filter((r) => r.refused);
if (refused.length) {
  md += '\nRefused closes:\n\n';
  for (const r of refused) md += `- ${label(r.format)}, ${r.world} world, '${r.method}': ${r.refused}\n`;
}
if (checks.length) {
  md += `\n| check | worst difference | |\n|---|---|---|\n`;
  for (const c of checks) md += `| ${c.check} | ${c.worst.toExponential(2)} | ${c.ok ? 'ok' : 'FAILED'} |\n`;
}
const settings = { ...size, seed, sd, formats, worlds, initial_rd: initialRd === null ? 350 : Number(initialRd),
                   ...(fitPriorOn ? { prior_candidates: priorCandidates, fit_through: fitThrough } : {}),
                   extension_methods: inExtension, peers: peers.map((p) => p.name), seconds: (Date.now() - t0) / 1000 };
mkdirSync(outDir, { recursive: true });
writeFileSync(`${outDir}/results.json`, JSON.stringify({ settings, results, goals, fitted, checks }, null, 1) + '\n');
writeFileSync(`${outDir}/results.md`, md);
console.log(md);
console.log(`settings: ${JSON.stringify(settings)}`);
if (flag('check') && failed) process.exit(1);
