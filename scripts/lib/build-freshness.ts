// Decides whether `npm start` must (re)build: no build yet, or a source newer than the last build.
import fs from "node:fs";
import path from "node:path";

const SOURCES = ["app", "components", "server", "public", "proxy.ts", "package.json", "package-lock.json", "next.config.js", "tsconfig.json"];
const IGNORED = new Set(["node_modules", ".next", "generated"]);

export function buildIsStale(root: string): boolean {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (!fs.existsSync(buildId)) return true;
  const builtAt = fs.statSync(buildId).mtimeMs;
  return SOURCES.some((entry) => newestMtime(path.join(root, entry)) > builtAt);
}

function newestMtime(target: string): number {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target, { withFileTypes: true })) {
    // Tests live beside the code but are not part of the build.
    if (IGNORED.has(entry.name) || /\.test\.tsx?$/.test(entry.name)) continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry.name)));
  }
  return newest;
}
