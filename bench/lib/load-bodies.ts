// Request bodies for the load benchmark (bench/load.ts): each call makes a new upload whose runs
// differ from every other upload's, so a run stored twice shows up as two runs with equal
// content. Three shapes, as real clients send them: Versus's own results JSON with raw samples,
// `go test -bench -count=5` text and `hyperfine --export-json` output.
import { mulberry32 } from "../../server/stats/prng";
import { latencySamples } from "./samples";

export interface UploadBody {
  /** Path and query, e.g. "/api/v1/imports?format=gobench&experiment=…". */
  path: string;
  contentType: string;
  body: string;
  /** Runs the server must store for it, each with this many metric results. */
  runs: number;
  metricsPerRun: number;
}

/** Experiments the uploads go to: the checks afterwards look at exactly these. */
export const RESULTS_EXPERIMENTS = ["load-results-0", "load-results-1", "load-results-2", "load-results-3"];
export const GOBENCH_EXPERIMENT = "load-gobench";
export const HYPERFINE_EXPERIMENT = "load-hyperfine";
export const UPLOAD_EXPERIMENTS = [...RESULTS_EXPERIMENTS, GOBENCH_EXPERIMENT, HYPERFINE_EXPERIMENT];

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * POST /api/v1/results: two runs (the baseline and one candidate), each with 100–1000 latency
 * samples, as many throughput samples, and a summary-only allocation metric.
 */
export function resultsUpload(index: number, experiment = RESULTS_EXPERIMENTS[index % RESULTS_EXPERIMENTS.length] as string): UploadBody {
  const random = mulberry32(index + 1);
  const candidate = ["candidate-a", "candidate-b", "candidate-c"][index % 3] as string;
  const runs = ["baseline", candidate].map((variant, r) => {
    const count = 100 + Math.floor(random() * 901);
    const latency = latencySamples(count, index * 2 + r + 1);
    return {
      variant,
      tags: [`load-${index}`],
      environment: { host: `ci-runner-${index % 17}`, cpu: "2 vCPU", runtime: "node 20" },
      metrics: [
        { key: "latency_ms", unit: "ms", direction: "lower_is_better", samples: Array.from(latency) },
        { key: "throughput", unit: "ops/s", direction: "higher_is_better", samples: Array.from(latency, (ms) => round3(1000 / ms)) },
        {
          key: "alloc_bytes",
          unit: "B",
          direction: "lower_is_better",
          aggregation: "median",
          summary: { n: count, mean: round3(4096 + random() * 512), p50: 4096 },
        },
      ],
    };
  });
  return {
    path: "/api/v1/results",
    contentType: "application/json",
    body: JSON.stringify({ experiment, create: true, runs }),
    runs: runs.length,
    metricsPerRun: 3,
  };
}

/** Every other import is `go test -bench` text, the others hyperfine JSON. */
export const importUpload = (index: number): UploadBody => (index % 2 ? hyperfineImport(index) : gobenchImport(index));

/** POST /api/v1/imports?format=gobench: 2 benchmarks × `-count=5` lines, each line a run. */
export function gobenchImport(index: number): UploadBody {
  const random = mulberry32(index + 1_000_003);
  const lines: string[] = ["goos: linux", "goarch: amd64", "pkg: example.com/codec", "cpu: AMD EPYC 7B13"];
  for (const [b, name] of ["BenchmarkEncode/size=1024-2", "BenchmarkDecode/size=1024-2"].entries()) {
    for (let line = 0; line < 5; line++) {
      // The iteration count is unique per upload and line, so equal runs can only be duplicates.
      const iterations = 400_000 + index * 10 + b * 5 + line;
      const nsPerOp = (b ? 2100 : 3000) * (0.95 + random() * 0.1);
      lines.push(
        `${name.padEnd(32)}\t${String(iterations).padStart(8)}\t${nsPerOp.toFixed(1).padStart(10)} ns/op\t${(1024_000 / nsPerOp).toFixed(2).padStart(8)} MB/s\t    4096 B/op\t       2 allocs/op`,
      );
    }
  }
  lines.push("PASS", `ok  \texample.com/codec\t${(10 + random() * 5).toFixed(3)}s`, "");
  // ns/op, MB/s, B/op and allocs/op.
  return {
    path: `/api/v1/imports?format=gobench&experiment=${GOBENCH_EXPERIMENT}&create=true`,
    contentType: "text/plain",
    body: lines.join("\n"),
    runs: 10,
    metricsPerRun: 4,
  };
}

/** POST /api/v1/imports?format=hyperfine: 2 commands with 100–400 timings each, one run per command (wall_time, user_s, system_s). */
export function hyperfineImport(index: number): UploadBody {
  const random = mulberry32(index + 2_000_003);
  const results = ["gzip -1 corpus.tar", "gzip -6 corpus.tar"].map((command, c) => {
    const count = 100 + Math.floor(random() * 301);
    const times = Array.from(latencySamples(count, 3_000_000 + index * 2 + c), (ms) => (ms * (c ? 1.8 : 1)) / 1000);
    const sorted = [...times].sort((a, b) => a - b);
    const mean = times.reduce((s, t) => s + t, 0) / count;
    const stddev = Math.sqrt(times.reduce((s, t) => s + (t - mean) ** 2, 0) / (count - 1));
    return {
      command,
      mean,
      stddev,
      median: sorted[Math.floor(count / 2)],
      user: mean * 0.9,
      system: mean * 0.05,
      min: sorted[0],
      max: sorted[count - 1],
      times,
      exit_codes: times.map(() => 0),
    };
  });
  return {
    path: `/api/v1/imports?format=hyperfine&experiment=${HYPERFINE_EXPERIMENT}&create=true`,
    contentType: "application/json",
    body: JSON.stringify({ results }),
    runs: 2,
    metricsPerRun: 3,
  };
}
