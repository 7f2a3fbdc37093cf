// Uploads to one experiment wait for each other in the server, not on a database connection. An
// upload's transaction holds its experiment's row lock until it commits; if every upload waiting
// for that lock held a pooled connection meanwhile, a burst of uploads to one experiment would
// take the whole pool and no read (a comparison, a page) could run until the burst was over.
// Here one upload is held inside its transaction on purpose, more uploads to the same experiment
// than the pool has connections queue behind it, and a read must still be answered. Then the held
// upload goes on and every upload is stored, each run under its own repetition. Likewise uploads
// to many experiments at once take at most MAX_INGEST_TRANSACTIONS connections.
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { db } from "~/server/db/client";
import { PrismaClient } from "~/server/db/generated/client";
import { attachPool } from "~/server/db/prepared-statements";
import type { TResultsUpload } from "~/server/schemas/results";
import { MAX_INGEST_TRANSACTIONS, waitingForTurn } from "~/server/runs/ingest-turns";
import { ingestResults, type IngestOptions } from "~/server/runs/ingest-results";
import { uploadProject } from "~/test/upload-project";

// One connection more than the upload transactions may take.
const POOL_SIZE = MAX_INGEST_TRANSACTIONS + 1;
const QUEUED = POOL_SIZE + 3;
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: POOL_SIZE });
// (attachPool: uploads run their transaction on the pool under the client, sql-transaction.ts.)
const small = attachPool(new PrismaClient({ adapter: new PrismaPg(pool) }), pool);
let options: IngestOptions;

beforeAll(async () => {
  options = await uploadProject(db, "turns");
});
afterAll(async () => {
  await small.$disconnect();
  await pool.end();
  await db.$disconnect();
});

const upload = (value: number, experiment = "burst"): TResultsUpload => ({
  experiment,
  create: true,
  runs: [
    {
      variant: "main",
      status: "succeeded",
      environment: {},
      tags: [],
      metrics: [{ key: "latency", unit: "ms", direction: "lower_is_better", samples: [value, value + 1] }],
    },
  ],
});

/** Sessions of this database waiting for a lock (the experiment's row, here). */
async function lockWaiters(): Promise<number> {
  const rows = await db.$queryRaw<
    { n: number }[]
  >`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
  return rows[0]?.n ?? 0;
}

/** An upload held inside its transaction (after storing, before commit) until `release`. */
async function heldUpload(experiment: string) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let holding!: () => void;
  const inside = new Promise<void>((resolve) => (holding = resolve));
  const stored = ingestResults(small, upload(1, experiment), {
    ...options,
    afterStore: async () => {
      holding();
      await held;
    },
  });
  await inside;
  return { stored, release };
}

/** Waits until `count` uploads wait somewhere: on a row lock, for a pooled connection, or for their turn. */
async function untilWaiting(count: number) {
  while ((await lockWaiters()) + pool.waitingCount + waitingForTurn() < count) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** A read on the small pool; without turns it never gets a connection while the uploads are held. */
async function readCount(): Promise<number> {
  let hung: NodeJS.Timeout | undefined;
  const read = small.experiment.count({ where: { projectId: options.projectId } });
  const stuck = new Promise<never>(
    (_, reject) => (hung = setTimeout(() => reject(new Error("the read found no free connection: waiting uploads hold them all")), 20_000)),
  );
  return Promise.race([read, stuck]).finally(() => clearTimeout(hung));
}

const repetitionsOf = (answers: { runs: { repetition: number }[] }[]) => answers.map((answer) => answer.runs[0]?.repetition as number).sort((a, b) => a - b);

it(`a read gets a connection while ${QUEUED} uploads to one experiment wait for a held one (pool of ${POOL_SIZE})`, async () => {
  const first = await heldUpload("burst");
  let others: Promise<Awaited<typeof first.stored>>[] = [];
  try {
    others = Array.from({ length: QUEUED }, (_, i) => ingestResults(small, upload(10 + i), options));
    await untilWaiting(QUEUED);
    // The held upload creates the experiment and has not committed: the read sees none yet.
    await expect(readCount()).resolves.toBe(0);

    first.release();
    expect(repetitionsOf(await Promise.all([first.stored, ...others]))).toEqual(Array.from({ length: QUEUED + 1 }, (_, i) => i));
  } finally {
    first.release();
    await Promise.allSettled([first.stored, ...others]);
  }
});

it(`uploads to many experiments at once take at most ${MAX_INGEST_TRANSACTIONS} connections (pool of ${POOL_SIZE})`, async () => {
  const before = await small.experiment.count({ where: { projectId: options.projectId } });
  const held = await Promise.all(Array.from({ length: MAX_INGEST_TRANSACTIONS }, (_, i) => heldUpload(`spread-${i}`)));
  // One more, which would hold the pool's last connection the same way.
  let entered = false;
  const extra = heldUpload("spread-extra").then((upload) => ((entered = true), upload));
  try {
    while (!entered && waitingForTurn() < 1) await new Promise((resolve) => setTimeout(resolve, 20));
    await expect(readCount()).resolves.toBe(before);
  } finally {
    for (const upload of held) upload.release();
    const last = await extra;
    last.release();
    await Promise.all([...held.map((upload) => upload.stored), last.stored]);
  }
  expect(await small.experiment.count({ where: { projectId: options.projectId } })).toBe(before + MAX_INGEST_TRANSACTIONS + 1);
});
