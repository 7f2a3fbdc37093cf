// Experiments end to end through tRPC on a real, migrated PostgreSQL: create, read, list, edit,
// delete; every refusal carries a tRPC code and the field it is about (also over HTTP, as the
// browser sees it), and a refused write leaves no row behind. Files share one database, so every
// test works in a project of its own with a random slug.
import crypto from "node:crypto";
import type { inferRouterInputs } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import superjson from "superjson";
import { afterAll, describe, expect, inject, it, vi } from "vitest";
import { appRouter, type AppRouter } from "../api/root";
import { createTRPCContext } from "../api/trpc";
import { createPrismaClient } from "../db/client";
import { poolOf } from "../db/prepared-statements";
import { AppError, type FieldIssue } from "../core/errors";
import { getExperiment as readExperiment, type ExperimentDetail } from "./experiments";
import { toFormValues } from "~/components/experiments/to-form-values";
import { expectTRPCError, fieldIssuesOfError } from "~/test/trpc-errors";
import { signedInUser } from "~/test/signed-in";

type RouterInputs = inferRouterInputs<AppRouter>;
type ExperimentValues = RouterInputs["experiment"]["create"]["experiment"];
type VariantValues = ExperimentValues["variants"][number];
type MetricValues = ExperimentValues["metrics"][number];

const db = createPrismaClient(inject("databaseUrl"));
const owner = await signedInUser(db, "experiments");
const caller = owner.caller;

afterAll(() => db.$disconnect());

// ---------------------------------------------------------------------------------------------
// Builders of valid input
// ---------------------------------------------------------------------------------------------

const uniqueSuffix = () => crypto.randomBytes(4).toString("hex");

function buildVariant(overrides: Partial<VariantValues> = {}): VariantValues {
  return { name: `Variant ${uniqueSuffix()}`, isBaseline: false, ...overrides };
}

function buildMetric(overrides: Partial<MetricValues> = {}): MetricValues {
  return { key: `metric_${uniqueSuffix()}`, unit: "ms", direction: "lower_is_better", ...overrides };
}

/** A valid definition: Plain (baseline), Gzip, Zstd; latency and payload size. */
function buildExperimentValues(overrides: Partial<ExperimentValues> = {}): ExperimentValues {
  return {
    title: "Plain vs Gzip",
    hypothesis: "Gzip makes uploads faster.",
    warmupRuns: 20,
    measuredRuns: 100,
    tags: ["s3", "gzip"],
    variants: [
      buildVariant({ name: "Plain", description: "raw payload", isBaseline: true }),
      buildVariant({ name: "Gzip", config: { workload: "s3-upload", settings: { compression: "gzip" } } }),
      buildVariant({ name: "Zstd" }),
    ],
    metrics: [
      buildMetric({ key: "upload_latency_ms", label: "Upload latency", unit: "ms", aggregation: "p95" }),
      buildMetric({ key: "payload_bytes", label: "Payload size", unit: "B" }),
    ],
    ...overrides,
  };
}

async function createTestProject(): Promise<string> {
  const suffix = uniqueSuffix();
  const project = await caller.project.create({ name: `Experiments test ${suffix}`, slug: `it-experiments-${suffix}` });
  return project.slug;
}

async function createTestExperiment(projectSlug: string, overrides: Partial<ExperimentValues> = {}): Promise<string> {
  const { slug } = await caller.experiment.create({ projectSlug, experiment: buildExperimentValues(overrides) });
  return slug;
}

function getExperiment(projectSlug: string, experimentSlug: string): Promise<ExperimentDetail> {
  return caller.experiment.get({ projectSlug, experimentSlug });
}

/** What the edit form submits for an experiment as it is now: every field, with row ids. */
const editValuesOf = (detail: ExperimentDetail): ExperimentValues => toFormValues(detail);

function variantNamed(detail: ExperimentDetail, name: string) {
  const variant = detail.experiment.variants.find((v) => v.name === name);
  if (!variant) throw new Error(`no variant "${name}" in ${detail.experiment.slug}`);
  return variant;
}

/** Inserts a run for one variant directly, as an upload would. */
async function insertRun(detail: ExperimentDetail, variantName: string) {
  return db.run.create({ data: { experimentId: detail.experiment.id, variantId: variantNamed(detail, variantName).id, source: "upload" } });
}

/** Rows a project holds, to prove a refused write left nothing behind. */
async function countRows(projectSlug: string) {
  const inProject = { experiment: { project: { slug: projectSlug } } };
  const [experiments, variants, metrics, runs] = await Promise.all([
    db.experiment.count({ where: { project: { slug: projectSlug } } }),
    db.variant.count({ where: inProject }),
    db.metric.count({ where: inProject }),
    db.run.count({ where: inProject }),
  ]);
  return { experiments, variants, metrics, runs };
}

// ---------------------------------------------------------------------------------------------
// Errors, as a server caller and as the browser sees them
// ---------------------------------------------------------------------------------------------

interface HttpErrorShape {
  message: string;
  code: number;
  data: { code: string; httpStatus: number; path?: string; fieldIssues?: FieldIssue[]; stack?: unknown };
}

/** POSTs a mutation to the tRPC HTTP handler, as the browser does, and returns the error body. */
async function httpMutationError(path: string, input: unknown): Promise<{ status: number; error: HttpErrorShape }> {
  const req = new Request(`http://localhost/api/trpc/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: owner.cookie },
    body: JSON.stringify(superjson.serialize(input)),
  });
  const response = await fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: () => createTRPCContext({ headers: req.headers, db }),
  });
  const body = (await response.json()) as { error?: Parameters<typeof superjson.deserialize>[0] };
  if (!body.error) throw new Error(`expected ${path} to fail, but it answered ${response.status} ${JSON.stringify(body)}`);
  return { status: response.status, error: superjson.deserialize<HttpErrorShape>(body.error) };
}

// ---------------------------------------------------------------------------------------------

describe("experiment.create", () => {
  it("persists the experiment with its variants and metrics in order, slug derived from the title", async () => {
    const projectSlug = await createTestProject();

    const slug = await createTestExperiment(projectSlug, { tags: ["s3", " gzip ", "", "s3"] });

    expect(slug).toBe("plain-vs-gzip");
    const { project, experiment } = await getExperiment(projectSlug, slug);
    expect(project.slug).toBe(projectSlug);
    expect(experiment).toMatchObject({
      slug: "plain-vs-gzip",
      title: "Plain vs Gzip",
      hypothesis: "Gzip makes uploads faster.",
      status: "draft",
      warmupRuns: 20,
      measuredRuns: 100,
      alpha: 0.05,
      tags: ["s3", "gzip"],
      parameters: [],
      isExample: false,
      runCount: 0,
    });
    expect(
      experiment.variants.map(({ name, description, isBaseline, position, config, runCount }) => ({
        name,
        description,
        isBaseline,
        position,
        config,
        runCount,
      })),
    ).toEqual([
      { name: "Plain", description: "raw payload", isBaseline: true, position: 0, config: {}, runCount: 0 },
      { name: "Gzip", description: "", isBaseline: false, position: 1, config: { workload: "s3-upload", settings: { compression: "gzip" } }, runCount: 0 },
      { name: "Zstd", description: "", isBaseline: false, position: 2, config: {}, runCount: 0 },
    ]);
    expect(
      experiment.metrics.map(({ key, label, unit, direction, aggregation, position }) => ({ key, label, unit, direction, aggregation, position })),
    ).toEqual([
      { key: "upload_latency_ms", label: "Upload latency", unit: "ms", direction: "lower_is_better", aggregation: "p95", position: 0 },
      { key: "payload_bytes", label: "Payload size", unit: "B", direction: "lower_is_better", aggregation: "mean", position: 1 },
    ]);
  });

  it("gives a second and third experiment with the same title the slugs -2 and -3", async () => {
    const projectSlug = await createTestProject();

    const slugs = [await createTestExperiment(projectSlug), await createTestExperiment(projectSlug), await createTestExperiment(projectSlug)];

    expect(slugs).toEqual(["plain-vs-gzip", "plain-vs-gzip-2", "plain-vs-gzip-3"]);
    expect((await countRows(projectSlug)).experiments).toBe(3);
  });

  it("derives valid, distinct slugs from a title cut at 64 characters", async () => {
    const projectSlug = await createTestProject();
    // slugify keeps 64 characters; the numbered copies must shorten that to fit, never leaving
    // a hyphen before their own (the 60th character here is the hyphen between the words).
    const title = `${"a".repeat(59)} ${"b".repeat(30)}`;

    const slugs = [
      await createTestExperiment(projectSlug, { title }),
      await createTestExperiment(projectSlug, { title }),
      await createTestExperiment(projectSlug, { title }),
    ];

    expect(slugs).toEqual([`${"a".repeat(59)}-bbbb`, `${"a".repeat(59)}-2`, `${"a".repeat(59)}-3`]);
    for (const slug of slugs) expect(slug.length).toBeLessThanOrEqual(64);
  });

  it("numbers further copies of a title cut at 64 characters instead of reporting a taken slug", async () => {
    const projectSlug = await createTestProject();
    // The copies are shortened to make room for "-2", so they no longer start with the full
    // 64-character slug; the search for taken slugs must still see them.
    const title = "a".repeat(80);

    const slugs = [];
    for (let copy = 0; copy < 4; copy++) slugs.push(await createTestExperiment(projectSlug, { title }));

    expect(slugs).toEqual(["a".repeat(64), `${"a".repeat(60)}-2`, `${"a".repeat(60)}-3`, `${"a".repeat(60)}-4`]);
  });

  it('falls back to "experiment" when the title yields no slug', async () => {
    const projectSlug = await createTestProject();

    expect(await createTestExperiment(projectSlug, { title: "!!!" })).toBe("experiment");
    expect(await createTestExperiment(projectSlug, { title: "???" })).toBe("experiment-2");
  });

  it("uses an explicit slug as given", async () => {
    const projectSlug = await createTestProject();

    expect(await createTestExperiment(projectSlug, { slug: "my-own-slug" })).toBe("my-own-slug");
  });

  it("refuses an explicit slug that is already taken: CONFLICT on the slug field, nothing written", async () => {
    const projectSlug = await createTestProject();
    await createTestExperiment(projectSlug, { slug: "taken" });
    const before = await countRows(projectSlug);

    const error = await expectTRPCError(
      caller.experiment.create({ projectSlug, experiment: buildExperimentValues({ title: "Another", slug: "taken" }) }),
      "CONFLICT",
    );

    expect(error.cause).toBeInstanceOf(AppError);
    expect((error.cause as AppError).fieldIssues).toEqual([{ path: ["slug"], message: expect.stringContaining('"taken" already exists') }]);
    expect(await countRows(projectSlug)).toEqual(before);
  });

  it("shows the browser a taken slug as a 409 with data.fieldIssues on the slug", async () => {
    const projectSlug = await createTestProject();
    await createTestExperiment(projectSlug, { slug: "taken" });

    const { status, error } = await httpMutationError("experiment.create", {
      projectSlug,
      experiment: buildExperimentValues({ title: "Another", slug: "taken" }),
    });

    expect(status).toBe(409);
    expect(error.data.code).toBe("CONFLICT");
    expect(error.data.httpStatus).toBe(409);
    expect(error.data.stack).toBeUndefined();
    expect(error.data.fieldIssues).toEqual([{ path: ["slug"], message: expect.stringContaining('"taken" already exists') }]);
    expect(error.message).toContain('"taken" already exists');
  });

  it("refuses an unknown project with NOT_FOUND", async () => {
    await expectTRPCError(caller.experiment.create({ projectSlug: `no-such-project-${uniqueSuffix()}`, experiment: buildExperimentValues() }), "NOT_FOUND");
  });
});

// The bad inputs the issue names, plus the NaN an empty number box sends. Each must be refused
// with BAD_REQUEST naming the field, by create and update alike, and change nothing.
const badInputs: { name: string; experiment: () => ExperimentValues; path: (string | number)[]; message: RegExp }[] = [
  { name: "an empty title", experiment: () => buildExperimentValues({ title: "   " }), path: ["title"], message: /title is required/ },
  {
    name: "zero baselines",
    experiment: () => buildExperimentValues({ variants: [buildVariant({ name: "A" }), buildVariant({ name: "B" })] }),
    path: ["variants"],
    message: /exactly one variant must be the baseline/,
  },
  {
    name: "two baselines",
    experiment: () => buildExperimentValues({ variants: [buildVariant({ name: "A", isBaseline: true }), buildVariant({ name: "B", isBaseline: true })] }),
    path: ["variants"],
    message: /exactly one variant must be the baseline/,
  },
  {
    name: "duplicate variant names",
    experiment: () => buildExperimentValues({ variants: [buildVariant({ name: "Gzip", isBaseline: true }), buildVariant({ name: "gzip" })] }),
    path: ["variants", 1, "name"],
    message: /duplicate variant name/,
  },
  {
    name: "a metric without unit",
    experiment: () => buildExperimentValues({ metrics: [{ key: "latency", direction: "lower_is_better" } as MetricValues] }),
    path: ["metrics", 0, "unit"],
    message: /unit is required/,
  },
  {
    name: "a metric without direction",
    experiment: () => buildExperimentValues({ metrics: [{ key: "latency", unit: "ms" } as MetricValues] }),
    path: ["metrics", 0, "direction"],
    message: /lower or higher is better/,
  },
  { name: "negative warm-up runs", experiment: () => buildExperimentValues({ warmupRuns: -1 }), path: ["warmupRuns"], message: /cannot be negative/ },
  { name: "negative measured runs", experiment: () => buildExperimentValues({ measuredRuns: -1 }), path: ["measuredRuns"], message: /at least 1/ },
  { name: "zero measured runs", experiment: () => buildExperimentValues({ measuredRuns: 0 }), path: ["measuredRuns"], message: /at least 1/ },
  {
    name: "an empty warm-up box (NaN)",
    experiment: () => buildExperimentValues({ warmupRuns: Number.NaN }),
    path: ["warmupRuns"],
    message: /warm-up runs must be a whole number/,
  },
];

describe("bad input", () => {
  describe.each(badInputs)("$name", ({ experiment, path, message }) => {
    const fieldPath = ["experiment", ...path];

    it("create → BAD_REQUEST naming the field, nothing written", async () => {
      const projectSlug = await createTestProject();
      await createTestExperiment(projectSlug);
      const before = await countRows(projectSlug);

      const error = await expectTRPCError(caller.experiment.create({ projectSlug, experiment: experiment() }), "BAD_REQUEST");

      expect(fieldIssuesOfError(error)).toContainEqual({ path: fieldPath, message: expect.stringMatching(message) });
      expect(await countRows(projectSlug)).toEqual(before);
    });

    it("create over HTTP → 400 with data.fieldIssues naming the field", async () => {
      const projectSlug = await createTestProject();

      const { status, error } = await httpMutationError("experiment.create", { projectSlug, experiment: experiment() });

      expect(status).toBe(400);
      expect(error.data.code).toBe("BAD_REQUEST");
      expect(error.data.fieldIssues).toContainEqual({ path: fieldPath, message: expect.stringMatching(message) });
      expect(error.message).toContain(`${fieldPath.join(".")}:`);
      expect(await countRows(projectSlug)).toEqual({ experiments: 0, variants: 0, metrics: 0, runs: 0 });
    });

    it("update → BAD_REQUEST naming the field, experiment unchanged", async () => {
      const projectSlug = await createTestProject();
      const experimentSlug = await createTestExperiment(projectSlug);
      const before = await getExperiment(projectSlug, experimentSlug);

      const error = await expectTRPCError(caller.experiment.update({ projectSlug, experimentSlug, experiment: experiment() }), "BAD_REQUEST");

      expect(fieldIssuesOfError(error)).toContainEqual({ path: fieldPath, message: expect.stringMatching(message) });
      expect(await getExperiment(projectSlug, experimentSlug)).toEqual(before);
    });
  });
});

describe("experiment.update", () => {
  /** A project with one fresh experiment (Plain baseline, Gzip, Zstd), read back. */
  async function setUp() {
    const projectSlug = await createTestProject();
    const experimentSlug = await createTestExperiment(projectSlug);
    return { projectSlug, experimentSlug, detail: await getExperiment(projectSlug, experimentSlug) };
  }

  async function update(projectSlug: string, experimentSlug: string, experiment: ExperimentValues) {
    return caller.experiment.update({ projectSlug, experimentSlug, experiment });
  }

  it("renames the experiment and changes its slug", async () => {
    const { projectSlug, experimentSlug, detail } = await setUp();

    const result = await update(projectSlug, experimentSlug, {
      ...editValuesOf(detail),
      title: "Gzip, revisited",
      slug: "gzip-revisited",
      hypothesis: "No faster after all.",
      status: "active",
      alpha: 0.01,
      tags: ["revisited"],
      parameters: [{ name: "payload", value: "50 KB" }],
    });

    expect(result).toEqual({ slug: "gzip-revisited" });
    const { experiment } = await getExperiment(projectSlug, "gzip-revisited");
    expect(experiment).toMatchObject({
      id: detail.experiment.id,
      title: "Gzip, revisited",
      hypothesis: "No faster after all.",
      status: "active",
      alpha: 0.01,
      tags: ["revisited"],
      parameters: [{ name: "payload", value: "50 KB" }],
    });
    await expectTRPCError(getExperiment(projectSlug, experimentSlug), "NOT_FOUND");
  });

  it("keeps the slug when the edit leaves it empty", async () => {
    const { projectSlug, experimentSlug, detail } = await setUp();

    const result = await update(projectSlug, experimentSlug, { ...editValuesOf(detail), slug: "", title: "Brand new title" });

    expect(result).toEqual({ slug: experimentSlug });
    expect((await getExperiment(projectSlug, experimentSlug)).experiment.title).toBe("Brand new title");
  });

  it("refuses a slug another experiment has: CONFLICT on the slug field, nothing changed", async () => {
    const { projectSlug, experimentSlug, detail } = await setUp();
    await createTestExperiment(projectSlug, { slug: "other" });

    const error = await expectTRPCError(update(projectSlug, experimentSlug, { ...editValuesOf(detail), title: "Renamed", slug: "other" }), "CONFLICT");

    expect(fieldIssuesOfError(error)).toEqual([{ path: ["slug"], message: expect.stringContaining('"other" already exists') }]);
    expect(await getExperiment(projectSlug, experimentSlug)).toEqual(detail);
  });

  it("adds a variant, keeping the existing rows", async () => {
    const { projectSlug, experimentSlug, detail } = await setUp();
    const values = editValuesOf(detail);

    await update(projectSlug, experimentSlug, { ...values, variants: [...values.variants, buildVariant({ name: "Brotli", description: "br" })] });

    const { experiment } = await getExperiment(projectSlug, experimentSlug);
    expect(experiment.variants.map((v) => [v.name, v.position, v.isBaseline])).toEqual([
      ["Plain", 0, true],
      ["Gzip", 1, false],
      ["Zstd", 2, false],
      ["Brotli", 3, false],
    ]);
    expect(experiment.variants.slice(0, 3).map((v) => v.id)).toEqual(detail.experiment.variants.map((v) => v.id));
    expect(experiment.variants[3]!.description).toBe("br");
  });

  it("removes a variant that has no runs", async () => {
    const { projectSlug, experimentSlug, detail } = await setUp();
    const values = editValuesOf(detail);
    const zstd = variantNamed(detail, "Zstd");

    await update(projectSlug, experimentSlug, { ...values, variants: values.variants.filter((v) => v.id !== zstd.id) });

    const { experiment } = await getExperiment(projectSlug, experimentSlug);
    expect(experiment.variants.map((v) => v.name)).toEqual(["Plain", "Gzip"]);
    expect(await db.variant.findUnique({ where: { id: zstd.id } })).toBeNull();
  });

  it("moves the baseline to another variant", async () => {
    const { projectSlug, experimentSlug, detail } = await setUp();
    const values = editValuesOf(detail);

    await update(projectSlug, experimentSlug, { ...values, variants: values.variants.map((v) => ({ ...v, isBaseline: v.name === "Gzip" })) });

    const { experiment } = await getExperiment(projectSlug, experimentSlug);
    expect(experiment.variants.map((v) => [v.name, v.isBaseline])).toEqual([
      ["Plain", false],
      ["Gzip", true],
      ["Zstd", false],
    ]);
  });

  it("swaps two variant names (A↔B) and reorders in one edit", async () => {
    const { projectSlug, experimentSlug, detail } = await setUp();
    const values = editValuesOf(detail);
    const [plain, gzip, zstd] = values.variants as [VariantValues, VariantValues, VariantValues];

    await update(projectSlug, experimentSlug, {
      ...values,
      variants: [{ ...zstd }, { ...plain, name: "Gzip" }, { ...gzip, name: "Plain" }],
    });

    const { experiment } = await getExperiment(projectSlug, experimentSlug);
    expect(experiment.variants.map((v) => [v.id, v.name, v.position, v.isBaseline])).toEqual([
      [zstd.id, "Zstd", 0, false],
      [plain.id, "Gzip", 1, true],
      [gzip.id, "Plain", 2, false],
    ]);
  });

  it("edits, swaps, removes and adds metrics", async () => {
    const { projectSlug, experimentSlug, detail } = await setUp();
    const values = editValuesOf(detail);
    const [latency, bytes] = values.metrics as [MetricValues, MetricValues];

    await update(projectSlug, experimentSlug, {
      ...values,
      metrics: [
        // The two keys trade places (a swap), and the first one's other fields change too.
        { ...latency, key: "payload_bytes", label: "Bytes sent", unit: "KiB", direction: "higher_is_better", aggregation: "median" },
        { ...bytes, key: "upload_latency_ms" },
        buildMetric({ key: "throughput", label: "Throughput", unit: "req/s", direction: "higher_is_better", aggregation: "rate" }),
      ],
    });
    let { experiment } = await getExperiment(projectSlug, experimentSlug);
    expect(
      experiment.metrics.map(({ id, key, label, unit, direction, aggregation, position }) => ({ id, key, label, unit, direction, aggregation, position })),
    ).toEqual([
      { id: latency.id, key: "payload_bytes", label: "Bytes sent", unit: "KiB", direction: "higher_is_better", aggregation: "median", position: 0 },
      { id: bytes.id, key: "upload_latency_ms", label: "Payload size", unit: "B", direction: "lower_is_better", aggregation: "mean", position: 1 },
      { id: expect.any(String), key: "throughput", label: "Throughput", unit: "req/s", direction: "higher_is_better", aggregation: "rate", position: 2 },
    ]);

    // Remove one that has no results.
    const afterFirstEdit = editValuesOf(await getExperiment(projectSlug, experimentSlug));
    await update(projectSlug, experimentSlug, { ...afterFirstEdit, metrics: afterFirstEdit.metrics.filter((m) => m.key !== "upload_latency_ms") });
    ({ experiment } = await getExperiment(projectSlug, experimentSlug));
    expect(experiment.metrics.map((m) => [m.key, m.position])).toEqual([
      ["payload_bytes", 0],
      ["throughput", 1],
    ]);
    expect(await db.metric.findUnique({ where: { id: bytes.id! } })).toBeNull();
  });

  it("refuses to remove a variant that has a run: CONFLICT, nothing changed", async () => {
    const { projectSlug, experimentSlug } = await setUp();
    await insertRun(await getExperiment(projectSlug, experimentSlug), "Zstd");
    const before = await getExperiment(projectSlug, experimentSlug);
    const values = editValuesOf(before);

    const error = await expectTRPCError(
      update(projectSlug, experimentSlug, {
        ...values,
        title: "Should not stick",
        variants: values.variants.filter((v) => v.name !== "Zstd").map((v) => ({ ...v, isBaseline: v.name === "Gzip" })),
      }),
      "CONFLICT",
    );

    expect(error.message).toContain('variant "Zstd" has 1 run');
    expect(await getExperiment(projectSlug, experimentSlug)).toEqual(before);
    expect(variantNamed(before, "Zstd").runCount).toBe(1);
  });

  it("refuses to remove a metric that has stored results: CONFLICT, nothing changed", async () => {
    const { projectSlug, experimentSlug, detail } = await setUp();
    const run = await insertRun(detail, "Plain");
    const latency = detail.experiment.metrics[0]!;
    await db.runMetricResult.create({ data: { runId: run.id, metricId: latency.id, n: 100n, mean: 12.5, min: 10, max: 20 } });
    const before = await getExperiment(projectSlug, experimentSlug);
    const values = editValuesOf(before);

    const error = await expectTRPCError(
      update(projectSlug, experimentSlug, { ...values, metrics: values.metrics.filter((m) => m.id !== latency.id) }),
      "CONFLICT",
    );

    expect(error.message).toContain(`metric "${latency.key}" has 1 stored result`);
    expect(await getExperiment(projectSlug, experimentSlug)).toEqual(before);
  });

  it("refuses a variant id from another experiment: BAD_REQUEST on that variant's id, nothing changed", async () => {
    const { projectSlug, experimentSlug, detail } = await setUp();
    const otherSlug = await createTestExperiment(projectSlug, { title: "Other experiment" });
    const foreign = (await getExperiment(projectSlug, otherSlug)).experiment.variants[1]!;
    const values = editValuesOf(detail);

    const error = await expectTRPCError(
      update(projectSlug, experimentSlug, {
        ...values,
        title: "Should not stick",
        variants: [...values.variants, { id: foreign.id, name: "Stolen", isBaseline: false }],
      }),
      "BAD_REQUEST",
    );

    expect(fieldIssuesOfError(error)).toEqual([{ path: ["variants", 3, "id"], message: "not part of this experiment" }]);
    expect(await getExperiment(projectSlug, experimentSlug)).toEqual(detail);
    expect(await db.variant.findUnique({ where: { id: foreign.id }, select: { name: true, experimentId: true } })).toEqual({
      name: foreign.name,
      experimentId: foreign.experimentId,
    });
  });

  it("refuses the same variant id twice", async () => {
    const { projectSlug, experimentSlug, detail } = await setUp();
    const values = editValuesOf(detail);
    const [plain, gzip] = values.variants as [VariantValues, VariantValues];

    const error = await expectTRPCError(
      update(projectSlug, experimentSlug, { ...values, variants: [plain, gzip, { ...gzip, name: "Gzip again" }] }),
      "BAD_REQUEST",
    );

    expect(fieldIssuesOfError(error)).toEqual([{ path: ["variants", 2, "id"], message: "not part of this experiment" }]);
    expect(await getExperiment(projectSlug, experimentSlug)).toEqual(detail);
  });

  it("refuses an unknown experiment or project with NOT_FOUND", async () => {
    const { projectSlug, detail } = await setUp();
    const values = editValuesOf(detail);

    await expectTRPCError(update(projectSlug, "no-such-experiment", values), "NOT_FOUND");
    await expectTRPCError(update(`no-such-project-${uniqueSuffix()}`, detail.experiment.slug, values), "NOT_FOUND");
  });
});

describe("experiment.get and experiment.list", () => {
  it("lists a project's experiments with their variants and counts", async () => {
    const projectSlug = await createTestProject();
    const first = await createTestExperiment(projectSlug, { title: "First" });
    const second = await createTestExperiment(projectSlug, { title: "Second" });
    await insertRun(await getExperiment(projectSlug, second), "Gzip");

    const { project, experiments } = await caller.experiment.list({ projectSlug });

    expect(project.slug).toBe(projectSlug);
    expect(experiments.map((e) => e.slug).sort()).toEqual([first, second].sort());
    expect(experiments.find((e) => e.slug === second)).toMatchObject({
      title: "Second",
      metricCount: 2,
      runCount: 1,
      variants: [
        { name: "Plain", isBaseline: true },
        { name: "Gzip", isBaseline: false },
        { name: "Zstd", isBaseline: false },
      ],
    });
  });

  it("reads an experiment with its variants and metrics in one statement, each typed as Prisma reads its row", async () => {
    const projectSlug = await createTestProject();
    const slug = await createTestExperiment(projectSlug);
    const detail = await getExperiment(projectSlug, slug);
    await insertRun(detail, "Gzip");
    await insertRun(detail, "Zstd");
    // A page's reads share one connection, where every statement is a round trip of its own.
    const statements = vi.spyOn(poolOf(db), "query");
    const { experiment } = await readExperiment(db, projectSlug, slug);
    expect(statements).toHaveBeenCalledTimes(1);
    statements.mockRestore();

    const variants = await db.variant.findMany({ where: { experimentId: experiment.id }, orderBy: { position: "asc" } });
    const runCounts = { Plain: 0, Gzip: 1, Zstd: 1 };
    expect(experiment.variants).toEqual(variants.map((variant) => ({ ...variant, runCount: runCounts[variant.name as keyof typeof runCounts] })));
    expect(typeof experiment.variants[1]?.runsVersion).toBe("bigint");
    const metrics = await db.metric.findMany({ where: { experimentId: experiment.id }, orderBy: { position: "asc" } });
    expect(experiment.metrics).toEqual(metrics.map((metric) => ({ ...metric, summaryFigure: expect.any(String) })));
    expect(experiment.metrics[0]?.createdAt).toBeInstanceOf(Date);
    expect(experiment.runCount).toBe(2);
  });

  it("lists nothing for a project without experiments", async () => {
    const projectSlug = await createTestProject();

    expect((await caller.experiment.list({ projectSlug })).experiments).toEqual([]);
  });

  it("answers NOT_FOUND for an unknown project or experiment", async () => {
    const projectSlug = await createTestProject();
    const unknownProject = `no-such-project-${uniqueSuffix()}`;

    await expectTRPCError(caller.experiment.list({ projectSlug: unknownProject }), "NOT_FOUND");
    await expectTRPCError(getExperiment(unknownProject, "anything"), "NOT_FOUND");
    const error = await expectTRPCError(getExperiment(projectSlug, "no-such-experiment"), "NOT_FOUND");
    expect(error.message).toBe(`No experiment "no-such-experiment" in project "${projectSlug}"`);
  });

  it("refuses a malformed slug in the reference with BAD_REQUEST", async () => {
    const error = await expectTRPCError(caller.experiment.get({ projectSlug: "Has Spaces", experimentSlug: "x" }), "BAD_REQUEST");

    expect(fieldIssuesOfError(error).map((issue) => issue.path)).toEqual([["projectSlug"]]);
  });
});

describe("experiment.delete", () => {
  it("deletes the experiment with its variants, metrics, runs and results", async () => {
    const projectSlug = await createTestProject();
    const experimentSlug = await createTestExperiment(projectSlug);
    const keptSlug = await createTestExperiment(projectSlug, { title: "Kept" });
    const detail = await getExperiment(projectSlug, experimentSlug);
    const run = await insertRun(detail, "Gzip");
    await db.runMetricResult.create({ data: { runId: run.id, metricId: detail.experiment.metrics[0]!.id, n: 10n, mean: 1, min: 1, max: 1 } });
    const experimentId = detail.experiment.id;

    await caller.experiment.delete({ projectSlug, experimentSlug });

    await expectTRPCError(getExperiment(projectSlug, experimentSlug), "NOT_FOUND");
    expect(
      await Promise.all([
        db.experiment.count({ where: { id: experimentId } }),
        db.variant.count({ where: { experimentId } }),
        db.metric.count({ where: { experimentId } }),
        db.run.count({ where: { experimentId } }),
        db.runMetricResult.count({ where: { runId: run.id } }),
      ]),
    ).toEqual([0, 0, 0, 0, 0]);
    // The other experiment of the project is untouched.
    expect((await getExperiment(projectSlug, keptSlug)).experiment.variants).toHaveLength(3);
    expect(await countRows(projectSlug)).toEqual({ experiments: 1, variants: 3, metrics: 2, runs: 0 });
  });

  it("answers NOT_FOUND for an unknown experiment", async () => {
    const projectSlug = await createTestProject();

    await expectTRPCError(caller.experiment.delete({ projectSlug, experimentSlug: "no-such-experiment" }), "NOT_FOUND");
  });
});

describe("the database itself", () => {
  // Services validate first; these prove the schema holds even when a service forgets to.

  it("refuses an experiment created with no baseline variant, at commit", async () => {
    const projectSlug = await createTestProject();
    const project = await db.project.findUniqueOrThrow({ where: { slug: projectSlug } });
    const slug = `no-baseline-${uniqueSuffix()}`;

    await expect(
      db.$transaction(async (tx) =>
        tx.experiment.create({
          data: {
            projectId: project.id,
            slug,
            title: "No baseline",
            variants: {
              create: [
                { name: "A", isBaseline: false, position: 0 },
                { name: "B", isBaseline: false, position: 1 },
              ],
            },
          },
        }),
      ),
    ).rejects.toThrow(/baseline/);

    expect(await db.experiment.findUnique({ where: { projectId_slug: { projectId: project.id, slug } } })).toBeNull();
    expect(await countRows(projectSlug)).toEqual({ experiments: 0, variants: 0, metrics: 0, runs: 0 });
  });

  it("refuses taking the baseline flag away from the only baseline", async () => {
    const projectSlug = await createTestProject();
    const detail = await getExperiment(projectSlug, await createTestExperiment(projectSlug));
    const plain = variantNamed(detail, "Plain");

    await expect(db.variant.update({ where: { id: plain.id }, data: { isBaseline: false } })).rejects.toThrow(/baseline/);

    expect((await db.variant.findUniqueOrThrow({ where: { id: plain.id } })).isBaseline).toBe(true);
  });

  it("refuses a second baseline", async () => {
    const projectSlug = await createTestProject();
    const detail = await getExperiment(projectSlug, await createTestExperiment(projectSlug));

    await expect(db.variant.update({ where: { id: variantNamed(detail, "Gzip").id }, data: { isBaseline: true } })).rejects.toThrow();

    expect(await db.variant.count({ where: { experimentId: detail.experiment.id, isBaseline: true } })).toBe(1);
  });
});
