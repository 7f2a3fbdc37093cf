// Turns of upload transactions: at most MAX_INGEST_TRANSACTIONS at once, the others in arrival
// order, a failed one passes its turn on.
import { describe, expect, it } from "vitest";
import { inTurn, MAX_INGEST_TRANSACTIONS, waitingForTurn } from "./ingest-turns";

/** A transaction that runs until `finish` is called, recording when it started. */
function controlled(log: string[], name: string) {
  let finish!: (fail?: boolean) => void;
  const run = () =>
    new Promise<string>((resolve, reject) => {
      log.push(name);
      finish = (fail) => (fail ? reject(new Error(`${name} failed`)) : resolve(name));
    });
  return { run, finish: (fail?: boolean) => finish(fail) };
}

const turnOver = () => new Promise((resolve) => setImmediate(resolve));

describe("inTurn", () => {
  it(`runs at most ${MAX_INGEST_TRANSACTIONS} at once; the others start in arrival order, also after a failure`, async () => {
    const log: string[] = [];
    const all = Array.from({ length: MAX_INGEST_TRANSACTIONS + 2 }, (_, i) => controlled(log, `t${i}`));
    const results = all.map((t) => inTurn(t.run).catch((error: Error) => error.message));
    await turnOver();
    expect(log).toEqual(all.slice(0, MAX_INGEST_TRANSACTIONS).map((_, i) => `t${i}`));
    expect(waitingForTurn()).toBe(2);
    all[0]?.finish(true);
    await turnOver();
    expect(log.at(-1)).toBe(`t${MAX_INGEST_TRANSACTIONS}`);
    expect(waitingForTurn()).toBe(1);
    all[1]?.finish();
    await turnOver();
    expect(log.at(-1)).toBe(`t${MAX_INGEST_TRANSACTIONS + 1}`);
    for (const t of all.slice(2)) t.finish();
    expect(await Promise.all(results)).toEqual(all.map((_, i) => (i === 0 ? "t0 failed" : `t${i}`)));
    expect(waitingForTurn()).toBe(0);
  });
});
