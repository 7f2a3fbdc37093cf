package dev.versus.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versus.harness.Harness;
import dev.versus.harness.RunOptions;
import dev.versus.workload.Workload;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class StringBuildWorkloadTest {
  @Test
  void serviceLoaderFindsTheWorkloadByItsName() {
    assertTrue(ServiceLoader.load(Workload.class).stream().anyMatch(p -> p.get().name().equals("example-string-build")));
  }

  @Test
  void everyMethodBuildsTheSameLine() throws Exception {
    String[] fields = {"a", "bb", "ccc"};
    assertEquals("a,bb,ccc", StringBuildWorkload.concat(fields));
    assertEquals("a,bb,ccc", StringBuildWorkload.builder(fields));
    assertEquals("a,bb,ccc", StringBuildWorkload.format(fields));
    ObjectNode settings = (ObjectNode) new ObjectMapper().readTree("{\"method\": \"format\", \"fields\": 3, \"steadyState\": false, \"warmupIterations\": 1, \"iterations\": 1, \"operationsPerIteration\": 10}");
    ObjectNode run = Harness.run(new StringBuildWorkload(), settings, RunOptions.inProcess()).run();
    assertTrue(run.get("metrics").toString().contains("\"key\":\"line_length\""));
  }
}
