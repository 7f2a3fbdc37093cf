// A runnable HTTP example: keep-alive against a new connection per request, measured by the Go
// agent's http workload against the agent's own loopback server (`selfTarget`), so it needs no
// target to set up. It starts with no runs; "Run" queues jobs for an agent with the http workload
// (the local agent of `npm start` when Go is installed, or any Go agent; the page says which).
import { defineExperiment, type ExampleExperiment } from "./common";

/**
 * Both sides: the same target, load and length; only keepAlive differs. No `selfTarget` settings:
 * the loopback server's defaults (1 KiB answers) serve, so a user who sets `url` to a target of
 * their own has nothing to take out (the agent refuses selfTarget beside a url).
 */
const LOAD = { connections: 4, duration: 3, warmupSeconds: 1, timeoutMs: 5000 };

const definition = defineExperiment({
  title: "HTTP keep-alive vs a new connection per request (runnable)",
  slug: "http-keepalive-runnable",
  hypothesis: "Reusing connections (keep-alive) serves more requests per second at lower latency than opening a new TCP connection for every request.",
  description: [
    "Measured on your machines by the **Go agent**'s `http` workload (`agents/go`; `npm start` runs one as its local agent " +
      "when Go is installed — the TypeScript reference agent has no http workload). Each job sends HTTP requests for 3 " +
      "seconds (after 1 second of unrecorded warm-up) from 4 virtual users to a small HTTP server the agent starts on its " +
      "own loopback interface, answering 1 KiB.",
    "**Keep-alive** reuses each user's connection; **New connection** opens (and closes) a TCP connection for every " +
      "request, as clients without a connection pool do. Latency is recorded per request in an HdrHistogram; throughput, " +
      "latency percentiles and bytes are also recorded second by second.",
    "The load generator and the target share the machine's CPU, so the absolute figures are lower than against a separate " +
      "server; the comparison between the two variants is what this example shows. This is the *closed model* (each user " +
      "waits for its answer before the next request): its runs carry a warning that it cannot see a stalled server. For a " +
      "target of your own, edit a variant's workload: set `url`, and `rate` for the open model, which measures latency from each " +
      "request's intended send time. **Add probe** on the target's metrics endpoint shows its CPU and memory under Server.",
    "Versus created this experiment on first start; delete it (or the *Examples* project) any time, it does not come back.",
  ].join("\n\n"),
  environmentNotes: "Whatever machine the Go agent runs on: each run records its CPU model, cores, memory, OS, kernel, Go version and cgroup limits.",
  status: "active",
  parameters: [
    { name: "target", value: "the agent's own loopback server, 1 KiB responses" },
    { name: "load", value: "4 virtual users (closed model), 1 s warm-up, then 3 s measured" },
  ],
  warmupRuns: 1,
  measuredRuns: 5,
  tags: ["http", "runnable", "example"],
  variants: [
    { name: "Keep-alive", description: "Connections are reused", isBaseline: true, config: { workload: "http", settings: { ...LOAD, keepAlive: true } } },
    {
      name: "New connection",
      description: "A new TCP connection per request",
      isBaseline: false,
      config: { workload: "http", settings: { ...LOAD, keepAlive: false } },
    },
  ],
  metrics: [
    { key: "throughput", label: "Requests per second", unit: "req/s", direction: "higher_is_better", aggregation: "mean" },
    { key: "latency", label: "Latency per request", unit: "ms", direction: "lower_is_better", aggregation: "median" },
    {
      key: "latency_p99",
      label: "Latency, 99th percentile of the run (per second in its series)",
      unit: "ms",
      direction: "lower_is_better",
      aggregation: "mean",
    },
  ],
});

export const httpRunnable: ExampleExperiment = { definition };
