// `versus run --experiment <slug>`: starts a batch of the experiment on the project's agents
// (POST /api/v1/experiments/{slug}/batches), and with --wait follows it (GET
// /api/v1/batches/{id}?wait=30, a long-poll) with a progress line — jobs done of all, the agents
// running it, about how long is left — then prints the verdict on the batch's runs as the report's
// Markdown and exits as `versus check` does: 1 on a regression, 0 otherwise, 2 when it could not
// run (refused: bad flags, no agent able to run it; the batch failed, was cancelled or timed out).
// Interrupted (Ctrl-C, a cancelled CI job) while waiting, it cancels the batch it started. With
// --noise it runs the baseline against itself and prints each agent's noise floor. With
// --confirm <runs>, a regression first starts a confirmation batch (the same definition with that
// many runs, interleaved) and exits 1 only when it finds the same metric of the same variant worse.
import type { TBatchStatus } from "../../server/schemas/batch-runs";
import { CHECK_EXIT, printSummary, type SummaryFormat } from "./check";
import { apiTargetFromEnv, getJson, postJson, type ApiTarget } from "./http";

export interface RunBatchOptions {
  experiment: string;
  variant?: string[];
  runs?: string;
  order?: "interleaved" | "random";
  seed?: string;
  agent?: string;
  label?: string[];
  commit?: string;
  branch?: string;
  commitMessage?: string;
  commitTime?: string;
  noise?: boolean;
  confirm?: string;
  wait: boolean;
  minChange?: string;
  timeout?: string;
  format: SummaryFormat;
}

const wholeNumber = (flag: string, text: string | undefined) => {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text.trim())) throw new Error(`${flag} must be a whole number, not "${text}"`);
  return Number(text);
};

/** key=value pairs, as the agents' labels are written. */
function labelsOf(pairs: string[] = []): Record<string, string> {
  return Object.fromEntries(
    pairs.map((pair) => {
      const at = pair.indexOf("=");
      if (at <= 0) throw new Error(`--label takes key=value, not "${pair}"`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
}

function startBody(options: RunBatchOptions) {
  return {
    variants: options.variant?.length ? options.variant : undefined,
    runs: wholeNumber("--runs", options.runs),
    order: options.order,
    seed: wholeNumber("--seed", options.seed),
    agentId: options.agent,
    labels: labelsOf(options.label),
    commit: options.commit,
    branch: options.branch,
    commitMessage: options.commitMessage,
    commitTime: options.commitTime,
    noise: options.noise || undefined,
  };
}

/** The (variant, metric) pairs worse in both verdicts: what a confirmation agrees with. */
export function confirmedRegressions(first: NonNullable<TBatchStatus["result"]>, confirmation: NonNullable<TBatchStatus["result"]>): string[] {
  const worse = (result: NonNullable<TBatchStatus["result"]>) => result.metrics.filter((m) => m.verdict === "worse").map((m) => `${m.key} (${m.variant})`);
  const again = new Set(worse(confirmation));
  return worse(first).filter((name) => again.has(name));
}

function progressLine(batch: TBatchStatus): string {
  const done = batch.jobs.succeeded + batch.jobs.failed + batch.jobs.cancelled;
  const parts = [`${batch.state}: ${done}/${batch.jobs.total} jobs done`];
  if (batch.jobs.failed) parts.push(`${batch.jobs.failed} failed`);
  if (batch.agents.length) parts.push(`running on ${batch.agents.map((agent) => `${agent.name} (${agent.running})`).join(", ")}`);
  if (batch.etaSeconds !== null && batch.etaSeconds !== undefined) parts.push(`about ${formatSeconds(batch.etaSeconds)} left`);
  return parts.join(" · ");
}

function formatSeconds(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

/** Starts the batch, and with --wait follows it to its verdict; returns the exit code. */
export async function runBatch(
  options: RunBatchOptions,
  env = process.env,
  err: { isTTY?: boolean; write(text: string): unknown } = process.stderr,
): Promise<number> {
  let target: ApiTarget;
  let minChange: number | undefined;
  let timeoutMs: number | undefined;
  let confirmRuns: number | undefined;
  let body: ReturnType<typeof startBody>;
  try {
    target = apiTargetFromEnv(env);
    minChange = options.minChange === undefined ? undefined : Number(options.minChange);
    if (minChange !== undefined && !Number.isFinite(minChange)) throw new Error(`--min-change must be a number of per cent, not "${options.minChange}"`);
    const minutes = options.timeout === undefined ? undefined : Number(options.timeout);
    if (minutes !== undefined && !(minutes > 0)) throw new Error(`--timeout must be a positive number of minutes, not "${options.timeout}"`);
    timeoutMs = minutes === undefined ? undefined : minutes * 60_000;
    body = startBody(options);
    confirmRuns = wholeNumber("--confirm", options.confirm);
    if (confirmRuns !== undefined && (!options.wait || options.noise)) throw new Error("--confirm needs --wait, and confirms a comparison (not --noise)");
  } catch (error) {
    console.error(`versus run: ${error instanceof Error ? error.message : String(error)}`);
    return CHECK_EXIT.error;
  }
  const giveUpAt = timeoutMs === undefined ? undefined : Date.now() + timeoutMs;
  const first = await startAndFollow(target, options, body, { minChange, giveUpAt }, err);
  if (typeof first === "number") return first;
  if (!first) return CHECK_EXIT.pass;
  const result = first.result as NonNullable<TBatchStatus["result"]>;
  printSummary(options.format, first, result.markdown, env);
  if (first.noise) {
    console.error(`versus run: noise floor measured (${first.experiment.url})`);
    return CHECK_EXIT.pass;
  }
  const worse = result.metrics.filter((m) => m.verdict === "worse").map((m) => `${m.key} (${m.variant})`);
  console.error(
    `versus run: ${result.verdict.replace("_", " ")}${worse.length ? ` in ${worse.join(", ")}` : ""} (changes under ${result.minChangePercent}% ignored)`,
  );
  console.error(first.experiment.url);
  if (result.verdict !== "regression") return CHECK_EXIT.pass;
  if (confirmRuns === undefined) return CHECK_EXIT.regression;

  // Confirmation before failing the build: the same batch again, more runs, interleaved.
  err.write(`versus run: confirming the regression with ${confirmRuns} runs a variant\n`);
  const confirmation = await startAndFollow(
    target,
    options,
    { ...body, variants: first.variants, runs: confirmRuns, order: "interleaved", seed: undefined },
    { minChange, giveUpAt },
    err,
  );
  if (typeof confirmation === "number") return confirmation;
  const again = (confirmation as TBatchStatus).result as NonNullable<TBatchStatus["result"]>;
  printSummary(options.format, confirmation as TBatchStatus, again.markdown, env);
  const agreed = confirmedRegressions(result, again);
  console.error(
    agreed.length
      ? `versus run: regression confirmed in ${agreed.join(", ")}`
      : `versus run: the regression was not confirmed: the confirmation batch did not find ${worse.join(", ")} worse`,
  );
  return agreed.length ? CHECK_EXIT.regression : CHECK_EXIT.pass;
}

/**
 * Starts one batch and, with --wait, follows it until it has a verdict: the batch with its result;
 * null without --wait (its id printed); an exit code when it could not run or was given up.
 */
async function startAndFollow(
  target: ApiTarget,
  options: RunBatchOptions,
  body: ReturnType<typeof startBody>,
  limits: { minChange: number | undefined; giveUpAt: number | undefined },
  err: { isTTY?: boolean; write(text: string): unknown },
): Promise<TBatchStatus | null | number> {
  let batch: TBatchStatus;
  try {
    batch = (await postJson(target, `/api/v1/experiments/${encodeURIComponent(options.experiment)}/batches`, body)) as TBatchStatus;
  } catch (error) {
    console.error(`versus run: ${error instanceof Error ? error.message : String(error)}`);
    return CHECK_EXIT.error;
  }
  err.write(
    `versus run: started ${batch.noise ? "noise (A/A) " : ""}batch ${batch.id}: ${batch.jobs.total} jobs of ${batch.variants.map((v) => `"${v}"`).join(", ")} (${batch.order}${batch.seed === null ? "" : `, seed ${batch.seed}`})${batch.commit ? ` at ${batch.commit.slice(0, 12)}` : ""}\n`,
  );
  if (!options.wait) {
    console.log(batch.id);
    return null;
  }

  // A cancelled CI job (SIGTERM) or Ctrl-C must not leave the batch's jobs queued on the agents.
  const interrupted = new Promise<NodeJS.Signals>((resolve) => {
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => resolve(signal));
  });
  const { minChange, giveUpAt } = limits;
  const query = (seen: string) => new URLSearchParams({ wait: "30", seen, ...(minChange === undefined ? {} : { minChange: String(minChange) }) });
  let last = "";
  try {
    while (!batch.result && (batch.state === "queued" || batch.state === "running")) {
      const line = progressLine(batch);
      if (line !== last) err.write(err.isTTY ? `\r\x1b[2K${line}` : `${line}\n`);
      last = line;
      if (batch.waiting.length) err.write(`${err.isTTY ? "\n" : ""}waiting: ${batch.waiting.join(" ")}\n`);
      if (giveUpAt !== undefined && Date.now() >= giveUpAt) {
        await postJson(target, `/api/v1/batches/${batch.id}/cancel`);
        console.error(`\nversus run: the batch did not finish within ${options.timeout} min; cancelled it`);
        return CHECK_EXIT.error;
      }
      const next = getJson(target, `/api/v1/batches/${batch.id}?${query(batch.version)}`) as Promise<TBatchStatus>;
      // (Its failure is read below; when a signal wins the race, nobody else would.)
      next.catch(() => undefined);
      const signal = await Promise.race([next.then(() => undefined), interrupted]);
      if (signal) {
        await postJson(target, `/api/v1/batches/${batch.id}/cancel`);
        console.error(`\nversus run: ${signal}: cancelled batch ${batch.id}`);
        return CHECK_EXIT.error;
      }
      batch = await next;
    }
    // The result is computed on the final read; ask once more when the last change came without it.
    if (batch.state === "succeeded" && !batch.result) batch = (await getJson(target, `/api/v1/batches/${batch.id}?${query("")}`)) as TBatchStatus;
  } catch (error) {
    console.error(`\nversus run: ${error instanceof Error ? error.message : String(error)}`);
    return CHECK_EXIT.error;
  }
  if (err.isTTY) err.write(`\r\x1b[2K${progressLine(batch)}\n`);
  else err.write(`${progressLine(batch)}\n`);

  if (!batch.result) {
    for (const failure of batch.failures) console.error(`  ${failure.variant}: ${failure.error}`);
    console.error(`versus run: the batch ${batch.state === "cancelled" ? "was cancelled" : "failed"}: no verdict (${batch.experiment.url})`);
    return CHECK_EXIT.error;
  }
  return batch;
}
