/**
 * Small deterministic random helpers for the benchmark seeder: the same seed gives the same
 * users, texts, graph and photos on every machine.
 */

export type Random = () => number;

/** mulberry32: a tiny, fast 32-bit PRNG; plenty for test data (not for anything secret). */
export function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** An independent stream per purpose, so changing one count does not reshuffle everything else. */
export function stream(seed: number, purpose: string): Random {
  let hash = 2_166_136_261 ^ seed;
  for (let index = 0; index < purpose.length; index++) {
    hash = Math.imul(hash ^ purpose.charCodeAt(index), 16_777_619);
  }
  return mulberry32(hash);
}

export const int = (random: Random, min: number, max: number) => min + Math.floor(random() * (max - min + 1));

export function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

export function shuffle<T>(random: Random, items: T[]): T[] {
  for (let index = items.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [items[index], items[other]] = [items[other]!, items[index]!];
  }
  return items;
}

/**
 * Draws indexes 0..n-1 with probability ∝ 1 / (index + offset)^exponent: index 0 is the most
 * popular. A larger offset flattens the head (so the top item is not absurdly dominant).
 */
export function zipf(n: number, exponent = 1, offset = 1): (random: Random) => number {
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let index = 0; index < n; index++) {
    total += 1 / (index + offset) ** exponent;
    cumulative[index] = total;
  }
  return (random) => {
    const target = random() * total;
    let low = 0;
    let high = n - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    return low;
  };
}
