// Counts drawn from hashed uniforms: the site activity's per-(day, key) numbers are pure functions
// of (seed, project, day, key), computed in bulk with mix32 rather than sequential streams, so any
// day can be built alone and in any order.
import { mix32 } from './prng.js';

/** A uniform in [0, 1) fixed by (key, a, b). */
export function unit(key: number, a: number, b: number): number {
  return mix32(key, a, b) / 4294967296;
}

/** A standard normal from two hashed uniforms (Box–Muller). */
export function normal(key: number, a: number, b: number): number {
  const u1 = Math.max(unit(key, a, b), 1e-12);
  const u2 = unit(key ^ 0x2545f491, a, b);
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

/**
 * A Poisson-like count of mean `mu`: the exact inverse CDF below a mean of 30, the normal
 * approximation above (rounded, never negative). `u` and `z` are a uniform and a normal.
 */
export function poisson(mu: number, u: number, z: number): number {
  if (!(mu > 0)) return 0;
  if (mu >= 30) return Math.max(0, Math.round(mu + Math.sqrt(mu) * z));
  let k = 0;
  let p = Math.exp(-mu);
  let cdf = p;
  while (u > cdf && k < 200) {
    k++;
    p *= mu / k;
    cdf += p;
  }
  return k;
}

/** `x` rounded down or up at random (by `u`), so the mean stays `x`. */
export function stochasticRound(x: number, u: number): number {
  const f = Math.floor(x);
  return x - f > u ? f + 1 : f;
}
