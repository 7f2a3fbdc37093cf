// Runs the `versus` CLI as a user does, in a child process, for the CLI's integration tests.
// Asynchronously: the server answering it lives in the test's own process.
import { execFile } from "node:child_process";
import path from "node:path";

const repoRoot = path.resolve(import.meta.dirname, "..");
const bin = path.join(repoRoot, "scripts/cli/bin.mjs");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `versus <args>` with the test's environment plus `env` (an undefined value unsets a variable). */
export function runCli(args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  const childEnv: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...process.env, ...env })) {
    if (value !== undefined) childEnv[name] = value;
  }
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd: repoRoot, env: childEnv as NodeJS.ProcessEnv, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
    });
  });
}
