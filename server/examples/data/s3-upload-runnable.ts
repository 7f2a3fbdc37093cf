// The S3 write-up (docs/examples.md case 1, the "S3 upload: plain vs gzip" example), runnable: the
// Go agent starts the bundled target serving the S3 API for each job (its `targets` setting, with
// a fixed delay per request standing in for the network), and its `s3` workload uploads the
// write-up's two payloads plain or gzipped, 20 warm-up then 100 measured PutObjects. Two
// experiments, one per payload, so each compares gzip with its own payload's plain upload (the
// write-up's 2 × 2 table, one row per experiment). They start with no runs; Run fills them in.
import { defineExperiment, type ExampleExperiment } from "./common";

const ADDR = "127.0.0.1:17830";
/** A fresh in-memory S3 per job; every request waits 20 ms first, as a round trip to a region would. */
const targets = [{ name: "s3", addr: ADDR, args: ["--s3", "--s3-bucket", "versus-example", "--s3-delay", "20ms"] }];
const S3 = { endpoint: `http://${ADDR}`, bucket: "versus-example", pathStyle: true, anonymous: true, warmupOperations: 20, operations: 100, targets };

const metrics = [
  { key: "upload_time", label: "Upload time, end to end (gzip + PUT)", unit: "ms", direction: "lower_is_better", aggregation: "mean" },
  { key: "put_time", label: "PutObject time", unit: "ms", direction: "lower_is_better", aggregation: "mean" },
  { key: "compress_time", label: "gzip time", unit: "ms", direction: "lower_is_better", aggregation: "mean" },
  { key: "sent_bytes", label: "Bytes sent", unit: "B", direction: "lower_is_better", aggregation: "mean" },
] as const;

function definition(payload: "html-mail" | "sms") {
  const mail = payload === "html-mail";
  const what = mail ? "a 51,200 B HTML e-mail" : "an 80 B SMS text";
  return defineExperiment({
    title: `S3 upload: plain vs gzip, ${mail ? "e-mail" : "SMS"} (runnable)`,
    slug: `s3-upload-${mail ? "mail" : "sms"}-runnable`,
    hypothesis: mail
      ? "Gzipping a 50 KB HTML e-mail before PutObject sends far fewer bytes, but a fixed network cost per request keeps the upload time where it was."
      : "Gzipping an 80 B SMS before PutObject makes it bigger (gzip's header outweighs what it saves) and the upload no faster.",
    description: [
      "The *S3 upload: plain vs gzip* write-up, measured on your machines by the **Go agent** (`agents/go`: its `s3` " +
        "workload; `npm start` runs one as its local agent when Go is installed). Each job starts the target the Go agent " +
        "bundles (`versus-agent target --s3`, an S3 API kept in memory, its `targets` setting) on the agent's loopback " +
        "interface, with every request held 20 ms as a round trip to a region would be, uploads the payload 20 times " +
        "unmeasured and 100 times measured, one after another as the write-up did, and stops the target.",
      `The payload is ${what}, generated from a template the same way every run. **Plain** uploads it as it is; **Gzip** ` +
        "compresses it first (level 6) and sends it with `Content-Encoding: gzip`, timed end to end as the write-up did " +
        "(compress + PUT), with the compression and the PUT also on their own, and the bytes sent.",
      "**What differs from the write-up:** the S3 endpoint is an in-memory one on the same machine with a fixed 20 ms " +
        "wait per request instead of AWS in ap-northeast-2 (about 114 ms per upload there), the uploads are unsigned " +
        "(the endpoint takes them; against AWS the agent signs with its own credentials, never the experiment's), the " +
        "client is Go's AWS SDK instead of a Spring Batch writer, and there are several runs per variant, so the " +
        "comparison gives verdicts. Edit a variant's `endpoint`, `bucket`, `region` and leave out `targets` and " +
        "`anonymous` to measure a real bucket.",
      "Versus created this experiment on first start; delete it (or the *Examples* project) any time, it does not come back.",
    ].join("\n\n"),
    environmentNotes:
      "The Go agent's machine, client and in-memory S3 on its loopback interface: each run records the CPU, cores, memory, OS, Go version and the target it started.",
    status: "active",
    parameters: [
      { name: "payload", value: mail ? "HTML e-mail, 51,200 B (generated, seed 1)" : "SMS text, 80 B (generated, seed 1)" },
      { name: "uploads per run", value: "20 warm-up, then 100 measured, one at a time" },
      { name: "S3 endpoint", value: "the Go agent's bundled target (--s3), 20 ms per request, started for each job" },
    ],
    warmupRuns: 1,
    measuredRuns: 5,
    tags: ["s3", "gzip", "runnable", "example"],
    variants: [
      { name: "Plain", description: "PutObject of the payload as it is", isBaseline: true, config: { workload: "s3", settings: { ...S3, payload } } },
      {
        name: "Gzip",
        description: "gzip level 6, then PutObject with Content-Encoding: gzip",
        isBaseline: false,
        config: { workload: "s3", settings: { ...S3, payload, gzip: true, gzipLevel: 6 } },
      },
    ],
    metrics: [...metrics],
  });
}

export const s3MailRunnable: ExampleExperiment = { definition: definition("html-mail") };
export const s3SmsRunnable: ExampleExperiment = { definition: definition("sms") };
