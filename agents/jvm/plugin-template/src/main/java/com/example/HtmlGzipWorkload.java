package com.example;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versus.workload.Benchmark;
import dev.versus.workload.Blackhole;
import dev.versus.workload.Direction;
import dev.versus.workload.MetricSpec;
import dev.versus.workload.Recorder;
import dev.versus.workload.SettingsException;
import dev.versus.workload.Summary;
import dev.versus.workload.Workload;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.GZIPOutputStream;

/**
 * A JMH benchmark as a Versus workload. The JMH original:
 *
 * <pre>{@code
 * @State(Scope.Benchmark)
 * public class HtmlGzip {
 *   @Param({"80", "51200"}) int sizeBytes;
 *   byte[] html;
 *
 *   @Setup(Level.Trial) public void payload() { html = Html.of(sizeBytes); }
 *
 *   @Benchmark public byte[] gzip() throws IOException {
 *     ByteArrayOutputStream out = new ByteArrayOutputStream();
 *     try (GZIPOutputStream gz = new GZIPOutputStream(out)) { gz.write(html); }
 *     return out.toByteArray();
 *   }
 * }
 * }</pre>
 *
 * {@code @Param} becomes a setting in the schema (one experiment variant per value),
 * {@code @Setup(Level.Trial)} becomes {@link #prepare}, the {@code @Benchmark} method becomes
 * {@link Benchmark#operation} and its return value goes to the blackhole. The table in
 * agents/jvm/README.md (Writing a plugin) maps the rest.
 */
public final class HtmlGzipWorkload implements Workload {
  @Override
  public String name() {
    return "html-gzip";
  }

  @Override
  public String description() {
    return "gzip an HTML-like payload of sizeBytes into a new buffer";
  }

  @Override
  public String settingsSchema() {
    return """
        {"type": "object", "additionalProperties": false, "properties": {
          "sizeBytes": {"type": "integer", "x-unit": "B", "minimum": 1, "maximum": 67108864, "default": 51200,
            "description": "Size of the HTML-like payload"}
        }}""";
  }

  @Override
  public List<MetricSpec> metrics() {
    return List.of(new MetricSpec("gzip_bytes", "B", Direction.LOWER_IS_BETTER, "Size of the payload gzipped"));
  }

  @Override
  public Benchmark prepare(JsonNode settings) throws SettingsException {
    int size = settings.path("sizeBytes").asInt(51_200);
    byte[] html = html(size); // @Setup(Level.Trial): once, before warm-up
    return new Benchmark() {
      private int lastSize;

      @Override
      public void operation(Blackhole blackhole) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
          gz.write(html);
        }
        byte[] gzipped = out.toByteArray();
        lastSize = gzipped.length;
        blackhole.consume(gzipped); // a @Benchmark method's return value
      }

      @Override
      public void report(Recorder recorder) {
        recorder.summary("gzip_bytes", Summary.constant(1, lastSize));
      }
    };
  }

  /** Repeated markup up to size bytes: compressible as real pages are. */
  static byte[] html(int size) {
    String row = "<tr><td class=\"name\">Versus</td><td class=\"value\">42</td></tr>\n";
    StringBuilder page = new StringBuilder("<html><body><table>\n");
    for (int i = 0; page.length() < size; i++) page.append(row.replace("42", Integer.toString(i)));
    return page.substring(0, size).getBytes(StandardCharsets.UTF_8);
  }
}
