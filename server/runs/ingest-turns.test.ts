// Turns of uploads at work and of upload transactions: at most MAX_UPLOADS_AT_WORK and
// MAX_INGEST_TRANSACTIONS at once, the others in arrival order, a failed one passes its turn on.
import { describe, expect, it } from "vitest";
import { atWork, inTurn, MAX_INGEST_TRANSACTIONS, MAX_UPLOADS_AT_WORK, waitingForTurn } from "./ingest-turns";

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

describe.each([
  { name: "atWork", run: atWork, max: MAX_UPLOADS_AT_WORK, kind: "work" as const },
  { name: "inTurn", run: inTurn, max: MAX_INGEST_TRANSACTIONS, kind: "transactions" as const },
])("$name", ({ run: inPlace, max, kind }) => {
  it(`runs at most ${max} at once; the others start in arrival order, also after a failure`, async () => {
    const log: string[] = [];
    const all = Array.from({ length: max + 2 }, (_, i) => controlled(log, `t${i}`));
    const results = all.map((t) => inPlace(t.run).catch((error: Error) => error.message));
    await turnOver();
    expect(log).toEqual(all.slice(0, max).map((_, i) => `t${i}`));
    expect(waitingForTurn(kind)).toBe(2);
    all[0]?.finish(true);
    await turnOver();
    expect(log.at(-1)).toBe(`t${max}`);
    expect(waitingForTurn(kind)).toBe(1);
    all[1]?.finish();
    await turnOver();
    expect(log.at(-1)).toBe(`t${max + 1}`);
    for (const t of all.slice(2)) t.finish();
    expect(await Promise.all(results)).toEqual(all.map((_, i) => (i === 0 ? "t0 failed" : `t${i}`)));
    expect(waitingForTurn(kind)).toBe(0);
  });
});
