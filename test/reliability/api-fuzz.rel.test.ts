// The whole REST API fuzzed from its OpenAPI document (test/fuzz/): a production server on a
// database of its own, schemathesis with a fixed seed and a few examples per operation and phase,
// then the database checked for what a half-written request would leave. A short run, for every
// `npm test`; `npx tsx scripts/fuzz-api.ts` runs a long one (docs/reliability.md, "Fuzzing").
import fs from "node:fs";
import { expect, inject, it } from "vitest";
import { buildOpenApiDocument } from "~/server/api/openapi";
import { migrate } from "~/server/db/migrator";
import { createThrowawayDatabase } from "~/test/throwaway-database";
import { fuzzSession } from "../fuzz/fuzz-session";
import { PythonMissingError } from "../fuzz/schemathesis-venv";

/** Enough to cover every operation's boundaries (the coverage phase) and a few generated cases each. */
const MAX_EXAMPLES = 20;
const SEED = 20261124;

it("schemathesis: no 5xx, no answer the document does not describe, no partial write", async () => {
  const database = await createThrowawayDatabase(inject("adminDatabaseUrl"), "fuzz");
  try {
    await migrate(database.url);
    const session = await fuzzSession(database.url, { maxExamples: MAX_EXAMPLES, seed: SEED, log: console.log }).catch((error: unknown) => {
      // A missing Python is a missing tool: say which, without a stack.
      if (error instanceof PythonMissingError) expect.fail(error.message);
      throw error;
    });
    const { result, partialWrites, serverLog } = session;
    console.log(
      `API fuzz: ${result.operations} operations, ${result.testCases} test cases in ${Math.round(result.seconds)} s (seed ${SEED}), ${result.failures.length} failures`,
    );
    const context = `${result.output}\n${serverLog}`;

    // Every operation of the document was exercised (the document's own GET is the one schemathesis reads).
    const documented = Object.values(buildOpenApiDocument().paths ?? {}).flatMap((item) => Object.keys(item ?? {})).length;
    expect(result.operations, context).toBe(documented - 1);
    expect(result.testCases).toBeGreaterThan(1000);
    expect(result.failures, context).toEqual([]);
    expect(partialWrites).toEqual([]);
    expect(result.exitCode, context).toBe(0);
    fs.rmSync(result.reportDir, { recursive: true, force: true }); // kept when something failed, for its reports
  } finally {
    await database.drop();
  }
});
