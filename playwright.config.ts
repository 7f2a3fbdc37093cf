// Browser tests: a real Chromium against a production build served by `npm start`'s own script,
// on a throwaway embedded PostgreSQL (its data directory is wiped before each run).
import fs from "node:fs";
import { defineConfig, devices } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${port}`;
// One throwaway installation per port, so runs on different ports never share a database.
const dataDir = port === 3100 ? ".data/e2e" : `.data/e2e-${port}`;

// Playwright cannot download its own browser on machines without internet; use the system
// Chromium when there is one (override with CHROMIUM_PATH), else Playwright's own build.
const systemChromium = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find(
  (candidate): candidate is string => Boolean(candidate && fs.existsSync(candidate)),
);

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
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
          executablePath: systemChromium,
          args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-quic", "--no-first-run", "--disable-sync"],
        },
      },
    },
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
      VERSUS_EMBEDDED_PG_PORT: String(port + 1000),
      DATABASE_URL: "",
    },
  },
});
