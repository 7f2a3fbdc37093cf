// Builds the Go agent (agents/go) for `npm start`'s local agent when Go is installed. Go's build
// cache makes every build after the first take a second or two, so it runs on each start and a
// pulled change to the agent is always in the binary. Without Go, or when the build fails, the
// caller falls back to the TypeScript reference agent.
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";

export interface GoAgentBuild {
  binary: string;
}

export function goAvailable(): boolean {
  return spawnSync("go", ["version"], { stdio: "ignore" }).status === 0;
}

/** The binary's path, or the reason there is none. */
export async function buildGoAgent(root: string, version: string): Promise<GoAgentBuild | { reason: string }> {
  if (!goAvailable()) return { reason: "Go is not installed" };
  const moduleDir = path.join(root, "agents/go");
  const binary = path.join(moduleDir, "bin", process.platform === "win32" ? "versus-agent.exe" : "versus-agent");
  const output: string[] = [];
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn("go", ["build", "-trimpath", "-ldflags", `-X main.version=${version}`, "-o", binary, "./cmd/versus-agent"], {
      cwd: moduleDir,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    child.once("error", () => resolve(null));
    child.once("exit", resolve);
  });
  if (code !== 0) return { reason: `go build failed: ${output.join("").trim().split("\n").slice(-5).join(" | ") || "no output"}` };
  return { binary };
}
