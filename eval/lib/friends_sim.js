// Leagues where friends queue together (issue 33; eval/README.md, "Friends"):
// the worlds of sim.js (hidden strengths on the Glicko-2 scale, a centred
// random walk, Gumbel noise, 'sum' and 'mean' team performance), but the
// players are 80 trios and 60 duos of friends and the rest always alone
// (at 600 players; scaled to other sizes).  Every round each group queues
// together with probability `together` (0 never, 1 always), else its members
// queue alone; parties are whole teams (Hunt) or fill a team of 4 with
// strangers (4v4).  Options:
//   edges:   a premade party's member adds PARTY_EDGE points to his team's
//            strength, every team member beyond one SIZE_EDGE (the share
//            played counts), in both worlds;
//   leavers: LEAVE_RATE of the players of a match leave early, their share
//            (the weight column) uniform in (0.1, 0.9): their strength and
//            noise count by their share ('sum': a p + sqrt(p) noise;
//            'mean': weighted mean).
// Every team carries party (its party's key, or null for players who queued
// alone) and weight (each player's share), as the matches table will.
import { Rng } from './rng.js';
import { SCALE, strengthWalk } from './sim.js';

const EULER_GAMMA = 0.5772156649015329;
export const PARTY_EDGE = 40;
export const SIZE_EDGE = 25;
export const LEAVE_RATE = 0.03;
export const FRIEND_FORMATS = {
  hunt: { players: 12, team: null },
  '4v4': { players: 8, team: 4 },
};

// Groups of friends: 80 trios and 60 duos per 600 players (scaled), the
// others solo; which ids are in which group is drawn.
function groupsOf(n, rng) {
  const trios = Math.round(80 * n / 600), duos = Math.round(60 * n / 600);
  const ids = rng.shuffle(Array.from({ length: n }, (_, i) => i + 1));
  const groups = [];
  let k = 0;
  for (let g = 0; g < trios; g++, k += 3) groups.push(ids.slice(k, k + 3));
  for (let g = 0; g < duos; g++, k += 2) groups.push(ids.slice(k, k + 2));
  return { groups, solos: ids.slice(k) };
}

// One round's teams: queue units (parties and solos), made into teams.
// Hunt: a party is a team; solos are cut into teams of 1-3 strangers.
// 4v4: parties by size, largest first, each into the first team of 4 with
// room; solos fill the rest.  Returns [{players, party}] in random order.
function roundTeams(format, groups, solos, together, rng) {
  const parties = [], alone = solos.slice();
  groups.forEach((g, gi) => {
    if (rng.uniform() < together) parties.push({ players: g.slice(), key: gi + 1 });
    else alone.push(...g);
  });
  rng.shuffle(parties);
  rng.shuffle(alone);
  const teams = [];
  if (format === 'hunt') {
    for (const p of parties) teams.push({ players: p.players, party: p.key });
    for (let k = 0; k < alone.length;) {
      const size = Math.min(alone.length - k, 1 + rng.int(3));
      teams.push({ players: alone.slice(k, k + size), party: null });
      k += size;
    }
  } else {
    const size = FRIEND_FORMATS[format].team;
    const open = [];
    parties.sort((a, b) => b.players.length - a.players.length);
    for (const p of parties) {
      let t = open.find((o) => o.players.length + p.players.length <= size);
      if (!t) { t = { players: [], parties: [] }; open.push(t); }
      t.players.push(...p.players);
      t.parties.push(...p.players.map(() => p.key));
    }
    let k = 0;
    for (const t of open)
      while (t.players.length < size && k < alone.length) { t.players.push(alone[k++]); t.parties.push(null); }
    while (k + size <= alone.length) {
      open.push({ players: alone.slice(k, k + size), parties: Array(size).fill(null) });
      k += size;
    }
    for (const t of open) if (t.players.length === size) teams.push({ players: t.players, partyOf: t.parties });
  }
  return rng.shuffle(teams);
}

// Teams into matches of FRIEND_FORMATS[format].players seats, first fit in
// the teams' random order; a match not filled sits out the round.
function seat(format, teams) {
  const seats = FRIEND_FORMATS[format].players;
  const matches = [];
  let cur = [], used = 0;
  const waiting = [];
  const queue = teams.slice();
  while (queue.length || waiting.length) {
    const t = waiting.length && waiting[0].players.length <= seats - used ? waiting.shift() : queue.shift();
    if (!t) break;
    if (t.players.length > seats - used) { waiting.push(t); if (!queue.length) break; continue; }
    cur.push(t);
    used += t.players.length;
    if (used === seats) { matches.push(cur); cur = []; used = 0; }
  }
  return matches;
}

// opts: players, periods, rounds, seed, sd0, drift (as sim.js), together,
// edges, leavers.  Returns { strengths, groups, worlds: {sum, mean} } with
// matches [{id, period, teams: [{players, place, party: [...], weight: [...]}]}].
export function simulateFriends(format, opts) {
  const { players: n, periods, rounds, seed, together } = opts;
  const sd0 = opts.sd0 ?? 250 / SCALE, drift = opts.drift ?? 0.06;
  const rng = new Rng(seed * 7919 + 33);
  const strengths = strengthWalk(n, periods, sd0, drift, rng);
  const { groups, solos } = groupsOf(n, rng);
  const worlds = { sum: [], mean: [] };
  const partyEdge = opts.edges ? PARTY_EDGE / SCALE : 0, sizeEdge = opts.edges ? SIZE_EDGE / SCALE : 0;
  let matchId = 0;
  for (let p = 1; p <= periods; p++) {
    const st = strengths[p - 1];
    for (let r = 0; r < rounds; r++) {
      for (const seats of seat(format, roundTeams(format, groups, solos, together, rng))) {
        const teams = seats.map((t) => {
          const party = t.partyOf ?? t.players.map(() => t.party);
          const weight = t.players.map(() => (opts.leavers && rng.uniform() < LEAVE_RATE ? 0.1 + 0.8 * rng.uniform() : 1));
          const own = t.players.map(() => rng.gumbel() - EULER_GAMMA);
          const one = rng.gumbel() - EULER_GAMMA;
          const shares = weight.reduce((a, b) => a + b, 0);
          // members of a premade party: a party key shared with a teammate
          const inParty = party.map((k) => k !== null && party.filter((x) => x === k).length > 1);
          const edge = (a) => partyEdge * t.players.reduce((x, id, j) => x + (inParty[j] ? a(j) : 0), 0) +
            sizeEdge * (shares - 1);
          const sumPerf = t.players.reduce((x, id, j) => x + weight[j] * st[id - 1] + Math.sqrt(weight[j]) * own[j], 0) +
            edge((j) => weight[j]);
          const meanPerf = t.players.reduce((x, id, j) => x + weight[j] * st[id - 1], 0) / shares + one +
            edge((j) => weight[j] / shares);
          return { players: t.players, party, weight, perf: { sum: sumPerf, mean: meanPerf } };
        });
        matchId++;
        for (const world of ['sum', 'mean']) {
          const order = teams.map((t, i) => i).sort((a, b) => teams[b].perf[world] - teams[a].perf[world]);
          const placed = teams.map((t) => ({ players: t.players, party: t.party, weight: t.weight, place: 0 }));
          order.forEach((ti, rank) => { placed[ti].place = rank + 1; });
          worlds[world].push({ id: matchId, period: p, teams: placed });
        }
      }
    }
  }
  return { strengths, groups, worlds };
}
