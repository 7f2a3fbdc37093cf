// What the endpoint benchmarks share: sequential timed GETs after a warm-up, and their quantiles.

export function quantile(xs: readonly number[], q: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  // type 7, as numpy's default
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  return (sorted[lo] as number) + (h - lo) * ((sorted[Math.min(lo + 1, sorted.length - 1)] as number) - (sorted[lo] as number));
}

export const median = (xs: readonly number[]) => quantile(xs, 0.5);

export const ms = (x: number) => `${x.toFixed(1)} ms`;

/**
 * `count` sequential GETs of `url` after `warmUp` (≥ 1) unmeasured ones; each must answer 200.
 * `first` is the first GET's time (a cold read, before any cache of the server holds the answer).
 */
export async function timeGets(
  url: string,
  headers: Record<string, string>,
  { count, warmUp }: { count: number; warmUp: number },
): Promise<{ times: number[]; bytes: number; first: number }> {
  const once = async () => {
    const started = performance.now();
    const response = await fetch(url, { headers });
    const text = await response.text();
    const elapsed = performance.now() - started;
    if (response.status !== 200) throw new Error(`GET ${url}: ${response.status} ${text.slice(0, 500)}`);
    return { elapsed, bytes: Buffer.byteLength(text) };
  };
  const first = (await once()).elapsed;
  for (let i = 1; i < warmUp; i++) await once();
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const r = await once();
    times.push(r.elapsed);
    bytes = r.bytes;
  }
  return { times, bytes, first };
}
