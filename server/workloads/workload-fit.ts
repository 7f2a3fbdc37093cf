// Whether an agent-run experiment asks its workloads for what they can give: every metric of the
// experiment must be one the variants' workloads report, and every variant's settings must be
// ones its workload takes. The server checks it when an experiment is saved and when it is run
// (server/workloads/workload-checks.ts); the variant form shows the same problems as they arise.
//
// Agents may disagree about a workload of one name (the Go and the JVM agent both have "http",
// with different settings and metrics). The rule is the union: a metric is fine when at least one
// agent that advertises the workload reports it, settings are fine when at least one of those
// agents' schemas accepts them, since any of them may take the job. Nothing is checked for a
// workload no agent of the project advertises (its settings go to whichever agent runs it), and a
// workload's metrics are not checked while an agent that advertises it does not list them.
//
// A variant's probes report metrics of their own (`<probe>.<suffix>`, probe-metrics.ts), whatever
// the workload: a metric one of the variants' probes reports is reported. Variants may probe
// different targets (one server, or two behind nginx), so a probe metric need not come from all.
import type { FieldIssue } from "../core/errors";
import type { TProbe } from "../schemas/probe";
import type { TWorkloadMetric } from "../schemas/workload";
import { probeMetrics, seriesKeyClashes } from "./probe-metrics";
import { problemLines, settingsProblems } from "./settings-problems";

/** One agent's advert of one workload. */
export interface WorkloadOffer {
  agent: { name: string; kind: string };
  settingsSchema: Record<string, unknown>;
  /** Absent: the agent did not say which metrics it reports. */
  metrics?: TWorkloadMetric[];
}

export interface FitExperiment {
  variants: { name: string; config: { workload?: string; settings?: Record<string, unknown>; probes?: TProbe[] } }[];
  metrics: { key: string }[];
}

const quoted = (names: Iterable<string>) => [...names].map((name) => `"${name}"`).join(", ");
const agentLabel = (offer: WorkloadOffer) => `${offer.agent.name} (${offer.agent.kind})`;

/** The keys the agents offering a workload report (in the first agent's order), or null when unknown. */
export function reportedKeys(offers: WorkloadOffer[]): string[] | null {
  if (offers.length === 0 || offers.some((offer) => offer.metrics === undefined)) return null;
  return [...new Set(offers.flatMap((offer) => (offer.metrics ?? []).map((metric) => metric.key)))];
}

/** Whether the agents' metric lists differ (then each agent's list is worth naming). */
function disagree(offers: WorkloadOffer[]): boolean {
  const lists = new Set(offers.map((offer) => (offer.metrics ?? []).map((metric) => metric.key).join("\u0000")));
  return lists.size > 1;
}

function metricIssues(experiment: FitExperiment, offersOf: (workload: string) => WorkloadOffer[]): FieldIssue[] {
  // The variants of each workload, in the experiment's order.
  const byWorkload = new Map<string, string[]>();
  for (const variant of experiment.variants) {
    const workload = variant.config.workload;
    if (workload) byWorkload.set(workload, [...(byWorkload.get(workload) ?? []), variant.name]);
  }
  const fromProbes = new Set(experiment.variants.flatMap((variant) => (variant.config.probes ?? []).flatMap(probeMetrics).map((metric) => metric.key)));
  const issues: FieldIssue[] = [];
  experiment.metrics.forEach((metric, index) => {
    if (fromProbes.has(metric.key)) return;
    const problems: string[] = [];
    for (const [workload, variants] of byWorkload) {
      const offers = offersOf(workload);
      const keys = reportedKeys(offers);
      if (!keys || keys.includes(metric.key)) continue;
      const perAgent = disagree(offers)
        ? ` (${offers.map((offer) => `${agentLabel(offer)}: ${(offer.metrics ?? []).map((m) => m.key).join(", ") || "none"}`).join("; ")})`
        : "";
      problems.push(
        `the "${workload}" workload of ${variants.length === 1 ? "variant" : "variants"} ${quoted(variants)} never reports "${metric.key}": valid keys are ${keys.join(", ") || "none"}${perAgent}`,
      );
    }
    const probeKeys = fromProbes.size ? `; the variants' probes report ${[...fromProbes].join(", ")}` : "";
    if (problems.length) issues.push({ path: ["metrics", index, "key"], message: problems.join("; ") + probeKeys });
  });
  return issues;
}

function settingsIssues(experiment: FitExperiment, offersOf: (workload: string) => WorkloadOffer[]): FieldIssue[] {
  const issues: FieldIssue[] = [];
  experiment.variants.forEach((variant, index) => {
    const workload = variant.config.workload;
    if (!workload) return;
    const offers = offersOf(workload);
    if (offers.length === 0) return;
    const settings = variant.config.settings ?? {};
    // One check per distinct schema; the first agent's is the one named first.
    const bySchema = new Map<string, { offers: WorkloadOffer[]; lines: string[] }>();
    for (const offer of offers) {
      const id = JSON.stringify(offer.settingsSchema);
      const entry = bySchema.get(id);
      if (entry) entry.offers.push(offer);
      else bySchema.set(id, { offers: [offer], lines: problemLines(settingsProblems(offer.settingsSchema, settings)) });
    }
    const verdicts = [...bySchema.values()];
    if (verdicts.some((verdict) => verdict.lines.length === 0)) return;
    const message =
      verdicts.length === 1
        ? `variant "${variant.name}": ${(verdicts[0] as { lines: string[] }).lines.join("; ")}`
        : `variant "${variant.name}": no agent that offers "${workload}" takes these settings — ${verdicts.map((verdict) => `${verdict.offers.map(agentLabel).join(", ")}: ${verdict.lines.join("; ")}`).join(" | ")}`;
    issues.push({ path: ["variants", index, "config", "settings"], message });
  });
  return issues;
}

/** A custom probe series whose key its probe's presets already report. */
function probeIssues(experiment: FitExperiment): FieldIssue[] {
  return experiment.variants.flatMap((variant, index) =>
    (variant.config.probes ?? []).flatMap((probe, at) =>
      seriesKeyClashes(probe).map((clash) => ({
        path: ["variants", index, "config", "probes", at, "series", clash.index, "key"],
        message: `key: "${probe.name}.${clash.key}" is already reported by this probe's presets; choose another key`,
      })),
    ),
  );
}

/** Every metric the workloads and probes never report, every variant whose settings no offering agent takes, every probe series that clashes with a preset. */
export function workloadFitIssues(experiment: FitExperiment, offersOf: (workload: string) => WorkloadOffer[]): FieldIssue[] {
  return [...settingsIssues(experiment, offersOf), ...probeIssues(experiment), ...metricIssues(experiment, offersOf)];
}
