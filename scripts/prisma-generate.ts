// `prisma generate`, offline. The Prisma CLI first looks for its schema-engine binary and tries
// to download it when missing, which fails without internet; generating the client never uses
// that engine, so pointing PRISMA_SCHEMA_ENGINE_BINARY at any existing file is enough.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";

const prismaCli = createRequire(import.meta.url).resolve("prisma/build/index.js");
const result = spawnSync(process.execPath, [prismaCli, "generate"], {
  stdio: ["ignore", "inherit", "inherit"],
  env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
});
process.exit(result.status ?? 1);
