// A history to show the history page and its change points on a fresh installation: 300 commits
// on main of a service whose CI compresses a 50 KB payload three times per commit. Two commits
// move the level: commit 120 raises the gzip level from 6 to 9 (+8% compress time, a little
// smaller output), commit 220 reuses the deflate state between payloads (−5% compress time).
// Everything else is noise: 2% run-to-run, a slow ±1% drift of the CI machines, and now and then
// a run on a busy neighbour (+10–25%), the kind of outlier medians shrug off. Seeded: the same
// numbers, messages and times on every installation.
import { defineExperiment, EXAMPLE_TAG, toUpload, type ExampleExperiment } from "./common";
import { seededRandom } from "./random";

export const HISTORY_SEED = 10;
export const HISTORY_COMMITS = 300;
export const RUNS_PER_COMMIT = 3;
/** Index of the first commit of each new level, and the change it brings to compress time. */
export const HISTORY_SHIFTS = [
  { commit: 120, timeFactor: 1.08, bytesFactor: 0.985, message: "Raise gzip level from 6 to 9 for smaller artifacts" },
  { commit: 220, timeFactor: 0.95, bytesFactor: 1, message: "Reuse the deflate state between payloads" },
] as const;
const BASE_TIME_US = 1840;
const BASE_BYTES = 12_480;
/** First commit's time; one commit every 4–16 hours after it. */
const START = Date.UTC(2026, 5, 1, 9, 0);

const SUBJECTS = [
  "Update dependencies",
  "Fix flaky upload retry test",
  "Log the request id on upload errors",
  "Refactor payload builder",
  "Add metrics for queue depth",
  "Document the upload API",
  "Tidy error messages",
  "Bump Go toolchain",
  "Handle empty payloads",
  "Rename config keys for clarity",
  "Cache the bucket region",
  "Add integration test for multipart uploads",
  "Remove dead code in the uploader",
  "Tune connection pool size",
  "Fix typo in README",
  "Validate content types earlier",
];

const definition = defineExperiment({
  title: "Gzip compress time over 300 commits",
  slug: "gzip-history",
  hypothesis: "Compressing the 50 KB upload payload stays under 2 ms per payload as the service changes.",
  description: [
    "**A history.** CI benchmarks every commit on `main`: three runs, each compressing the same 50 KB HTML-like payload " +
      "200 times and reporting the mean time per payload and the compressed size. Open **History** to see each metric " +
      "over the 300 commits: the median of each commit's runs with its confidence interval, every run as a dot, and the " +
      "change points Versus found (E-Divisive means over the commit medians, permutation test at p ≤ 0.01).",
    "Two commits changed the level: *Raise gzip level from 6 to 9* (compress time +8%, output 1.5% smaller) and " +
      "*Reuse the deflate state between payloads* (compress time −5%). Everything else is noise: 2% between runs, a slow " +
      "drift of the CI machines and an occasional run on a busy neighbour. Acknowledge or dismiss a change point from the " +
      "history page.",
    "---\n\n**Example data.** Versus loaded this history on first start, through the same ingest service as real uploads. " +
      `The numbers, commit messages and times are synthetic (generator mulberry32, seed ${HISTORY_SEED}). Delete the ` +
      "*Examples* project (or this experiment) any time; it does not come back.",
  ].join("\n\n"),
  environmentNotes: "CI runner, 4 vCPU; Go 1.26 compress/gzip; 3 runs per commit on main.",
  status: "active",
  parameters: [
    { name: "payload", value: "50 KB HTML-like text" },
    { name: "runs per commit", value: String(RUNS_PER_COMMIT) },
  ],
  warmupRuns: 0,
  measuredRuns: RUNS_PER_COMMIT,
  tags: ["gzip", "history", "example"],
  variants: [{ name: "gzip", description: "The service's upload path with gzip", isBaseline: true }],
  metrics: [
    { key: "compress_time", label: "Compress time per payload", unit: "us", direction: "lower_is_better", aggregation: "mean" },
    { key: "compressed_bytes", label: "Compressed size", unit: "B", direction: "lower_is_better", aggregation: "mean" },
  ],
});

/** A SHA-1-looking hex id from the seeded stream (40 hex digits). */
function fakeSha(next: () => number): string {
  let sha = "";
  for (let i = 0; i < 5; i++)
    sha += Math.floor(next() * 2 ** 32)
      .toString(16)
      .padStart(8, "0");
  return sha;
}

function results() {
  const random = seededRandom(HISTORY_SEED);
  const runs = [];
  let time = START;
  let timeFactor = 1;
  let bytesFactor = 1;
  for (let c = 0; c < HISTORY_COMMITS; c++) {
    const shift = HISTORY_SHIFTS.find((s) => s.commit === c);
    if (shift) {
      timeFactor *= shift.timeFactor;
      bytesFactor *= shift.bytesFactor;
    }
    const sha = fakeSha(random.uniform);
    const message = shift?.message ?? (SUBJECTS[Math.floor(random.uniform() * SUBJECTS.length)] as string);
    // The CI machines drift slowly (±1% over ~60 commits), the same for every run of a commit.
    const drift = 1 + 0.01 * Math.sin((2 * Math.PI * c) / 60);
    // Payload content edits move the compressed size by a few bytes.
    const bytes = Math.round(BASE_BYTES * bytesFactor * (1 + 0.001 * random.normal()));
    for (let r = 0; r < RUNS_PER_COMMIT; r++) {
      const busyNeighbour = random.uniform() < 0.03 ? random.between(1.1, 1.25) : 1;
      const micros = BASE_TIME_US * timeFactor * drift * busyNeighbour * (1 + 0.02 * random.normal());
      const startedAt = new Date(time + 15 * 60_000 + r * 90_000);
      runs.push({
        variant: "gzip",
        startedAt: startedAt.toISOString(),
        finishedAt: new Date(startedAt.getTime() + 60_000).toISOString(),
        gitCommit: sha,
        gitBranch: "main",
        gitCommitMessage: message,
        gitCommitTime: new Date(time).toISOString(),
        tags: [EXAMPLE_TAG],
        sourceDetail: `synthetic history (mulberry32, seed ${HISTORY_SEED})`,
        environment: { runner: "ci-4vcpu", go: "1.26" },
        metrics: [
          { key: "compress_time", summary: { n: 200, mean: Math.round(micros * 10) / 10 } },
          { key: "compressed_bytes", summary: { n: 200, mean: bytes } },
        ],
      });
    }
    time += Math.round(random.between(4, 16) * 3_600_000);
  }
  return toUpload({ experiment: definition.slug, create: false, runs });
}

export const gzipHistory: ExampleExperiment = { definition, results };
