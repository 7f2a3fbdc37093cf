package dev.versus.workloads;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versus.harness.RunOptions;
import dev.versus.workload.SettingsException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
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
    assertTrue(Runs.metric(run, "cpu_percent_max").has("summary"));
    assertTrue(run.get("environment").get("jceProvider").asText().startsWith("SunJCE"));
  }

  @Test
  void anUnknownProviderNamesProviderAndListsTheAvailableOnes() {
    SettingsException e = assertThrows(SettingsException.class, () -> Runs.run(new CipherWorkload(), "{\"provider\": \"NoSuchProvider\"}"));
    assertEquals("provider", e.field());
    assertTrue(e.getMessage().contains("no JCE provider named NoSuchProvider; available: ") && e.getMessage().contains("SunJCE"), e.getMessage());
    assertTrue(e.getMessage().matches(".*available: .*\\bBC\\b.*"), "Bouncy Castle ships with the workloads: " + e.getMessage());
  }

  /**
   * SunJCE and Bouncy Castle, each found by name, encrypt what the other decrypts back (AES-GCM is
   * one standard), and the workload runs with each, saying which provider it used.
   */
  @Test
  void sunJceAndBouncyCastleAreChosenByNameAndRoundTripEachOthersCiphertext() throws Exception {
    byte[] plaintext = new byte[100_000];
    new java.util.Random(7).nextBytes(plaintext);
    javax.crypto.spec.SecretKeySpec key = new javax.crypto.spec.SecretKeySpec(new byte[32], "AES");
    javax.crypto.spec.GCMParameterSpec iv = new javax.crypto.spec.GCMParameterSpec(128, new byte[12]);
    for (String[] pair : new String[][] {{"SunJCE", "BC"}, {"BC", "SunJCE"}}) {
      java.security.Provider from = JceProviders.find(pair[0]).orElseThrow();
      java.security.Provider to = JceProviders.find(pair[1]).orElseThrow();
      assertEquals(pair[0], from.getName());
      javax.crypto.Cipher encrypt = javax.crypto.Cipher.getInstance(CipherWorkload.TRANSFORMATION, from);
      encrypt.init(javax.crypto.Cipher.ENCRYPT_MODE, key, iv);
      byte[] sealed = encrypt.doFinal(plaintext);
      assertEquals(plaintext.length + 16, sealed.length, "ciphertext and a 128-bit tag");
      assertTrue(!java.util.Arrays.equals(plaintext, java.util.Arrays.copyOf(sealed, plaintext.length)), pair[0] + " left the plaintext as it was");
      assertArrayEquals(plaintext, CipherWorkload.roundTrip(from, key, plaintext), pair[0] + " decrypting its own");
      javax.crypto.Cipher decrypt = javax.crypto.Cipher.getInstance(CipherWorkload.TRANSFORMATION, to);
      decrypt.init(javax.crypto.Cipher.DECRYPT_MODE, key, iv);
      assertArrayEquals(plaintext, decrypt.doFinal(sealed), pair[1] + " decrypting " + pair[0] + "'s");
    }
    for (String name : new String[] {"SunJCE", "BC"}) {
      ObjectNode run = Runs.run(new CipherWorkload(), "{\"provider\": \"" + name + "\", " + SMALL + "}");
      assertTrue(run.get("environment").get("jceProvider").asText().startsWith(name + " "), run.get("environment").toString());
      assertEquals(40, Runs.metric(run, "encrypt_time").get("summary").get("n").asLong());
    }
  }

  /**
   * In a forked JVM, as the agent runs it: the JVM's CPU % over the measured iterations (mean),
   * its busiest second (max) and one value per whole second, each between 0 and 100 x cores.
   */
  @Test
  void aForkedRunReportsItsCpuPercentMeanMaxAndPerSecondSeries() throws Exception {
    // One fork: its series and its busiest second (several forks' runs keep the first fork's series, ForkMergeTest).
    String settings = "{\"provider\": \"BC\", \"sizeMB\": 0.25, \"forks\": 1, \"steadyState\": false, \"warmupIterations\": 1, \"warmupTime\": 200, \"iterations\": 3, \"iterationTime\": 1000}";
    ObjectNode run = Runs.run(new CipherWorkload(), settings, RunOptions.defaults());
    double ceiling = 100.0 * Runtime.getRuntime().availableProcessors();
    JsonNode cpu = Runs.metric(run, "cpu_percent");
    assertEquals("%", cpu.get("unit").asText());
    assertEquals("lower_is_better", cpu.get("direction").asText());
    double mean = cpu.get("summary").get("mean").asDouble();
    assertTrue(mean > 0 && mean <= ceiling, "cpu_percent " + mean + " of at most " + ceiling);
    JsonNode series = cpu.get("timeSeries");
    assertEquals(1000.0, series.get("intervalMs").asDouble());
    assertTrue(Instant.parse(series.get("startedAt").asText()).isAfter(Instant.parse(run.get("startedAt").asText())), "the series starts with the measured window, after warm-up: " + series);
    // 3 s measured: 2 or 3 whole seconds (the sampler's last read may land just after the end).
    assertTrue(series.get("values").size() >= 2 && series.get("values").size() <= 3, series.toString());
    double highest = 0;
    for (JsonNode v : series.get("values")) {
      assertTrue(v.asDouble() >= 0 && v.asDouble() <= ceiling * 1.05, "a second's CPU % " + v + " of at most " + ceiling);
      highest = Math.max(highest, v.asDouble());
    }
    JsonNode max = Runs.metric(run, "cpu_percent_max");
    assertEquals("%", max.get("unit").asText());
    assertEquals("max", max.get("aggregation").asText());
    assertEquals(highest, max.get("summary").get("mean").asDouble(), 1e-9, "the busiest second");
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
