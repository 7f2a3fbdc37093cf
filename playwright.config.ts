// Browser tests: a real Chromium against a production build served by `npm start`'s own script,
// on a throwaway embedded PostgreSQL (its data directory is wiped before each run).
import fs from "node:fs";
import { defineConfig, devices } from "@playwright/test";
import { e2eBaseURL as baseURL, e2eDataDir as dataDir, e2eEmbeddedPgPort, e2ePort as port, OWNER_STATE } from "./e2e/installation";

// Playwright cannot download its own browser on machines without internet; use the system
// Chromium when there is one (override with CHROMIUM_PATH), else Playwright's own build.
const systemChromium = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find((candidate): candidate is string =>
  Boolean(candidate && fs.existsSync(candidate)),
);

const chromium = {
  ...devices["Desktop Chrome"],
  launchOptions: {
    executablePath: systemChromium,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-quic",
      "--no-first-run",
      "--disable-sync",
    ],
  },
};

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    // Charts animate on entry; tests and screenshots want the final frame.
    contextOptions: { reducedMotion: "reduce" },
  },
  projects: [
    // Creates the first owner through the one-time setup link and signs in; the other tests
    // start from that session.
    { name: "setup", testMatch: /auth\.setup\.ts$/, use: chromium },
    { name: "chromium", dependencies: ["setup"], use: { ...chromium, storageState: OWNER_STATE } },
  ],
  webServer: {
    command: `rm -rf ${dataDir} && tsx scripts/start.ts`,
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 300_000,
    stdout: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
    env: {
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      VERSUS_DATA_DIR: dataDir,
      VERSUS_EMBEDDED_PG_PORT: String(e2eEmbeddedPgPort),
      DATABASE_URL: "",
      // The browser tests run the Go agent's examples; the JVM agent's are run by the reliability tests (a JVM beside every test would only load the machine).
      VERSUS_LOCAL_JVM_AGENT: "0",
    },
  },
});
