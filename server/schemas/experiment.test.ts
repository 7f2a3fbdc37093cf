// The experiment definition schema shared by tRPC, REST and the form: what it accepts, the
// defaults it fills in, and — for every refusal — the message and the exact field path, since
// that path is what puts the message beside the right form field.
import { describe, expect, it } from "vitest";
import { slugify } from "./common";
import { ZExperimentInput, type TExperimentFormValues } from "./experiment";

type VariantValues = TExperimentFormValues["variants"][number];
type MetricValues = TExperimentFormValues["metrics"][number];

function buildVariant(overrides: Partial<VariantValues> = {}): VariantValues {
  return { name: "Plain", isBaseline: false, ...overrides };
}

function buildMetric(overrides: Partial<MetricValues> = {}): MetricValues {
  return { key: "upload_latency_ms", label: "Upload latency", unit: "ms", direction: "lower_is_better", ...overrides };
}

/** A complete, valid definition as a form would submit it; override what a case is about. */
function buildExperimentValues(overrides: Partial<TExperimentFormValues> = {}): TExperimentFormValues {
  return {
    title: "S3 upload: plain vs gzip",
    hypothesis: "Gzip makes uploads faster.",
    warmupRuns: 20,
    measuredRuns: 100,
    variants: [buildVariant({ name: "Plain", isBaseline: true }), buildVariant({ name: "Gzip" })],
    metrics: [buildMetric(), buildMetric({ key: "payload_bytes", label: "Payload size", unit: "B" })],
    ...overrides,
  };
}

interface Issue {
  path: PropertyKey[];
  message: string;
}

/** Parses `input`, expecting a refusal, and returns every issue as {path, message}. */
function issuesOf(input: unknown): Issue[] {
  const result = ZExperimentInput.safeParse(input);
  if (result.success) throw new Error(`expected the input to be refused, but it parsed: ${JSON.stringify(result.data)}`);
  return result.error.issues.map(({ path, message }) => ({ path, message }));
}

/** Expects exactly one issue, on `path`, whose message matches `message`. */
function expectSingleIssue(input: unknown, path: PropertyKey[], message: string | RegExp) {
  const issues = issuesOf(input);
  expect(issues).toHaveLength(1);
  expect(issues[0]!.path).toEqual(path);
  if (typeof message === "string") expect(issues[0]!.message).toBe(message);
  else expect(issues[0]!.message).toMatch(message);
}

describe("ZExperimentInput", () => {
  describe("accepts", () => {
    it("a good definition and fills in the defaults", () => {
      const parsed = ZExperimentInput.parse(buildExperimentValues());

      expect(parsed.title).toBe("S3 upload: plain vs gzip");
      expect(parsed.alpha).toBe(0.05);
      expect(parsed.status).toBe("draft");
      expect(parsed.description).toBe("");
      expect(parsed.environmentNotes).toBe("");
      expect(parsed.parameters).toEqual([]);
      expect(parsed.tags).toEqual([]);
      expect(parsed.variants).toEqual([
        { name: "Plain", description: "", isBaseline: true, config: {} },
        { name: "Gzip", description: "", isBaseline: false, config: {} },
      ]);
      expect(parsed.metrics.map((metric) => metric.aggregation)).toEqual(["mean", "mean"]);
    });

    it("trims text fields", () => {
      const parsed = ZExperimentInput.parse(
        buildExperimentValues({
          title: "  Padded title  ",
          variants: [buildVariant({ name: " Plain ", isBaseline: true })],
          metrics: [buildMetric({ key: " latency ", unit: " ms " })],
        }),
      );

      expect(parsed.title).toBe("Padded title");
      expect(parsed.variants[0]!.name).toBe("Plain");
      expect(parsed.metrics[0]!.key).toBe("latency");
      expect(parsed.metrics[0]!.unit).toBe("ms");
    });

    it("drops blank and repeated tags instead of refusing them", () => {
      const parsed = ZExperimentInput.parse(buildExperimentValues({ tags: ["s3", " gzip ", "", "   ", "s3", "gzip"] }));

      expect(parsed.tags).toEqual(["s3", "gzip"]);
    });

    it("an empty slug (derive it from the title) and a well-formed one", () => {
      expect(ZExperimentInput.parse(buildExperimentValues({ slug: "" })).slug).toBe("");
      expect(ZExperimentInput.parse(buildExperimentValues({ slug: "plain-vs-gzip-2" })).slug).toBe("plain-vs-gzip-2");
    });

    it("a variant's workload with its settings, and a variant with none yet", () => {
      const parsed = ZExperimentInput.parse(
        buildExperimentValues({
          variants: [
            buildVariant({ name: "Plain", isBaseline: true, config: { workload: " gzip ", settings: { level: 6 } } }),
            buildVariant({ name: "Gzip", config: { workload: "gzip" } }),
          ],
        }),
      );

      expect(parsed.variants.map((v) => v.config)).toEqual([{ workload: "gzip", settings: { level: 6 } }, { workload: "gzip" }]);
    });

    it("zero warm-up runs and a single measured run", () => {
      const parsed = ZExperimentInput.parse(buildExperimentValues({ warmupRuns: 0, measuredRuns: 1 }));

      expect(parsed.warmupRuns).toBe(0);
      expect(parsed.measuredRuns).toBe(1);
    });
  });

  describe("refuses", () => {
    it.each([
      ["an empty title", ""],
      ["a whitespace-only title", "   \t "],
    ])("%s", (_, title) => {
      expectSingleIssue(buildExperimentValues({ title }), ["title"], "title is required");
    });

    it.each([
      ["an unknown key (a misspelt workload)", { workLoad: "gzip" }, ["variants", 1, "config"], /workLoad/],
      ["settings without a workload", { settings: { level: 6 } }, ["variants", 1, "config", "workload"], "choose a workload for these settings"],
      ["a blank workload name", { workload: "  " }, ["variants", 1, "config", "workload"], "workload name is required"],
      ["settings that are not an object", { workload: "gzip", settings: [1] }, ["variants", 1, "config", "settings"], /object|record/i],
    ])("a variant config with %s", (_, config, path, message) => {
      const input = buildExperimentValues({
        variants: [buildVariant({ name: "Plain", isBaseline: true }), buildVariant({ name: "Gzip", config: config as VariantValues["config"] })],
      });
      expectSingleIssue(input, path, message);
    });

    it("a missing title", () => {
      const { title: _title, ...withoutTitle } = buildExperimentValues();
      expectSingleIssue(withoutTitle, ["title"], "title is required");
    });

    it("zero baselines", () => {
      const input = buildExperimentValues({ variants: [buildVariant({ name: "A" }), buildVariant({ name: "B" })] });
      expectSingleIssue(input, ["variants"], /exactly one.*\(none is\)/);
    });

    it("two baselines", () => {
      const input = buildExperimentValues({
        variants: [buildVariant({ name: "A", isBaseline: true }), buildVariant({ name: "B", isBaseline: true })],
      });
      expectSingleIssue(input, ["variants"], /exactly one.*\(2 are\)/);
    });

    it("no variants at all", () => {
      const issues = issuesOf(buildExperimentValues({ variants: [] }));

      expect(issues).toEqual([
        { path: ["variants"], message: "add at least one variant" },
        { path: ["variants"], message: expect.stringMatching(/exactly one.*\(none is\)/) },
      ]);
    });

    it("duplicate variant names, ignoring case and surrounding spaces", () => {
      const input = buildExperimentValues({
        variants: [buildVariant({ name: "Gzip", isBaseline: true }), buildVariant({ name: " gZIP " })],
      });
      expectSingleIssue(input, ["variants", 1, "name"], 'duplicate variant name "gZIP"');
    });

    it("a blank variant name", () => {
      const input = buildExperimentValues({ variants: [buildVariant({ name: "  ", isBaseline: true })] });
      expectSingleIssue(input, ["variants", 0, "name"], "variant name is required");
    });

    it("duplicate metric keys", () => {
      const input = buildExperimentValues({ metrics: [buildMetric({ key: "latency" }), buildMetric({ key: "LATENCY" })] });
      expectSingleIssue(input, ["metrics", 1, "key"], 'duplicate metric key "LATENCY"');
    });

    it("no metrics at all", () => {
      expectSingleIssue(buildExperimentValues({ metrics: [] }), ["metrics"], "add at least one metric");
    });

    it("a metric without a unit", () => {
      const { unit: _unit, ...withoutUnit } = buildMetric();
      expectSingleIssue(buildExperimentValues({ metrics: [withoutUnit as MetricValues] }), ["metrics", 0, "unit"], "unit is required");
    });

    it("a metric with a blank unit", () => {
      expectSingleIssue(buildExperimentValues({ metrics: [buildMetric({ unit: "  " })] }), ["metrics", 0, "unit"], /^unit is required/);
    });

    it("a metric without a direction", () => {
      const { direction: _direction, ...withoutDirection } = buildMetric();
      expectSingleIssue(
        buildExperimentValues({ metrics: [withoutDirection as MetricValues] }),
        ["metrics", 0, "direction"],
        "choose whether lower or higher is better",
      );
    });

    it("a metric with an invalid direction", () => {
      const metric = buildMetric({ direction: "sideways" as MetricValues["direction"] });
      expectSingleIssue(buildExperimentValues({ metrics: [metric] }), ["metrics", 0, "direction"], "choose whether lower or higher is better");
    });

    it("a metric key with spaces", () => {
      expectSingleIssue(buildExperimentValues({ metrics: [buildMetric({ key: "upload latency" })] }), ["metrics", 0, "key"], /^use letters, digits/);
    });

    it("negative warm-up runs", () => {
      expectSingleIssue(buildExperimentValues({ warmupRuns: -1 }), ["warmupRuns"], "warm-up runs cannot be negative");
    });

    it.each([0, -1])("%i measured runs", (measuredRuns) => {
      expectSingleIssue(buildExperimentValues({ measuredRuns }), ["measuredRuns"], "measured runs must be at least 1");
    });

    it("NaN warm-up runs (what an empty number box gives)", () => {
      expectSingleIssue(buildExperimentValues({ warmupRuns: Number.NaN }), ["warmupRuns"], "warm-up runs must be a whole number");
    });

    it("NaN measured runs", () => {
      expectSingleIssue(buildExperimentValues({ measuredRuns: Number.NaN }), ["measuredRuns"], "measured runs must be a whole number");
    });

    it.each([
      ["warmupRuns", 1.5, "warm-up runs must be a whole number"],
      ["measuredRuns", 2.25, "measured runs must be a whole number"],
    ] as const)("a non-integer %s (%d)", (field, value, message) => {
      expectSingleIssue(buildExperimentValues({ [field]: value }), [field], message);
    });

    it("more runs per agent-run variant than one batch holds", () => {
      // Two variants with a workload: Run queues 2 × (warm-up + measured) jobs, 20,000 at most.
      const agentRun = [
        buildVariant({ name: "Plain", isBaseline: true, config: { workload: "gzip" } }),
        buildVariant({ name: "Gzip", config: { workload: "gzip" } }),
      ];
      expectSingleIssue(
        buildExperimentValues({ variants: agentRun, warmupRuns: 1, measuredRuns: 1_000_000 }),
        ["measuredRuns"],
        "at most 9,999 measured runs per variant here (with 1 warm-up): Run queues warm-up + measured runs for each of the 2 variants agents run, and one batch holds at most 20,000 jobs",
      );
      expect(ZExperimentInput.safeParse(buildExperimentValues({ variants: agentRun, warmupRuns: 1, measuredRuns: 9_999 })).success).toBe(true);
      // Uploaded results are not queued: the cap is for variants agents run.
      expect(ZExperimentInput.safeParse(buildExperimentValues({ warmupRuns: 1, measuredRuns: 1_000_000 })).success).toBe(true);
    });

    it("the batch cap is reported with the other problems, not after them", () => {
      const issues = issuesOf(
        buildExperimentValues({
          title: "",
          variants: [buildVariant({ name: "A", isBaseline: true, config: { workload: "sleep" } })],
          warmupRuns: 0,
          measuredRuns: 30_000,
        }),
      );
      expect(issues.map((issue) => issue.path)).toEqual([["title"], ["measuredRuns"]]);
    });

    it("run counts sent as strings", () => {
      expectSingleIssue(buildExperimentValues({ warmupRuns: "5" as unknown as number }), ["warmupRuns"], "warm-up runs must be a whole number");
    });

    it.each([
      [0, "alpha must be above 0"],
      [1, "alpha must be below 1"],
      [-0.1, "alpha must be above 0"],
      [1.5, "alpha must be below 1"],
    ])("alpha %d", (alpha, message) => {
      expectSingleIssue(buildExperimentValues({ alpha }), ["alpha"], message);
    });

    it.each(["Has Spaces", "UPPER", "trailing-", "-leading", "double--hyphen"])("the slug %j", (slug) => {
      expectSingleIssue(buildExperimentValues({ slug }), ["slug"], "use lowercase letters, digits and single hyphens (e.g. plain-vs-gzip)");
    });

    it("a slug longer than 64 characters", () => {
      expectSingleIssue(buildExperimentValues({ slug: "a".repeat(65) }), ["slug"], "slug must be at most 64 characters");
    });

    it("duplicate parameter names", () => {
      const input = buildExperimentValues({
        parameters: [
          { name: "payload", value: "50 KB" },
          { name: "Payload", value: "80 B" },
        ],
      });
      expectSingleIssue(input, ["parameters", 1, "name"], 'duplicate parameter name "Payload"');
    });

    it("every problem at once, each on its own field", () => {
      const issues = issuesOf(
        buildExperimentValues({
          variants: [buildVariant({ name: "A" }), buildVariant({ name: "a" })],
          metrics: [buildMetric({ key: "latency" }), buildMetric({ key: "latency" })],
        }),
      );

      expect(issues.map((issue) => issue.path)).toEqual([["variants"], ["variants", 1, "name"], ["metrics", 1, "key"]]);
    });

    it("cross-row problems are reported together with field problems, not after them", () => {
      // The form shows every message at once; an empty title must not hide a duplicate name.
      const issues = issuesOf(
        buildExperimentValues({
          title: "",
          warmupRuns: -1,
          variants: [buildVariant({ name: "Baseline", isBaseline: false }), buildVariant({ name: "baseline", isBaseline: false })],
        }),
      );

      expect(issues.map((issue) => issue.path)).toEqual(expect.arrayContaining([["title"], ["warmupRuns"], ["variants"], ["variants", 1, "name"]]));
    });
  });
});

describe("slugify", () => {
  it.each([
    ["Plain vs Gzip!", "plain-vs-gzip"],
    ["S3 upload: plain vs gzip", "s3-upload-plain-vs-gzip"],
    ["  --Leading and trailing--  ", "leading-and-trailing"],
    ["Crème brûlée à la façon", "creme-brulee-a-la-facon"],
    ["Zürich – São Paulo", "zurich-sao-paulo"],
    ["JVM  GC:  G1 / ZGC", "jvm-gc-g1-zgc"],
    ["!!!", ""],
    ["", ""],
  ])("%j → %j", (text, slug) => {
    expect(slugify(text)).toBe(slug);
  });

  it("keeps at most 64 characters and never ends in a hyphen", () => {
    // The 64th character falls on a separator: it must be dropped, not left dangling.
    const slug = slugify(`${"a".repeat(63)} ${"b".repeat(10)}`);

    expect(slug).toBe("a".repeat(63));
    expect(slug.length).toBeLessThanOrEqual(64);
    expect(slug.endsWith("-")).toBe(false);
  });

  it("cuts long titles to 64 characters", () => {
    const slug = slugify("word ".repeat(40));

    expect(slug.length).toBeLessThanOrEqual(64);
    expect(slug).toMatch(/^word(-word)*$/);
  });

  it("always yields a slug the schema accepts (or nothing)", () => {
    for (const text of ["Plain vs Gzip!", "Ünïcödé  títlé", "x".repeat(200), "a - b - c", "100% faster?"]) {
      const slug = slugify(text);
      expect(ZExperimentInput.safeParse(buildExperimentValues({ slug })).success).toBe(true);
    }
  });
});
