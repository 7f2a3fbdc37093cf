package dev.versus.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.versus.agent.plugins.Plugins;
import dev.versus.agent.plugins.WorkloadFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Plugin jars: found, isolated, and a broken one skipped without stopping the rest. */
class PluginsTest {
  @TempDir Path dir;

  private Path jar(String name, Map<String, String> sources, String services) throws IOException {
    return TestPluginJars.jar(dir, dir.resolve("plugins"), name, sources, services);
  }

  private static String workload(String pkg, String cls, String name, String constructorBody) {
    return TestPluginJars.workload(pkg, cls, name, constructorBody);
  }

  @Test
  void brokenPluginsAreSkippedAndTheRestLoad() throws Exception {
    jar("good", Map.of("com.example.Good", workload("com.example", "Good", "good", "")), "com.example.Good\n");
    // Not a jar at all.
    Files.write(dir.resolve("plugins/garbage.jar"), new byte[] {1, 2, 3, 4, 5});
    // A services file naming a class that is not there, and one whose constructor throws.
    jar("missing", Map.of(), "com.example.Missing\n");
    jar("throws", Map.of("com.example.Throws", workload("com.example", "Throws", "throws", "throw new IllegalStateException(\"no licence\");")), "com.example.Throws\n");
    // A second workload named like the built-in "echo".
    jar("dupe", Map.of("com.example.Dupe", workload("com.example", "Dupe", "echo", "")), "com.example.Dupe\n");

    List<String> lines = new ArrayList<>();
    Plugins plugins = Plugins.load(dir.resolve("plugins"), PluginsTest.class.getClassLoader(), TestLogs.to(lines::add));

    assertTrue(plugins.builtIn().containsKey("echo"));
    assertEquals(List.of("good"), List.copyOf(plugins.discovered().keySet()));
    assertEquals(EchoWorkload.class, plugins.builtIn().get("echo").getClass(), "the built-in keeps its name");
    String log = String.join("\n", lines);
    assertTrue(log.contains("event=plugin.skipped jar=" + dir.resolve("plugins/garbage.jar") + " reason=\"not a readable jar"), log);
    assertTrue(log.contains("com.example.Missing"), log);
    assertTrue(log.contains("no licence"), log);
    assertTrue(log.contains("workload name \\\"echo\\\" is taken by dev.versus.agent.EchoWorkload"), log);

    WorkloadFactory factory = new WorkloadFactory(plugins);
    assertEquals("good", factory.find("good").name());
    // By class name (the JMH/slf4j style), through the class loader that sees every plugin jar.
    assertEquals("good", factory.find("com.example.Good").name());
    assertSame(factory.find("com.example.Good"), factory.find("com.example.Good"));
    assertSame(plugins.discovered().get("good").getClass(), plugins.classLoader().loadClass("com.example.Good"));
    assertEquals(4, plugins.jars().size(), "every readable jar is on the run's class path");
    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> factory.find("nope"));
    assertTrue(unknown.getMessage().contains("(it has echo"), unknown.getMessage());
  }

  @Test
  void theAgentAdvertisesAPluginsWorkloadAndStartsDespiteABrokenJar() throws Exception {
    jar("good", Map.of("com.example.Good", workload("com.example", "Good", "good", "")), "com.example.Good\n");
    Files.write(dir.resolve("plugins/broken.jar"), "not a zip".getBytes(StandardCharsets.UTF_8));
    try (FakeJobApi api = new FakeJobApi(); TestAgent agent = new TestAgent(TestAgent.config(api, dir, FakeJobApi.TOKEN, 0), TestRunner.quick())) {
      agent.awaitEvent("agent.ready");
      assertTrue(api.calls("register").get(0).body().path("capabilities").toString().contains("\"good\""));
      assertEquals(0, agent.stop());
    }
  }

  @Test
  void noPluginsDirectoryMeansTheBuiltInsOnly() {
    Plugins plugins = Plugins.load(dir.resolve("absent"), PluginsTest.class.getClassLoader(), TestLogs.silent());
    assertTrue(plugins.discovered().isEmpty());
    assertSame(PluginsTest.class.getClassLoader(), plugins.classLoader());
    assertTrue(plugins.builtIn().containsKey("json"), "the built-in workloads module is on the agent's class path");
  }
}
