// The provider swap of the upload-CPU write-up (docs/examples.md case 3, "File upload CPU"),
// runnable on the JVM agent: its `cipher` workload encrypts a 25 MB buffer with AES-GCM through
// the JDK's SunJCE or Bouncy Castle (shipped with the agent), chosen by name, and reports the time
// per buffer with the CPU of the JVM doing it (mean and busiest second). It starts with no runs.
import { defineExperiment, type ExampleExperiment } from "./common";

/** 25 MB per operation, as the write-up's PDF; the harness's 1 s iterations, warmed up until steady. */
const BUFFER = { sizeMB: 25, keyBits: 256, iterations: 10 };

const definition = defineExperiment({
  title: "Upload CPU: JCE provider swap (runnable)",
  slug: "upload-cpu-provider-runnable",
  hypothesis: "The JCE provider that encrypts a 25 MB upload decides how much CPU the uploading JVM spends on it, and how long it takes.",
  description: [
    "The provider half of the *File upload CPU* write-up, measured on your machines by the **JVM agent** (`agents/jvm`: " +
      "its `cipher` workload), which `npm start` runs beside its local agent where a JDK 17 and Maven are installed; until " +
      "a JVM agent is enrolled in this project, the page says how to start one against this server. Each job runs in a fresh JVM, as JMH does: 1 s warm-up iterations " +
      "until the times stop trending, then 10 measured 1 s iterations.",
    "Each operation encrypts a 25 MB buffer with AES-GCM (256-bit key), as the write-up's service did before uploading " +
      "its PDF. **SunJCE** is the JDK's own provider; **Bouncy Castle** (`BC`) is shipped with the agent. Recorded: the " +
      "time per buffer, MB/s, and the CPU of the JVM doing the work — its mean over the measured iterations and its " +
      "busiest second (the write-up's average and max) — with allocation and GC beside them.",
    "**What differs from the write-up:** no network upload (the write-up's point is the provider's CPU, and an upload " +
      "would add its network time), the CPU is the forked JVM's own (read each second from the JVM, not a container's " +
      "limit), and the faster provider there was Amazon Corretto Crypto Provider, which is not shipped: drop its jar in " +
      "the agent's plugins folder where its native library loads and name it in a variant's `provider`.",
    "Versus created this experiment on first start; delete it (or the *Examples* project) any time, it does not come back.",
  ].join("\n\n"),
  environmentNotes:
    "Whatever machine the JVM agent runs on: each run records the JVM's vendor, version, flags and collector, and the provider's name and version.",
  status: "active",
  parameters: [
    { name: "buffer", value: "25 MB encrypted per operation, AES-GCM, 256-bit key" },
    { name: "iterations per run", value: "1 s warm-up iterations until steady (5–30 s), then 10 × 1 s measured, in a fresh JVM" },
  ],
  warmupRuns: 1,
  measuredRuns: 5,
  tags: ["jvm", "crypto", "cpu", "runnable", "example"],
  variants: [
    { name: "SunJCE", description: "The JDK's own provider", isBaseline: true, config: { workload: "cipher", settings: { ...BUFFER, provider: "SunJCE" } } },
    {
      name: "Bouncy Castle",
      description: "BC, shipped with the agent",
      isBaseline: false,
      config: { workload: "cipher", settings: { ...BUFFER, provider: "BC" } },
    },
  ],
  metrics: [
    { key: "encrypt_time", label: "Time to encrypt 25 MB", unit: "ms", direction: "lower_is_better", aggregation: "mean" },
    { key: "cpu_percent", label: "CPU of the JVM, mean", unit: "%", direction: "lower_is_better", aggregation: "mean" },
    { key: "cpu_percent_max", label: "CPU of the JVM, busiest second", unit: "%", direction: "lower_is_better", aggregation: "max" },
    { key: "cpu_time", label: "CPU time of the JVM over the measured iterations", unit: "ms", direction: "lower_is_better", aggregation: "mean" },
    { key: "data_rate", label: "Encryption rate", unit: "MB/s", direction: "higher_is_better", aggregation: "mean" },
  ],
});

export const uploadCpuRunnable: ExampleExperiment = { definition };
