// The example experiments: first the runnable ones (an agent measures them when a user presses
// Run: gzip and http on the local agent, the serializer on a JVM agent), then the write-ups in the
// order docs/examples.md numbers them, each with its runnable twin right before it (the Go agent:
// S3 upload, one per payload; HTTP vs gRPC; cache and scale-out; the JVM agent: the upload CPU's
// provider swap, the Kafka serializers).
import { couponScaleOut, productListCache } from "./cache-scale-out";
import { cacheScaleOutRunnable } from "./cache-scale-out-runnable";
import type { ExampleExperiment } from "./common";
import { gzipHistory } from "./gzip-history";
import { gzipRunnable } from "./gzip-runnable";
import { httpRunnable } from "./http-runnable";
import { httpVsGrpc } from "./http-vs-grpc";
import { httpVsGrpcRunnable } from "./http-vs-grpc-runnable";
import { kafkaSerializers } from "./kafka-serializers";
import { kafkaSerializersRunnable } from "./kafka-serializers-runnable";
import { s3Upload } from "./s3-upload";
import { s3MailRunnable, s3SmsRunnable } from "./s3-upload-runnable";
import { serializerRunnable } from "./serializer-runnable";
import { uploadCpu } from "./upload-cpu";
import { uploadCpuRunnable } from "./upload-cpu-runnable";

export const exampleExperiments: readonly ExampleExperiment[] = [
  gzipRunnable,
  httpRunnable,
  serializerRunnable,
  s3MailRunnable,
  s3SmsRunnable,
  s3Upload,
  httpVsGrpcRunnable,
  httpVsGrpc,
  uploadCpuRunnable,
  uploadCpu,
  cacheScaleOutRunnable,
  productListCache,
  couponScaleOut,
  kafkaSerializersRunnable,
  kafkaSerializers,
];

/** Histories over commits (the history page and its change points), loaded after the experiments. */
export const exampleHistories: readonly ExampleExperiment[] = [gzipHistory];
