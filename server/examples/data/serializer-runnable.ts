// A runnable example for the JVM agent: the serializer half of the Kafka write-up (docs/examples.md
// case 5), measured on your own machine with the JVM agent's benchmark harness. It starts with no
// runs; "Run" queues jobs, a JVM agent (agents/jvm: the `json` workload) runs them, and the
// comparison fills in. Both variants are the same workload: `mapper` picks a shared ObjectMapper
// or a new one per call.
import { defineExperiment, type ExampleExperiment } from "./common";

/** A 10-line order, seeded; the harness's default iterations (1 s warm-up iterations until steady state, 10 × 1 s measured). */
const ORDER = { items: 10, seed: 1 };

const definition = defineExperiment({
  title: "Serializer: shared vs new ObjectMapper (runnable)",
  slug: "serializer-objectmapper-runnable",
  hypothesis: "Making a new Jackson ObjectMapper for every message costs far more time and allocation than reusing one shared mapper.",
  description: [
    "Measured on your machines by the **JVM agent** (`agents/jvm`: its `json` workload), which `npm start` runs beside " +
      "its local agent where a JDK 17 and Maven are installed; until a JVM agent is enrolled in this project, the page says " +
      "how to start one against this server. Run queues a batch of jobs — the two variants interleaved, one warm-up and five " +
      "measured runs each — and the JVM agent runs each one in a fresh JVM, as JMH does: warm-up iterations for the JIT, " +
      "then measured iterations, with a blackhole so the work cannot be optimised away. See agents/jvm/README.md.",
    "Each job serialises the same order (10 lines, seeded) to JSON with Jackson: **Shared ObjectMapper** reuses one " +
      "mapper for every call, **New ObjectMapper per call** makes one each time. The time per message, the bytes " +
      "allocated per message and the message's size are recorded.",
    "This is the serializer half of the *Kafka producer: serializers* example: how a message is serialised shows in the " +
      "producer's CPU time. Jackson's documentation says mappers are expensive to make and safe to share; here you see by " +
      "how much on your JVM.",
    "Change the settings (order lines, iterations, JVM flags) by editing a variant's workload; every run keeps the " +
      "settings it ran with and the JVM and machine it ran on in its environment. Versus created this experiment on first " +
      "start; delete it (or the *Examples* project) any time, it does not come back.",
  ].join("\n\n"),
  environmentNotes:
    "Whatever machine the JVM agent runs on: each run records the JVM's vendor, version, flags and collector, and the machine's CPU, cores and memory.",
  status: "active",
  parameters: [
    { name: "message", value: "an order with 10 lines (seed 1), about 1 KB of JSON" },
    { name: "iterations per run", value: "1 s warm-up iterations until steady (5–30 s), then 10 × 1 s measured, in a fresh JVM" },
  ],
  warmupRuns: 1,
  measuredRuns: 5,
  tags: ["jvm", "jackson", "runnable", "example"],
  variants: [
    {
      name: "Shared ObjectMapper",
      description: "One ObjectMapper for every call",
      isBaseline: true,
      config: { workload: "json", settings: { ...ORDER, mapper: "shared" } },
    },
    {
      name: "New ObjectMapper per call",
      description: "new ObjectMapper() for each message",
      isBaseline: false,
      config: { workload: "json", settings: { ...ORDER, mapper: "new-per-call" } },
    },
  ],
  metrics: [
    { key: "serialize_time", label: "Time to serialise one message", unit: "us", direction: "lower_is_better", aggregation: "median" },
    { key: "alloc_per_op", label: "Bytes allocated per message", unit: "B", direction: "lower_is_better", aggregation: "mean" },
    { key: "message_bytes", label: "Message size", unit: "B", direction: "lower_is_better", aggregation: "mean" },
  ],
});

export const serializerRunnable: ExampleExperiment = { definition };
