// Schemathesis (a Python tool, from PyPI) in a virtualenv of the project's own, made on first use
// and reused after: node_modules/.cache/schemathesis-venv, so `npm ci` starts it afresh and
// nothing is installed outside the checkout. Needs Python 3.9+ with its venv module.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** The version every run uses, so a failure reproduces with the same generator. */
export const SCHEMATHESIS = "schemathesis==4.32.5";

const root = path.resolve(import.meta.dirname, "../..");
export const venvDir = path.join(root, "node_modules/.cache/schemathesis-venv");
const stamp = path.join(venvDir, "installed.txt");
const bin = (name: string) => path.join(venvDir, process.platform === "win32" ? "Scripts" : "bin", name);

/** Thrown when Python or its venv module is missing: the message says what to install. */
export class PythonMissingError extends Error {}

/**
 * The newest Python 3.9+ that can make a virtualenv: VERSUS_PYTHON when set, else the newest of
 * the python3.N on the PATH, python3, and pyenv's installed versions. Newest, because CPython
 * before 3.11.8 and 3.12.2 can fail with "AST constructor recursion depth mismatch" inside
 * Hypothesis (cpython#106905), which schemathesis then reports as an error of its own.
 */
function findPython(): { command: string; version: number[] } {
  const candidates = process.env.VERSUS_PYTHON
    ? [process.env.VERSUS_PYTHON]
    : [...Array.from({ length: 6 }, (_, i) => `python3.${14 - i}`), "python3", "python", ...pyenvPythons()];
  const tried: string[] = [];
  let best: { command: string; version: number[] } | undefined;
  for (const candidate of candidates) {
    const probe = spawnSync(candidate, ["-c", "import sys, venv, ensurepip; assert sys.version_info >= (3, 9), sys.version; print(*sys.version_info[:3])"], {
      encoding: "utf8",
    });
    if (probe.status !== 0) {
      tried.push(`${candidate}: ${probe.error ? "not found" : (probe.stderr.trim().split("\n").at(-1) ?? `exit ${probe.status}`)}`);
      continue;
    }
    const version = probe.stdout.trim().split(" ").map(Number);
    if (!best || compareVersions(version, best.version) > 0) best = { command: candidate, version };
  }
  if (best) return best;
  throw new PythonMissingError(
    `The API fuzz test runs schemathesis, which needs Python 3.9 or later with its venv module; none found (tried ${process.env.VERSUS_PYTHON ?? "python3.N, python3, python and pyenv's versions"}${tried
      .filter((line) => !line.endsWith("not found"))
      .map((line) => `; ${line}`)
      .join("")}). ` + "Install it (Debian/Ubuntu: apt-get install python3 python3-venv), or point VERSUS_PYTHON at an interpreter.",
  );
}

/** The interpreters pyenv has installed, which its shims hide unless selected. */
function pyenvPythons(): string[] {
  const asked = spawnSync("pyenv", ["root"], { encoding: "utf8" });
  const root = asked.status === 0 ? asked.stdout.trim() : (process.env.PYENV_ROOT ?? path.join(os.homedir(), ".pyenv"));
  const versions = path.join(root, "versions");
  if (!fs.existsSync(versions)) return [];
  return fs
    .readdirSync(versions)
    .map((version) => path.join(versions, version, "bin", "python3"))
    .filter((file) => fs.existsSync(file));
}

function compareVersions(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
}

/** The schemathesis executable, installing it into the virtualenv first when needed (needs PyPI). */
export function ensureSchemathesis(log: (line: string) => void = console.log): string {
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8").startsWith(`${SCHEMATHESIS} on Python `) && fs.existsSync(bin("schemathesis")))
    return bin("schemathesis");
  const python = findPython();
  log(`installing ${SCHEMATHESIS} with Python ${python.version.join(".")} into ${path.relative(root, venvDir)} (once; about a minute)…`);
  fs.rmSync(venvDir, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(venvDir), { recursive: true });
  const steps: [string, string[]][] = [
    [python.command, ["-m", "venv", venvDir]],
    [bin("python"), ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", SCHEMATHESIS]],
  ];
  for (const [command, args] of steps) {
    const run = spawnSync(command, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    if (run.status !== 0) {
      fs.rmSync(venvDir, { recursive: true, force: true });
      throw new PythonMissingError(
        `\`${path.basename(command)} ${args.join(" ")}\` failed (exit ${run.status ?? run.signal}):\n${`${run.stdout}\n${run.stderr}`.trim().split("\n").slice(-15).join("\n")}`,
      );
    }
  }
  // Written last: a half-made virtualenv is made again next time.
  fs.writeFileSync(stamp, `${SCHEMATHESIS} on Python ${python.version.join(".")}\n`);
  return bin("schemathesis");
}
