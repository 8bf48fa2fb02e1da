// The peers: TrueSkill (npm ts-trueskill) and OpenSkill (npm openskill, its
// default Plackett-Luce model), each with its defaults except a prior mean of
// 0 (Hunt's teams differ in size, and a sum of priors of 25 would make a trio
// 50 units stronger than a solo) and, for TrueSkill, no draw margin (the
// simulated matches have no draws).  Ratings are updated match by match,
// predictions made from the ratings as they were at the start of the period.
// Play shares below 1 (leavers, eval/friends.js) are passed as each one's
// weights.  Loaded only when the packages are installed (npm ci in eval/).  Each peer's
// unit is how many internal Glicko-2 units (173.7178 points) one of its skill
// units is by its own model of a 1v1 game, so that its mu and sigma can be set
// beside the hidden strengths.
const SIGMA0 = 25 / 3, BETA = 25 / 6;

export async function loadPeers() {
  let ts, os;
  try {
    ts = await import('ts-trueskill');
    os = await import('openskill');
  } catch {
    return null;
  }
  const env = new ts.TrueSkill(0, SIGMA0, BETA, SIGMA0 / 100, 0);
  const trueskill = {
    name: 'trueskill',
    fresh: () => env.createRating(0, SIGMA0),
    rate: (teams, ranks, weights = null) => env.rate(teams, ranks, weights),
    winProbability: (a, b) => env.winProbability(a, b),
    // One player's performance is skill + N(0, beta^2): a 1v1 difference has
    // SD sqrt(2) beta, the simulated one (logistic, scale 1) pi/sqrt(3).
    unit: Math.PI / Math.sqrt(6) / BETA,
  };
  const openskill = {
    name: 'openskill',
    fresh: () => os.rating({ mu: 0 }),
    rate: (teams, ranks, weights = null) => os.rate(teams, weights ? { rank: ranks, weight: weights } : { rank: ranks }),
    winProbability: (a, b) => os.predictWin([a, b])[0],
    // Its Plackett-Luce model: a 1v1 is logistic with scale c = sqrt(2 beta^2
    // + sigmas^2), about sqrt(2) beta; the simulated one has scale 1.
    unit: 1 / (Math.SQRT2 * BETA),
  };
  return [trueskill, openskill];
}
