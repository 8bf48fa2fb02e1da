// Per league and method: predictions made before each close and ratings after
// it, against the hidden strengths.  Every number is on the Glicko scale
// (points); rating and rd are what a method reports for a player.
import { SCALE } from './glicko2.js';

// The correlation of xs and ys and the least-squares slope of ys on xs.
export function leastSquares(xs, ys) {
  const n = xs.length, mx = xs.reduce((a, b) => a + b) / n, my = ys.reduce((a, b) => a + b) / n;
  let sxx = 0, syy = 0, sxy = 0;
  for (let k = 0; k < n; k++) {
    sxx += (xs[k] - mx) ** 2; syy += (ys[k] - my) ** 2; sxy += (xs[k] - mx) * (ys[k] - my);
  }
  return { corr: sxy / Math.sqrt(sxx * syy), slope: sxy / sxx };
}

export class Metrics {
  constructor(from) {
    this.from = from;           // first period counted (after burn-in)
    this.loss = 0; this.pairs = 0;
    this.corr = []; this.slope = []; this.cover = 0; this.n = 0;
    this.meanRd = 0; this.rmse = 0;
  }

  // p: the probability the method gave the team that finished ahead.
  prediction(period, p) {
    if (period < this.from) return;
    this.loss -= Math.log(Math.min(Math.max(p, 1e-300), 1));
    this.pairs++;
  }

  // After the close of `period`: ratings Map id -> {rating, rd} against
  // strengths (internal units, index id - 1).
  ratings(period, ratings, strengths) {
    if (period < this.from) return;
    const xs = [], ys = [];
    for (const [id, r] of ratings) {
      const s = 1500 + SCALE * strengths[id - 1];
      xs.push(r.rating); ys.push(s);
      if (Math.abs(r.rating - s) <= 2 * r.rd) this.cover++;
      this.meanRd += r.rd;
      this.rmse += (r.rating - s) ** 2;
      this.n++;
    }
    const { corr, slope } = leastSquares(xs, ys);
    this.corr.push(corr);
    this.slope.push(slope);   // least squares of strength on rating
  }

  summary() {
    const avg = (a) => a.reduce((x, y) => x + y, 0) / a.length;
    return {
      log_loss: this.loss / this.pairs, pairs: this.pairs,
      correlation: avg(this.corr), slope: avg(this.slope),
      coverage: 100 * this.cover / this.n, mean_rd: this.meanRd / this.n,
      rms_error: Math.sqrt(this.rmse / this.n),
    };
  }
}
