// `versus check`: the CI gate. Asks the server to compare a commit's runs with the runs of the
// commits before it on a branch (GET /api/v1/experiments/{slug}/check), prints the Markdown
// summary on stdout (for a pull-request comment), and exits 1 on a regression, 0 on an
// improvement, no change or too little data, 2 when it could not check (bad flags, server error).
// A regression needs a significant change of at least --min-change % (the server's default when
// not given, DEFAULT_MIN_CHANGE_PERCENT in server/schemas/check.ts).
import fs from "node:fs";
import type { TCheckResult } from "../../server/schemas/check";
import { apiTargetFromEnv, getJson } from "./http";

export interface CheckOptions {
  experiment: string;
  branch: string;
  commit: string;
  window?: string;
  variant?: string;
  minChange?: string;
  format: SummaryFormat;
}

/** markdown on stdout; github also appends it to $GITHUB_STEP_SUMMARY; json prints the whole answer. */
export type SummaryFormat = "markdown" | "github" | "json";

export const CHECK_EXIT = { pass: 0, regression: 1, error: 2 } as const;

const summaryLine: Record<TCheckResult["verdict"], string> = {
  regression: "regression",
  improvement: "improvement",
  no_change: "no change",
  insufficient_data: "not enough runs for a verdict",
};

/** Prints a verdict's answer as `format` says (also `versus run`'s). */
export function printSummary(format: SummaryFormat, answer: unknown, markdown: string, env = process.env) {
  if (format === "json") console.log(JSON.stringify(answer, null, 2));
  else process.stdout.write(markdown);
  if (format === "github" && env.GITHUB_STEP_SUMMARY) {
    // GitHub shows the file's content on the run's summary page; steps append to it.
    fs.appendFileSync(env.GITHUB_STEP_SUMMARY, `${markdown}\n`);
  }
}

/** Runs the check; returns the exit code (never throws for a server's answer). */
export async function runCheck(options: CheckOptions, env = process.env): Promise<number> {
  let result: TCheckResult;
  try {
    const query = new URLSearchParams({ commit: options.commit, branch: options.branch });
    if (options.window !== undefined) query.set("window", options.window);
    if (options.variant !== undefined) query.set("variant", options.variant);
    if (options.minChange !== undefined) query.set("minChange", options.minChange);
    result = (await getJson(apiTargetFromEnv(env), `/api/v1/experiments/${encodeURIComponent(options.experiment)}/check?${query}`)) as TCheckResult;
  } catch (error) {
    console.error(`versus check: ${error instanceof Error ? error.message : String(error)}`);
    return CHECK_EXIT.error;
  }

  printSummary(options.format, result, result.markdown, env);

  const worse = result.metrics.filter((m) => m.verdict === "worse").map((m) => m.key);
  console.error(
    `versus check: ${summaryLine[result.verdict]}${worse.length ? ` in ${[...new Set(worse)].join(", ")}` : ""} (${result.commit.slice(0, 12)}, changes under ${result.minChangePercent}% ignored, against ${result.window.commits.length} earlier commit(s) on ${result.branch})`,
  );
  console.error(result.experiment.url);
  return result.verdict === "regression" ? CHECK_EXIT.regression : CHECK_EXIT.pass;
}
