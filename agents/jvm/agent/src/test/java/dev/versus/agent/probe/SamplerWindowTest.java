package dev.versus.agent.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

/**
 * The workload and the probes time the measured window on separate clocks, so the workload's end
 * can come a hair before the probes' last interval is due: that interval still counts, as in the
 * Go agent (a window of five intervals gives five values, not four).
 */
@Timeout(30)
class SamplerWindowTest {
  /** A target whose CPU counter grows by 0.1 s per reading: no network, only the window's timing is under test. */
  static final class CountingProbe extends Probe {
    private final AtomicInteger readings = new AtomicInteger();

    CountingProbe(ProbeSpec spec) {
      super(spec, new PrometheusProbe(spec).series());
    }

    @Override
    public Exposition read() throws ProbeException {
      int n = readings.getAndIncrement();
      try {
        return ExpositionParser.parse("# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total " + (n * 0.1) + "\n# TYPE process_resident_memory_bytes gauge\nprocess_resident_memory_bytes 1000\n");
      } catch (ExpositionParser.ParseException e) {
        throw new ProbeException(e.getMessage());
      }
    }
  }

  @Test
  void aWindowEndingJustShortOfItsLastIntervalKeepsIt() throws Exception {
    ProbeSpec spec = ProbeSpec.parse(new ObjectMapper().readTree("{\"name\":\"app\",\"kind\":\"prometheus\",\"url\":\"http://127.0.0.1:9/metrics\",\"presets\":[\"process\"],\"intervalSeconds\":0.5}"), "probe");
    Sampler sampler = new Sampler(List.of(new CountingProbe(spec)), List.of(), LoggerFactory.getLogger(SamplerWindowTest.class), "job");
    long opened = System.nanoTime();
    sampler.opened();
    // Five intervals of 500 ms, ended 15 ms early by the workload's clock.
    long end = opened + 5 * 500_000_000L - 15_000_000L;
    while (System.nanoTime() < end) Thread.sleep(Math.max(0, (end - System.nanoTime()) / 1_000_000));
    sampler.closed();
    Sampler.Result result = sampler.finish();
    JsonNode cpu = null;
    for (JsonNode metric : result.metrics()) if (metric.path("key").asText().equals("app.cpu_percent")) cpu = metric;
    assertEquals(5, cpu == null ? 0 : cpu.path("samples").size(), "values of app.cpu_percent: " + cpu + "; warnings " + result.warnings());
  }
}
