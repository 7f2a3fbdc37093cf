// The load benchmark's correctness checks: the database against what the server acknowledged
// (load-ledger.ts). An acknowledged run must be stored exactly once with the repetition its answer
// gave; a retried Idempotency-Key must always answer with the same runs; no variant may hold a
// repetition twice; and no two runs may hold the same content (each upload's runs are unique, so
// equal runs could only be one upload stored twice). An upload whose answer never came (the client
// timed out, or the load stopped with it in flight) may be stored or not: if stored, it must be
// whole — every run, each with all its metrics — and sending it again with its key must answer
// with exactly those runs (a replay); if not, sending it again stores it once.
import pg from "pg";
import type { Ledger, UploadRecord } from "./load-ledger";

export interface Check {
  ok: boolean;
  label: string;
  detail: string;
}

interface RunRow {
  id: string;
  experiment: string;
  variantId: string;
  repetition: number;
  key: string | null;
  metrics: number;
  fingerprint: string;
}

/**
 * Waits until the server has finished the requests still in flight when the load stopped (their
 * clients are gone, but the server carries on): no other session of the database busy and the
 * number of runs unchanged, three times in a row a second apart; at most `maxSeconds`.
 */
export async function waitForQuiet(databaseUrl: string, experiments: string[], maxSeconds = 120): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    let last = -1;
    let quiet = 0;
    for (let waited = 0; waited < maxSeconds && quiet < 3; waited++) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const { rows } = await client.query<{ runs: number; busy: number }>(
        `SELECT (SELECT count(*)::int FROM "Run" r JOIN "Experiment" e ON e."id" = r."experimentId" WHERE e."slug" = ANY($1)) AS "runs",
                (SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle') AS "busy"`,
        [experiments],
      );
      const { runs, busy } = rows[0] as { runs: number; busy: number };
      quiet = runs === last && busy === 0 ? quiet + 1 : 0;
      last = runs;
    }
    return last;
  } finally {
    await client.end();
  }
}

export interface StoredRuns {
  runs: RunRow[];
  /** (variant, repetition) pairs held by more than one run. */
  repeatedRepetitions: number;
}

/** Every run of these experiments, with its upload's key, metric count and content fingerprint. */
export async function storedRuns(databaseUrl: string, experiments: string[]): Promise<StoredRuns> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows: runs } = await client.query<RunRow>(
      `SELECT r."id", e."slug" AS "experiment", r."variantId", r."repetition", ir."idempotencyKey" AS "key",
              count(m."id")::int AS "metrics",
              r."variantId" || '|' || COALESCE(string_agg(m."metricId" || ':' || m."n" || ':' || m."mean", ',' ORDER BY m."metricId"), '') AS "fingerprint"
       FROM "Run" r
       JOIN "Experiment" e ON e."id" = r."experimentId"
       LEFT JOIN "IngestRequest" ir ON ir."id" = r."ingestRequestId"
       LEFT JOIN "RunMetricResult" m ON m."runId" = r."id"
       WHERE e."slug" = ANY($1)
       GROUP BY r."id", e."slug", ir."idempotencyKey"`,
      [experiments],
    );
    const { rows } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS "n" FROM (
         SELECT 1 FROM "Run" r JOIN "Experiment" e ON e."id" = r."experimentId"
         WHERE e."slug" = ANY($1) GROUP BY r."variantId", r."repetition" HAVING count(*) > 1) d`,
      [experiments],
    );
    return { runs, repeatedRepetitions: rows[0]?.n ?? 0 };
  } finally {
    await client.end();
  }
}

/** Per key of an upload that was never answered: the ids of the runs stored for it (none when it was not stored). */
export function storedWithoutAnswer(stored: StoredRuns, ledger: Ledger): Map<string, string[]> {
  const unanswered = new Map(ledger.unanswered().map((record) => [record.key, [] as string[]]));
  for (const run of stored.runs) if (run.key) unanswered.get(run.key)?.push(run.id);
  return unanswered;
}

/**
 * The checks, on the runs stored after every unanswered upload was sent again (`stored`);
 * `lostAnswers` is storedWithoutAnswer from before those were sent again.
 */
export function verifyLoad(stored: StoredRuns, ledger: Ledger, lostAnswers: Map<string, string[]>): Check[] {
  const { runs } = stored;
  const byId = new Map(runs.map((run) => [run.id, run]));
  const byKey = new Map<string, RunRow[]>();
  for (const run of runs) if (run.key) byKey.set(run.key, [...(byKey.get(run.key) ?? []), run]);
  const acknowledged = ledger.acknowledged();
  const ackedRuns = acknowledged.flatMap((record) => firstRuns(record));
  const ids = (list: { id: string }[]) =>
    list
      .map((run) => run.id)
      .sort()
      .join();

  // 1. No loss: every run an answer reported is stored, with the repetition the answer gave.
  const missing = ackedRuns.filter((run) => !byId.has(run.id));
  const renumbered = ackedRuns.filter((run) => byId.has(run.id) && byId.get(run.id)?.repetition !== run.repetition);

  // 2. Exactly once: an acknowledged upload's key holds exactly the runs its answer listed.
  const notExactlyOnce = acknowledged.filter((record) => {
    const held = byKey.get(record.key) ?? [];
    return held.length !== record.upload.runs || ids(held) !== ids(firstRuns(record));
  });

  // 3. Retries: every 2xx answer for one key lists the same runs.
  const retried = acknowledged.filter((record) => record.sends > 1);
  const inconsistentRetries = retried.filter((record) => new Set(record.answers.filter((a) => a.runs).map((a) => ids(a.runs ?? []))).size > 1);
  const replays = retried.reduce((n, record) => n + record.answers.filter((a) => a.replayed).length, 0);

  // 4. An upload stored without an answer was stored whole, and sending it again replayed exactly it.
  const lostStored = [...lostAnswers.entries()].filter(([, held]) => held.length > 0);
  const partial = lostStored.filter(([key, held]) => held.length !== ledger.uploads.get(key)?.upload.runs);
  const notReplayed = lostStored.filter(([key, held]) => {
    const answer = ledger.uploads.get(key)?.answers.find((a) => a.runs);
    return !answer?.replayed || ids(answer.runs ?? []) !== [...held].sort().join();
  });
  const stillUnacknowledged = [...lostAnswers.keys()].filter((key) => !ledger.uploads.get(key)?.answers.some((a) => a.runs));

  // 5. Nothing stored that nobody sent, and every stored run has all its metrics.
  const strangers = runs.filter((run) => !run.key || !ledger.uploads.has(run.key));
  const incomplete = runs.filter((run) => run.key && ledger.uploads.has(run.key) && run.metrics !== ledger.uploads.get(run.key)?.upload.metricsPerRun);

  // 6. No upload stored twice, with or without its key.
  const fingerprints = new Map<string, number>();
  for (const run of runs) fingerprints.set(run.fingerprint, (fingerprints.get(run.fingerprint) ?? 0) + 1);
  const duplicated = [...fingerprints.values()].filter((n) => n > 1).length;

  const sample = (list: string[]) => (list.length ? ` (e.g. ${list.slice(0, 3).join(", ")})` : "");
  return [
    {
      ok: missing.length === 0,
      label: "every acknowledged run is stored (no loss)",
      detail: `${ackedRuns.length - missing.length}/${ackedRuns.length} runs of ${acknowledged.length} acknowledged uploads${sample(missing.map((r) => r.id))}`,
    },
    {
      ok: renumbered.length === 0,
      label: "stored repetitions are the ones acknowledged",
      detail: `${renumbered.length} differ${sample(renumbered.map((r) => r.id))}`,
    },
    {
      ok: notExactlyOnce.length === 0,
      label: "each acknowledged upload is stored exactly once",
      detail: `${notExactlyOnce.length} keys hold other runs than their answer listed${sample(notExactlyOnce.map((r) => r.key))}`,
    },
    {
      ok: inconsistentRetries.length === 0,
      label: "a retried Idempotency-Key answers with the same runs",
      detail: `${retried.length} keys sent more than once, ${replays} answers were replays; ${inconsistentRetries.length} answered with different runs${sample(inconsistentRetries.map((r) => r.key))}`,
    },
    {
      ok: partial.length === 0,
      label: "uploads stored without an answer are whole",
      detail: `${lostStored.length} such uploads, ${partial.length} partial${sample(partial.map(([key]) => key))}`,
    },
    {
      ok: notReplayed.length === 0 && stillUnacknowledged.length === 0,
      label: "sent again, they replay exactly the runs stored (or store them once)",
      detail: `${notReplayed.length} did not${sample(notReplayed.map(([key]) => key))}; ${stillUnacknowledged.length} not acknowledged${sample(stillUnacknowledged)}`,
    },
    {
      ok: strangers.length === 0,
      label: "no stored run that was not sent",
      detail: `${strangers.length} runs without a sent Idempotency-Key${sample(strangers.map((r) => r.id))}`,
    },
    {
      ok: incomplete.length === 0,
      label: "every stored run has all its metrics",
      detail: `${incomplete.length} runs miss metrics${sample(incomplete.map((r) => r.id))}`,
    },
    {
      ok: stored.repeatedRepetitions === 0,
      label: "no variant holds a repetition twice",
      detail: `${stored.repeatedRepetitions} (variant, repetition) pairs repeated`,
    },
    { ok: duplicated === 0, label: "no run content stored twice", detail: `${runs.length} runs, ${duplicated} contents repeated` },
  ];
}

/** The runs the first 2xx answer for an upload listed. */
function firstRuns(record: UploadRecord) {
  return record.answers.find((a) => a.runs)?.runs ?? [];
}
