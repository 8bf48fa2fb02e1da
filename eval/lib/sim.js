// The simulated team leagues of /work/TEAM_MATH.md ("Simulated worlds"): hidden
// strengths on the Glicko-2 internal scale (1 = 173.7178 points), a random walk
// centred every period, random seating, Gumbel performance noise of scale 1.
//   'sum' world:  a team performs at the sum of its members' strength + own noise
//   'mean' world: a team performs at its members' mean strength + one player's noise
// Both worlds of one format share the strengths, the seats and the noise draws,
// so they differ only in how a team's performance is made.
import { Rng } from './rng.js';

export const SCALE = 173.7178;
// The mean of a standard Gumbel: subtracted, so an average player adds nothing
// to his team on average (the sum model's a_i mu_i with mu = 0).
const EULER_GAMMA = 0.5772156649015329;

// Players per match and how they are split into teams.
export const FORMATS = {
  hunt: { players: 12, label: 'Hunt (12 in teams of 1-3)' },
  '12v12': { players: 24, teams: 2, label: '12v12' },
  '4v4': { players: 8, teams: 2, label: '4v4' },
  '2v2': { players: 4, teams: 2, label: '2v2' },
  '1v1': { players: 2, teams: 2, label: '1v1' },
};

// Team sizes of one match: equal teams, or Hunt's 1-3 player teams (each size
// equally likely until the 12 seats are filled).
function teamSizes(format, rng) {
  const f = FORMATS[format];
  if (f.teams) return Array(f.teams).fill(f.players / f.teams);
  const sizes = [];
  let left = f.players;
  while (left > 0) {
    const k = Math.min(left, 1 + rng.int(3));
    sizes.push(k);
    left -= k;
  }
  return sizes;
}

// opts: players, periods, rounds (matches per player per period), seed,
// sd0 (initial strength SD, internal units), drift (per-period SD).
// Returns { strengths: [period][player] (internal units, period 1..P at index
// p - 1), matches: [{id, period, teams: [{players: [...], place}]}] } and the
// same matches for each world: worlds.sum / worlds.mean.
// The hidden strengths of n players, one array a period: normal of SD sd0 in
// period 1, then a random walk of SD drift a period, centred on 0 every period.
export function strengthWalk(n, periods, sd0, drift, rng) {
  const strengths = [];
  let s = Array.from({ length: n }, () => sd0 * rng.normal());
  for (let p = 1; p <= periods; p++) {
    if (p > 1) s = s.map((x) => x + drift * rng.normal());
    const mean = s.reduce((a, b) => a + b, 0) / n;
    s = s.map((x) => x - mean);
    strengths.push(s.slice());
  }
  return strengths;
}

export function simulate(format, opts) {
  const { players: n, periods, rounds, seed } = opts;
  const sd0 = opts.sd0 ?? 250 / SCALE, drift = opts.drift ?? 0.06;
  const per = FORMATS[format].players;
  if (n % per !== 0) throw new Error(`${n} players do not fill matches of ${per}`);
  const rng = new Rng(seed);
  const strengths = strengthWalk(n, periods, sd0, drift, rng);
  const worlds = { sum: [], mean: [] };
  const ids = Array.from({ length: n }, (_, i) => i + 1);
  let matchId = 0;
  for (let p = 1; p <= periods; p++) {
    const st = strengths[p - 1];
    for (let r = 0; r < rounds; r++) {
      rng.shuffle(ids);
      for (let m = 0; m < n / per; m++) {
        const seats = ids.slice(m * per, (m + 1) * per);
        const sizes = teamSizes(format, rng);
        const teams = [];
        let k = 0;
        for (const size of sizes) {
          const members = seats.slice(k, k + size);
          k += size;
          const own = members.map(() => rng.gumbel() - EULER_GAMMA);
          const one = rng.gumbel() - EULER_GAMMA;
          const sumPerf = members.reduce((a, id, j) => a + st[id - 1] + own[j], 0);
          const meanPerf = members.reduce((a, id) => a + st[id - 1], 0) / size + one;
          teams.push({ players: members, perf: { sum: sumPerf, mean: meanPerf } });
        }
        matchId++;
        for (const world of ['sum', 'mean']) {
          const order = teams.map((t, i) => i).sort((a, b) => teams[b].perf[world] - teams[a].perf[world]);
          const placed = teams.map((t) => ({ players: t.players, place: 0 }));
          order.forEach((ti, rank) => { placed[ti].place = rank + 1; });
          worlds[world].push({ id: matchId, period: p, teams: placed });
        }
      }
    }
  }
  return { strengths, worlds };
}

// The rows glicko2_close_matches reads: match_id, period, player_id, team, place.
export function matchRows(matches) {
  const rows = [];
  for (const m of matches)
    m.teams.forEach((t, ti) => {
      for (const id of t.players) rows.push([m.id, m.period, id, ti + 1, t.place]);
    });
  return rows;
}
