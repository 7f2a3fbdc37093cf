// The example experiments, in the order EXAMPLES.md numbers the write-ups.
import { couponScaleOut, productListCache } from "./cache-scale-out";
import type { ExampleExperiment } from "./common";
import { httpVsGrpc } from "./http-vs-grpc";
import { kafkaSerializers } from "./kafka-serializers";
import { s3Upload } from "./s3-upload";
import { uploadCpu } from "./upload-cpu";

export const exampleExperiments: readonly ExampleExperiment[] = [s3Upload, httpVsGrpc, uploadCpu, productListCache, couponScaleOut, kafkaSerializers];
