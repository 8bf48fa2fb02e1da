// The team model of 'sum' and 'mean' (docs: TEAM_MATH, issue 25), written
// independently of the C in src/ so that the two can be compared: each pair of
// teams of a match is one game between the teams, each player adds his share
// of it to his own Step 3/4 sums, then his own Steps 5-8 (glicko2.js).
import { SCALE, Sums, closePlayer, logistic, newRating } from './glicko2.js';

const PI2 = Math.PI * Math.PI;

// lambda_m: the Plackett-Luce information of one ranking of m teams over that
// of its m(m-1)/2 pairwise games (1 for two teams).
export function lambdaOf(m) {
  let h = 0;
  for (let r = 1; r <= m; r++) h += 1 / r;
  return m === 2 ? 1 : 4 * (m - h) / (m * (m - 1));
}

// A team on the internal scale: members' weights a, mu, phi; M, V, A = sum a.
// ratingOf(id) gives a player's pre-period rating; share(id) his play share;
// edges (optional): { party, size, partyOf(id) } the party and size
// advantages in points and each player's party label (null alone): a member
// of a party of two or more of the team adds party * a_i to M, the team
// size * (sum of shares - 1) (docs/matches.md, premade parties).
export function teamOf(players, method, ratingOf, share = () => 1, edges = null) {
  const shares = players.map(share);
  const total = shares.reduce((x, y) => x + y, 0);
  const members = players.map((id, k) => {
    const r = ratingOf(id);
    const a = method === 'mean' ? shares[k] / total : shares[k];
    return { id, a, mu: (r.rating - 1500) / SCALE, phi: r.rd / SCALE };
  });
  let M = members.reduce((x, p) => x + p.a * p.mu, 0);
  if (edges) {
    const labels = players.map(edges.partyOf);
    const inParty = labels.map((l) => l !== null && labels.filter((x) => x === l).length > 1);
    const partyWeight = members.reduce((x, p, k) => x + (inParty[k] ? p.a : 0), 0);
    M += (edges.party * partyWeight + edges.size * (total - 1)) / SCALE;
  }
  const V = members.reduce((x, p) => x + p.a * p.a * p.phi * p.phi, 0);
  const A = members.reduce((x, p) => x + p.a, 0);
  return { members, M, V, A };
}

// P(team a beats team b), both teams' uncertainty counted.
export function teamWinProbability(ta, tb) {
  const s2 = (ta.A + tb.A) / 2;
  return logistic((ta.M - tb.M) / Math.sqrt(s2 + 3 * (ta.V + tb.V) / PI2))[0];
}

const placeScore = (a, b) => (a < b ? 1 : a > b ? 0 : 0.5);

// Adds one match's terms to sums (a Map id -> Sums).
export function addMatch(sums, match, method, ratingOf, share, edges = null) {
  const teams = match.teams.map((t) => ({ ...teamOf(t.players, method, ratingOf, share, edges && edges(match)), place: t.place }));
  const lambda = lambdaOf(teams.length);
  const side = (t, u, score) => {
    const s2 = (t.A + u.A) / 2;
    for (const p of t.members) {
      let phi2 = 0;
      for (const q of t.members) if (q !== p) phi2 += q.a * q.a * q.phi * q.phi;
      for (const q of u.members) phi2 += q.a * q.a * q.phi * q.phi;
      const h = 1 / Math.sqrt(s2 + 3 * phi2 / PI2);
      const [e, oneMinusE] = logistic(h * (t.M - u.M));
      const ah = p.a * h;
      if (!sums.has(p.id)) sums.set(p.id, new Sums());
      sums.get(p.id).add(lambda * ah * ah * e * oneMinusE,
                         lambda * ah * (score * oneMinusE - (1 - score) * e));
    }
  };
  for (let x = 0; x < teams.length; x++)
    for (let y = x + 1; y < teams.length; y++) {
      const score = placeScore(teams[x].place, teams[y].place);
      side(teams[x], teams[y], score);
      side(teams[y], teams[x], 1 - score);
    }
}

// Closes one period: ratings (Map id -> rating) from the period's matches;
// share(match, id): a player's play share in a match (default 1); players
// without a rating start at 1500/350/0.06 (or initialRd); rated players without
// games grow by Step 6 (capped at maxRd).  Returns the new Map.
// edges(match): teamOf's edges for a match, or null.
export function closePeriod(ratings, matches, method, { tau = 0.5, maxRd = 350, share, initialRd, edges = null } = {}) {
  const fresh = initialRd === undefined ? newRating() : { rating: 1500, rd: initialRd, volatility: 0.06 };
  const ratingOf = (id) => ratings.get(id) ?? fresh;
  const sums = new Map();
  for (const m of matches) addMatch(sums, m, method, ratingOf, share && ((id) => share(m, id)), edges);
  const out = new Map();
  const ids = new Set([...ratings.keys(), ...sums.keys()]);
  for (const id of ids) out.set(id, closePlayer(ratingOf(id), sums.get(id) ?? new Sums(), tau, maxRd));
  return out;
}
