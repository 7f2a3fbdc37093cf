// Turns of upload transactions: one at a time per experiment in arrival order, a failed one
// passes the turn on, and different experiments run side by side up to the limit.
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
  it("runs one transaction per experiment at a time, in arrival order; a failure passes the turn on", async () => {
    const log: string[] = [];
    const [a, b, c] = ["a", "b", "c"].map((name) => controlled(log, name)) as [
      ReturnType<typeof controlled>,
      ReturnType<typeof controlled>,
      ReturnType<typeof controlled>,
    ];
    const results = [inTurn("p/e", a.run), inTurn("p/e", b.run), inTurn("p/e", c.run)].map((p) => p.catch((error: Error) => error.message));
    await turnOver();
    expect(log).toEqual(["a"]);
    expect(waitingForTurn()).toBe(2);
    a.finish(true);
    await turnOver();
    expect(log).toEqual(["a", "b"]);
    b.finish();
    await turnOver();
    c.finish();
    expect(await Promise.all(results)).toEqual(["a failed", "b", "c"]);
    expect(waitingForTurn()).toBe(0);
  });

  it(`runs different experiments side by side, at most ${MAX_INGEST_TRANSACTIONS} at once`, async () => {
    const log: string[] = [];
    const all = Array.from({ length: MAX_INGEST_TRANSACTIONS + 1 }, (_, i) => controlled(log, `e${i}`));
    const results = all.map((t, i) => inTurn(`p/e${i}`, t.run));
    await turnOver();
    expect(log).toHaveLength(MAX_INGEST_TRANSACTIONS);
    all[0]?.finish();
    await turnOver();
    expect(log).toHaveLength(MAX_INGEST_TRANSACTIONS + 1);
    for (const t of all.slice(1)) t.finish();
    expect(await Promise.all(results)).toEqual(all.map((_, i) => `e${i}`));
  });
});
