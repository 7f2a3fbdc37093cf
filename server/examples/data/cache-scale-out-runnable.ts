// The cache and scale-out write-up (docs/examples.md case 4: the "Product list: Redis cache" and
// "Coupon API: scale-out" examples), runnable: the Go agent starts the bundled target's processes
// for each job (its `targets` setting: one or two product-list servers, and the round-robin
// balancer in front of them), sends requests at a constant arrival rate, and reads each server's
// CPU through a probe on its /metrics. It starts with no runs; Run fills it in.
import { defineExperiment, type ExampleExperiment } from "./common";

const APP_1 = "127.0.0.1:17821";
const APP_2 = "127.0.0.1:17822";
const BALANCER = "127.0.0.1:17823";
/**
 * A product-list server: 4 workers (a server's thread pool), each uncached answer waiting 40 ms
 * (the database query) and keeping a core busy 2 ms, so one server answers about 95 requests a
 * second, below the offered rate; a cached answer costs neither.
 */
const SERVER_ARGS = ["--workers", "4", "--products-delay", "40ms", "--products-cpu", "2ms"];
const server = (name: string, addr: string, extra: string[] = []) => ({ name, addr, args: [...SERVER_ARGS, ...extra] });
const balancer = (...upstreams: string[]) => ({ name: "balancer", addr: BALANCER, args: ["--upstream", upstreams.map((addr) => `http://${addr}`).join(",")] });
const cpuProbe = (name: string, addr: string) => ({ name, kind: "prometheus" as const, url: `http://${addr}/metrics`, presets: ["process" as const] });
/** The open model: 150 requests a second whatever the servers do, latency from each request's intended start. */
const LOAD = { rate: 150, duration: 8, warmupSeconds: 2, timeoutMs: 2_000, maxConnections: 256 };

const products = (addr: string, targets: ReturnType<typeof server>[], probes: ReturnType<typeof cpuProbe>[]) => ({
  workload: "http",
  settings: { ...LOAD, url: `http://${addr}/products?page=1`, targets },
  probes,
});

const definition = defineExperiment({
  title: "Cache and scale-out: product list (runnable)",
  slug: "cache-scale-out-runnable",
  hypothesis:
    "A server that cannot keep up with the offered load serves more requests per second, with fewer errors, once its answers are cached — or once a second server shares the load behind a balancer.",
  description: [
    "The *Product list: Redis cache* and *Coupon API: scale-out* write-ups, measured on your machines by the **Go agent** " +
      "(`agents/go`; `npm start` runs one as its local agent when Go is installed). Each job starts the processes of its " +
      "variant from the target the Go agent bundles (`versus-agent target`, its `targets` setting) on the agent's loopback " +
      "interface, sends 150 requests a second to the product list for 8 s after 2 s of unrecorded warm-up (the open " +
      "model: requests start on schedule whatever the servers do, as nGrinder's and k6's constant arrival rate), and stops " +
      "them.",
    "A product-list server answers with 4 workers, like a thread pool; each answer waits 40 ms, as on a database query, " +
      "and keeps a core busy for 2 ms: about 95 answers a second, fewer than asked for, so requests queue and those " +
      "waiting past 2 s fail. **No cache** is that server alone; **Cache** keeps each answer in memory, so repeated " +
      "requests skip the wait; **Balancer, one server** and **Balancer, two servers** put the bundled round-robin " +
      "balancer in front of one server, then two.",
    "Recorded: requests per second, second by second (TPS) and its peak second, errors (timeouts and non-2xx answers), " +
      "p99 latency, and each server's CPU through a probe on its `/metrics` (`app-1`, `app-2`).",
    "**What differs from the write-ups:** one machine for the load generator and every server (loopback, shared CPU), an " +
      "in-process cache instead of Redis, the bundled balancer instead of nginx, 8 s instead of minutes, and several runs " +
      "per variant (so the comparison gives verdicts). The servers' capacity is set by their flags, so the figures show the " +
      "shape of the write-ups' results, not their numbers.",
    "Versus created this experiment on first start; delete it (or the *Examples* project) any time, it does not come back.",
  ].join("\n\n"),
  environmentNotes:
    "The Go agent's machine, load generator and servers on its loopback interface: each run records the CPU, cores, memory, OS, Go version and the processes it started.",
  status: "active",
  parameters: [
    { name: "load", value: "150 requests/s at a constant arrival rate (open model), 2 s warm-up, then 8 s measured, 2 s timeout" },
    { name: "server", value: "4 workers; an uncached answer waits 40 ms and uses 2 ms of CPU (about 95 answers/s)" },
    { name: "cache", value: "in-process, per page, kept while the server runs" },
    { name: "balancer", value: "the bundled round-robin balancer" },
  ],
  warmupRuns: 1,
  measuredRuns: 5,
  tags: ["http", "cache", "scale-out", "load-test", "runnable", "example"],
  variants: [
    {
      name: "No cache",
      description: "One server, every answer computed",
      isBaseline: true,
      config: products(APP_1, [server("app-1", APP_1)], [cpuProbe("app-1", APP_1)]),
    },
    {
      name: "Cache",
      description: "One server keeping its answers in memory",
      isBaseline: false,
      config: products(APP_1, [server("app-1", APP_1, ["--cache"])], [cpuProbe("app-1", APP_1)]),
    },
    {
      name: "Balancer, one server",
      description: "The balancer in front of one server",
      isBaseline: false,
      config: products(BALANCER, [server("app-1", APP_1), balancer(APP_1)], [cpuProbe("app-1", APP_1)]),
    },
    {
      name: "Balancer, two servers",
      description: "The balancer sharing the requests between two servers",
      isBaseline: false,
      config: products(
        BALANCER,
        [server("app-1", APP_1), server("app-2", APP_2), balancer(APP_1, APP_2)],
        [cpuProbe("app-1", APP_1), cpuProbe("app-2", APP_2)],
      ),
    },
  ],
  metrics: [
    { key: "throughput", label: "TPS (requests per second; per second in its series)", unit: "req/s", direction: "higher_is_better", aggregation: "mean" },
    { key: "throughput_peak", label: "Peak TPS (the busiest second)", unit: "req/s", direction: "higher_is_better", aggregation: "mean" },
    { key: "errors", label: "Errors (timeouts and failed answers)", unit: "count", direction: "lower_is_better", aggregation: "mean" },
    { key: "latency_p99", label: "Latency, p99", unit: "ms", direction: "lower_is_better", aggregation: "mean" },
    { key: "app-1.cpu_percent", label: "CPU of server app-1", unit: "%", direction: "lower_is_better", aggregation: "mean" },
    { key: "app-2.cpu_percent", label: "CPU of server app-2", unit: "%", direction: "lower_is_better", aggregation: "mean" },
  ],
});

export const cacheScaleOutRunnable: ExampleExperiment = { definition };
