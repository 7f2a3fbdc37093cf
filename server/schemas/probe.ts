// Probes: what an agent samples on the system under test while a variant's workload runs (the
// server's CPU and memory, a JVM's heap and GC…), listed in Variant.config beside the workload
// and handed to the agent as job.probes. Each probe's figures come back as ordinary metrics of the
// run named `<probe>.<suffix>` (server/workloads/probe-metrics.ts lists them);
// docs/agent-protocol.md, "Probes", is the contract the agents implement.
import { z } from "zod";
import { ZMetricDirection, ZMetricKey, ZMetricUnit } from "./metric";

export const probeKinds = ["prometheus", "process"] as const;
export const probePresets = ["process", "jvm", "go", "node"] as const;
export type TProbePreset = (typeof probePresets)[number];
/** How a custom Prometheus series becomes one value per interval and one figure per run. */
export const probeSeriesAggregations = ["rate", "delta", "mean", "max", "min", "last"] as const;
export type TProbeSeriesAggregation = (typeof probeSeriesAggregations)[number];

/** A probe's name, the prefix of its metrics' keys (`app-1.cpu_percent`). */
export const ZProbeName = z
  .string({ error: "name is required" })
  .trim()
  .min(1, "name is required (e.g. app-1)")
  .max(40, "name must be at most 40 characters")
  .regex(/^[a-z0-9][a-z0-9_-]*$/, "name: use lowercase letters, digits, _ and -, starting with a letter or digit (e.g. app-1)");

const ZIntervalSeconds = z
  .number({ error: "intervalSeconds must be a number of seconds" })
  .min(0.1, "intervalSeconds must be at least 0.1 seconds")
  .max(60, "intervalSeconds must be at most 60 seconds")
  .default(1)
  .meta({ description: "seconds between two readings; each interval gives one value of each metric (default 1)" });

const ZRequired = z
  .boolean({ error: "required must be true or false" })
  .default(false)
  .meta({ description: "true: a reading that fails mid-run fails the job; false: the interval is a gap and the run carries a warning" });

const ZPrometheusMetricName = z
  .string({ error: "metric is required" })
  .trim()
  .min(1, "metric is required (the Prometheus series name, e.g. http_requests_total)")
  .max(200, "metric must be at most 200 characters")
  .regex(/^[a-zA-Z_:][a-zA-Z0-9_:]*$/, "metric: a Prometheus metric name (letters, digits, _ and :, not starting with a digit)");

const ZPrometheusLabels = z
  .record(
    z.string().regex(/^[a-zA-Z_][a-zA-Z0-9_]*$/, "labels: a label name is letters, digits and _, not starting with a digit"),
    z.string({ error: "labels: a label value must be text" }).max(200, "labels: a label value must be at most 200 characters"),
  )
  .refine((labels) => Object.keys(labels).length <= 20, "labels: at most 20 labels")
  .meta({ description: "exact-match label filter; all matching samples are summed" });

export const ZProbeSeries = z
  .strictObject({
    key: z
      .string({ error: "key is required" })
      .trim()
      .min(1, "key is required (e.g. queue_depth)")
      .max(40, "key must be at most 40 characters")
      .regex(/^[a-z0-9_]+$/, "key: use lowercase letters, digits and _ (e.g. queue_depth)")
      .meta({ description: "the metric key's suffix: the run reports `<probe>.<key>`" }),
    metric: ZPrometheusMetricName,
    labels: ZPrometheusLabels.optional(),
    aggregation: z.enum(probeSeriesAggregations, { error: `aggregation must be one of ${probeSeriesAggregations.join(", ")}` }).meta({
      description:
        "rate: a counter's per-second rate each interval (run figure: their mean); delta: a counter's increase each interval (run figure: their sum); mean, max, min, last: a gauge's readings reduced so",
    }),
    unit: ZMetricUnit,
    direction: ZMetricDirection,
  })
  .meta({ id: "ProbeSeries" });
export type TProbeSeries = z.output<typeof ZProbeSeries>;

const ZPresets = z
  .array(z.enum(probePresets, { error: `presets: each must be one of ${probePresets.join(", ")}` }))
  .default(["process"])
  .refine((presets) => new Set(presets).size === presets.length, "presets: each preset at most once")
  .meta({ description: "well-known series read as metrics: process (CPU %, RSS), jvm (heap, GC, threads), go (heap in use, GC), node (host CPU %, memory)" });

export const ZPrometheusProbe = z
  .strictObject({
    name: ZProbeName,
    kind: z.literal("prometheus"),
    intervalSeconds: ZIntervalSeconds,
    required: ZRequired,
    url: z
      .url({
        protocol: /^https?$/,
        error: "url must be an http:// or https:// URL of a Prometheus or OpenMetrics text endpoint (e.g. http://127.0.0.1:8081/metrics)",
      })
      .max(2000, "url must be at most 2000 characters"),
    presets: ZPresets,
    series: z.array(ZProbeSeries).max(20, "series: at most 20 custom series per probe").optional(),
  })
  .superRefine((probe, ctx) => {
    if (probe.presets.length === 0 && !probe.series?.length)
      ctx.addIssue({ code: "custom", path: ["presets"], message: "presets: choose at least one preset or add a custom series" });
    const seen = new Set<string>();
    probe.series?.forEach((series, index) => {
      if (seen.has(series.key)) ctx.addIssue({ code: "custom", path: ["series", index, "key"], message: `key "${series.key}" is used twice in this probe` });
      seen.add(series.key);
    });
  })
  .meta({ id: "PrometheusProbe", description: "A Prometheus or OpenMetrics text endpoint, scraped once per interval." });

export const ZProcessMatch = z
  .strictObject({
    pid: z.number({ error: "match.pid must be a whole number" }).int("match.pid must be a whole number").min(1, "match.pid must be at least 1").optional(),
    name: z
      .string({ error: "match.name must be text" })
      .trim()
      .min(1, "match.name cannot be blank")
      .max(15, "match.name is the process name as /proc/PID/comm has it, at most 15 characters (use pattern for longer command lines)")
      .optional(),
    pattern: z
      .string({ error: "match.pattern must be text" })
      .min(1, "match.pattern cannot be blank")
      .max(500, "match.pattern must be at most 500 characters")
      .refine(isRegex, "match.pattern is not a valid regular expression")
      .optional(),
  })
  .refine((match) => [match.pid, match.name, match.pattern].filter((field) => field !== undefined).length === 1, {
    message: "match: give exactly one of pid, name or pattern",
  })
  .meta({ description: "exactly one of pid, name (the process name, /proc/PID/comm) or pattern (a regular expression over the full command line)" });

function isRegex(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

export const ZProcessProbe = z
  .strictObject({
    name: ZProbeName,
    kind: z.literal("process"),
    intervalSeconds: ZIntervalSeconds,
    required: ZRequired,
    match: ZProcessMatch,
  })
  .meta({ id: "ProcessProbe", description: "A process on the agent's own host, read from /proc. Several processes matching fails the job, naming them." });

export const ZProbe = z
  .discriminatedUnion("kind", [ZPrometheusProbe, ZProcessProbe], { error: `kind must be one of ${probeKinds.join(", ")}` })
  .meta({ id: "Probe", description: "What an agent samples on the system under test during the measured window; its metrics are `<name>.<suffix>`." });
export type TProbe = z.output<typeof ZProbe>;
export type TProbeInput = z.input<typeof ZProbe>;
export type TProbeKind = TProbe["kind"];

/** A variant's probes: at most 10, names unique. */
export const ZProbes = z
  .array(ZProbe)
  .max(10, "probes: at most 10 probes per variant")
  .superRefine((probes, ctx) => {
    const seen = new Set<string>();
    probes.forEach((probe, index) => {
      if (seen.has(probe.name))
        ctx.addIssue({ code: "custom", path: [index, "name"], message: `name "${probe.name}" is used by another probe of this variant` });
      seen.add(probe.name);
      if (probe.kind !== "prometheus") return;
      probe.series?.forEach((series, at) => {
        if (!ZMetricKey.safeParse(`${probe.name}.${series.key}`).success) {
          ctx.addIssue({
            code: "custom",
            path: [index, "series", at, "key"],
            message: `key: "${probe.name}.${series.key}" is longer than a metric key's 64 characters; shorten the key or the probe's name`,
          });
        }
      });
    });
  });

/** The capability a job needs from its agent for a probe of this kind. */
export function probeCapability(kind: TProbeKind): string {
  return `probe:${kind}`;
}
