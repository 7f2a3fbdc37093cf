// The local agent's supervisor with a stand-in child (a few lines of node): restarts after a
// crash, not after exit 0 or 78 — after exit 0 again once resumed — and stop() ends the child
// (SIGTERM, then SIGKILL).
import { afterEach, describe, expect, it, vi } from "vitest";
import { superviseAgent, type Supervisor } from "./agent-supervisor";

const running: Supervisor[] = [];
afterEach(async () => {
  for (const supervisor of running.splice(0)) await supervisor.stop();
});

function supervise(script: string, overrides: { stopTimeoutMs?: number; resumed?: (signal: AbortSignal) => Promise<boolean> } = {}) {
  const lines: string[] = [];
  const supervisor = superviseAgent({
    command: process.execPath,
    args: ["-e", script],
    cwd: process.cwd(),
    env: process.env,
    log: (line) => lines.push(line),
    restartDelayMs: 10,
    maxRestartDelayMs: 40,
    ...overrides,
  });
  running.push(supervisor);
  return { supervisor, lines };
}

const eventually = { timeout: 15_000, interval: 20 };

describe("superviseAgent", () => {
  it("passes the child's lines on and restarts it when it crashes", async () => {
    const { supervisor, lines } = supervise('console.log("hello"); console.error("oops"); process.exit(3)');
    await vi.waitFor(() => expect(supervisor.starts()).toBeGreaterThanOrEqual(3), eventually);
    expect(lines).toContain("hello");
    expect(lines).toContain("oops");
    expect(lines).toContain("exited (code 3); restarting in 0 s");
  });

  it.each([
    [0, "stopped (the server asked it to); not restarted"],
    [78, "cannot run (see the lines above); not restarted"],
  ])("does not restart a child that exits with %i", async (code, message) => {
    const { supervisor, lines } = supervise(`process.exit(${code})`);
    await vi.waitFor(() => expect(lines).toContain(message), eventually);
    expect(supervisor.starts()).toBe(1);
    expect(supervisor.pid()).toBeUndefined();
  });

  it("starts a child that exited 0 again once it is resumed, and not when it never is", async () => {
    let resume!: (resumed: boolean) => void;
    const { supervisor, lines } = supervise("process.exit(0)", { resumed: () => new Promise<boolean>((resolve) => (resume = resolve)) });
    await vi.waitFor(() => expect(lines).toContain("stopped (the server asked it to); it starts again when it is resumed on the Agents page"), eventually);
    expect(supervisor.starts()).toBe(1);
    resume(true);
    await vi.waitFor(() => expect(supervisor.starts()).toBe(2), eventually);
    expect(lines).toContain("resumed on the Agents page; starting it again");
    await vi.waitFor(() => expect(lines.filter((line) => line.startsWith("stopped"))).toHaveLength(2), eventually);
    resume(false);
    // (What a resolved promise sets off runs before the next turn of the event loop.)
    await new Promise((resolve) => setImmediate(resolve));
    expect(supervisor.starts()).toBe(2);
  });

  it("stops waiting for a resume when it is stopped itself", async () => {
    let aborted = false;
    const { supervisor, lines } = supervise("process.exit(0)", {
      resumed: (signal) => new Promise<boolean>((resolve) => signal.addEventListener("abort", () => ((aborted = true), resolve(false)))),
    });
    await vi.waitFor(() => expect(lines.some((line) => line.startsWith("stopped"))).toBe(true), eventually);
    await supervisor.stop();
    expect(aborted).toBe(true);
    expect(supervisor.starts()).toBe(1);
  });

  it("stops the child with SIGTERM and waits for it to exit", async () => {
    const script = 'process.on("SIGTERM", () => { console.log("got SIGTERM"); process.exit(0); }); console.log("ready"); setInterval(() => {}, 1000)';
    const { supervisor, lines } = supervise(script);
    await vi.waitFor(() => expect(lines).toContain("ready"), eventually);
    await supervisor.stop();
    expect(lines).toContain("got SIGTERM");
    expect(supervisor.pid()).toBeUndefined();
    expect(supervisor.starts()).toBe(1);
  });

  it("kills a child that ignores SIGTERM", async () => {
    const { supervisor, lines } = supervise('process.on("SIGTERM", () => {}); console.log("ready"); setInterval(() => {}, 1000)', { stopTimeoutMs: 200 });
    await vi.waitFor(() => expect(lines).toContain("ready"), eventually);
    await supervisor.stop();
    expect(supervisor.pid()).toBeUndefined();
  });
});
