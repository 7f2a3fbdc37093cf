// What a job needs from its agent: the workload, bundled targets when its settings list them, a
// broker of its own when a kafka job asks for one, and a probe capability per kind.
import { expect, it } from "vitest";
import { ZVariantWorkload } from "../schemas/workload";
import { jobCapabilities } from "./job-capabilities";

const needs = (config: unknown) => jobCapabilities(ZVariantWorkload.parse(config));

it("needs the workload, targets only when some are listed, and each probe kind once", () => {
  expect(needs({ workload: "gzip" })).toEqual(["gzip"]);
  expect(needs({ workload: "http", settings: { targets: [] } })).toEqual(["http"]);
  const metrics = (name: string) => ({ name, kind: "prometheus", url: "http://127.0.0.1:17811/metrics", presets: ["process"] });
  expect(
    needs({
      workload: "http",
      settings: { url: "http://127.0.0.1:17811/", targets: [{ name: "app-1", addr: "127.0.0.1:17811" }] },
      probes: [metrics("app-1"), metrics("app-2"), { name: "jvm", kind: "process", match: { name: "java" } }],
    }),
  ).toEqual(["http", "targets", "probe:prometheus", "probe:process"]);
});

it("needs kafka:local-broker only for a kafka job whose settings ask for a local broker", () => {
  expect(needs({ workload: "kafka", settings: { localBroker: true, serializer: "SPRING_JSON" } })).toEqual(["kafka", "kafka:local-broker"]);
  expect(needs({ workload: "kafka", settings: { localBroker: false, bootstrapServers: "127.0.0.1:9092" } })).toEqual(["kafka"]);
  expect(needs({ workload: "my.Kafka", settings: { localBroker: true } })).toEqual(["my.Kafka"]);
});
