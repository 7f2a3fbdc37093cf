// Waiting that a shutdown can cut short, and jitter so that many agents do not call in step.

/** Resolves after `ms`, or as soon as `signal` aborts (never rejects). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** `ms` moved by up to ±`fraction` of itself, at random. */
export function jitter(ms: number, fraction = 0.1, random = Math.random): number {
  return ms * (1 - fraction + 2 * fraction * random());
}
