// docs/examples.md case 4 — an nGrinder load test, two changes: a Redis cache in front of the product list,
// and the coupon API scaled from one server to two behind nginx. Two experiments, one per change.
//
// The write-up printed TPS figures (average and peak; for the coupon API a range), an error count
// and CPU remarks. Each test is one run per variant with a synthetic per-second series (300 s —
// the duration was not published) reproducing those figures exactly: average and peak TPS for the
// product list, the lowest and highest TPS for the coupon API. The per-second values are also sent
// as the run's samples, so the comparison can weigh the two runs' seconds against each other (as
// weak evidence: seconds of one run are not independent). Metric keys and units are those of
// Versus's nGrinder importer (tps in ops/s, errors as a count), so a real nGrinder CSV uploaded to
// these experiments lines up with the examples.
import { defineExperiment, EXAMPLE_TAG, exampleFooter, PUBLISHED, SYNTHETIC, toUpload, type ExampleExperiment } from "./common";
import { seededRandom } from "./random";
import { seriesInRange, seriesWithMeanAndMax, seriesWithSum } from "./synthetic";

export const CACHE_SCALE_OUT_SEED = 4;
const SECONDS = 300;

export const productListPublished = {
  "No cache": { tpsAvg: 662, tpsPeak: 921, errors: 2_674 },
  "Redis cache": { tpsAvg: 1_124, tpsPeak: 1_547, errors: 0, cpuPercent: 100 },
} as const;

export const couponPublished = {
  "One server": { tpsMin: 400, tpsMax: 538 },
  "Two servers + nginx": { tpsMin: 450, tpsMax: 667 },
} as const;
/** Assumed levels: the write-up said only that CPU per server was "roughly halved". */
const COUPON_CPU = { "One server": 70, "Two servers + nginx": 35 } as const;

const tpsMetric = { key: "tps", label: "TPS (per second; max = peak)", unit: "ops/s", direction: "higher_is_better", aggregation: "mean" } as const;
const peakMetric = { key: "peak_tps", label: "Peak TPS", unit: "ops/s", direction: "higher_is_better", aggregation: "max" } as const;
const environment = (extra: Record<string, unknown>) => ({
  loadTool: "nGrinder",
  durationS: SECONDS,
  ...extra,
  syntheticSeries: `mulberry32 seed ${CACHE_SCALE_OUT_SEED}`,
});

const productList = defineExperiment({
  title: "Product list: Redis cache",
  slug: "product-list-redis-cache",
  hypothesis: "Caching the product list in Redis raises the throughput the API sustains and removes the errors under load.",
  description: [
    "An nGrinder load test against the product list API, before and after putting a Redis cache in front of the database query.",
    "| | average TPS | peak TPS | errors | CPU |\n|---|---|---|---|---|\n" +
      "| No cache | 662 | 921 | 2,674 | — |\n" +
      "| Redis cache | 1,124 (+~70%) | 1,547 | 0 | 100% |",
    "**What the authors concluded:** the cache raised average TPS by about 70% and removed the errors; the application " +
      "server's CPU was then at 100%, so the next limit is the server itself — which led to the coupon API's scale-out " +
      "(the *Coupon API* example).",
    "**What Versus adds:** one test per variant is one run each, so the TPS verdict compares the seconds of the two runs " +
      "and is labelled weak evidence. The CPU before the cache was not published, so CPU has no comparison.",
    exampleFooter(
      `The per-second TPS series are synthetic: ${SECONDS} s (the test length was not published) whose average and peak ` +
        "are exactly the published ones; the CPU series after the change is flat at the published 100%. Errors and peak " +
        `TPS are the published figures. Generator mulberry32, seed ${CACHE_SCALE_OUT_SEED} (shared with the Coupon API example, drawn before it).`,
    ),
  ].join("\n\n"),
  environmentNotes: "nGrinder load test; application server with Redis as the cache in front of the database.",
  status: "completed",
  parameters: [
    { name: "load tool", value: "nGrinder" },
    { name: "endpoint", value: "product list API" },
  ],
  warmupRuns: 0,
  measuredRuns: 1,
  tags: ["cache", "redis", "load-test", "example"],
  variants: [
    { name: "No cache", description: "every request queries the database", isBaseline: true },
    { name: "Redis cache", description: "the product list is served from Redis", isBaseline: false },
  ],
  metrics: [
    tpsMetric,
    peakMetric,
    { key: "errors", label: "Errors (total)", unit: "count", direction: "lower_is_better", aggregation: "sum" },
    { key: "cpu_percent", label: "Application server CPU", unit: "%", direction: "lower_is_better", aggregation: "mean" },
  ],
});

const coupon = defineExperiment({
  title: "Coupon API: one server → two behind nginx",
  slug: "coupon-api-scale-out",
  hypothesis: "Running the coupon API on two servers behind nginx raises TPS and halves the CPU load per server.",
  description: [
    "The same nGrinder load test against the coupon API, on one application server and then on two behind an nginx load balancer.",
    "| | TPS range | CPU per server |\n|---|---|---|\n" + "| One server | ~400–538 | — |\n" + "| Two servers + nginx | ~450–667 | roughly halved |",
    "**What the authors concluded:** the second server raised TPS and roughly halved the CPU of each server. The errors " +
      "that remained were legitimate 400 responses (unknown or duplicate coupons), not failures — so the error count is " +
      "not compared here.",
    "**What Versus adds:** as in the product list example, one test per variant means the verdicts compare seconds within " +
      "the two runs and are labelled weak evidence.",
    exampleFooter(
      `The per-second series are synthetic: ${SECONDS} s whose lowest and highest TPS are exactly the published range. ` +
        `CPU levels are assumed (${COUPON_CPU["One server"]}% → ${COUPON_CPU["Two servers + nginx"]}% per server) to show ` +
        `"roughly halved". Generator mulberry32, seed ${CACHE_SCALE_OUT_SEED} (continuing after the product list example).`,
    ),
  ].join("\n\n"),
  environmentNotes: "nGrinder load test; coupon API on one application server, then on two behind nginx.",
  status: "completed",
  parameters: [
    { name: "load tool", value: "nGrinder" },
    { name: "endpoint", value: "coupon API" },
  ],
  warmupRuns: 0,
  measuredRuns: 1,
  tags: ["scale-out", "nginx", "load-test", "example"],
  variants: [
    { name: "One server", description: "a single application server", isBaseline: true },
    { name: "Two servers + nginx", description: "two application servers behind an nginx load balancer", isBaseline: false },
  ],
  metrics: [tpsMetric, peakMetric, { key: "cpu_percent", label: "CPU per application server", unit: "%", direction: "lower_is_better", aggregation: "mean" }],
});

/** Per-second values as both the run's samples and its time series. */
const perSecond = (values: number[]) => ({ samples: values, timeSeries: { intervalMs: 1000, values } });

/** Both experiments draw from one stream, product list first: the results are built together. */
function buildResults() {
  const random = seededRandom(CACHE_SCALE_OUT_SEED);
  const productRuns = (["No cache", "Redis cache"] as const).map((variant) => {
    const p = productListPublished[variant];
    const tps = seriesWithMeanAndMax(random, { n: SECONDS, mean: p.tpsAvg, max: p.tpsPeak, floor: p.tpsAvg / 3, sigma: 0.12, phi: 0.7, decimals: 0 });
    const cpu =
      "cpuPercent" in p ? [{ key: "cpu_percent", timeSeries: { intervalMs: 1000, values: Array.from({ length: SECONDS }, () => p.cpuPercent) } }] : [];
    return {
      variant,
      sourceDetail: `${SYNTHETIC} (seed ${CACHE_SCALE_OUT_SEED}): per-second TPS${cpu.length ? " and CPU" : ""}; peak TPS and errors ${PUBLISHED}`,
      tags: [EXAMPLE_TAG],
      environment: environment({ endpoint: "product list" }),
      metrics: [
        { key: "tps", ...perSecond(tps) },
        { key: "peak_tps", summary: { n: 1, mean: p.tpsPeak, max: p.tpsPeak } },
        { key: "errors", summary: { n: 1, mean: p.errors, sum: p.errors } },
        ...cpu,
      ],
    };
  });
  const couponRuns = (["One server", "Two servers + nginx"] as const).map((variant) => {
    const p = couponPublished[variant];
    const tps = seriesInRange(random, { n: SECONDS, min: p.tpsMin, max: p.tpsMax, sigma: 0.1, phi: 0.7, decimals: 0 });
    const cpu = seriesWithSum(random, { n: SECONDS, total: COUPON_CPU[variant] * SECONDS, sigma: 0.08, phi: 0.7, decimals: 1 });
    return {
      variant,
      sourceDetail: `${SYNTHETIC} (seed ${CACHE_SCALE_OUT_SEED}): per-second TPS within the published range; CPU levels assumed`,
      tags: [EXAMPLE_TAG],
      environment: environment({ endpoint: "coupon", applicationServers: variant === "One server" ? 1 : 2 }),
      metrics: [
        { key: "tps", ...perSecond(tps) },
        { key: "peak_tps", summary: { n: 1, mean: p.tpsMax, max: p.tpsMax } },
        { key: "cpu_percent", ...perSecond(cpu) },
      ],
    };
  });
  return {
    productList: toUpload({ experiment: productList.slug, runs: productRuns }),
    coupon: toUpload({ experiment: coupon.slug, runs: couponRuns }),
  };
}

export const productListCache: ExampleExperiment = { definition: productList, results: () => buildResults().productList };
export const couponScaleOut: ExampleExperiment = { definition: coupon, results: () => buildResults().coupon };
