// `npm test`: every layer, in order, stopping at the first failure —
// prisma generate, typecheck, lint, format (Prettier), unit, integration (real PostgreSQL), reliability (real
// servers and reference agents; makes the production build when stale, which e2e then reuses),
// agent tests (Go and JVM, once their folders exist), and Playwright e2e in Chromium.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const npx = process.platform === "win32" ? "npx.cmd" : "npx";

interface Step {
  name: string;
  command: string;
  args: string[];
  cwd?: string;
  /** What to install when `command` is missing. */
  needs?: string;
  /** Steps for parts of the project that do not exist yet are skipped, and say so. */
  when?: () => boolean;
}

const steps: Step[] = [
  { name: "prisma generate", command: npx, args: ["tsx", "scripts/prisma-generate.ts"] },
  { name: "typecheck", command: npx, args: ["tsc", "--noEmit", "-p", "."] },
  { name: "lint", command: npx, args: ["eslint", "--max-warnings", "0", "."] },
  // Formatting is checked, not argued about: \`npm run format\` rewrites what this refuses.
  { name: "format", command: npx, args: ["prettier", "--check", "."] },
  { name: "unit", command: npx, args: ["vitest", "run", "--project", "unit"] },
  { name: "integration", command: npx, args: ["vitest", "run", "--project", "integration"] },
  { name: "reliability", command: npx, args: ["vitest", "run", "--project", "reliability"] },
  // -count=1: Go's test cache does not notice a change to files outside the module (docs/openapi.json,
  // the stored adverts), so a cached pass could hide an agent the server has moved away from.
  {
    name: "go agent",
    command: "go",
    args: ["test", "-race", "-count=1", "./..."],
    cwd: "agents/go",
    needs: "Install Go 1.26 or later (and a C compiler, which -race needs).",
    when: () => fs.existsSync(path.join(root, "agents/go/go.mod")),
  },
  {
    name: "jvm agent",
    command: "mvn",
    args: ["-q", "-B", "verify"],
    cwd: "agents/jvm",
    needs: "Install a JDK 17 and Maven 3.8 or later.",
    when: () => fs.existsSync(path.join(root, "agents/jvm/pom.xml")),
  },
  { name: "e2e", command: npx, args: ["playwright", "test"] },
];

const results: { name: string; seconds: number; outcome: "passed" | "skipped" }[] = [];
for (const step of steps) {
  if (step.when && !step.when()) {
    results.push({ name: step.name, seconds: 0, outcome: "skipped" });
    continue;
  }
  console.log(`\n━━ ${step.name} ━━`);
  const started = Date.now();
  const run = spawnSync(step.command, step.args, { cwd: path.join(root, step.cwd ?? "."), stdio: "inherit", env: process.env });
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  if (run.error) {
    // A missing tool is a failure, not a skip: the agents' tests are part of the suite.
    console.error(`\n✗ ${step.name}: could not run \`${step.command}\` (${run.error.message}). ${step.needs ?? ""}`);
    process.exit(1);
  }
  if (run.status !== 0) {
    console.error(`\n✗ ${step.name} failed after ${seconds}s (exit ${run.status ?? run.signal}).`);
    process.exit(run.status || 1);
  }
  results.push({ name: step.name, seconds, outcome: "passed" });
}

console.log("\n━━ summary ━━");
for (const result of results)
  console.log(
    `${result.outcome === "passed" ? "✓" : "–"} ${result.name.padEnd(16)} ${result.outcome === "passed" ? `${result.seconds}s` : "skipped (not in this checkout)"}`,
  );
