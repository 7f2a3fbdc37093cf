// The load benchmark's correctness checks: the database against what the server acknowledged
// (load-ledger.ts). An acknowledged run must be stored exactly once with the repetition its answer
// gave; a retried Idempotency-Key must always answer with the same runs; no variant may hold a
// repetition twice; and no two runs may hold the same content (each upload's runs are unique, so
// equal runs could only be one upload stored twice). Runs of an upload whose answer never came
// (the client timed out, or the load stopped with it in flight) may be stored: they are counted
// on their own, and must then be complete — every run of that upload, each with all its metrics.
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

export async function verifyLoad(databaseUrl: string, experiments: string[], ledger: Ledger): Promise<{ checks: Check[]; unacknowledged: { uploads: number; runs: number } }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let runs: RunRow[];
  let repeatedRepetitions: number;
  try {
    ({ rows: runs } = await client.query<RunRow>(
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
    ));
    const { rows } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS "n" FROM (
         SELECT 1 FROM "Run" r JOIN "Experiment" e ON e."id" = r."experimentId"
         WHERE e."slug" = ANY($1) GROUP BY r."variantId", r."repetition" HAVING count(*) > 1) d`,
      [experiments],
    );
    repeatedRepetitions = rows[0]?.n ?? 0;
  } finally {
    await client.end();
  }

  const byId = new Map(runs.map((run) => [run.id, run]));
  const byKey = new Map<string, RunRow[]>();
  for (const run of runs) if (run.key) byKey.set(run.key, [...(byKey.get(run.key) ?? []), run]);
  const acknowledged = ledger.acknowledged();
  const ackedRuns = acknowledged.flatMap((record) => firstRuns(record));

  // 1. No loss: every run an answer reported is stored, with the repetition the answer gave.
  const missing = ackedRuns.filter((run) => !byId.has(run.id));
  const renumbered = ackedRuns.filter((run) => byId.has(run.id) && byId.get(run.id)?.repetition !== run.repetition);

  // 2. Exactly once: an acknowledged upload's key holds exactly the runs its answer listed.
  const notExactlyOnce = acknowledged.filter((record) => {
    const stored = (byKey.get(record.key) ?? []).map((run) => run.id).sort();
    const answered = firstRuns(record).map((run) => run.id).sort();
    return stored.length !== record.upload.runs || stored.join() !== answered.join();
  });

  // 3. Retries: every 2xx answer for one key lists the same runs.
  const retried = acknowledged.filter((record) => record.sends > 1);
  const inconsistentRetries = retried.filter((record) => {
    const sets = record.answers.filter((a) => a.runs).map((a) => (a.runs ?? []).map((run) => `${run.id}:${run.repetition}`).join());
    return new Set(sets).size > 1;
  });
  const replays = retried.reduce((n, record) => n + record.answers.filter((a) => a.replayed).length, 0);

  // 4. Nothing stored that nobody sent; what was stored without an answer is whole.
  const sentKeys = new Set(ledger.uploads.keys());
  const ackedKeys = new Set(acknowledged.map((record) => record.key));
  const strangers = runs.filter((run) => !run.key || !sentKeys.has(run.key));
  const unanswered = [...byKey.entries()].filter(([key]) => sentKeys.has(key) && !ackedKeys.has(key));
  const partial = unanswered.filter(([key, stored]) => stored.length !== (ledger.uploads.get(key) as UploadRecord).upload.runs);

  // 5. Every stored run has all its metrics.
  const metricsOf = (run: RunRow) => {
    const record = run.key ? ledger.uploads.get(run.key) : undefined;
    return record?.upload.metricsPerRun;
  };
  const incomplete = runs.filter((run) => metricsOf(run) !== undefined && run.metrics !== metricsOf(run));

  // 6. No upload stored twice, with or without its key.
  const fingerprints = new Map<string, number>();
  for (const run of runs) fingerprints.set(run.fingerprint, (fingerprints.get(run.fingerprint) ?? 0) + 1);
  const duplicated = [...fingerprints.values()].filter((n) => n > 1).length;

  const sample = (ids: string[]) => (ids.length ? ` (e.g. ${ids.slice(0, 3).join(", ")})` : "");
  const checks: Check[] = [
    { ok: missing.length === 0, label: "every acknowledged run is stored (no loss)", detail: `${ackedRuns.length - missing.length}/${ackedRuns.length} runs of ${acknowledged.length} acknowledged uploads${sample(missing.map((r) => r.id))}` },
    { ok: renumbered.length === 0, label: "stored repetitions are the ones acknowledged", detail: `${renumbered.length} differ${sample(renumbered.map((r) => r.id))}` },
    { ok: notExactlyOnce.length === 0, label: "each acknowledged upload is stored exactly once", detail: `${notExactlyOnce.length} keys hold other runs than their answer listed${sample(notExactlyOnce.map((r) => r.key))}` },
    { ok: inconsistentRetries.length === 0, label: "a retried Idempotency-Key answers with the same runs", detail: `${retried.length} keys sent more than once, ${replays} answers were replays; ${inconsistentRetries.length} answered with different runs${sample(inconsistentRetries.map((r) => r.key))}` },
    { ok: strangers.length === 0, label: "no stored run that was not sent", detail: `${strangers.length} runs without a sent Idempotency-Key${sample(strangers.map((r) => r.id))}` },
    { ok: partial.length === 0, label: "uploads stored without an answer are whole", detail: `${unanswered.length} such uploads, ${partial.length} partial${sample(partial.map(([key]) => key))}` },
    { ok: incomplete.length === 0, label: "every stored run has all its metrics", detail: `${incomplete.length} runs miss metrics${sample(incomplete.map((r) => r.id))}` },
    { ok: repeatedRepetitions === 0, label: "no variant holds a repetition twice", detail: `${repeatedRepetitions} (variant, repetition) pairs repeated` },
    { ok: duplicated === 0, label: "no run content stored twice", detail: `${runs.length} runs, ${duplicated} contents repeated` },
  ];
  return { checks, unacknowledged: { uploads: unanswered.length, runs: unanswered.reduce((n, [, stored]) => n + stored.length, 0) } };
}

/** The runs the first 2xx answer for an upload listed. */
function firstRuns(record: UploadRecord) {
  return record.answers.find((a) => a.runs)?.runs ?? [];
}
