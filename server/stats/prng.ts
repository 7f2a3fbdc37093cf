// A small seeded PRNG (mulberry32) so resampling results are reproducible run to run.

/** Uniform numbers in [0, 1) from a 32-bit seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fisher–Yates shuffle of a copy of `items`. */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const tmp = out[i] as T;
    out[i] = out[j] as T;
    out[j] = tmp;
  }
  return out;
}

/** A standard normal variate from two uniforms (Box–Muller). */
export function standardNormal(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/**
 * Seeded log-normal values around `median` with log-sd `sigma`: latency-like data (a long right
 * tail) for tests, benchmarks and examples that must be the same on every run.
 */
export function lognormalSamples(count: number, options: { median: number; sigma: number; seed: number }): number[] {
  const random = mulberry32(options.seed);
  return Array.from({ length: count }, () => Math.exp(Math.log(options.median) + options.sigma * standardNormal(random)));
}
