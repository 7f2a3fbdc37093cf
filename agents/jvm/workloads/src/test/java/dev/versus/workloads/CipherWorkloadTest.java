package dev.versus.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versus.harness.RunOptions;
import dev.versus.workload.SettingsException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CipherWorkloadTest {
  private static final String SMALL = "\"sizeMB\": 0.0625, " + Runs.BRIEF;

  @Test
  void theDefaultProviderEncryptsAndReportsMegabytesPerSecond() throws Exception {
    ObjectNode run = Runs.run(new CipherWorkload(), "{" + SMALL + "}");
    assertEquals("ms", Runs.metric(run, "encrypt_time").get("unit").asText());
    assertEquals(2, Runs.metric(run, "data_rate").get("samples").size());
    assertEquals("MB/s", Runs.metric(run, "data_rate").get("unit").asText());
    assertTrue(Runs.metric(run, "cpu_time").has("summary"));
    assertTrue(run.get("environment").get("jceProvider").asText().startsWith("SunJCE"));
  }

  @Test
  void anUnknownProviderNamesProviderAndListsTheAvailableOnes() {
    SettingsException e = assertThrows(SettingsException.class, () -> Runs.run(new CipherWorkload(), "{\"provider\": \"NoSuchProvider\"}"));
    assertEquals("provider", e.field());
    assertTrue(e.getMessage().contains("no JCE provider named NoSuchProvider; available: ") && e.getMessage().contains("SunJCE"), e.getMessage());
  }

  @Test
  void aProviderThatDoesNotDoAesGcmNamesProvider() {
    SettingsException e = assertThrows(SettingsException.class, () -> Runs.run(new CipherWorkload(), "{\"provider\": \"SUN\"}"));
    assertEquals("provider", e.field());
    assertTrue(e.getMessage().contains("does not offer AES/GCM/NoPadding"), e.getMessage());
  }

  /** As a provider jar in the agent's plugins directory: seen only through the plugins' class loader. */
  @Test
  void aProviderFromAPluginClassLoaderIsSelectableByName(@TempDir Path plugin) throws Exception {
    Path services = plugin.resolve("META-INF/services");
    Files.createDirectories(services);
    Files.writeString(services.resolve("java.security.Provider"), DelegatingProvider.class.getName() + "\n");
    String settings = "{\"provider\": \"VersusTest\", " + SMALL + "}";
    assertThrows(SettingsException.class, () -> Runs.run(new CipherWorkload(), settings), "not without the plugin's loader");
    try (URLClassLoader plugins = new URLClassLoader(new URL[] {plugin.toUri().toURL()}, getClass().getClassLoader())) {
      ObjectNode run = Runs.run(new CipherWorkload(), settings, RunOptions.inProcess().withClassLoader(plugins));
      assertTrue(run.get("environment").get("jceProvider").asText().startsWith("VersusTest"));
      assertEquals(40, Runs.metric(run, "encrypt_time").get("summary").get("n").asLong());
    }
  }
}
