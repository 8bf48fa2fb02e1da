// A seeded generator (xoshiro128**, seeded by splitmix32), so that a league is
// the same on every machine and every run: uniform, normal and Gumbel draws.
export class Rng {
  constructor(seed) {
    let x = seed >>> 0;
    const next = () => {
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.s = [next(), next(), next(), next()];
    this.spare = null;
  }

  nextU32() {
    const s = this.s;
    const rotl = (v, k) => ((v << k) | (v >>> (32 - k))) >>> 0;
    const result = Math.imul(rotl(Math.imul(s[1], 5) >>> 0, 7), 9) >>> 0;
    const t = (s[1] << 9) >>> 0;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
    s[2] ^= t; s[3] = rotl(s[3], 11);
    for (let i = 0; i < 4; i++) s[i] >>>= 0;
    return result;
  }

  // Uniform in (0, 1): 53 random bits, never 0 or 1 (logs of it stay finite).
  uniform() {
    const hi = this.nextU32() >>> 5, lo = this.nextU32() >>> 6;
    return (hi * 67108864 + lo + 0.5) / 9007199254740992;
  }

  int(n) { return Math.floor(this.uniform() * n); }

  normal() {
    if (this.spare !== null) { const z = this.spare; this.spare = null; return z; }
    const r = Math.sqrt(-2 * Math.log(this.uniform())), t = 2 * Math.PI * this.uniform();
    this.spare = r * Math.sin(t);
    return r * Math.cos(t);
  }

  // Standard Gumbel (scale 1): the difference of two is logistic with scale 1,
  // the paper's 1v1 model; the best of several performances is Plackett-Luce.
  gumbel() { return -Math.log(-Math.log(this.uniform())); }

  shuffle(a) {
    for (let i = a.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [a[i], a[j]] = [a[j], a[i]];
    }
    return a;
  }
}
