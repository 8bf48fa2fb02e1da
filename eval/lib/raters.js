// Rating one simulated league with one method and scoring it (metrics.js):
// for every period, each pair of teams of each match with different places is
// predicted from the ratings at the period's start, then the period is rated.
import { SCALE, newRating, winProbability } from './glicko2.js';
import { closePeriod, teamOf, teamWinProbability } from './team_model.js';
import { Metrics } from './metrics.js';

export const byPeriod = (matches, periods) => {
  const out = Array.from({ length: periods }, () => []);
  for (const m of matches) out[m.period - 1].push(m);
  return out;
};

// Williams's composite (means of rating, RD) and glicko2_win_probability: the
// prediction of 'composite' and 'individual' (glicko2_team_win_probability).
function compositeOf(players, ratingOf) {
  const rs = players.map(ratingOf), n = rs.length;
  return { rating: rs.reduce((a, r) => a + r.rating, 0) / n, rd: rs.reduce((a, r) => a + r.rd, 0) / n };
}

// The probability a Glicko method gives team a (player ids) beating team b.
export function glickoProbability(method, a, b, ratingOf) {
  if (method === 'sum' || method === 'mean')
    return teamWinProbability(teamOf(a, method, ratingOf), teamOf(b, method, ratingOf));
  return winProbability(compositeOf(a, ratingOf), compositeOf(b, ratingOf));
}

// Every pair of teams of a match placed apart, winner first: prob(w, l) the
// predicted probability that team w (an object with .players) beats team l.
export function predictPairs(metrics, period, match, prob) {
  const t = match.teams;
  for (let x = 0; x < t.length; x++)
    for (let y = x + 1; y < t.length; y++) {
      if (t[x].place === t[y].place) continue;
      const [w, l] = t[x].place < t[y].place ? [t[x], t[y]] : [t[y], t[x]];
      metrics.prediction(period, prob(w, l));
    }
}

// A Glicko method whose ratings after each period are given (closes[p - 1]:
// Map id -> rating), from the extension or from the reference implementation.
export function scoreGlicko(method, periods, strengths, closes, from, fresh = newRating()) {
  const metrics = new Metrics(from);
  let ratings = new Map();
  periods.forEach((matches, k) => {
    const ratingOf = (id) => ratings.get(id) ?? fresh;
    for (const m of matches) predictPairs(metrics, k + 1, m, (w, l) => glickoProbability(method, w.players, l.players, ratingOf));
    ratings = closes[k];
    metrics.ratings(k + 1, ratings, strengths[k]);
  });
  return metrics.summary();
}

// The reference implementation's closes, period by period.
export function referenceCloses(method, periods, opts = {}) {
  const closes = [];
  let ratings = new Map();
  for (const matches of periods) {
    ratings = closePeriod(ratings, matches, method, opts);
    closes.push(ratings);
  }
  return closes;
}

// A peer (peers.js): updated match by match, predicting from period-start
// ratings; its mu and sigma reported in Glicko points through its unit.
export function scorePeer(peer, periods, strengths, from) {
  const metrics = new Metrics(from);
  const state = new Map();
  const get = (id) => { if (!state.has(id)) state.set(id, peer.fresh()); return state.get(id); };
  periods.forEach((matches, k) => {
    const start = new Map(state);
    const at = (id) => start.get(id) ?? peer.fresh();
    for (const m of matches)
      predictPairs(metrics, k + 1, m, (w, l) => peer.winProbability(w.players.map(at), l.players.map(at)));
    for (const m of matches) {
      const teams = m.teams.map((t) => t.players.map(get));
      const out = peer.rate(teams, m.teams.map((t) => t.place));
      m.teams.forEach((t, ti) => t.players.forEach((id, j) => state.set(id, out[ti][j])));
    }
    const pts = new Map();
    for (const [id, r] of state)
      pts.set(id, { rating: 1500 + SCALE * peer.unit * r.mu, rd: SCALE * peer.unit * r.sigma });
    metrics.ratings(k + 1, pts, strengths[k]);
  });
  return metrics.summary();
}
