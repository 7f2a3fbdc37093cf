package dev.versus.harness;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versus.workload.SettingsException;
import dev.versus.workload.Workload;
import java.nio.file.Path;

/**
 * The forked JVM's entry point (see {@link Fork}): reads {"workload", "settings"} from stdin,
 * finds the workload on its class path, runs it in this JVM (one fork, whatever the settings'
 * {@code forks}: {@link Fork} starts them one by one) and writes {"run", "warnings",
 * "iterationNsPerOperation"},
 * {"settingsError": {field, message}} or {"error"} to the file named by its argument. Log lines
 * go to stderr, where the parent reads them, and so do the measured window's two moments (a line
 * of the parent's random marker and "opened" or "closed").
 */
public final class ForkMain {
  private ForkMain() {}

  public static void main(String[] args) throws Exception {
    Path resultFile = Path.of(args[0]);
    ObjectNode answer = Harness.MAPPER.createObjectNode();
    try {
      JsonNode request = Harness.MAPPER.readTree(System.in);
      String name = request.path("workload").asText();
      Workload workload = Workloads.find(name, ClassLoader.getSystemClassLoader())
          .orElseThrow(() -> new IllegalStateException("no workload named " + name + " on the forked JVM's class path"));
      RunOptions options = RunOptions.inProcess().withLog(System.err::println);
      String marker = request.path("windowMarker").asText("");
      if (!marker.isEmpty()) options = options.withMeasuredWindow(Fork.markerWindow(marker));
      ForkMerge.ForkRun measured = InProcess.measure(workload, request.get("settings"), options.withFork(false));
      RunResult result = measured.result();
      ((ObjectNode) result.run().get("environment").get("harness")).put("forked", true);
      answer.set("run", result.run());
      answer.set("warnings", Harness.MAPPER.valueToTree(result.warnings()));
      answer.set("iterationNsPerOperation", Harness.MAPPER.valueToTree(measured.iterationNsPerOperation()));
    } catch (SettingsException e) {
      ObjectNode error = answer.putObject("settingsError");
      error.put("field", e.field());
      String prefix = e.field().isEmpty() ? "settings: " : "settings." + e.field() + ": ";
      error.put("message", e.getMessage().startsWith(prefix) ? e.getMessage().substring(prefix.length()) : e.getMessage());
    } catch (RunFailedException e) {
      if (e.getCause() != null) e.getCause().printStackTrace();
      answer.put("error", e.getMessage());
    } catch (Exception | Error e) {
      e.printStackTrace();
      answer.put("error", "the forked JVM failed: " + e);
    }
    Harness.MAPPER.writeValue(resultFile.toFile(), answer);
    System.err.flush();
    // A workload's non-daemon threads (an HTTP client's, say) must not keep the fork alive.
    System.exit(0);
  }
}
