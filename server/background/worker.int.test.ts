// The work after stored runs, on a real PostgreSQL: an upload with commits leaves a mark in its
// own transaction (none without a commit, none for a replay), the worker does the work and
// deletes the mark, a failed attempt keeps the mark with its error and a backoff and is retried
// until it succeeds, and a burst of marks of one experiment is one piece of work (its marks not due
// yet included).
import crypto from "node:crypto";
import pg from "pg";
import { afterAll, beforeEach, describe, expect, inject, it } from "vitest";
import { db, type Db } from "~/server/db/client";
import { createApiKey } from "~/server/projects/api-keys";
import { createProject } from "~/server/projects/projects";
import { signedInUser } from "~/test/signed-in";
import { uploadStored } from "~/test/rest-assertions";
import { claimRunsStored, drainBackgroundWork, finishRunsStored, RUNS_STORED_CHANNEL, workOnce } from "./worker";

// Marks other files' uploads left are done first, so each test sees only its own.
beforeEach(() => drainBackgroundWork(db));
afterAll(async () => {
  await drainBackgroundWork(db);
  await db.$disconnect();
});

const owner = await signedInUser(db, "owner");
const slug = `bg-${crypto.randomBytes(4).toString("hex")}`;
const project = await createProject(db, { name: slug, slug, description: "" }, owner.id);
const key = (await createApiKey(db, slug, "background")).secret;

const sha = (i: number) => crypto.createHash("sha1").update(`bg commit ${i}`).digest("hex");
/** 12 commits, 3 runs each: 6 at 100 ms, then 6 at 130 ms (a regression the history finds). */
const runs = (experiment: string) => ({
  experiment,
  create: true,
  runs: Array.from({ length: 36 }, (_, i) => ({
    variant: "main",
    gitCommit: sha(Math.floor(i / 3)),
    gitBranch: "main",
    gitCommitTime: new Date(Date.UTC(2026, 0, 1) + Math.floor(i / 3) * 3_600_000).toISOString(),
    metrics: [{ key: "t", unit: "ms", direction: "lower_is_better", summary: { n: 10, mean: (i < 18 ? 100 : 130) + (i % 3) } }],
  })),
});

const marksOf = (experimentId: string) => db.runsStoredTask.findMany({ where: { experimentId } });
const experimentId = async (experiment: string) =>
  (await db.experiment.findFirstOrThrow({ where: { projectId: project.id, slug: experiment }, select: { id: true } })).id;

describe("the work after stored runs", () => {
  it("is marked with the runs, done by the worker, and the mark deleted", async () => {
    await uploadStored(key, runs("marked"));
    const id = await experimentId("marked");
    const marks = await marksOf(id);
    expect(marks).toHaveLength(1);
    // Due a second after the runs, so a burst of uploads shares one refresh.
    expect(marks[0]!.runAfter.getTime() - marks[0]!.createdAt.getTime()).toBe(1000);
    expect(await db.changePoint.count({ where: { experimentId: id } })).toBe(0);
    await drainBackgroundWork(db);
    expect(await marksOf(id)).toHaveLength(0);
    expect(await db.changePoint.count({ where: { experimentId: id } })).toBeGreaterThan(0);
  });

  it("leaves no mark for runs without a commit", async () => {
    await uploadStored(key, {
      experiment: "no-commit",
      create: true,
      runs: [{ variant: "a", metrics: [{ key: "t", unit: "ms", direction: "lower_is_better", summary: { n: 1, mean: 1 } }] }],
    });
    expect(await marksOf(await experimentId("no-commit"))).toHaveLength(0);
  });

  it("wakes the workers when a mark is stored, and only then: once per experiment and upload", async () => {
    const listener = new pg.Client({ connectionString: inject("databaseUrl") });
    await listener.connect();
    try {
      const woken: string[] = [];
      listener.on("notification", (message) => {
        if (message.channel === RUNS_STORED_CHANNEL) woken.push(message.payload ?? "");
      });
      await listener.query(`LISTEN ${RUNS_STORED_CHANNEL}`);
      const uncommitted = { ...runs("quiet"), runs: runs("quiet").runs.map(({ gitCommit: _c, gitBranch: _b, gitCommitTime: _t, ...run }) => run) };
      await uploadStored(key, uncommitted);
      const quiet = await experimentId("quiet");
      // The same experiment's runs with commits: 36 runs, one mark, one wake-up.
      await uploadStored(key, runs("quiet"));
      // A round trip on the listening session delivers what the commits before it notified.
      await listener.query("SELECT 1");
      await expect.poll(() => woken.filter((payload) => payload === quiet)).toEqual([quiet]);
      // And no second one after it.
      await listener.query("SELECT 1");
      expect(woken.filter((payload) => payload === quiet)).toEqual([quiet]);
      expect(await marksOf(quiet)).toHaveLength(1);
    } finally {
      await listener.end();
    }
  });

  it("is retried after a failed attempt, with the error kept, until it succeeds", async () => {
    await uploadStored(key, runs("retried"));
    const id = await experimentId("retried");
    // A database that fails the refresh's first read, once.
    let failures = 1;
    const flaky = new Proxy(db, {
      get(target, property, receiver) {
        if (property !== "experiment") return Reflect.get(target, property, receiver);
        return new Proxy(target.experiment, {
          get(model, method, r) {
            if (method === "findUnique" && failures > 0) {
              failures--;
              return () => Promise.reject(new Error("the database went away mid-refresh"));
            }
            return Reflect.get(model, method, r);
          },
        });
      },
    }) as Db;
    const logged: string[] = [];
    expect(await workOnce(flaky, { dueWithinMs: 60_000, log: (line) => logged.push(line) })).toBe(true);
    expect(logged.join("\n")).toMatch(/failed \(attempt 1\); retrying later: Error: the database went away mid-refresh/);
    const [mark] = await marksOf(id);
    expect(mark).toMatchObject({ attempts: 1, lockedUntil: null, lastError: "the database went away mid-refresh" });
    expect(mark!.runAfter.getTime()).toBeGreaterThan(Date.now() + 3000);
    expect(await db.changePoint.count({ where: { experimentId: id } })).toBe(0);

    await drainBackgroundWork(db);
    expect(await marksOf(id)).toHaveLength(0);
    expect(await db.changePoint.count({ where: { experimentId: id } })).toBeGreaterThan(0);
  });

  it("takes a burst of marks of one experiment as one piece of work, and one experiment at a time", async () => {
    for (let i = 0; i < 3; i++) await uploadStored(key, { ...runs("burst"), runs: runs("burst").runs.slice(i * 12, i * 12 + 12) });
    await uploadStored(key, runs("other"));
    const burst = await experimentId("burst");
    expect(await marksOf(burst)).toHaveLength(3);
    const first = await claimRunsStored(db, { dueWithinMs: 60_000 });
    const second = await claimRunsStored(db, { dueWithinMs: 60_000 });
    expect(first?.experimentId).toBe(burst);
    expect(first?.ids).toHaveLength(3);
    // The other experiment, never the burst's again while it is held.
    expect(second?.experimentId).toBe(await experimentId("other"));
    await db.runsStoredTask.updateMany({ where: { experimentId: { in: [burst, second!.experimentId] } }, data: { lockedUntil: null } });
    await drainBackgroundWork(db);
  });

  it("takes the experiment's marks that are not due yet with its due one: the refresh reads their runs too", async () => {
    for (let i = 0; i < 3; i++) await uploadStored(key, { ...runs("stream"), runs: runs("stream").runs.slice(i * 12, i * 12 + 12) });
    const stream = await experimentId("stream");
    const marks = await marksOf(stream);
    expect(marks).toHaveLength(3);
    // The first upload's mark is due; the later two were stored a moment ago (not due for a while).
    const [due, ...later] = marks.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    await db.runsStoredTask.update({ where: { id: due!.id }, data: { runAfter: new Date(Date.now() - 60_000) } });
    await db.runsStoredTask.updateMany({ where: { id: { in: later.map((mark) => mark.id) } }, data: { runAfter: new Date(Date.now() + 3_600_000) } });
    // Without moving "now": only the first mark is due, and the claim takes all three.
    const claimed = await claimRunsStored(db);
    expect(claimed?.experimentId).toBe(stream);
    expect(claimed?.ids.sort()).toEqual(marks.map((mark) => mark.id).sort());
    // Nothing of the experiment is left to claim, due or not.
    expect(await claimRunsStored(db, { dueWithinMs: 7_200_000 })).toBeNull();
    await finishRunsStored(db, claimed!);
    expect(await marksOf(stream)).toHaveLength(0);
  });
});
