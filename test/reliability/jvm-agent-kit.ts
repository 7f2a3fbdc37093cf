// What the reliability tests of the JVM agent share: the agent's jars built as `npm start` builds
// them (Maven, when a source is newer than the jars; a file skips itself, saying so, where `java`
// or `mvn` is missing), and the processes a test starts, stopped after it (agents first, so they release their jobs to a live server) with
// their last lines as the context of a failure.
import path from "node:path";
import { afterEach, beforeAll } from "vitest";
import { buildJvmAgentForStart, javaAndMavenAvailable } from "~/scripts/lib/jvm-agent-build";
import type { Child } from "./processes";

export interface JvmAgentKit {
  /** Whether java and mvn are installed (the file's describe skips itself otherwise). */
  tools: boolean;
  /** Keeps `child` to stop after the test. */
  track: <T extends Child>(child: T) => T;
  /** The tracked processes' last lines, for a failure's message. */
  context: () => string;
}

/** Call once at the top of a test file; `file` names it in the skip warning. */
export function jvmAgentKit(file: string): JvmAgentKit {
  const tools = javaAndMavenAvailable();
  if (!tools) console.warn(`${file}: skipped, \`java\` and \`mvn\` are needed to build and run the JVM agent`);
  const children: Child[] = [];
  beforeAll(async () => {
    if (!tools) return;
    const built = await buildJvmAgentForStart(path.resolve(import.meta.dirname, "../.."), (line) => console.log(`${file}: ${line}`));
    if ("reason" in built) throw new Error(built.reason);
  }, 600_000);
  afterEach(async () => {
    await Promise.all(children.filter((child) => child.label.startsWith("agent")).map((agent) => agent.stop("SIGTERM")));
    await Promise.all(children.splice(0).map((child) => child.stop("SIGTERM")));
  });
  return {
    tools,
    track: (child) => (children.push(child), child),
    context: () => children.map((child) => child.tail()).join("\n"),
  };
}
