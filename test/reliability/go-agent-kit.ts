// What the reliability tests of the Go agent share: versus-agent built once per file as `npm start`
// builds it (a file skips itself, saying so, where Go is not installed), the processes a test
// starts (stopped after it, their last lines the context of a failure), and waiting for an agent
// to be ready.
import path from "node:path";
import { afterEach, beforeAll } from "vitest";
import { buildGoAgent, goAvailable } from "~/scripts/lib/go-agent-build";
import { eventually, type Child } from "./processes";

export const hasGo = goAvailable();

export interface GoAgentKit {
  /** The built versus-agent (empty until the file's beforeAll ran). */
  binary: () => string;
  /** Starts `child` under the kit: stopped with SIGTERM after the test. */
  track: <T extends Child>(child: T) => T;
  /** The tracked processes' last lines, for a failure's message. */
  context: () => string;
  /** Resolves once the agent logged agent.ready. */
  ready: (agent: Child) => Promise<unknown>;
}

/** Call once at the top of a test file; `file` names it in the skip warning. */
export function goAgentKit(file: string): GoAgentKit {
  if (!hasGo) console.warn(`${file}: skipped, \`go\` is not on PATH (install Go to build and test agents/go)`);
  const children: Child[] = [];
  let binary = "";
  beforeAll(async () => {
    if (!hasGo) return;
    const built = await buildGoAgent(path.resolve(import.meta.dirname, "../.."), "test");
    if ("reason" in built) throw new Error(built.reason);
    binary = built.binary;
  });
  afterEach(async () => {
    await Promise.all(children.splice(0).map((child) => child.stop("SIGTERM")));
  });
  const context = () => children.map((child) => child.tail()).join("\n");
  return {
    binary: () => binary,
    track: (child) => (children.push(child), child),
    context,
    ready: (agent) => eventually(`${agent.label} to be ready`, () => agent.lines.some((line) => line.includes("event=agent.ready")), { context }),
  };
}
