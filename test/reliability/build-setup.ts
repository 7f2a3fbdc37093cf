// The reliability tests run real `next start` processes, which serve the production build: make
// it first when it is missing or older than the sources (the same check as `npm start`).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { buildIsStale } from "../../scripts/lib/build-freshness";

export default function setup() {
  const root = path.resolve(import.meta.dirname, "../..");
  if (!buildIsStale(root)) return;
  console.log("reliability tests: building the app (no build yet, or sources changed)…");
  const build = spawnSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, VERSUS_SKIP_ENV_VALIDATION: "1", NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (build.status !== 0) throw new Error(`next build failed with exit code ${build.status}`);
}
