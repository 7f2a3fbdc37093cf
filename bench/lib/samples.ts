// Deterministic latency-like samples: log-normal around 12 ms (mulberry32 + Box–Muller, seed fixed).
import { mulberry32, standardNormal } from "../../server/stats/prng";

export function latencySamples(count: number, seed = 42): Float64Array {
  const random = mulberry32(seed);
  const out = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const gaussian = standardNormal(random);
    // Rounded to µs like a real recorder's output.
    out[i] = Math.round(Math.exp(Math.log(12) + 0.35 * gaussian) * 1000) / 1000;
  }
  return out;
}
