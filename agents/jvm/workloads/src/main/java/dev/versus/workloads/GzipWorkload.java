package dev.versus.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versus.workload.Benchmark;
import dev.versus.workload.Blackhole;
import dev.versus.workload.Direction;
import dev.versus.workload.MetricSpec;
import dev.versus.workload.Recorder;
import dev.versus.workload.Summary;
import dev.versus.workload.Workload;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.zip.GZIPOutputStream;

/**
 * gzip of a text payload: the CPU cost of compressing and the bytes it saves, with the reference
 * agent's settings, payload and metrics (agents/reference/workloads/gzip.ts), so one experiment
 * runs on either agent. {@code compress: false} is the Plain side: the payload copied as it is
 * (its time is the copy every send pays anyway); {@code compress: true} gzips it into a new buffer
 * with a new compressor each time, as the reference's zlib.gzipSync does.
 */
public final class GzipWorkload implements Workload {
  @Override
  public String name() {
    return "gzip";
  }

  @Override
  public String description() {
    return "Compress a generated text payload with gzip (or not, for the Plain side): time per operation and bytes";
  }

  @Override
  public String settingsSchema() {
    return """
        {"type": "object", "additionalProperties": false, "properties": {
          "sizeBytes": {"type": "integer", "x-unit": "B", "minimum": 1, "maximum": 67108864, "default": 51200, "description": "Size of the generated text payload, in bytes"},
          "compress": {"type": "boolean", "default": true, "description": "false: the payload is sent as it is (the Plain variant)"},
          "level": {"type": "integer", "minimum": 0, "maximum": 9, "default": 6, "description": "gzip level: 1 fastest … 9 smallest; 0 stores without compressing"},
          "seed": {"type": "integer", "minimum": 0, "default": 1, "description": "Seed of the generated payload: the same seed, the same bytes"}
        }}""";
  }

  @Override
  public MetricSpec operationTime() {
    return new MetricSpec("compress_time", "us", Direction.LOWER_IS_BETTER, "Time to prepare the payload for sending, per operation", "median");
  }

  @Override
  public List<MetricSpec> metrics() {
    return List.of(
        new MetricSpec("payload_bytes", "B", Direction.LOWER_IS_BETTER, "Bytes sent: the payload after compression"),
        new MetricSpec("input_bytes", "B", Direction.LOWER_IS_BETTER, "Bytes of the payload before compression"));
  }

  @Override
  public Benchmark prepare(JsonNode settings) {
    byte[] payload = TextPayload.generate(settings.path("sizeBytes").asInt(51_200), settings.path("seed").asLong(1));
    boolean compress = settings.path("compress").asBoolean(true);
    int level = settings.path("level").asInt(6);
    return new Benchmark() {
      private long calls;
      private int outputLength = payload.length;

      @Override
      public void operation(Blackhole blackhole) throws IOException {
        byte[] output = compress ? gzip(payload, level) : payload.clone();
        outputLength = output.length;
        calls++;
        blackhole.consume(output);
      }

      @Override
      public void report(Recorder recorder) {
        recorder.summary("payload_bytes", Summary.constant(Math.max(1, calls), outputLength));
        recorder.summary("input_bytes", Summary.constant(Math.max(1, calls), payload.length));
        recorder.environment("compressor", compress ? "java.util.zip.GZIPOutputStream (zlib), level " + level : "none (copy)");
        recorder.log("payload " + payload.length + " B -> " + outputLength + " B");
      }
    };
  }

  /** One gzip member of the whole payload at this level. */
  public static byte[] gzip(byte[] payload, int level) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, payload.length / 2));
    try (GZIPOutputStream gzip = new LeveledGzip(out, level)) {
      gzip.write(payload);
    }
    return out.toByteArray();
  }

  /** GZIPOutputStream takes no level; its Deflater does. */
  private static final class LeveledGzip extends GZIPOutputStream {
    LeveledGzip(ByteArrayOutputStream out, int level) throws IOException {
      super(out);
      def.setLevel(level);
    }
  }
}
