// Seeded pseudo-random numbers for the sandbox. Everything the sandbox serves derives from the
// seed through these functions (never Math.random), so the same seed gives the same data.

/** A source of uniform floats in [0, 1). */
export type Rng = () => number;

/** mulberry32: tiny, fast and good enough for test data; the state is one 32-bit integer. */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a over the parts: derives independent sub-seeds ("seed:project:history", ...). */
export function hashSeed(...parts: (string | number)[]): number {
  let h = 0x811c9dc5;
  for (const ch of parts.join('\u241f')) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** An Rng for a named stream of a seed: `rngFor(seed, 'demo', 'history')`. */
export function rngFor(...parts: (string | number)[]): Rng {
  return mulberry32(hashSeed(...parts));
}

/** Integer in [min, max] inclusive. */
export function int(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

/** True with probability p. */
export function chance(rng: Rng, p: number): boolean {
  return rng() < p;
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  if (items.length === 0) throw new Error('pick from an empty list');
  return items[Math.floor(rng() * items.length)]!;
}

/** Fisher–Yates shuffle of a copy. */
export function shuffled<T>(rng: Rng, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * A fast integer hash of (key, a, b) to 32 bits (murmur3's finalizer over a mixed state). For
 * per-row draws made in bulk (which rows are malformed), where building a string for hashSeed
 * per row would cost more than the rest of the work. `a` may exceed 32 bits (up to 2^53).
 */
export function mix32(key: number, a: number, b: number): number {
  let h = (key ^ Math.imul(a >>> 0, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ Math.floor(a / 4294967296), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13) ^ b, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
