package dev.versus.agent.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What one reading of a real JVM target costs the agent (HTTP, parsing, the presets' sums), in
 * CPU time of the reading thread: printed as the share of a core one probe at 1 Hz takes. A
 * figure to read, not asserted (the machine's load changes it); the readings themselves are.
 */
@Timeout(60)
class ProbeCostTest {
  @Test
  void oneReadingOfAJvmTargetAndItsCostAtOneHertz() throws Exception {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    try (TargetJvm target = new TargetJvm()) {
      ProbeSpec spec = ProbeSpec.parse(new ObjectMapper().readTree("{\"name\":\"app\",\"kind\":\"prometheus\",\"url\":\"" + target.metricsUrl() + "\",\"presets\":[\"jvm\"]}"), "probe");
      PrometheusProbe probe = new PrometheusProbe(spec);
      ProbeTrack track = new ProbeTrack(spec, probe.series());
      // Warm-up: the JIT compiles the parser and the client first, as in a long-running agent.
      for (int i = 0; i < 50; i++) probe.read();
      int readings = 100;
      long cpu = threads.getCurrentThreadCpuTime();
      int samples = 0;
      track.baseline(0, probe.read(), null);
      for (int i = 1; i <= readings; i++) {
        Exposition reading = probe.read();
        samples = reading.samples().size();
        track.interval(i, reading, null);
      }
      double msPerReading = (threads.getCurrentThreadCpuTime() - cpu) / 1e6 / (readings + 1);
      System.out.printf("probe cost: %.3f ms CPU per reading of a Micrometer target (%d samples) = %.3f %% of a core at 1 Hz (reading thread only; the HTTP client's selector thread is not counted)%n",
          msPerReading, samples, msPerReading / 1000 * 100);
      assertEquals(readings, track.metrics(java.time.Instant.now()).get(0).path("samples").size());
      assertTrue(samples > 20, "a JVM target's exposition has its samples: " + samples);
    }
  }
}
