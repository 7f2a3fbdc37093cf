// The seeded generator behind every synthetic number in the example data: mulberry32 (the PRNG the
// statistics engine already uses for its A/A resampling) plus normal and log-normal draws. Same
// seed, same numbers, on every machine and every start — the descriptions state each case's seed.
import { mulberry32 } from "../../stats/prng";

export interface SeededRandom {
  /** The seed this stream started from (stated in descriptions and run environments). */
  readonly seed: number;
  /** Uniform in [0, 1). */
  uniform(): number;
  /** Uniform in [low, high). */
  between(low: number, high: number): number;
  /** Standard normal (Box–Muller, both halves used). */
  normal(): number;
  /** exp(mu + sigma · Z): positive, skewed to the right like latencies and load peaks. */
  logNormal(mu: number, sigma: number): number;
}

export function seededRandom(seed: number): SeededRandom {
  const next = mulberry32(seed);
  let spare: number | null = null;
  const normal = () => {
    if (spare !== null) {
      const value = spare;
      spare = null;
      return value;
    }
    // 1 − u keeps the logarithm away from 0.
    const u1 = 1 - next();
    const u2 = next();
    const radius = Math.sqrt(-2 * Math.log(u1));
    spare = radius * Math.sin(2 * Math.PI * u2);
    return radius * Math.cos(2 * Math.PI * u2);
  };
  return {
    seed,
    uniform: next,
    between: (low, high) => low + (high - low) * next(),
    normal,
    logNormal: (mu, sigma) => Math.exp(mu + sigma * normal()),
  };
}
