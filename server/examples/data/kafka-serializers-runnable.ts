// The Kafka serializer write-up (docs/examples.md case 5), runnable on the JVM agent: its `kafka`
// workload sends the write-up's order events through each of the three serializers to a broker
// the agent starts for each run (the `localBroker` setting: Kafka in KRaft mode, in a JVM of its
// own), 1,000,000 measured messages per run, five runs per serializer, interleaved. It starts with
// no runs; Run fills it in.
import { defineExperiment, type ExampleExperiment } from "./common";

/**
 * 10 measured operations of 100,000 records each: the write-up's 1,000,000 messages per run, after
 * 20,000 unmeasured records and one unmeasured operation (connections, metadata, the JIT). At most
 * 1,000 records await their ack at once: unbounded, the 100,000 records of an operation would be
 * queued in the producer together and a record's send time would be mostly its place in that queue.
 */
const PRODUCER = {
  localBroker: true,
  topic: "versus-orders",
  records: 100_000,
  warmupRecords: 20_000,
  acks: "all",
  lingerMs: 5,
  maxInFlight: 1000,
  steadyState: false,
  warmupIterations: 1,
  iterations: 10,
  operationsPerIteration: 1,
};

const serializer = (name: string, description: string, isBaseline: boolean) => ({
  name,
  description,
  isBaseline,
  config: { workload: "kafka", settings: { ...PRODUCER, serializer: name } },
});

const definition = defineExperiment({
  title: "Kafka producer serializers × 5 runs (runnable)",
  slug: "kafka-serializers-runnable",
  hypothesis: "kotlinx.serialization sends Kafka messages faster than Spring's JSON serializer and Jackson's ObjectMapper.",
  description: [
    "The *Kafka producer serializers* write-up, measured on your machines by the **JVM agent** (`agents/jvm`: its `kafka` " +
      "workload). `npm start` runs a JVM agent for it where a JDK 17 and Maven are installed; elsewhere the page says how to " +
      "start one against this server. For each run the agent starts a Kafka broker (KRaft mode, one node) in a JVM of its " +
      "own, so the broker's CPU and garbage are not the producer's, and stops it after the run.",
    "Each run sends 1,000,000 order events (an id, a customer, two order lines, a creation date) as the write-up did: ten " +
      "measured operations of 100,000 records, each ending when the broker acknowledged every record (`acks=all`, " +
      "`linger.ms=5`, at most 1,000 records awaiting their ack at once), after 20,000 unmeasured records and one " +
      "unmeasured operation. Recorded per record: the time from " +
      "`send()` — which serialises it — to the broker's acknowledgement, and the size of the value the serializer wrote; " +
      "per run, records per second.",
    "**SPRING_JSON** is Spring Kafka's `JsonSerializer` (dates as epoch millis), **JACKSON_OBJECT_MAPPER** a Jackson " +
      "`ObjectMapper` writing bytes, **KOTLINX_JSON** kotlinx.serialization's JSON (both dates as ISO-8601 strings): " +
      "expect Spring's messages to be about 9 B smaller, as the write-up found.",
    "**What differs from the write-up:** the broker runs on the agent's machine (the write-up's was across a network, " +
      "so its send times include a round trip this one does not), and five runs per serializer are interleaved A B C A B C … " +
      "so that the machine's drift meets all three. To use your own broker, name it in each variant's `bootstrapServers` " +
      "and remove `localBroker`.",
    "Versus created this experiment on first start; delete it (or the *Examples* project) any time, it does not come back.",
  ].join("\n\n"),
  environmentNotes:
    "Whatever machine the JVM agent runs on, with a one-node Kafka broker beside it: each run records the JVM, the serializer's name and version, and the broker it sent to.",
  status: "active",
  parameters: [
    { name: "messages per run", value: "1,000,000 measured (10 × 100,000), after 20,000 + 100,000 unmeasured" },
    { name: "runs per serializer", value: "5, interleaved" },
    { name: "producer", value: "acks=all, linger.ms=5, batch.size=16384, no compression, at most 1,000 records in flight" },
    { name: "broker", value: "Kafka in KRaft mode, one node, started by the agent for each run" },
  ],
  warmupRuns: 1,
  measuredRuns: 5,
  tags: ["kafka", "serialization", "jvm", "runnable", "example"],
  variants: [
    serializer("SPRING_JSON", "Spring Kafka's JsonSerializer (dates as epoch millis)", true),
    serializer("JACKSON_OBJECT_MAPPER", "Jackson's ObjectMapper, writing bytes directly (ISO-8601 dates)", false),
    serializer("KOTLINX_JSON", "kotlinx.serialization JSON (ISO-8601 dates)", false),
  ],
  metrics: [
    { key: "send_time", label: "Send time per message, until the broker's ack", unit: "ms", direction: "lower_is_better", aggregation: "mean" },
    { key: "message_bytes", label: "Message size", unit: "B", direction: "lower_is_better", aggregation: "mean" },
    { key: "records_per_second", label: "Messages acknowledged per second", unit: "records/s", direction: "higher_is_better", aggregation: "mean" },
  ],
});

export const kafkaSerializersRunnable: ExampleExperiment = { definition };
