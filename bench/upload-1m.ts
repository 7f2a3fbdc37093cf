// F2 benchmark: upload one run of 1,000,000 latency samples through the HTTP API, and in the same
// script `psql \copy` the same values into a one-column table on the same PostgreSQL.
// Prints Versus time / COPY time (target ≤ 0.5), the server's peak RSS growth (target ≤ 300 MB)
// and stored bytes / the copied table's size (target ≤ 0.10).
//
// Each body form is uploaded once cold (its first upload: code paths not yet optimised by the JIT,
// printed apart) and then MEASURED times; the ratio is the median of those over the median of as
// many `\copy` runs, so one slow moment of a shared machine neither makes nor breaks it.
// Run: npx tsx bench/upload-1m.ts   (needs psql on PATH: apt-get install postgresql-client)
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { embeddedUrl, readEmbeddedCredentials } from "../server/db/embedded-postgres";
import { latencySamples } from "./lib/samples";
import { memoryOf, resetPeak, startBenchServer } from "./lib/server";
import { median } from "./lib/timing";

const COUNT = 1_000_000;
const PORT = 3210;
/** Measured uploads per body form, and `\copy` runs, after the cold first upload. */
const MEASURED = 5;
const samples = latencySamples(COUNT);
// One server process: with several, the upload could land on another than the one whose memory is
// read (serverPid), and the growth printed would be that of an idle process.
const server = await startBenchServer("upload-1m", PORT, { VERSUS_WORKERS: "1" });
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
  type Upload = Awaited<ReturnType<typeof upload>>;
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
  const cold = { json: await upload(jsonBody), base64: await upload(base64Body) };
  const measured = { json: [] as Upload[], base64: [] as Upload[] };
  // Alternating, so a slow stretch of the machine falls on both forms alike.
  for (let i = 0; i < MEASURED; i++) {
    measured.json.push(await upload(jsonBody));
    measured.base64.push(await upload(base64Body));
  }

  // The reference: psql's \copy of the same values into a one-column table, emptied between runs.
  const file = path.join(os.tmpdir(), `versus-bench-${process.pid}.txt`);
  fs.writeFileSync(file, Array.from(samples).join("\n"));
  await db.query("DROP TABLE IF EXISTS copy_reference; CREATE TABLE copy_reference (value double precision)");
  const copyRuns: number[] = [];
  for (let i = 0; i < MEASURED; i++) {
    await db.query("TRUNCATE copy_reference");
    const copyStarted = performance.now();
    execFileSync("psql", [databaseUrl, "-v", "ON_ERROR_STOP=1", "-q", "-c", `\\copy copy_reference FROM '${file}'`], { stdio: "inherit" });
    copyRuns.push((performance.now() - copyStarted) / 1000);
  }
  const copySeconds = median(copyRuns);
  fs.rmSync(file);

  const {
    rows: [table],
  } = await db.query<{ bytes: string; rows: string }>(
    "SELECT pg_total_relation_size('copy_reference') AS bytes, (SELECT count(*) FROM copy_reference) AS rows",
  );

  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  const ratio = (value: number, target: number, op: "≤") => `${value.toFixed(3)} (target ${op} ${target}) ${value <= target ? "✓" : "✗"}`;
  const seconds = (runs: number[]) => runs.map((run) => run.toFixed(3)).join(", ");
  console.log(
    `\n1,000,000 samples; COPY reference: median ${copySeconds.toFixed(3)} s of ${seconds(copyRuns)}; ` +
      `${Number(table?.rows).toLocaleString()} rows, table ${mb(Number(table?.bytes))}`,
  );
  for (const [label, form] of [
    ["JSON array", "json"],
    ["samplesBase64", "base64"],
  ] as const) {
    const runs = measured[form];
    const time = median(runs.map((run) => run.seconds));
    // The cold upload's: the first of each form finds the heap at its smallest; later ones reuse what it grew.
    const rssGrowth = cold[form].rssGrowth;
    const stored = median(runs.map((run) => run.stored));
    console.log(
      `\nupload as ${label} (${mb(cold[form].bytes)} body): median ${time.toFixed(3)} s of ${seconds(runs.map((run) => run.seconds))}; cold first ${cold[form].seconds.toFixed(3)} s`,
    );
    console.log(`  Versus time / COPY time      ${ratio(time / copySeconds, 0.5, "≤")} (cold first: ${(cold[form].seconds / copySeconds).toFixed(3)})`);
    console.log(`  server peak RSS growth       ${mb(rssGrowth)} (cold first upload; target ≤ 300 MB) ${rssGrowth <= 300 * 1024 * 1024 ? "✓" : "✗"}`);
    console.log(`  stored bytes / COPY table    ${ratio(stored / Number(table?.bytes), 0.1, "≤")} (${mb(stored)} stored)`);
  }
} finally {
  await db.end();
  await server.stop();
}
