package dev.versus.example;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versus.workload.Benchmark;
import dev.versus.workload.Direction;
import dev.versus.workload.MetricSpec;
import dev.versus.workload.Recorder;
import dev.versus.workload.Summary;
import dev.versus.workload.Workload;
import java.util.List;

/**
 * "My way vs yours": builds a CSV line from a record's fields with string concatenation, a
 * StringBuilder or String.format. Each variant of an experiment picks one {@code method}; the
 * harness times the operation and counts its allocation, so the comparison shows both.
 *
 * <p>A workload is three things: a name, a JSON Schema of its settings (the dashboard draws its form
 * from it), and {@link #prepare}, which turns settings into a {@link Benchmark} whose
 * {@code operation} the harness calls many times. Give what the operation computes to the
 * blackhole, or the JIT may skip the work.
 */
public final class StringBuildWorkload implements Workload {
  @Override
  public String name() {
    return "example-string-build";
  }

  @Override
  public String description() {
    return "Example plugin: build a CSV line with concatenation, a StringBuilder or String.format";
  }

  @Override
  public String settingsSchema() {
    return """
        {"type": "object", "additionalProperties": false, "properties": {
          "method": {"enum": ["concat", "builder", "format"], "default": "builder", "description": "How the line is built"},
          "fields": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 8, "description": "Fields in the line"}
        }}""";
  }

  @Override
  public List<MetricSpec> metrics() {
    return List.of(new MetricSpec("line_length", "B", Direction.LOWER_IS_BETTER, "Characters in the built line"));
  }

  @Override
  public Benchmark prepare(JsonNode settings) {
    String method = settings.path("method").asText("builder");
    int count = settings.path("fields").asInt(8);
    String[] fields = new String[count];
    for (int i = 0; i < count; i++) fields[i] = "field" + i;
    return new Benchmark() {
      private int length;

      @Override
      public void operation(dev.versus.workload.Blackhole blackhole) {
        String line = switch (method) {
          case "concat" -> concat(fields);
          case "format" -> format(fields);
          default -> builder(fields);
        };
        length = line.length();
        blackhole.consume(line);
      }

      @Override
      public void report(Recorder recorder) {
        recorder.summary("line_length", Summary.constant(1, length));
      }
    };
  }

  static String concat(String[] fields) {
    String line = "";
    for (int i = 0; i < fields.length; i++) line = i == 0 ? fields[i] : line + "," + fields[i];
    return line;
  }

  static String builder(String[] fields) {
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < fields.length; i++) {
      if (i > 0) line.append(',');
      line.append(fields[i]);
    }
    return line.toString();
  }

  static String format(String[] fields) {
    String line = "";
    for (int i = 0; i < fields.length; i++) line = i == 0 ? String.format("%s", fields[i]) : String.format("%s,%s", line, fields[i]);
    return line;
  }
}
