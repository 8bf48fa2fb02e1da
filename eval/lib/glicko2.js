// The paper's Glicko-2 update (Glickman, "Example of the Glicko-2 system",
// Steps 2-8), written as src/core/glicko_math.c writes it: the two sums of Steps
// 3-4 kept in double-double (order-independent), Step 5's f(x) multiplied
// through by the information, the Illinois iteration with the same stopping
// rules, a player without games Step 6 only, capped at max_rd.  An independent
// re-implementation for the evaluation (eval/README.md), not used by the
// extension.
export const SCALE = 173.7178;
export const CENTRE = 1500;
const EPSILON = 0.000001;
const MAX_ILLINOIS = 200;
const MAX_BRACKET = 100000;
const DBL_MIN = 2.2250738585072014e-308;

export const newRating = () => ({ rating: 1500, rd: 350, volatility: 0.06 });

function twoSum(a, b) {
  const s = a + b, bb = s - a;
  return [s, (a - (s - bb)) + (b - bb)];
}

// Sums of one player's period: information (1/v) and surprise (Delta/v).
export class Sums {
  constructor() { this.i = 0; this.iLow = 0; this.s = 0; this.sLow = 0; this.games = 0; }
  add(information, surprise) {
    let [s, e] = twoSum(this.i, information);
    e += this.iLow;
    [this.i, this.iLow] = twoSum(s, e);
    [s, e] = twoSum(this.s, surprise);
    e += this.sLow;
    [this.s, this.sLow] = twoSum(s, e);
    this.games++;
  }
}

function fOfX(p, x) {
  const t = Math.exp(x + p.logI);
  const r = 1 / (1 + p.c * Math.exp(-(x + p.logI)));
  return 0.5 * r * (p.K / (p.c + t) - r) - (x - p.a) / p.tauSq;
}

function newVolatility(p, tau) {
  let A = p.a, B;
  if (p.K > 0) B = Math.log(p.K) - p.logI;
  else {
    let k = 1;
    while (fOfX(p, p.a - k * tau) < 0) if (++k > MAX_BRACKET) throw new Error('no bracket');
    B = p.a - k * tau;
  }
  let fA = fOfX(p, A), fB = fOfX(p, B);
  if (!Number.isFinite(B) || !Number.isFinite(fA) || !Number.isFinite(fB)) throw new Error('out of range');
  let it = 0;
  while (Math.abs(B - A) > EPSILON) {
    if (++it > MAX_ILLINOIS) throw new Error('no convergence');
    if (fB === fA) break;
    const C = A + (A - B) * fA / (fB - fA);
    if (C === A || C === B) { A = C; break; }
    const fC = fOfX(p, C);
    if (fC * fB <= 0) { A = B; fA = fB; } else fA = fA / 2;
    B = C; fB = fC;
  }
  return Math.exp(A / 2);
}

// One player's close: Steps 2-8 from his sums, or Step 6 capped at max_rd.
export function closePlayer(player, sums, tau = 0.5, maxRd = 350) {
  const mu = (player.rating - CENTRE) / SCALE, phi = player.rd / SCALE, sigma = player.volatility;
  if (sums.games === 0) {
    let rd = SCALE * Math.sqrt(phi * phi + sigma * sigma);
    if (rd > maxRd) rd = Math.max(player.rd, maxRd);
    return { rating: player.rating, rd, volatility: sigma };
  }
  let sigmaNew, phiNew, muNew;
  if (sums.i < DBL_MIN) {
    sigmaNew = sigma;
    phiNew = Math.sqrt(phi * phi + sigma * sigma);
    muNew = mu;
  } else {
    const I = sums.i, S = sums.s;
    const p = { logI: Math.log(I), c: phi * phi * I + 1, K: S * S / I - phi * phi * I - 1,
                a: Math.log(sigma * sigma), tauSq: tau * tau };
    if (!Number.isFinite(p.K)) throw new Error('out of range');
    sigmaNew = newVolatility(p, tau);
    const phiStar = Math.sqrt(phi * phi + sigmaNew * sigmaNew);
    phiNew = Math.min(1 / Math.sqrt(1 / (phiStar * phiStar) + I), phiStar);
    muNew = mu + phiNew * phiNew * S;
  }
  const out = { rating: SCALE * muNew + CENTRE, rd: SCALE * phiNew, volatility: sigmaNew };
  if (!Number.isFinite(out.rating) || !(out.rd > 0) || !Number.isFinite(out.rd)) throw new Error('out of range');
  return out;
}

// Logistic without cancellation on either side.
export function logistic(z) {
  if (z >= 0) { const t = Math.exp(-z); return [1 / (1 + t), t / (1 + t)]; }
  const t = Math.exp(z);
  return [t / (1 + t), 1 / (1 + t)];
}

export const g = (phi) => 1 / Math.sqrt(1 + 3 * phi * phi / (Math.PI * Math.PI));

// glicko2_win_probability: both players' RD counted.
export function winProbability(a, b) {
  const phi = Math.hypot(a.rd, b.rd) / SCALE;
  return logistic(g(phi) * (a.rating - b.rating) / SCALE)[0];
}
