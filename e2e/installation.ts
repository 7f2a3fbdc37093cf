// The installation the browser tests run against: its port, data directory, and the first
// owner the setup project creates (its signed-in session is every other test's starting state).
import path from "node:path";

export const e2ePort = Number(process.env.E2E_PORT ?? 3100);
export const e2eBaseURL = `http://127.0.0.1:${e2ePort}`;
/** One throwaway installation per port, so runs on different ports never share a database. */
export const e2eDataDir = e2ePort === 3100 ? ".data/e2e" : `.data/e2e-${e2ePort}`;
export const e2eEmbeddedPgPort = e2ePort + 1000;

export const OWNER = { name: "Olivia Owner", email: "owner@example.test", password: "correct horse battery staple" };
/** The owner's signed-in browser state, written by auth.setup.ts. */
export const OWNER_STATE = path.join(import.meta.dirname, ".auth", `owner-${e2ePort}.json`);

/** Environment for running the `versus` CLI's admin commands next to the test server's database. */
export const adminCliEnv = {
  ...process.env,
  DATABASE_URL: "",
  VERSUS_DATA_DIR: e2eDataDir,
  VERSUS_EMBEDDED_PG_PORT: String(e2eEmbeddedPgPort),
};
