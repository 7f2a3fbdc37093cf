// Writes an experiment and its comparison as a Markdown report with the structure of the
// write-ups Versus replaces: hypothesis, environment, method (warm-up, runs, tests), one results
// table per metric (median with CI, mean ± sd, min … max, merged percentiles, change with CI, p,
// verdict; every variant with runs, also when nothing could be compared), then the charts as
// PNG files beside the report. Pure: every figure comes from the comparison service; nothing
// statistical is computed here, only worded, with units and rounding by server/display/display.ts — the
// experiment page's table prints the same figures the same way.
import type { TComparison } from "../schemas/comparison";
import { safeFilePart } from "../schemas/report";
import { exampleNotice, type RunOrigins } from "../experiments/example-notice";
import type { EnvironmentSummary } from "./report-environment";
import {
  changeAndCi,
  directionLabel,
  formatP,
  formatPercentiles,
  meanSdText,
  medianText,
  noiseFloorText,
  perRunLabel,
  rangeText,
  verdictP,
  verdictText,
  type CandidateComparison,
} from "../display/display";

export interface ReportExperiment {
  slug: string;
  title: string;
  hypothesis: string;
  description: string;
  environmentNotes: string;
  status: string;
  tags: string[];
  isExample: boolean;
  /** Seeded example runs and the others: the banner depends on them, not on isExample alone. */
  runOrigins: RunOrigins;
  warmupRuns: number;
  measuredRuns: number;
  alpha: number;
  parameters: { name: string; value: string }[];
  variants: { name: string; description: string; isBaseline: boolean }[];
  metrics: { key: string; label: string; unit: string; direction: "lower_is_better" | "higher_is_better"; aggregation: string }[];
}

export interface ReportInput {
  experiment: ReportExperiment;
  /** Null when the experiment has no runs yet. */
  comparison: TComparison | null;
  environment: EnvironmentSummary;
  /** The runs that carry warnings (a probe that missed intervals…); absent or [] when none do. */
  warnings?: RunWarnings[];
  /** Chart images beside the report, linked as charts/<file>. */
  chartFiles: string[];
  generatedAt: Date;
}

type MetricEntry = TComparison["metrics"][number];

export interface RunWarnings {
  variant: string;
  repetition: number;
  warnings: string[];
}

/** Table cells and headings are one line; a "|" would end the cell. */
export function cell(text: string): string {
  return text
    .replace(/\r?\n+/g, " ")
    .replace(/\|/g, "\\|")
    .trim();
}

function table(header: string[], rows: string[][], align: ("l" | "r")[]): string[] {
  return [
    `| ${header.map(cell).join(" | ")} |`,
    `|${align.map((a) => (a === "r" ? " ---: " : " --- ")).join("|")}|`,
    ...rows.map((row) => `| ${row.map(cell).join(" | ")} |`),
  ];
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

export function renderMarkdownReport(input: ReportInput): string {
  const { experiment } = input;
  const lines: string[] = [`# ${cell(experiment.title)}`, ""];
  const meta = [
    `\`${experiment.slug}\``,
    experiment.status,
    ...experiment.tags.map((tag) => `#${tag}`),
    `generated ${input.generatedAt.toISOString().replace("T", " ").slice(0, 16)} UTC by Versus`,
  ];
  lines.push(meta.join(" · "), "");
  const notice = exampleNotice(experiment.isExample, experiment.runOrigins);
  if (notice?.text) lines.push(`> ${notice.text}`, "");

  lines.push("## Hypothesis", "", experiment.hypothesis.trim() || "_No hypothesis was written._", "");
  if (experiment.description.trim()) lines.push("## Description", "", experiment.description.trim(), "");
  lines.push(...environmentSection(experiment, input.environment));
  lines.push(...methodSection(experiment, input.comparison));
  lines.push(...resultsSection(experiment, input.comparison));
  lines.push(...warningsSection(input.warnings ?? []));
  lines.push(...chartsSection(experiment, input.chartFiles));
  return `${lines
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trimEnd()}\n`;
}

function environmentSection(experiment: ReportExperiment, environment: EnvironmentSummary): string[] {
  const lines = ["## Environment", ""];
  if (experiment.environmentNotes.trim()) lines.push(experiment.environmentNotes.trim(), "");
  if (environment.lines.length === 0 && environment.commits.length === 0) {
    lines.push(environment.runs === 0 ? "_No runs yet._" : "_The runs did not record their environment._", "");
    return lines;
  }
  lines.push(`Recorded by the ${plural(environment.runs, "compared run")}:`, "");
  const valuesText = (values: { value: string; runs: number }[]) =>
    values.length === 1 && values[0]!.runs === environment.runs ? values[0]!.value : values.map((v) => `${v.value} (${plural(v.runs, "run")})`).join("; ");
  const rows = environment.lines.map((line) => [line.label, valuesText(line.values)]);
  if (environment.commits.length > 0) {
    rows.push([
      "Git commit",
      environment.commits.map((c) => `${c.gitCommit.slice(0, 12)}${c.gitBranch ? ` (${c.gitBranch})` : ""}: ${plural(c.runs, "run")}`).join("; "),
    ]);
  }
  lines.push(...table(["Captured", "Value"], rows, ["l", "l"]), "");
  if (environment.otherFields.length > 0) {
    const shown = environment.otherFields.slice(0, 20);
    const more = environment.otherFields.length - shown.length;
    lines.push(`Also recorded: ${shown.map((f) => `\`${f}\``).join(", ")}${more > 0 ? ` and ${more} more` : ""} (see runs.csv and the run pages).`, "");
  }
  return lines;
}

function methodSection(experiment: ReportExperiment, comparison: TComparison | null): string[] {
  const lines = ["## Method", ""];
  const runsOf = new Map(comparison?.variants.map((v) => [v.name, v.runs]) ?? []);
  lines.push("Variants:", "");
  for (const variant of experiment.variants) {
    const runs = runsOf.get(variant.name) ?? 0;
    const description = variant.description.trim() ? ` — ${variant.description.trim().replace(/\s*\n\s*/g, " ")}` : "";
    lines.push(`- **${cell(variant.name)}**${variant.isBaseline ? " (baseline)" : ""}${description}; ${plural(runs, "run")} compared`);
  }
  lines.push("");
  lines.push(`- Warm-up: ${plural(experiment.warmupRuns, "run")} before measuring, not recorded.`);
  lines.push(`- Measured: ${plural(experiment.measuredRuns, "run")} per variant planned.`);
  for (const parameter of experiment.parameters) lines.push(`- ${parameter.name}: ${parameter.value || "—"}`);
  lines.push(
    `- Each run contributes one value per metric: the value its producer sent (e.g. the whole run's rate), else its mean, median, p95… as the metric says; the comparison is computed on these per-run values.`,
  );
  const need = comparison?.metrics.flatMap((m) => m.comparison?.comparisons ?? []).map((c) => c.minReplicates)[0];
  lines.push(
    `- Significance level α = ${experiment.alpha}. Each candidate is tested against the baseline with a two-sided Mann-Whitney U test (exact for small samples); with several candidates the p-values are adjusted with Holm's method. The change is the ratio of medians with a Hodges–Lehmann confidence interval of at least ${formatLevel(1 - experiment.alpha)} (the U distribution is discrete, so the achieved level can be a little higher; summary.csv gives it per change); medians carry a distribution-free 95% interval from order statistics.`,
    "- sd is the sample standard deviation (n − 1).",
    `- A verdict needs ${need ? `≥ ${need}` : "enough"} runs per variant (the U test cannot reach α with fewer); a single run per variant is compared on its within-run samples and labelled weak evidence.`,
    "",
  );
  return lines;
}

function formatLevel(level: number): string {
  return `${Number((level * 100).toFixed(2))}%`;
}

function resultsSection(experiment: ReportExperiment, comparison: TComparison | null): string[] {
  const lines = ["## Results", ""];
  if (!comparison) return [...lines, "_No runs yet: nothing to compare._", ""];
  lines.push(`Against **${cell(comparison.baseline)}** (baseline), α = ${comparison.experiment.alpha}.`, "");
  const probes = [...new Set(comparison.metrics.flatMap((metric) => metric.probe ?? []))];
  // With probes, the client side's metrics come first, then the system under test's (the comparison orders them so).
  comparison.metrics.forEach((metric, index) => {
    const previous = comparison.metrics[index - 1];
    if (probes.length && index === 0 && !metric.probe) lines.push("**Client**: what the load generator measured.", "");
    if (metric.probe && (!previous || !previous.probe))
      lines.push(`**Server**: the system under test, from the variants' probes (${probes.map((name) => `\`${name}\``).join(", ")}).`, "");
    lines.push(...metricResults(metric, comparison.baseline));
  });
  return lines;
}

/** Each warned run's warnings, said where the figures are read, not only on the run's page. */
function warningsSection(runs: RunWarnings[]): string[] {
  if (runs.length === 0) return [];
  const lines = ["## Run warnings", "", `${plural(runs.length, "run")} carried warnings from ${runs.length === 1 ? "its" : "their"} producer:`, ""];
  for (const run of runs) for (const warning of run.warnings) lines.push(`- **${cell(run.variant)}** run ${run.repetition}: ${cell(warning)}`);
  return [...lines, ""];
}

function metricHeading(metric: { key: string; label: string; unit: string; direction: keyof typeof directionLabel; aggregation: string }): string[] {
  return [
    `### ${metric.label ? `${cell(metric.label)} (\`${metric.key}\`)` : `\`${metric.key}\``}`,
    "",
    `${metric.unit}, ${directionLabel[metric.direction]}; ${perRunLabel(metric.aggregation)}.`,
    "",
  ];
}

/** One metric's results table and notes (also the CI gate's summary: server/regressions/check-markdown.ts). */
export function metricResults(metric: MetricEntry, baseline: string): string[] {
  const lines = metricHeading(metric);
  const result = metric.comparison;
  if (!result) return [...lines, `_Not compared: ${metric.reason ?? "no data"}._`, ""];
  const tested = result.comparisons.length > 0;
  const merged = result.variants.some((v) => v.percentiles !== null);
  const candidateOf = new Map(result.comparisons.map((c) => [c.candidate, c]));
  const floorOf = (name: string) => metric.noiseFloor?.find((floor) => floor.candidate === name);
  const rows = result.variants.map((stats) => {
    const candidate = candidateOf.get(stats.variant);
    const p = stats.percentiles;
    return [
      stats.isBaseline ? `${stats.variant} (baseline)` : stats.variant,
      String(stats.n),
      medianText(stats, metric.unit),
      meanSdText(stats.mean, stats.sd, metric.unit),
      rangeText(stats, metric.unit),
      ...(merged ? [p ? formatPercentiles([p.p50, p.p90, p.p99], metric.unit) : "—"] : []),
      ...(tested
        ? [
            candidate ? changeWithVerdict(candidate) : "—",
            candidate ? formatP(verdictP(candidate)) : "—",
            candidate ? verdictText(candidate, floorOf(candidate.candidate)) : "—",
          ]
        : []),
    ];
  });
  const header = [
    "Variant",
    "Runs",
    "Median [95% CI]",
    "Mean ± sd",
    "Min … max",
    ...(merged ? ["Merged p50 / p90 / p99"] : []),
    ...(tested ? [`Change vs ${baseline} [CI]`, "p", "Verdict"] : []),
  ];
  const align: ("l" | "r")[] = ["l", "r", "r", "r", "r", ...(merged ? ["r" as const] : []), ...(tested ? (["r", "r", "l"] as const) : [])];
  lines.push(...table(header, rows, align), "");
  if (!tested && metric.reason) lines.push(`_Not compared: ${metric.reason}._`, "");
  lines.push(...notes(result.notes, result.variants, result.comparisons));
  // Each agent-run verdict's noise floor: what it could not have seen.
  const floors = (metric.noiseFloor ?? []).map((floor) => `- ${floor.candidate}: ${noiseFloorText(floor)}`);
  if (floors.length) lines.push(...floors, "");
  return lines;
}

/**
 * "−4.37% (better) [−9.62%, −0.97%]": the change of the median with its interval, and — only
 * when the test found a difference — which way that is for this metric's direction.
 */
function changeWithVerdict(candidate: CandidateComparison): string {
  const { percent, percentCi } = candidate.change;
  if (percent === null) return "—";
  const decided = candidate.verdict === "better" || candidate.verdict === "worse" ? ` (${candidate.verdict})` : "";
  const { change, ci } = changeAndCi(percent, percentCi);
  return `${change}${decided}${ci ? ` ${ci}` : ""}`;
}

/** Why a verdict is missing or weak, and the engine's notes (Holm, too few runs for a 95% CI). */
function notes(metricNotes: string[], variants: { variant: string; notes: string[] }[], comparisons: CandidateComparison[]): string[] {
  const items = [...metricNotes];
  // The same note for several variants ("too few runs for a 95% interval") is said once.
  const byNote = new Map<string, string[]>();
  for (const v of variants) for (const note of v.notes) byNote.set(note, [...(byNote.get(note) ?? []), v.variant]);
  for (const [note, names] of byNote) items.push(`${names.join(", ")}: ${note}`);
  for (const c of comparisons) {
    if (c.verdict === "better" || c.verdict === "worse") {
      if (c.evidence === "weak") items.push(`${c.candidate}: ${c.reason}`);
    } else items.push(`${c.candidate}: ${verdictText(c)} — ${c.reason}`);
  }
  return items.length ? [...items.map((item) => `- ${item.replace(/\s*\n\s*/g, " ")}`), ""] : [];
}

function chartsSection(experiment: ReportExperiment, chartFiles: string[]): string[] {
  if (chartFiles.length === 0) return [];
  const lines = ["## Charts", ""];
  // Charts are named "<metric key>-<kind>.png": put each under its metric, the rest at the end.
  const prefixes = [...experiment.metrics].sort((a, b) => b.key.length - a.key.length).map((m) => ({ metric: m, prefix: `${safeFilePart(m.key)}-` }));
  const placed = new Set<string>();
  for (const metric of experiment.metrics) {
    const own = chartFiles.filter((file) => !placed.has(file) && prefixes.find((p) => file.startsWith(p.prefix))?.metric === metric);
    if (own.length === 0) continue;
    lines.push(`### ${metric.label ? cell(metric.label) : `\`${metric.key}\``}`, "");
    for (const file of own) {
      placed.add(file);
      const kind = file.slice(safeFilePart(metric.key).length + 1, -".png".length);
      lines.push(`![${cell(`${metric.key} — ${kind}`)}](charts/${file})`, "");
    }
  }
  const rest = chartFiles.filter((file) => !placed.has(file));
  if (rest.length > 0) {
    if (placed.size > 0) lines.push("### Other charts", "");
    for (const file of rest) lines.push(`![${cell(file.replace(/\.png$/, ""))}](charts/${file})`, "");
  }
  return lines;
}
