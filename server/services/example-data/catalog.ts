// The example experiments: first the runnable one (an agent measures it when a user presses Run),
// then the write-ups in the order docs/examples.md numbers them.
import { couponScaleOut, productListCache } from "./cache-scale-out";
import type { ExampleExperiment } from "./common";
import { gzipRunnable } from "./gzip-runnable";
import { httpVsGrpc } from "./http-vs-grpc";
import { kafkaSerializers } from "./kafka-serializers";
import { s3Upload } from "./s3-upload";
import { uploadCpu } from "./upload-cpu";

export const exampleExperiments: readonly ExampleExperiment[] = [gzipRunnable, s3Upload, httpVsGrpc, uploadCpu, productListCache, couponScaleOut, kafkaSerializers];
