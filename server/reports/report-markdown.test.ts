// The report writer on a comparison made by the real engine (pure, no database): the structure of
// the write-ups, the table cells worded and rounded from the comparison's own numbers, the reasons
// for missing or weak verdicts, the environment and the chart links.
import { describe, expect, it } from "vitest";
import type { TComparison } from "../schemas/comparison";
import { chartFileName, ZChartFileName } from "../schemas/report";
import { compareMetric, describeMetric } from "../stats/compare";
import { summariseEnvironment } from "./report-environment";
import { renderMarkdownReport, type ReportExperiment } from "./report-markdown";
import { SEND_TIME_MS } from "~/test/fixtures/kafka-published-figures";

const experiment: ReportExperiment = {
  slug: "kafka-serializers",
  title: "Kafka producer serializers",
  hypothesis: "kotlinx.serialization sends faster than Spring's JSON serializer.",
  description: "",
  environmentNotes: "One broker on the same host.",
  status: "completed",
  tags: ["kafka"],
  isExample: false,
  runOrigins: { example: 0, own: 0 },
  warmupRuns: 1,
  measuredRuns: 5,
  alpha: 0.05,
  parameters: [{ name: "messages", value: "1,000,000" }],
  variants: [
    { name: "SPRING_JSON", description: "Spring's JsonSerializer", isBaseline: true },
    { name: "JACKSON_OBJECT_MAPPER", description: "", isBaseline: false },
    { name: "KOTLINX_JSON", description: "", isBaseline: false },
  ],
  metrics: [
    { key: "send_time_ms", label: "Average send time", unit: "ms", direction: "lower_is_better", aggregation: "mean" },
    { key: "gc_pause_ms", label: "", unit: "ms", direction: "lower_is_better", aggregation: "mean" },
  ],
};

function kafkaComparison(): TComparison {
  const variants = Object.entries(SEND_TIME_MS).map(([name, replicates], i) => ({ name, isBaseline: i === 0, replicates: [...replicates] }));
  return {
    experiment: { slug: experiment.slug, title: experiment.title, alpha: 0.05 },
    baseline: "SPRING_JSON",
    variants: variants.map((v) => ({ name: v.name, isBaseline: v.isBaseline, runs: 5 })),
    metrics: [
      {
        key: "send_time_ms",
        label: "Average send time",
        unit: "ms",
        direction: "lower_is_better",
        aggregation: "mean",
        reason: null,
        comparison: compareMetric({ key: "send_time_ms", unit: "ms", direction: "lower_is_better" }, variants),
      },
      {
        key: "gc_pause_ms",
        label: "",
        unit: "ms",
        direction: "lower_is_better",
        aggregation: "mean",
        comparison: null,
        reason: 'the baseline "SPRING_JSON" has no runs with this metric',
      },
    ],
  };
}

const noEnvironment = summariseEnvironment([]);
const generatedAt = new Date("2026-11-02T10:20:30Z");

/** The cells of the table row whose first cell starts with `name`. */
function row(markdown: string, name: string): string[] {
  const line = markdown.split("\n").find((l) => l.startsWith(`| ${name}`));
  if (!line) throw new Error(`no row ${name} in\n${markdown}`);
  return line.slice(2, -2).split(" | ");
}

describe("renderMarkdownReport", () => {
  const markdown = renderMarkdownReport({ experiment, comparison: kafkaComparison(), environment: noEnvironment, chartFiles: [], generatedAt });

  it("has the write-ups' sections in order", () => {
    const headings = markdown.split("\n").filter((l) => l.startsWith("#"));
    expect(headings).toEqual([
      "# Kafka producer serializers",
      "## Hypothesis",
      "## Environment",
      "## Method",
      "## Results",
      "### Average send time (`send_time_ms`)",
      "### `gc_pause_ms`",
    ]);
    expect(markdown).toContain("`kafka-serializers` · completed · #kafka · generated 2026-11-02 10:20 UTC by Versus");
    expect(markdown).toContain("kotlinx.serialization sends faster");
    expect(markdown).toContain("One broker on the same host.");
    expect(markdown).not.toContain("Example data");
  });

  it("groups a probe's metrics under Server after the client's, and lists the runs' warnings", () => {
    const comparison = kafkaComparison();
    comparison.metrics = [comparison.metrics[0]!, { ...comparison.metrics[1]!, key: "app-1.cpu_percent", unit: "%", probe: "app-1" }];
    const warned = renderMarkdownReport({
      experiment,
      comparison,
      environment: noEnvironment,
      warnings: [{ variant: "KOTLINX_JSON", repetition: 3, warnings: ['probe "app-1" did not answer for 3 of 10 intervals (4 s – 7 s): connection refused'] }],
      chartFiles: [],
      generatedAt,
    });
    const lines = warned.split("\n");
    const at = (text: string) => lines.findIndex((line) => line.startsWith(text));
    expect(at("**Client**")).toBeGreaterThan(at("## Results"));
    expect(at("### Average send time")).toBeGreaterThan(at("**Client**"));
    expect(lines[at("**Server**")]).toBe("**Server**: the system under test, from the variants' probes (`app-1`).");
    expect(at("### `app-1.cpu_percent`")).toBeGreaterThan(at("**Server**"));
    expect(warned).toContain(
      '## Run warnings\n\n1 run carried warnings from its producer:\n\n- **KOTLINX_JSON** run 3: probe "app-1" did not answer for 3 of 10 intervals (4 s – 7 s): connection refused\n',
    );
    expect(markdown).not.toContain("**Server**");
    expect(markdown).not.toContain("Run warnings");
  });

  it("states the method: warm-up, runs, parameters, α and the tests used", () => {
    expect(markdown).toContain("- Warm-up: 1 run before measuring");
    expect(markdown).toContain("- Measured: 5 runs per variant planned.");
    expect(markdown).toContain("- **SPRING_JSON** (baseline) — Spring's JsonSerializer; 5 runs compared");
    expect(markdown).toContain("- messages: 1,000,000");
    expect(markdown).toContain("α = 0.05");
    expect(markdown).toContain("two-sided Mann-Whitney U test");
    expect(markdown).toContain("Holm's method");
    expect(markdown).toContain("Hodges–Lehmann confidence interval of at least 95%");
    expect(markdown).toContain("sd is the sample standard deviation (n − 1)");
    // 3 candidates at α = 0.05 with Holm: 5 runs per variant are needed.
    expect(markdown).toContain("A verdict needs ≥ 5 runs per variant");
  });

  it("writes one table per metric with the comparison's figures, direction-aware", () => {
    expect(markdown).toContain("| Variant | Runs | Median [95% CI] | Mean ± sd | Min … max | Change vs SPRING_JSON [CI] | p | Verdict |");
    const comparison = kafkaComparison().metrics[0]!.comparison!;
    const kotlinx = comparison.comparisons.find((c) => c.candidate === "KOTLINX_JSON")!;
    const [name, runs, median, meanSd, minMax, change, p, verdict] = row(markdown, "KOTLINX_JSON");
    expect(name).toBe("KOTLINX_JSON");
    expect(runs).toBe("5");
    // The experiment page's rounding (server/display/display.ts): at the nearer bound's, or the sd's,
    // second significant digit; min and max (here the interval's bounds) at the median's.
    expect(median).toBe("2.887 ms [2.833, 2.950]");
    expect(meanSd).toBe("2.890 ± 0.045 ms");
    expect(minMax).toBe("2.833 … 2.950 ms");
    const ci = kotlinx.change.percentCi!;
    expect(change).toBe(`−4.37% (better) [−${Math.abs(ci.low).toFixed(2)}%, −${Math.abs(ci.high).toFixed(2)}%]`);
    expect(p).toBe("0.032");
    expect(verdict).toBe("better");

    const jackson = row(markdown, "JACKSON_OBJECT_MAPPER");
    expect(jackson[5]).toMatch(/^−3\.31% \[/);
    expect(jackson[5]).not.toContain("(");
    expect(jackson[6]).toBe("0.222");
    expect(jackson[7]).toBe("no significant change");

    const spring = row(markdown, "SPRING_JSON (baseline)");
    expect(spring.slice(1)).toEqual(["5", "3.019 ms [2.947, 3.436]", "3.08 ± 0.20 ms", "2.947 … 3.436 ms", "—", "—", "—"]);
  });

  it("says why a verdict is missing and why a metric was not compared", () => {
    expect(markdown).toMatch(
      /- JACKSON_OBJECT_MAPPER: no significant change — median −3\.31% vs SPRING_JSON; Mann-Whitney p = 0\.222 \(Holm-adjusted over 2 candidates\) > α = 0\.05: no significant difference/,
    );
    expect(markdown).toContain("- 2 candidates against SPRING_JSON: Mann-Whitney p-values adjusted with Holm's method");
    // Said once for all three variants.
    expect(markdown.match(/too few runs for a 95% interval of the median/g)).toHaveLength(1);
    expect(markdown).toContain("- SPRING_JSON, JACKSON_OBJECT_MAPPER, KOTLINX_JSON: too few runs for a 95% interval");
    expect(markdown).toContain('_Not compared: the baseline "SPRING_JSON" has no runs with this metric._');
  });

  it("says 'not enough data' with the engine's reason when runs are too few", () => {
    const variants = [
      { name: "A", isBaseline: true, replicates: [1, 2, 3] },
      { name: "B", isBaseline: false, replicates: [4, 5, 6] },
    ];
    const comparison: TComparison = {
      ...kafkaComparison(),
      baseline: "A",
      metrics: [
        {
          key: "t",
          label: "",
          unit: "s",
          direction: "lower_is_better",
          aggregation: "mean",
          reason: null,
          comparison: compareMetric({ key: "t", unit: "s", direction: "lower_is_better" }, variants),
        },
      ],
    };
    const text = renderMarkdownReport({ experiment, comparison, environment: noEnvironment, chartFiles: [], generatedAt });
    expect(row(text, "B")[7]).toBe("not enough data");
    // B's median is 2.5 times A's: a factor, not "+150.00%".
    expect(row(text, "B")[5]).toMatch(/^2\.5× \[/);
    // No p beside "not enough data": with 3 runs against 3 the test cannot decide (it printed 0.100).
    expect(row(text, "B")[6]).toBe("—");
    expect(text).toContain("- B: not enough data — needs ≥ 4 runs per variant (has 3 and 3)");
  });

  it("labels weak evidence from single runs, with the reason", () => {
    const variants = [
      { name: "A", isBaseline: true, replicates: [10], withinRunSamples: [Array.from({ length: 40 }, (_, i) => 10 + (i % 7))] },
      { name: "B", isBaseline: false, replicates: [20], withinRunSamples: [Array.from({ length: 40 }, (_, i) => 20 + (i % 7))] },
    ];
    const comparison: TComparison = {
      ...kafkaComparison(),
      baseline: "A",
      metrics: [
        {
          key: "t",
          label: "",
          unit: "s",
          direction: "lower_is_better",
          aggregation: "mean",
          reason: null,
          comparison: compareMetric({ key: "t", unit: "s", direction: "lower_is_better" }, variants),
        },
      ],
    };
    const text = renderMarkdownReport({ experiment, comparison, environment: noEnvironment, chartFiles: [], generatedAt });
    expect(row(text, "B")[7]).toBe("worse (weak evidence)");
    expect(row(text, "B")[5]).toMatch(/^\+\d+\.\d\d% \(worse\)/);
    expect(text).toMatch(/- B: weak evidence, /);
  });

  it("gives a lone variant its own figures, merged percentiles included, and says why nothing is compared", () => {
    const merged = { count: 5296, min: 0.1, max: 76.44, mean: 6.16, p50: 2.7512, p90: 15.68, p95: 20.1, p99: 41.11, p999: 70.2 };
    const comparison: TComparison = {
      ...kafkaComparison(),
      baseline: "nginx",
      variants: [{ name: "nginx", isBaseline: true, runs: 3 }],
      metrics: [
        {
          key: "latency",
          label: "",
          unit: "ms",
          direction: "lower_is_better",
          aggregation: "mean",
          reason: "no other variant has runs with this metric",
          comparison: describeMetric({ key: "latency", unit: "ms", direction: "lower_is_better" }, [
            { name: "nginx", isBaseline: true, replicates: [6.16, 5.9, 6.42], mergedPercentiles: merged },
          ]),
        },
      ],
    };
    const text = renderMarkdownReport({ experiment, comparison, environment: noEnvironment, chartFiles: [], generatedAt });
    expect(text).toContain("| Variant | Runs | Median [95% CI] | Mean ± sd | Min … max | Merged p50 / p90 / p99 |");
    expect(row(text, "nginx (baseline)")).toEqual([
      "nginx (baseline)",
      "3",
      "6.16 ms [5.90, 6.42]",
      "6.16 ± 0.26 ms",
      "5.90 … 6.42 ms",
      "2.75 / 15.7 / 41.1 ms",
    ]);
    expect(text).toContain("_Not compared: no other variant has runs with this metric._");
    expect(text).not.toContain("Verdict");
  });

  it("calls an example example data only while its runs are the seeded ones", () => {
    const banner = (isExample: boolean, example: number, own: number) =>
      renderMarkdownReport({
        experiment: { ...experiment, isExample, runOrigins: { example, own } },
        comparison: null,
        environment: noEnvironment,
        chartFiles: [],
        generatedAt,
      })
        .split("\n")
        .filter((line) => line.startsWith("> "));
    expect(banner(true, 20, 0)).toEqual([
      "> **Example data.** This experiment ships with Versus to show how a write-up reads in it; its runs reproduce a published write-up, not measurements of your systems.",
    ]);
    expect(banner(true, 20, 3)).toEqual([
      "> **Example data and your own runs.** 20 runs shipped with Versus and reproduce a published write-up (tagged *example data*); the other 3 runs are yours. They were not measured on the same machines: compare them with care.",
    ]);
    // The runnable gzip example after the user pressed Run: measurements of their own machines.
    expect(banner(true, 0, 10)).toEqual([]);
    expect(banner(true, 0, 0)).toEqual([
      "> **Runnable example, no runs yet.** Versus created this experiment to be run on your machines: press Run and the project's agents measure it.",
    ]);
    expect(banner(false, 0, 10)).toEqual([]);
  });

  it("marks example data, escapes table cells and reports an experiment without runs", () => {
    const text = renderMarkdownReport({
      experiment: {
        ...experiment,
        isExample: true,
        runOrigins: { example: 6, own: 0 },
        hypothesis: "",
        variants: [{ name: "a|b", description: "", isBaseline: true }],
      },
      comparison: null,
      environment: noEnvironment,
      chartFiles: [],
      generatedAt,
    });
    expect(text).toContain("> **Example data.**");
    expect(text).toContain("_No hypothesis was written._");
    expect(text).toContain("- **a\\|b** (baseline); 0 runs compared");
    expect(text).toContain("_No runs yet: nothing to compare._");
    expect(text).toContain("_No runs yet._");
    expect(text).not.toContain("## Charts");
  });

  it("links the chart images under their metrics", () => {
    const text = renderMarkdownReport({
      experiment,
      comparison: kafkaComparison(),
      environment: noEnvironment,
      chartFiles: ["send_time_ms-bar.png", "send_time_ms-distribution.png", "gc_pause_ms-timeseries.png", "other.png"],
      generatedAt,
    });
    const charts = text.slice(text.indexOf("## Charts"));
    expect(charts).toBe(
      [
        "## Charts",
        "",
        "### Average send time",
        "",
        "![send_time_ms — bar](charts/send_time_ms-bar.png)",
        "",
        "![send_time_ms — distribution](charts/send_time_ms-distribution.png)",
        "",
        "### `gc_pause_ms`",
        "",
        "![gc_pause_ms — timeseries](charts/gc_pause_ms-timeseries.png)",
        "",
        "### Other charts",
        "",
        "![other](charts/other.png)",
        "",
      ].join("\n"),
    );
  });
});

describe("summariseEnvironment", () => {
  it("reads the common spellings of CPU, cores, OS and runtime and counts distinct values", () => {
    const summary = summariseEnvironment([
      {
        environment: { cpu: "AMD EPYC 7B13", num_cpus: 8, goos: "linux", goarch: "amd64", goVersion: "go1.26", pkg: "x" },
        gitCommit: "abc1234def",
        gitBranch: "main",
      },
      {
        environment: { cpu: { model: "AMD EPYC 7B13", cores: 8 }, os: "linux", jdkVersion: "17.0.2", vmName: "OpenJDK 64-Bit Server VM" },
        gitCommit: "abc1234def",
        gitBranch: "main",
      },
      { environment: { cpu_model: "Intel Xeon", cores: 4, caches: [1, 2] }, gitCommit: null, gitBranch: null },
    ]);
    expect(summary.runs).toBe(3);
    expect(Object.fromEntries(summary.lines.map((l) => [l.label, l.values]))).toEqual({
      CPU: [
        { value: "AMD EPYC 7B13", runs: 2 },
        { value: "Intel Xeon", runs: 1 },
      ],
      Cores: [
        { value: "8", runs: 2 },
        { value: "4", runs: 1 },
      ],
      OS: [{ value: "linux", runs: 2 }],
      Architecture: [{ value: "amd64", runs: 1 }],
      Runtime: [
        { value: "17.0.2 · OpenJDK 64-Bit Server VM", runs: 1 },
        { value: "go1.26", runs: 1 },
      ],
    });
    expect(summary.otherFields).toEqual(["pkg"]);
    expect(summary.commits).toEqual([{ gitCommit: "abc1234def", gitBranch: "main", runs: 2 }]);
  });

  it("writes memory with a unit, binary as the agents measure it (it printed 25276510208)", () => {
    const summary = summariseEnvironment([
      // What the Go and JVM agents send: bytes, and a container's limit in bytes.
      { environment: { cpuModel: "AMD EPYC", memoryBytes: 25_276_510_208, cpuLimit: 1.5, memoryLimitBytes: 2_147_483_648 }, gitCommit: null, gitBranch: null },
      // Other spellings: a unit in the name, or the unit written by the tool.
      { environment: { memory_gb: 16 }, gitCommit: null, gitBranch: null },
      { environment: { memoryMB: 16_384 }, gitCommit: null, gitBranch: null },
      { environment: { memory: "32 GB" }, gitCommit: null, gitBranch: null },
      { environment: { ram: 17_179_869_184 }, gitCommit: null, gitBranch: null },
    ]);
    const lines = Object.fromEntries(summary.lines.map((l) => [l.label, l.values.map((v) => v.value)]));
    expect(lines.Memory).toEqual(["16 GiB", "23.54 GiB", "32 GB"]);
    expect(lines["Container limits"]).toEqual(["1.5 CPUs · 2 GiB memory"]);
    expect(summary.otherFields).toEqual([]);
    const text = renderMarkdownReport({ experiment, comparison: null, environment: summary, chartFiles: [], generatedAt });
    expect(text).toContain("23.54 GiB (1 run)");
    expect(text).not.toContain("25276510208");
  });

  it("is shown in the report as a table", () => {
    const environment = summariseEnvironment([
      { environment: { cpu: "AMD EPYC", cores: 8 }, gitCommit: "0123456789abcdef", gitBranch: "main" },
      { environment: { cpu: "AMD EPYC", cores: 8, jmhVersion: "1.37" }, gitCommit: "0123456789abcdef", gitBranch: "main" },
    ]);
    const text = renderMarkdownReport({ experiment, comparison: null, environment, chartFiles: [], generatedAt });
    expect(text).toContain("Recorded by the 2 compared runs:");
    expect(text).toContain("| CPU | AMD EPYC |");
    expect(text).toContain("| Cores | 8 |");
    expect(text).toContain("| Git commit | 0123456789ab (main): 2 runs |");
    expect(text).toContain("Also recorded: `jmhVersion`");
  });
});

describe("chart file names", () => {
  it("are safe file names the report request accepts, whatever the metric key holds", () => {
    expect(chartFileName("send_time_ms", "bars")).toBe("send_time_ms-bars.png");
    expect(chartFileName("BenchmarkEncode/codec=hex/size=16", "distribution")).toBe("BenchmarkEncode_codec_hex_size_16-distribution.png");
    expect(chartFileName(".hidden:key", "")).toBe("_hidden_key-_.png");
    for (const name of ["send_time_ms-bars.png", "BenchmarkEncode_codec_hex_size_16-distribution.png", "_hidden_key-_.png"])
      expect(ZChartFileName.safeParse(name).success, name).toBe(true);
    for (const name of ["../x.png", "charts/x.png", ".x.png", "x.svg", "a b.png"]) expect(ZChartFileName.safeParse(name).success, name).toBe(false);
  });
});
