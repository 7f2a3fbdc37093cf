// The local agent's supervisor with a stand-in child (a few lines of node): restarts after a
// crash, not after exit 0 or 78, and stop() ends the child (SIGTERM, then SIGKILL).
import { afterEach, describe, expect, it, vi } from "vitest";
import { superviseAgent, type Supervisor } from "./agent-supervisor";

const running: Supervisor[] = [];
afterEach(async () => {
  for (const supervisor of running.splice(0)) await supervisor.stop();
});

function supervise(script: string, overrides: { stopTimeoutMs?: number } = {}) {
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
