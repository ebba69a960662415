/**
 * Seeded pseudo-random numbers for the simulator. Every dataset draws from its own stream (the seed mixed with a
 * label), so the bytes of one dataset never depend on which other datasets were generated first.
 */

/** The seed used when none is configured. */
export const DEFAULT_SEED = 2566;

/** mulberry32: a small 32-bit generator; the same state always yields the same sequence in [0, 1). */
function mulberry32(state: number): () => number {
  let a = state >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a over the label's UTF-16 code units, started from the seed. */
function streamState(seed: number, label: string): number {
  let h = (0x811c9dc5 ^ (seed >>> 0)) >>> 0;
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export class Rng {
  private readonly next01: () => number;

  constructor(seed: number, label: string) {
    this.next01 = mulberry32(streamState(seed, label));
  }

  /** A float in [0, 1). */
  next(): number {
    return this.next01();
  }

  /** A float in [min, max). */
  between(min: number, max: number): number {
    return min + (max - min) * this.next01();
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor((max - min + 1) * this.next01());
  }

  chance(probability: number): boolean {
    return this.next01() < probability;
  }

  /** `value` scaled by a uniform factor in [1 - spread, 1 + spread). */
  jitter(value: number, spread: number): number {
    return value * this.between(1 - spread, 1 + spread);
  }

  /** A positive weight with a long right tail (log-normal), as sizes of places and institutions have. */
  logNormal(sigma: number): number {
    const u = 1 - this.next01();
    const v = this.next01();
    const normal = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    return Math.exp(sigma * normal);
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next01() * items.length)];
    if (item === undefined) throw new RangeError('pick from an empty list');
    return item;
  }

  /** An index drawn with probability proportional to its weight. */
  weightedIndex(weights: readonly number[]): number {
    const sum = weights.reduce((a, b) => a + b, 0);
    let target = this.next01() * sum;
    for (let i = 0; i < weights.length; i++) {
      target -= weights[i] ?? 0;
      if (target < 0) return i;
    }
    return weights.length - 1;
  }

  /** A copy of `items` in a random order (Fisher-Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next01() * (i + 1));
      const a = copy[i] as T;
      copy[i] = copy[j] as T;
      copy[j] = a;
    }
    return copy;
  }
}
