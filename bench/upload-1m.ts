// F2 benchmark: upload one run of 1,000,000 latency samples through the HTTP API, and in the same
// script `psql \copy` the same values into a one-column table on the same PostgreSQL.
// Prints Versus time / COPY time (target ≤ 0.5), the server's peak RSS growth (target ≤ 300 MB)
// and stored bytes / the copied table's size (target ≤ 0.10).
// Run: npx tsx bench/upload-1m.ts   (needs psql on PATH: apt-get install postgresql-client)
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { embeddedUrl, readEmbeddedCredentials } from "../server/db/embedded-postgres";
import { latencySamples } from "./lib/samples";
import { memoryOf, resetPeak, startBenchServer } from "./lib/server";

const COUNT = 1_000_000;
const PORT = 3210;
const samples = latencySamples(COUNT);
const server = await startBenchServer("upload-1m", PORT);
const credentials = readEmbeddedCredentials(server.dataDir);
if (!credentials) throw new Error("no embedded database credentials");
const databaseUrl = embeddedUrl(credentials, PORT + 1000, "versus");
const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();

try {
  const apiKey = execFileSync(process.execPath, ["scripts/cli/bin.mjs", "admin", "create-key", "--project", "bench"], {
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ["ignore", "pipe", "ignore"],
  }).trim();

  const jsonBody = JSON.stringify({
    experiment: "upload-1m",
    create: true,
    runs: [{ variant: "json", metrics: [{ key: "latency_ms", unit: "ms", direction: "lower_is_better", samples: Array.from(samples) }] }],
  });
  const base64Body = JSON.stringify({
    experiment: "upload-1m",
    create: true,
    runs: [
      {
        variant: "base64",
        metrics: [{ key: "latency_ms", unit: "ms", direction: "lower_is_better", samplesBase64: Buffer.from(samples.buffer).toString("base64") }],
      },
    ],
  });

  const tableBytes = async () => Number((await db.query<{ bytes: string }>(`SELECT pg_total_relation_size('"RunMetricResult"') AS bytes`)).rows[0]?.bytes);
  const upload = async (body: string) => {
    const sizeBefore = await tableBytes();
    const before = memoryOf(server.serverPid).rss;
    resetPeak(server.serverPid);
    const started = performance.now();
    const response = await fetch(`${server.baseUrl}/api/v1/results`, {
      method: "POST",
      headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
      body,
    });
    if (response.status !== 201) throw new Error(`upload failed: ${response.status} ${await response.text()}`);
    const seconds = (performance.now() - started) / 1000;
    const rssGrowth = memoryOf(server.serverPid).peak - before;
    // What the run's rows added on disk: RunMetricResult with its TOAST table and indexes.
    return { seconds, rssGrowth, bytes: Buffer.byteLength(body), stored: (await tableBytes()) - sizeBefore };
  };
  // One warm-up upload so Next.js has compiled and loaded the route before the measured one.
  await upload(
    JSON.stringify({
      experiment: "warm-up",
      create: true,
      runs: [{ variant: "a", metrics: [{ key: "x", unit: "ms", direction: "lower_is_better", samples: [1, 2, 3] }] }],
    }),
  );
  const viaJson = await upload(jsonBody);
  const viaBase64 = await upload(base64Body);

  // The reference: psql's \copy of the same values into a one-column table.
  const file = path.join(os.tmpdir(), `versus-bench-${process.pid}.txt`);
  fs.writeFileSync(file, Array.from(samples).join("\n"));
  await db.query("DROP TABLE IF EXISTS copy_reference; CREATE TABLE copy_reference (value double precision)");
  const copyStarted = performance.now();
  execFileSync("psql", [databaseUrl, "-v", "ON_ERROR_STOP=1", "-q", "-c", `\\copy copy_reference FROM '${file}'`], { stdio: "inherit" });
  const copySeconds = (performance.now() - copyStarted) / 1000;
  fs.rmSync(file);

  const {
    rows: [table],
  } = await db.query<{ bytes: string; rows: string }>(
    "SELECT pg_total_relation_size('copy_reference') AS bytes, (SELECT count(*) FROM copy_reference) AS rows",
  );

  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  const ratio = (value: number, target: number, op: "≤") => `${value.toFixed(3)} (target ${op} ${target}) ${value <= target ? "✓" : "✗"}`;
  console.log(
    `\n1,000,000 samples; COPY reference: ${copySeconds.toFixed(3)} s, ${Number(table?.rows).toLocaleString()} rows, table ${mb(Number(table?.bytes))}`,
  );
  for (const [label, run] of [
    ["JSON array", viaJson],
    ["samplesBase64", viaBase64],
  ] as const) {
    console.log(`\nupload as ${label} (${mb(run.bytes)} body): ${run.seconds.toFixed(3)} s`);
    console.log(`  Versus time / COPY time      ${ratio(run.seconds / copySeconds, 0.5, "≤")}`);
    console.log(`  server peak RSS growth       ${mb(run.rssGrowth)} (target ≤ 300 MB) ${run.rssGrowth <= 300 * 1024 * 1024 ? "✓" : "✗"}`);
    console.log(`  stored bytes / COPY table    ${ratio(run.stored / Number(table?.bytes), 0.1, "≤")} (${mb(run.stored)} stored)`);
  }
} finally {
  await db.end();
  await server.stop();
}
