import path from "node:path";
import { defineConfig } from "vitest/config";

// Three layers: `unit` (pure code, no I/O), `integration` (a real PostgreSQL: one embedded
// server with a throwaway database per run, started by test/integration-setup.ts) and
// `reliability` (real server and agent processes on such a database).
export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname) } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["server/**/*.test.ts", "components/**/*.test.ts", "scripts/**/*.test.ts", "agents/reference/**/*.test.ts", "test/*.test.ts"],
          exclude: ["**/*.int.test.ts", "node_modules/**"],
          environment: "node",
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["server/**/*.int.test.ts", "scripts/**/*.int.test.ts", "test/**/*.int.test.ts"],
          globalSetup: ["test/integration-setup.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Files share one database; run them one at a time so row counts mean something.
          fileParallelism: false,
        },
      },
      {
        // Real processes: `next start` servers on the production build (made first when stale)
        // and reference agents, on the integration run's database (test/reliability/).
        extends: true,
        test: {
          name: "reliability",
          include: ["test/reliability/**/*.rel.test.ts"],
          globalSetup: ["test/integration-setup.ts", "test/reliability/build-setup.ts"],
          environment: "node",
          testTimeout: 240_000,
          hookTimeout: 900_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
