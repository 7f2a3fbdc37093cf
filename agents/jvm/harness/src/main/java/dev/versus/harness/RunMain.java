package dev.versus.harness;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versus.workload.SettingsException;
import dev.versus.workload.Workload;
import java.nio.file.Path;

/**
 * A job's run by hand, as the agent runs it: reads {"workload", "settings"} from stdin, finds the
 * workload on this JVM's class path, runs it with {@link Harness#run} (settings checked, {@code
 * forks} fresh JVMs with this class path, merged) and writes {"run", "warnings"},
 * {"settingsError": {field, message}} or {"error"} to the file named by its argument; the forks'
 * log goes to stderr. bench/jvm-harness.ts runs the harness this way.
 */
public final class RunMain {
  private RunMain() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println("usage: java -cp <agent jar> dev.versus.harness.RunMain <result file>   (stdin: {\"workload\": …, \"settings\": {…}})");
      System.exit(2);
    }
    ObjectNode answer = Harness.MAPPER.createObjectNode();
    try {
      JsonNode request = Harness.MAPPER.readTree(System.in);
      String name = request.path("workload").asText();
      Workload workload = Workloads.find(name, ClassLoader.getSystemClassLoader())
          .orElseThrow(() -> new IllegalStateException("no workload named " + name + " on the class path"));
      JsonNode settings = request.path("settings").isObject() ? request.get("settings") : Harness.MAPPER.createObjectNode();
      RunResult result = Harness.run(workload, settings, RunOptions.defaults().withLog(System.err::println));
      answer.set("run", result.run());
      answer.set("warnings", Harness.MAPPER.valueToTree(result.warnings()));
    } catch (SettingsException e) {
      ObjectNode error = answer.putObject("settingsError");
      error.put("field", e.field());
      error.put("message", e.getMessage());
    } catch (RunFailedException e) {
      answer.put("error", e.getMessage());
    }
    Harness.MAPPER.writeValue(Path.of(args[0]).toFile(), answer);
  }
}
