// Fuzzes the REST API from its own OpenAPI document with schemathesis: every operation the
// document lists, with the credential its security scheme names (API key, enrollment token or
// agent credential), examples generated from the schemas and mutated out of them, and each answer
// checked: no 5xx, a documented status, the documented content type, a body the documented
// schema accepts. Path parameters and lease tokens are drawn part of the time from what exists
// (fuzz-targets.ts), so the handlers run past "not found". Used by the reliability test (a short
// run inside `npm test`) and by scripts/fuzz-api.ts (a long one).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FuzzTargets } from "./fuzz-targets";
import { ensureSchemathesis } from "./schemathesis-venv";

export const FUZZ_CHECKS = ["not_a_server_error", "status_code_conformance", "content_type_conformance", "response_schema_conformance"] as const;

export interface FuzzOptions {
  baseUrl: string;
  targets: FuzzTargets;
  /** Test cases per operation and phase (schemathesis --max-examples). */
  maxExamples: number;
  seed: number;
  workers?: number;
  /** Where the reports go (junit.xml, ndjson); a temporary directory when left out. */
  reportDir?: string;
  log?: (line: string) => void;
}

export interface FuzzResult {
  exitCode: number;
  /** What schemathesis printed: its summary names each failure with a curl command to replay it. */
  output: string;
  operations: number;
  testCases: number;
  /** One line per distinct failure: operation and check. */
  failures: string[];
  reportDir: string;
  seconds: number;
}

const toml = (value: unknown): string => (Array.isArray(value) ? `[${value.map(toml).join(", ")}]` : JSON.stringify(value));

/** schemathesis.toml for this run: the credentials per security scheme and the dictionaries of real values. */
export function fuzzConfig(targets: FuzzTargets, options: Pick<FuzzOptions, "maxExamples" | "seed" | "workers">): string {
  const dictionaries: Record<string, unknown[]> = {
    experiments: [targets.experimentSlug],
    metricFiles: [`${targets.metric}.svg`],
    metrics: [targets.metric],
    variants: targets.variants,
    commits: targets.commits,
    branches: [targets.branch],
    jobs: [targets.leasedJob.id],
    leaseTokens: [targets.leasedJob.leaseToken],
  };
  // Most of the time the real value, the rest generated: both sides of each lookup get exercised.
  const parameters: Record<string, [string, number]> = {
    "path.slugOrId": ["experiments", 0.7],
    "query.experiment": ["experiments", 0.6],
    "body.experiment": ["experiments", 0.6],
    "path.metric": ["metricFiles", 0.6],
    "path.id": ["jobs", 0.7],
    "body.leaseToken": ["leaseTokens", 0.7],
    "query.baseline": ["variants", 0.5],
    "query.variant": ["variants", 0.5],
    "query.metric": ["metrics", 0.6],
    "query.commit": ["commits", 0.6],
    "query.branch": ["branches", 0.5],
  };
  return [
    "color = false",
    `seed = ${options.seed}`,
    // One worker by default: with two threads, CPython before 3.11.8 (Debian 12's python3 is
    // 3.11.2) crashed inside Hypothesis in 2 of 3 runs ("AST constructor recursion depth
    // mismatch"), with one never (3 of 3); on 2 cores it is no slower, the server being the bottleneck.
    `workers = ${options.workers ?? 1}`,
    // A slow answer on a busy 2-core machine is not a failure.
    'suppress-health-check = ["too_slow"]',
    "request-timeout = 45",
    // Nothing carried over from earlier runs: a seed alone says what a run sent.
    "[cache]",
    "enabled = false",
    "[generation]",
    `max-examples = ${options.maxExamples}`,
    `database = "none"`,
    // NUL in generated text: the API must refuse it with a 400, so it is worth sending.
    "allow-x00 = true",
    ...Object.entries({ apiKey: targets.apiKey, enrollmentToken: targets.enrollmentToken, agentCredential: targets.agentCredential }).flatMap(
      ([scheme, secret]) => [`[auth.openapi.${scheme}]`, `bearer = ${toml(secret)}`],
    ),
    ...Object.entries(dictionaries).flatMap(([name, values]) => [`[dictionaries.${name}]`, `values = ${toml(values)}`]),
    "[parameters]",
    ...Object.entries(parameters).map(
      ([parameter, [dictionary, probability]]) => `${toml(parameter)} = { dictionary = ${toml(dictionary)}, probability = ${probability} }`,
    ),
    "",
  ].join("\n");
}

const HEARTBEAT = "/api/v1/agents/heartbeat";

/**
 * Two passes: every operation but the heartbeat, then the heartbeat alone. A heartbeat replaces
 * the agent's capabilities and labels with what it reports; the fuzzer's would leave the agent
 * unable to claim, and every claim after it would long-poll its 30 s for nothing.
 */
const passes = [
  { name: "all-but-heartbeat", filter: ["--exclude-path", HEARTBEAT] },
  { name: "heartbeat", filter: ["--include-path", HEARTBEAT] },
];

/** Runs schemathesis against `baseUrl` and collects what it found; resolves whatever it found. */
const INTERPRETER_BUG = "AST constructor recursion depth mismatch";

export async function runApiFuzz(options: FuzzOptions): Promise<FuzzResult> {
  const log = options.log ?? console.log;
  const schemathesis = ensureSchemathesis(log);
  const reportDir = path.resolve(options.reportDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "versus-fuzz-")));
  fs.mkdirSync(reportDir, { recursive: true });
  const configFile = path.join(reportDir, "schemathesis.toml");
  fs.writeFileSync(configFile, fuzzConfig(options.targets, options));
  const started = performance.now();
  const total: Omit<FuzzResult, "reportDir" | "seconds"> = { exitCode: 0, output: "", operations: 0, testCases: 0, failures: [] };
  for (const pass of passes) {
    const passDir = path.join(reportDir, pass.name);
    fs.mkdirSync(passDir, { recursive: true });
    const args = [
      "--config-file",
      configFile,
      "run",
      `${options.baseUrl}/api/v1/openapi.json`,
      "--url",
      options.baseUrl,
      ...pass.filter,
      "--checks",
      FUZZ_CHECKS.join(","),
      "--phases",
      "examples,coverage,fuzzing",
      "--report",
      "junit,ndjson",
      "--report-dir",
      passDir,
      "--continue-on-failure",
    ];
    let { exitCode, output } = await run(schemathesis, args, passDir);
    // A CPython bug (fixed in 3.11.8 and 3.12.2; Debian's python3 may predate it) can crash
    // Hypothesis inside the tool itself, whatever the API answered: that pass runs once more.
    if (exitCode !== 0 && output.includes(INTERPRETER_BUG)) {
      log(`schemathesis crashed on the interpreter's "${INTERPRETER_BUG}" bug (not an API failure): running the ${pass.name} pass again`);
      fs.rmSync(passDir, { recursive: true, force: true });
      fs.mkdirSync(passDir, { recursive: true });
      ({ exitCode, output } = await run(schemathesis, args, passDir));
    }
    const counts = readNdjsonReport(passDir);
    total.exitCode = Math.max(total.exitCode, exitCode);
    total.output += `${total.output ? "\n" : ""}── schemathesis, ${pass.name} ──\n${output}`;
    total.operations += counts.operations;
    total.testCases += counts.testCases;
    total.failures.push(...counts.failures);
  }
  return { ...total, reportDir, seconds: (performance.now() - started) / 1000 };
}

function run(command: string, args: string[], cwd: string): Promise<{ exitCode: number; output: string }> {
  return new Promise((resolve, reject) => {
    // In the report directory: the caches schemathesis and Hypothesis keep go there, not into the checkout.
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1", SCHEMATHESIS_TELEMETRY: "false" } });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => chunks.push(chunk));
    // A test that times out must not leave it running against a server that is gone.
    const stop = () => child.kill("SIGTERM");
    process.once("exit", stop);
    child.once("error", reject);
    child.once("close", (code, signal) => {
      process.off("exit", stop);
      resolve({ exitCode: code ?? (signal ? 128 : 1), output: Buffer.concat(chunks).toString("utf8") });
    });
  });
}

/** Counts from schemathesis's event stream (the ndjson report in `reportDir`): operations tested, test cases sent, distinct failures. */
export function readNdjsonReport(reportDir: string): Pick<FuzzResult, "operations" | "testCases" | "failures"> {
  const file = fs.readdirSync(reportDir).find((name) => name.endsWith(".ndjson"));
  if (!file) return { operations: 0, testCases: 0, failures: [] };
  type Check = { name: string; status: string; failure_info?: { failure?: { code?: string; title?: string } } };
  type Scenario = { recorder?: { label?: string; cases?: Record<string, unknown>; checks?: Record<string, Check[]> } };
  const operations = new Set<string>();
  const failures = new Set<string>();
  let testCases = 0;
  for (const line of fs.readFileSync(path.join(reportDir, file), "utf8").split("\n")) {
    if (!line.trim()) continue;
    const recorder = (JSON.parse(line) as { ScenarioFinished?: Scenario }).ScenarioFinished?.recorder;
    const cases = Object.keys(recorder?.cases ?? {}).length;
    if (!recorder?.label || cases === 0) continue; // a phase that had nothing to run for it
    operations.add(recorder.label);
    testCases += cases;
    for (const checks of Object.values(recorder.checks ?? {})) {
      for (const check of checks) {
        const failure = check.failure_info?.failure;
        if (check.status === "failure") failures.add(`${recorder.label}: ${failure?.code ?? ""} ${failure?.title ?? ""} (${check.name})`.replace(/\s+/g, " "));
      }
    }
  }
  return { operations: operations.size, testCases, failures: [...failures].sort() };
}
