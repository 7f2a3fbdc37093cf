// Builds the JVM agent (agents/jvm) for `npm start`'s local JVM agent when Java and Maven are
// installed: the agent's jar and the local Kafka broker's (the kafka workload starts one per run
// from it). Maven takes a minute even when nothing changed, so it runs only when a source or pom
// is newer than the jars. Without Java or Maven, or when the build fails, there is no local JVM agent.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export interface JvmAgentBuild {
  jar: string;
  brokerJar: string;
}

const has = (command: string, args: string[]) => spawnSync(command, args, { stdio: "ignore" }).status === 0;

/** Whether `java` and `mvn` are on the PATH: what building and running the JVM agent takes. */
export function javaAndMavenAvailable(): boolean {
  return has("java", ["-version"]) && has("mvn", ["-v"]);
}

export function jvmAgentJars(root: string): JvmAgentBuild {
  const dir = path.join(root, "agents/jvm");
  return { jar: path.join(dir, "agent/target/versus-agent-jvm.jar"), brokerJar: path.join(dir, "local-broker/target/versus-kafka-broker.jar") };
}

/** The newest modification time of the JVM agent's sources and poms (target/ folders left out). */
function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "target" || entry.name.startsWith(".")) continue;
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(file));
    else newest = Math.max(newest, fs.statSync(file).mtimeMs);
  }
  return newest;
}

/** Whether the jars are missing or older than a source: the build is needed. */
export function jvmAgentIsStale(root: string): boolean {
  const { jar, brokerJar } = jvmAgentJars(root);
  if (!fs.existsSync(jar) || !fs.existsSync(brokerJar)) return true;
  const built = Math.min(fs.statSync(jar).mtimeMs, fs.statSync(brokerJar).mtimeMs);
  return newestSource(path.join(root, "agents/jvm")) > built;
}

/** The jars, or the reason there are none. */
export async function buildJvmAgentForStart(root: string, log: (line: string) => void): Promise<JvmAgentBuild | { reason: string }> {
  if (!has("java", ["-version"])) return { reason: "Java is not installed (java on PATH)" };
  if (!jvmAgentIsStale(root)) return jvmAgentJars(root);
  if (!has("mvn", ["-v"])) return { reason: "Maven is not installed (mvn on PATH) to build it" };
  log("building the JVM agent (agents/jvm, mvn package; the first time takes a few minutes)…");
  const output: string[] = [];
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn("mvn", ["-q", "-B", "package", "-DskipTests"], {
      cwd: path.join(root, "agents/jvm"),
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    child.once("error", () => resolve(null));
    child.once("exit", resolve);
  });
  if (code !== 0) return { reason: `mvn package failed: ${output.join("").trim().split("\n").slice(-5).join(" | ") || "no output"}` };
  return jvmAgentJars(root);
}
