// Deterministic latency-like samples: log-normal around 12 ms (mulberry32 + Box–Muller, seed fixed).
export function latencySamples(count: number, seed = 42): Float64Array {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const gaussian = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    // Rounded to µs like a real recorder's output.
    out[i] = Math.round(Math.exp(Math.log(12) + 0.35 * gaussian) * 1000) / 1000;
  }
  return out;
}
