// A runnable example: the compression half of the S3 write-up (docs/examples.md case 1), measured on your
// own machine. It starts with no runs; "Run" queues jobs, an agent with the gzip workload (the
// local agent `npm start` runs — Go or reference — or a JVM agent) runs them, and the comparison
// fills in. What to press and who runs it is said by the page from the data (example-notice.ts,
// runnable-empty-state.tsx), not by this text, which stays true after the first run.
// Plain and Gzip are the same workload: `compress: false` sends the payload as it is.
import { defineExperiment, type ExampleExperiment } from "./common";

/** The payload of the write-up's email.html (50 KB), generated: text-like, the same for the same seed. */
const PAYLOAD = { sizeBytes: 51_200, iterations: 200, warmupIterations: 20, seed: 1 };

const definition = defineExperiment({
  title: "Gzip payloads (runnable)",
  slug: "gzip-payloads-runnable",
  hypothesis: "Gzipping a 50 KB text payload before sending it costs a little CPU time per payload and saves most of its bytes.",
  description: [
    "Measured on your machines by the `gzip` workload, which the Go agent, the TypeScript reference agent and the JVM agent " +
      "all have with the same settings and metrics (the page says which of this project's agents offer it). Run queues " +
      "Plain and Gzip interleaved, one warm-up and five measured runs each.",
    "Each job generates the same 50 KB text payload (HTML-like, seeded) and prepares it for sending 200 times, after " +
      "20 unmeasured warm-up operations: **Plain** copies it as it is, **Gzip** compresses it at level 6. The time of " +
      "every operation and the bytes that would be sent are recorded.",
    "This is the compression half of the *S3 upload: plain vs gzip* example: the write-up found that gzip did not make " +
      "uploads faster — the network round-trips dominate — but cut the bytes of text payloads by over 90%. Here you see " +
      "what the compression itself costs on your CPU.",
    "Change the settings (payload size, level, iterations) by editing a variant's workload; every run keeps the " +
      "settings it ran with and the machine it ran on in its environment. Versus created this experiment on first start; " +
      "delete it (or the *Examples* project) any time, it does not come back.",
  ].join("\n\n"),
  environmentNotes:
    "Whatever machine the agent runs on: each run records its CPU model, cores, memory, OS, kernel, runtime (Node or Go) version and container limits.",
  status: "active",
  parameters: [
    { name: "payload", value: "50 KB generated HTML-like text (seed 1)" },
    { name: "operations per run", value: "20 warm-up, then 200 measured" },
  ],
  warmupRuns: 1,
  measuredRuns: 5,
  tags: ["gzip", "runnable", "example"],
  variants: [
    {
      name: "Plain",
      description: "The payload as it is (copied, as any send would)",
      isBaseline: true,
      config: { workload: "gzip", settings: { ...PAYLOAD, compress: false } },
    },
    { name: "Gzip", description: "gzip at level 6", isBaseline: false, config: { workload: "gzip", settings: { ...PAYLOAD, compress: true, level: 6 } } },
  ],
  metrics: [
    { key: "compress_time", label: "Time to prepare the payload, per operation", unit: "us", direction: "lower_is_better", aggregation: "median" },
    { key: "payload_bytes", label: "Bytes sent", unit: "B", direction: "lower_is_better", aggregation: "mean" },
  ],
});

export const gzipRunnable: ExampleExperiment = { definition };
