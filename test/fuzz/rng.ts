// A small seeded PRNG (SplitMix32 into Mulberry32): every fuzz input is a pure
// function of (seed, target, iteration), so a finding is reproduced from three
// numbers, and no run depends on timing.

/** A deterministic random source. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A 32-bit unsigned integer. */
  u32(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return n <= 1 ? 0 : this.u32() % n;
  }

  /** An integer in [min, max]. */
  range(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.u32() / 2 ** 32 < p;
  }

  /** One element of a non-empty list. */
  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)]!;
  }

  /** A size skewed towards small values, sometimes large: up to `max`. */
  size(max: number): number {
    const bits = this.int(Math.max(1, Math.ceil(Math.log2(max + 1))) + 1);
    return Math.min(max, this.int(2 ** bits));
  }
}

/** Mixes the seed, the target's number and the iteration into one 32-bit seed. */
export function caseSeed(seed: number, target: number, iteration: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(target + 1, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d) ^ iteration;
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}
