// Waits for a Versus server it started to answer /api/health: `npm start` before it prints the
// URL, the benchmarks and the reliability tests before they send load. One loop for all of them.

export interface HealthWait {
  /** Give up at once (answer false) when this turns false, e.g. the server process exited. */
  keepWaiting?: () => boolean;
  timeoutMs: number;
  intervalMs?: number;
}

/** True once `${origin}/api/health` answers 2xx; false when keepWaiting() said stop; throws on timeout. */
export async function waitForHealth(origin: string, { keepWaiting = () => true, timeoutMs, intervalMs = 250 }: HealthWait): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (keepWaiting()) {
    try {
      if ((await fetch(`${origin}/api/health`)).ok) return true;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the server did not answer ${origin}/api/health within ${Math.round(timeoutMs / 1000)} s`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return false;
}
