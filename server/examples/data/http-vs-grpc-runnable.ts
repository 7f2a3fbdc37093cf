// The HTTP-vs-gRPC write-up (docs/examples.md case 2, the "HTTP vs gRPC: 1 MB payload" example),
// runnable: the Go agent starts the bundled target for each job (its `targets` setting), loads it
// with the `http` or the `grpc` workload, and reads the target's CPU, Go heap and GC through a
// probe on its /metrics. It starts with no runs; Run fills it in.
import { defineExperiment, type ExampleExperiment } from "./common";

const MIB = 1_048_576;
/** One target per job, fresh (its heap and GC counters start at zero): HTTP on one port, gRPC on the next. */
const HTTP_ADDR = "127.0.0.1:17811";
const GRPC_ADDR = "127.0.0.1:17812";
const targets = [{ name: "server", addr: HTTP_ADDR, grpcAddr: GRPC_ADDR, args: ["--payload-size", String(MIB)] }];
const probes = [{ name: "server", kind: "prometheus" as const, url: `http://${HTTP_ADDR}/metrics`, presets: ["process" as const, "go" as const] }];
/** The write-up's load, shortened: 10 callers, a warm-up, then the measured seconds. */
const LOAD = { duration: 8, warmupSeconds: 2, timeoutMs: 10_000 };

const http = (path: string) => ({
  workload: "http",
  settings: { ...LOAD, url: `http://${HTTP_ADDR}${path}`, connections: 10, targets },
  probes,
});
const grpc = (method: string, data: Record<string, number>) => ({
  workload: "grpc",
  settings: { ...LOAD, target: GRPC_ADDR, method: `versus.target.Payloads/${method}`, data: JSON.stringify(data), callers: 10, connections: 1, targets },
  probes,
});

const definition = defineExperiment({
  title: "HTTP vs gRPC: 1 MB payload (runnable)",
  slug: "http-vs-grpc-1mb-runnable",
  hypothesis:
    "For one 1 MB payload per request, plain HTTP with a binary body is faster than gRPC, and base64 in JSON or 64 KB server streaming are slower still.",
  description: [
    "The *HTTP vs gRPC: 1 MB payload* write-up, measured on your machines by the **Go agent** (`agents/go`; `npm start` " +
      "runs one as its local agent when Go is installed). Each job starts the target the Go agent bundles " +
      "(`versus-agent target`, its `targets` setting) on the agent's loopback interface, so every run meets a fresh server, " +
      "then sends 10 callers' requests for 8 s after 2 s of unrecorded warm-up, and stops the target.",
    "In every variant the server sends 1,048,576 bytes per request: **HTTP/Binary** as an `application/octet-stream` body, " +
      "**HTTP/JSON** base64-encoded in a JSON object, **gRPC/Unary** in one message of a unary call, **gRPC/Stream** " +
      "in 16 messages of 64 KB from a server-streaming call (the `grpc` workload, plaintext HTTP/2 on one connection).",
    "Client side: requests per second (and its peak second), latency (mean, p50, p95, p99, from an HdrHistogram of every " +
      "request), the requests of the measured window and the bytes moved. Server side, through a probe on the target's " +
      "`/metrics`: its CPU, its Go heap's peak, and its garbage collections and their time in the measured window.",
    "**What differs from the write-up:** one machine for client and server (loopback, shared CPU), 8 s instead of 30 s, " +
      "several runs per variant instead of one (so the comparison gives verdicts), and a Go server instead of Spring Boot " +
      "on a JVM: heap and GC are Go's. The server answers in each variant, where the write-up's HTTP requests uploaded the " +
      "payload. The JVM twin of the target (`agents/jvm/target-app`) serves the HTTP halves with a JVM's heap and GC.",
    "Versus created this experiment on first start; delete it (or the *Examples* project) any time, it does not come back.",
  ].join("\n\n"),
  environmentNotes:
    "The Go agent's machine, client and server on its loopback interface: each run records the CPU, cores, memory, OS, Go version and the target it started.",
  status: "active",
  parameters: [
    { name: "payload", value: "1,048,576 B sent by the server per request" },
    { name: "load", value: "10 callers (closed model), 2 s warm-up, then 8 s measured" },
    { name: "server", value: "the Go agent's bundled target, started for each job" },
    { name: "gRPC/Stream chunk size", value: "64 KB" },
  ],
  warmupRuns: 1,
  measuredRuns: 5,
  tags: ["http", "grpc", "load-test", "runnable", "example"],
  variants: [
    { name: "gRPC/Unary", description: "One unary call answering the 1 MB message", isBaseline: true, config: grpc("Unary", { size: MIB }) },
    { name: "HTTP/Binary", description: "GET answering an application/octet-stream body", isBaseline: false, config: http(`/payload/binary?size=${MIB}`) },
    { name: "HTTP/JSON", description: "GET answering the payload base64-encoded in a JSON body", isBaseline: false, config: http(`/payload/json?size=${MIB}`) },
    {
      name: "gRPC/Stream",
      description: "Server streaming in 64 KB chunks",
      isBaseline: false,
      config: grpc("Stream", { size: MIB, chunkSize: 65_536 }),
    },
  ],
  metrics: [
    { key: "throughput", label: "Requests per second", unit: "req/s", direction: "higher_is_better", aggregation: "mean" },
    { key: "throughput_peak", label: "Peak requests per second (the busiest second)", unit: "req/s", direction: "higher_is_better", aggregation: "mean" },
    { key: "latency", label: "Latency, mean of every request", unit: "ms", direction: "lower_is_better", aggregation: "mean" },
    { key: "latency_p50", label: "Latency, p50", unit: "ms", direction: "lower_is_better", aggregation: "mean" },
    { key: "latency_p95", label: "Latency, p95", unit: "ms", direction: "lower_is_better", aggregation: "mean" },
    { key: "latency_p99", label: "Latency, p99", unit: "ms", direction: "lower_is_better", aggregation: "mean" },
    { key: "requests", label: "Requests (measured window)", unit: "count", direction: "higher_is_better", aggregation: "mean" },
    { key: "bytes_total", label: "Data moved (measured window)", unit: "B", direction: "higher_is_better", aggregation: "mean" },
    { key: "server.cpu_percent", label: "Server CPU", unit: "%", direction: "lower_is_better", aggregation: "mean" },
    { key: "server.heap_inuse_peak", label: "Server peak heap (Go heap in use)", unit: "B", direction: "lower_is_better", aggregation: "max" },
    { key: "server.gc_count", label: "Server GCs", unit: "count", direction: "lower_is_better", aggregation: "sum" },
    { key: "server.gc_time", label: "Server GC time", unit: "ms", direction: "lower_is_better", aggregation: "sum" },
  ],
});

export const httpVsGrpcRunnable: ExampleExperiment = { definition };
