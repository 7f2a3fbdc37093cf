// gzip of a text payload: the CPU cost of compressing and the bytes it saves. The two sides of
// a "plain vs gzip" comparison are the same workload: `compress: false` is Plain (the payload is
// sent as it is; its time is the copy every upload pays anyway), `compress: true` with a level is
// Gzip. Level 0 is not Plain: it still wraps the payload in gzip's header, blocks and trailer.
import zlib from "node:zlib";
import { z } from "zod";
import { textPayload } from "./text-payload";
import { checkpoint, type Workload } from "./workload";

const MiB = 1024 * 1024;

const settings = z.strictObject({
  sizeBytes: z
    .int()
    .min(1)
    .max(64 * MiB)
    .default(51_200)
    .describe("Size of the generated text payload, in bytes")
    .meta({ "x-unit": "B" }),
  compress: z.boolean().default(true).describe("false: the payload is sent as it is (the Plain variant)"),
  level: z.int().min(0).max(9).default(6).describe("gzip level: 1 fastest … 9 smallest; 0 stores without compressing"),
  iterations: z.int().min(1).max(100_000).default(100).describe("Measured operations"),
  warmupIterations: z.int().min(0).max(100_000).default(10).describe("Operations run first and not measured"),
  seed: z.int().min(0).default(1).describe("Seed of the generated payload: the same seed, the same bytes"),
});
export type GzipSettings = z.output<typeof settings>;

export const gzipWorkload: Workload<GzipSettings> = {
  name: "gzip",
  description: "Compress a generated text payload with gzip (or not, for the Plain side): time per operation and bytes",
  settings,
  metrics: [
    {
      key: "compress_time",
      unit: "us",
      direction: "lower_is_better",
      aggregation: "median",
      description: "Time to prepare the payload for sending, per operation",
    },
    { key: "payload_bytes", unit: "B", direction: "lower_is_better", aggregation: "mean", description: "Bytes sent: the payload after compression" },
    { key: "input_bytes", unit: "B", direction: "lower_is_better", aggregation: "mean", description: "Bytes of the payload before compression" },
  ],
  async run(s, recorder, signal) {
    const payload = textPayload(s.sizeBytes, s.seed);
    // Both sides produce a new buffer, so both pay for an allocation and a copy.
    const prepare = s.compress ? () => zlib.gzipSync(payload, { level: s.level }) : () => Buffer.from(payload);
    recorder.log(`payload ${payload.length} B, ${s.compress ? `gzip level ${s.level}` : "plain"}, ${s.warmupIterations} + ${s.iterations} operations`);
    for (let i = 0; i < s.warmupIterations; i++) {
      prepare();
      await checkpoint(signal);
    }
    let output = payload;
    for (let i = 0; i < s.iterations; i++) {
      // Each operation is synchronous and timed alone; between operations the agent's own
      // timers (lease renewal, heartbeat) get their turn.
      const start = process.hrtime.bigint();
      output = prepare();
      const elapsedNs = process.hrtime.bigint() - start;
      recorder.sample("compress_time", Number(elapsedNs) / 1000);
      await checkpoint(signal);
    }
    recorder.summary("payload_bytes", { n: s.iterations, mean: output.length, sd: 0, min: output.length, max: output.length });
    recorder.summary("input_bytes", { n: s.iterations, mean: payload.length, sd: 0, min: payload.length, max: payload.length });
  },
};
