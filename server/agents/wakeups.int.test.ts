// LISTEN/NOTIFY wake-ups on a real PostgreSQL: a notification sent on any connection wakes the
// waiting claims of that project only, and a listener whose connection dies comes back and
// wakes its waiters (who may have missed something) when it does.
import pg from "pg";
import { afterAll, afterEach, describe, expect, inject, it } from "vitest";
import { JOBS_CHANNEL, JobWakeups } from "./wakeups";

const url = inject("databaseUrl");
const listeners: JobWakeups[] = [];
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((l) => l.close()));
});

const sender = new pg.Client({ connectionString: url });
await sender.connect();
afterAll(() => sender.end());

const notify = (projectId: string) => sender.query("SELECT pg_notify($1, $2)", [JOBS_CHANNEL, projectId]);

async function listener(): Promise<JobWakeups> {
  const wakeups = new JobWakeups(url);
  listeners.push(wakeups);
  await wakeups.ready();
  expect(wakeups.listening).toBe(true);
  return wakeups;
}

describe("JobWakeups", () => {
  it("wakes the waiters of the notified project, and only them", async () => {
    const wakeups = await listener();
    const mine = wakeups.subscribe("project-a");
    const theirs = wakeups.subscribe("project-b");
    const waits = [mine.wait(30_000), theirs.wait(500)];
    await notify("project-a");
    expect(await Promise.all(waits)).toEqual(["woken", "timeout"]);
    mine.cancel();
    theirs.cancel();
    expect(wakeups.waiting).toBe(0);
  });

  it("keeps a notification that arrives before the wait begins (subscribe, look for work, then wait)", async () => {
    const wakeups = await listener();
    const subscription = wakeups.subscribe("project-early");
    await notify("project-early");
    // Let the notification arrive before waiting.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await subscription.wait(30_000)).toBe("woken");
    subscription.cancel();
  });

  it("ends a wait when its signal aborts", async () => {
    const wakeups = await listener();
    const subscription = wakeups.subscribe("project-abort");
    const controller = new AbortController();
    const wait = subscription.wait(30_000, controller.signal);
    controller.abort();
    expect(await wait).toBe("aborted");
    subscription.cancel();
  });

  it("reconnects after its connection is killed, waking its waiters, and hears notifications again", async () => {
    const wakeups = await listener();
    const waiting = wakeups.subscribe("project-reconnect");
    const woken = waiting.wait(60_000);
    await sender.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'versus job wakeups'");
    // Missed notifications are possible while it was away: it wakes everyone once back.
    expect(await woken).toBe("woken");
    expect(wakeups.listening).toBe(true);
    waiting.cancel();

    const after = wakeups.subscribe("project-reconnect");
    const wait = after.wait(30_000);
    await notify("project-reconnect");
    expect(await wait).toBe("woken");
    after.cancel();
  });
});

describe("a process with a listener", () => {
  it("can still exit by itself: the LISTEN connection does not hold it open (a server's graceful shutdown waits for that)", async () => {
    const { spawn } = await import("node:child_process");
    const path = await import("node:path");
    const root = path.resolve(import.meta.dirname, "../..");
    const script = `
      const { JobWakeups } = await import(${JSON.stringify(path.join(root, "server/agents/wakeups.ts"))});
      const wakeups = new JobWakeups(process.env.TEST_DATABASE_URL);
      await wakeups.ready();
      console.log(wakeups.listening ? "listening" : "not listening");
    `;
    const child = spawn(process.execPath, [path.join(root, "node_modules/tsx/dist/cli.mjs"), "--input-type=module", "-e", script], {
      cwd: root,
      env: { ...process.env, TEST_DATABASE_URL: url, VERSUS_SKIP_ENV_VALIDATION: "1" },
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    // Generous: a held-open process never exits, so the test's own timeout ends it.
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    const outcome = await Promise.race([exited, new Promise<"still running">((resolve) => setTimeout(() => resolve("still running"), 30_000))]);
    if (outcome === "still running") child.kill("SIGKILL");
    expect(outcome, output).toBe(0);
    expect(output).toContain("listening");
  });
});
