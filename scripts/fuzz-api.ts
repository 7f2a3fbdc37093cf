// `npx tsx scripts/fuzz-api.ts [--examples N] [--seed S] [--workers W] [--keep-report DIR]`:
// fuzzes the whole REST API from its OpenAPI document with schemathesis (installed into a
// virtualenv on first use: test/fuzz/schemathesis-venv.ts) against a production server (made by
// `next build` when stale) on an embedded PostgreSQL of its own, then checks the database for
// what a half-written request would leave. The short run inside `npm test` is
// test/reliability/api-fuzz.rel.test.ts; this one is for longer runs (docs/reliability.md, "Fuzzing").
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startEmbeddedPostgres } from "../server/db/embedded-postgres";
import { migrate } from "../server/db/migrator";
import { PythonMissingError } from "../test/fuzz/schemathesis-venv";
import { freePort } from "../test/free-port";
import buildIfStale from "../test/reliability/build-setup";

const { values } = parseArgs({
  options: {
    examples: { type: "string", default: "200" },
    seed: { type: "string", default: String(crypto.randomInt(1, 2 ** 31)) },
    workers: { type: "string", default: "1" },
    "keep-report": { type: "string" },
  },
});
const maxExamples = Number(values.examples);
const seed = Number(values.seed);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "versus-fuzz-pg-"));
fs.chmodSync(dataDir, 0o755);
let exitCode = 1;
const postgres = await startEmbeddedPostgres({ dataDir, port: await freePort() });
try {
  await postgres.ensureDatabase("versus_fuzz");
  const databaseUrl = postgres.urlFor("versus_fuzz");
  await migrate(databaseUrl);
  buildIfStale();
  // Loaded now: the server modules it reaches read DATABASE_URL when they load.
  process.env.DATABASE_URL = databaseUrl;
  const { fuzzSession } = await import("../test/fuzz/fuzz-session");
  const { result, partialWrites, serverLog } = await fuzzSession(databaseUrl, {
    maxExamples,
    seed,
    workers: Number(values.workers),
    reportDir: values["keep-report"],
    log: console.log,
  });
  console.log(result.output.trimEnd());
  console.log(
    `\n${result.operations} operations, ${result.testCases} test cases in ${Math.round(result.seconds)} s (seed ${seed}); reports in ${result.reportDir}`,
  );
  for (const failure of result.failures) console.log(`✗ ${failure}`);
  for (const problem of partialWrites) console.log(`✗ partial write: ${problem}`);
  if (result.failures.length === 0 && partialWrites.length === 0 && result.exitCode === 0) {
    console.log("✓ no failures, no partial writes");
    exitCode = 0;
  } else if (/REST request failed|Error/.test(serverLog)) {
    console.log(`\nthe server's log:\n${serverLog}`);
  }
} catch (error) {
  // Python missing is an install step, not a bug: say what to install, without a stack.
  console.error(error instanceof PythonMissingError ? error.message : error);
} finally {
  await postgres.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
process.exit(exitCode);
