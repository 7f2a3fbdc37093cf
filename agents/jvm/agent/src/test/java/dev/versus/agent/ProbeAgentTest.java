package dev.versus.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versus.agent.api.ApiClient;
import dev.versus.agent.probe.ScriptedTarget;
import dev.versus.agent.probe.TargetJvm;
import dev.versus.agent.run.HarnessJobRunner;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Probes end to end: the agent claims a job with {@code job.probes} from the fake job API, checks
 * each probe before any load, samples the target over the measured window of a real workload
 * run and sends the probe metrics and warnings with the run. Targets are real: a JVM exposing
 * Micrometer's Prometheus registry, HTTP servers answering what a test scripts, processes the
 * test starts.
 */
@Timeout(90)
class ProbeAgentTest extends AgainstFakeJobApi {
  @TempDir Path dir;

  private static ObjectNode json(String text) throws IOException {
    return (ObjectNode) ApiClient.JSON.readTree(text);
  }

  private static JsonNode metric(JsonNode run, String key) {
    for (JsonNode metric : run.path("metrics")) if (metric.path("key").asText().equals(key)) return metric;
    throw new AssertionError("no metric " + key + " in " + run.path("metrics"));
  }

  private static List<Double> samples(JsonNode metric) {
    List<Double> values = new ArrayList<>();
    metric.path("samples").forEach(value -> values.add(value.asDouble()));
    return values;
  }

  /**
   * The run's warnings but the harness's about measured iterations that varied by a CV over 10%:
   * these runs of a few short iterations may carry it or not as the machine is busy (the harness's
   * MeasuredNoiseTest has it from fixed times); what these tests check is all the rest, exactly.
   */
  private static List<String> warningsBesideNoise(JsonNode run) {
    List<String> warnings = new ArrayList<>();
    for (JsonNode warning : run.path("warnings")) {
      if (!warning.asText().startsWith("the measured iterations' times per operation varied by a CV of ")) warnings.add(warning.asText());
    }
    return warnings;
  }

  /** Process-preset exposition whose CPU counter is cpuSeconds. */
  private static String processText(double cpuSeconds) {
    return "# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total " + cpuSeconds + "\n"
        + "# TYPE process_resident_memory_bytes gauge\nprocess_resident_memory_bytes 1.2345678E7\n";
  }

  private static String closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return Integer.toString(socket.getLocalPort());
    }
  }

  private TestAgent agent(boolean fork) {
    return new TestAgent(TestAgent.config(api, dir, FakeJobApi.TOKEN, 0), new HarnessJobRunner(TestLogs.silent(), fork));
  }

  @Test
  void advertisesTheProbeKindsItImplements() throws Exception {
    try (TestAgent agent = agent(false)) {
      JsonNode capabilities = api.await("register").body().path("capabilities");
      assertTrue(capabilities.toString().contains("\"probe:prometheus\""), capabilities.toString());
      assertEquals(System.getProperty("os.name").toLowerCase().contains("linux"), capabilities.toString().contains("\"probe:process\""), capabilities.toString());
      assertEquals(0, agent.stop());
    }
  }

  /**
   * The JVM target's GC count over the run is what its own GarbageCollectorMXBeans counted
   * between the window's first and last scrape, and the heap peak lies within what it read of
   * its own heap at those scrapes (the least it held, the most its pools held while scraped). The workload runs in a forked JVM, as jobs do.
   */
  @Test
  void measuresAJvmTargetsGcCountAndHeapAsItsOwnMxBeansSeeThem() throws Exception {
    try (TargetJvm target = new TargetJvm()) {
      ArrayNode probes = ApiClient.JSON.createArrayNode();
      probes.addObject().put("name", "app").put("kind", "prometheus").put("url", target.metricsUrl()).put("intervalSeconds", 0.2).putArray("presets").add("jvm");
      api.enqueueProbed("job1", "http", json("{\"url\":\"" + target.workUrl() + "\",\"threads\":2,\"steadyState\":false,\"warmupIterations\":1,\"warmupTime\":100,\"iterations\":6,\"iterationTime\":250}"), probes);
      JsonNode run;
      try (TestAgent agent = agent(true)) {
        run = api.await("complete").body().path("run");
        assertEquals(0, agent.stop());
      }
      JsonNode gc = metric(run, "app.gc_count");
      assertEquals("count", gc.path("unit").asText());
      assertEquals("sum", gc.path("aggregation").asText());
      assertEquals("lower_is_better", gc.path("direction").asText());
      int intervals = gc.path("timeSeries").path("values").size();
      assertTrue(intervals >= 2, "intervals: " + gc);
      assertEquals(200.0, gc.path("timeSeries").path("intervalMs").asDouble(), gc.toString());
      // The window's scrapes are the target's last intervals + 1 (the baseline first).
      List<TargetJvm.Scrape> scrapes = target.scrapes(intervals + 2);
      List<TargetJvm.Scrape> window = scrapes.subList(scrapes.size() - intervals - 1, scrapes.size());
      long mxbeanDelta = window.get(window.size() - 1).gcCount() - window.get(0).gcCount();
      double probed = samples(gc).stream().mapToDouble(Double::doubleValue).sum();
      JsonNode heap = metric(run, "app.heap_used_peak");
      double peak = samples(heap).stream().mapToDouble(Double::doubleValue).max().orElseThrow();
      long heapMin = window.stream().mapToLong(s -> Math.min(s.heapBefore(), s.heapAfter())).min().orElseThrow();
      long heapMax = window.stream().mapToLong(TargetJvm.Scrape::heapHigh).max().orElseThrow();
      System.out.printf("probe jvm: %d intervals of 200 ms; gc_count %.0f, target's MXBean delta %d; heap_used_peak %.0f B, target's heap %d..%d B; gc_time %.1f ms; threads_live %s%n",
          intervals, probed, mxbeanDelta, peak, heapMin, heapMax, samples(metric(run, "app.gc_time")).stream().mapToDouble(Double::doubleValue).sum(), samples(metric(run, "app.threads_live")));
      assertTrue(mxbeanDelta > 0, "the load made the target collect: " + window);
      assertEquals((double) mxbeanDelta, probed, "gc_count against the target's own MXBeans over the window's scrapes " + window);
      assertTrue(peak >= heapMin && peak <= heapMax, "heap_used_peak " + peak + " within the target's own " + heapMin + ".." + heapMax);
      assertEquals("max", heap.path("aggregation").asText());
      assertEquals("B", heap.path("unit").asText());
      assertEquals(List.of(), warningsBesideNoise(run), "no warnings: " + run.path("warnings"));
    }
  }

  /**
   * Micrometer 1.17 exports the JVM's CPU as process_cpu_time_ns_total and no resident memory:
   * the process preset reads the former as CPU seconds and leaves rss out, saying why on the run.
   */
  @Test
  void theProcessPresetReadsAMicrometerTargetsCpuTimeAndSaysWhyRssIsMissing() throws Exception {
    try (TargetJvm target = new TargetJvm()) {
      ArrayNode probes = ApiClient.JSON.createArrayNode();
      probes.addObject().put("name", "app").put("kind", "prometheus").put("url", target.metricsUrl()).put("intervalSeconds", 0.2).putArray("presets").add("process");
      api.enqueueProbed("job1", "http", json("{\"url\":\"" + target.workUrl() + "\",\"threads\":2,\"steadyState\":false,\"warmupIterations\":1,\"warmupTime\":100,\"iterations\":4,\"iterationTime\":250}"), probes);
      JsonNode run;
      try (TestAgent agent = agent(true)) {
        run = api.await("complete").body().path("run");
        assertEquals(0, agent.stop());
      }
      JsonNode cpu = metric(run, "app.cpu_percent");
      assertEquals("%", cpu.path("unit").asText());
      List<Double> values = samples(cpu);
      System.out.println("probe process on Micrometer: cpu_percent " + values);
      assertFalse(values.isEmpty(), cpu.toString());
      values.forEach(value -> assertTrue(value >= 0, cpu.toString()));
      // The target serves load on two threads: its CPU time grew over the window.
      assertTrue(values.stream().mapToDouble(Double::doubleValue).sum() > 0, cpu.toString());
      for (JsonNode m : run.path("metrics")) assertFalse(m.path("key").asText().startsWith("app.rss"), run.path("metrics").toString());
      assertEquals(List.of("probe \"app\": preset process: the target has no process_resident_memory_bytes series, so rss and rss_peak are not reported; a process probe reads its RSS from /proc on the target's host"),
          warningsBesideNoise(run), run.path("warnings").toString());
    }
  }

  @Test
  void anUnreachableProbeFailsTheJobBeforeAnyLoad() throws Exception {
    try (ScriptedTarget load = new ScriptedTarget(n -> "")) {
      String url = "http://127.0.0.1:" + closedPort() + "/metrics";
      ArrayNode probes = ApiClient.JSON.createArrayNode();
      probes.addObject().put("name", "app-1").put("kind", "prometheus").put("url", url);
      api.enqueueProbed("job1", "http", json("{\"url\":\"" + load.workUrl() + "\",\"steadyState\":false,\"warmupTime\":100,\"iterations\":2,\"iterationTime\":100}"), probes);
      try (TestAgent agent = agent(false)) {
        JsonNode fail = api.await("fail").body();
        assertEquals("probe \"app-1\": GET " + url + ": connection refused", fail.path("error").asText());
        assertFalse(fail.path("retryable").asBoolean(true));
        assertEquals(0, agent.stop());
      }
      assertEquals(0, load.requests(), "no load was sent");
    }
  }

  @Test
  void aPresetWhoseSeriesIsAbsentFailsTheJobNamingIt() throws Exception {
    try (ScriptedTarget metrics = new ScriptedTarget(n -> processText(n)); ScriptedTarget load = new ScriptedTarget(n -> "")) {
      ArrayNode probes = ApiClient.JSON.createArrayNode();
      probes.addObject().put("name", "app-1").put("kind", "prometheus").put("url", metrics.metricsUrl()).putArray("presets").add("process").add("jvm");
      api.enqueueProbed("job1", "http", json("{\"url\":\"" + load.workUrl() + "\",\"steadyState\":false,\"warmupTime\":100,\"iterations\":2,\"iterationTime\":100}"), probes);
      try (TestAgent agent = agent(false)) {
        JsonNode fail = api.await("fail").body();
        assertEquals("probe \"app-1\": preset jvm: no jvm_memory_used_bytes{area=\"heap\"} series", fail.path("error").asText());
        assertFalse(fail.path("retryable").asBoolean(true));
        assertEquals(0, agent.stop());
      }
      assertEquals(0, load.requests(), "no load was sent");
    }
  }

  private static final Pattern GAP = Pattern.compile("probe \"app\" did not answer for (\\d+) of (\\d+) intervals \\(0\\.4 s – ([0-9.]+) s\\): GET (\\S+): connection refused");
  /** The harness's warning for these jobs' warmupIterations: 0 (the http workload times every request alone). */
  private static final String NO_WARMUP = "no warm-up iterations: the JIT compiled during the measured ones, and every operation was timed alone";

  /** Answers the check, the baseline and four intervals, then stops (scrape 7 on is refused). */
  private static String stopsAfterFourIntervals(int n) {
    return n <= 6 ? processText(n * 0.01) : null;
  }

  @Test
  void anEndpointThatStopsMidRunLeavesAGapAndAWarning() throws Exception {
    try (ScriptedTarget metrics = new ScriptedTarget(ProbeAgentTest::stopsAfterFourIntervals); ScriptedTarget load = new ScriptedTarget(n -> "")) {
      ArrayNode probes = ApiClient.JSON.createArrayNode();
      probes.addObject().put("name", "app").put("kind", "prometheus").put("url", metrics.metricsUrl()).put("intervalSeconds", 0.1);
      api.enqueueProbed("job1", "http", json("{\"url\":\"" + load.workUrl() + "\",\"warmupIterations\":0,\"iterations\":20,\"iterationTime\":100}"), probes);
      JsonNode run;
      try (TestAgent agent = agent(false)) {
        run = api.await("complete").body().path("run");
        assertEquals(0, agent.stop());
      }
      assertTrue(load.requests() > 0);
      List<String> warnings = warningsBesideNoise(run);
      // The harness's own warning first (this job has no warm-up), then the probe's.
      assertEquals(2, warnings.size(), warnings.toString());
      assertEquals(NO_WARMUP, warnings.get(0));
      Matcher gap = GAP.matcher(warnings.get(1));
      assertTrue(gap.matches(), warnings.get(1));
      int missed = Integer.parseInt(gap.group(1));
      int intervals = Integer.parseInt(gap.group(2));
      assertEquals(intervals - 4, missed);
      assertEquals(metrics.metricsUrl(), gap.group(4));
      JsonNode cpu = metric(run, "app.cpu_percent");
      assertEquals(4, cpu.path("samples").size(), cpu.toString());
      // The values keep their place in the window: offsets, not an interval, once one is missing.
      assertEquals("[0.0,100.0,200.0,300.0]", cpu.path("timeSeries").path("offsetsMs").toString());
      samples(cpu).forEach(value -> assertTrue(value > 0, cpu.toString()));
      System.out.println("probe gap: " + warnings.get(1));
    }
  }

  @Test
  void aRequiredProbeWithAGapFailsTheJob() throws Exception {
    try (ScriptedTarget metrics = new ScriptedTarget(ProbeAgentTest::stopsAfterFourIntervals); ScriptedTarget load = new ScriptedTarget(n -> "")) {
      ArrayNode probes = ApiClient.JSON.createArrayNode();
      probes.addObject().put("name", "app").put("kind", "prometheus").put("url", metrics.metricsUrl()).put("intervalSeconds", 0.1).put("required", true);
      api.enqueueProbed("job1", "http", json("{\"url\":\"" + load.workUrl() + "\",\"warmupIterations\":0,\"iterations\":20,\"iterationTime\":100}"), probes);
      try (TestAgent agent = agent(false)) {
        JsonNode fail = api.await("fail").body();
        assertTrue(GAP.matcher(fail.path("error").asText()).matches(), fail.toString());
        // The probe answered at the start: another attempt may get a whole window (the Go agent says the same).
        assertTrue(fail.path("retryable").asBoolean(false), fail.toString());
        assertEquals(0, agent.stop());
      }
      assertEquals(0, api.calls("complete").size());
    }
  }

  @Test
  void aCounterThatGoesDownIsFlaggedAndNeverANegativeCpu() throws Exception {
    // Scrape 6 (the fourth interval) comes from a restarted target: its CPU counter starts again.
    try (ScriptedTarget metrics = new ScriptedTarget(n -> processText(n <= 5 ? 10 + n * 0.02 : (n - 5) * 0.02)); ScriptedTarget load = new ScriptedTarget(n -> "")) {
      ArrayNode probes = ApiClient.JSON.createArrayNode();
      probes.addObject().put("name", "app").put("kind", "prometheus").put("url", metrics.metricsUrl()).put("intervalSeconds", 0.1);
      api.enqueueProbed("job1", "http", json("{\"url\":\"" + load.workUrl() + "\",\"warmupIterations\":0,\"iterations\":10,\"iterationTime\":100}"), probes);
      JsonNode run;
      try (TestAgent agent = agent(false)) {
        run = api.await("complete").body().path("run");
        assertEquals(0, agent.stop());
      }
      List<String> warnings = warningsBesideNoise(run);
      assertEquals(List.of(NO_WARMUP, "probe \"app\": process_cpu_seconds_total went down at 0.4 s (target restarted?); the interval was skipped"), warnings, run.path("warnings").toString());
      JsonNode cpu = metric(run, "app.cpu_percent");
      int intervals = metric(run, "app.rss").path("samples").size();
      assertEquals(intervals - 1, cpu.path("samples").size(), "the reset interval is skipped: " + cpu);
      samples(cpu).forEach(value -> assertTrue(value > 0, "no negative CPU: " + cpu));
      assertEquals(12345678.0, samples(metric(run, "app.rss_peak")).get(0));
      System.out.println("probe reset: cpu_percent " + samples(cpu) + "; " + warnings.get(1));
    }
  }

  /** A copy of a system binary under a name no other process has (the kernel keeps 15 characters). */
  private Path uniqueBinary(String of) throws IOException {
    Path copy = dir.resolve("vp" + Long.toHexString(System.nanoTime() & 0xffffffffL));
    Files.copy(Path.of(of), copy);
    copy.toFile().setExecutable(true);
    return copy;
  }

  private static double cpuSeconds(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" +");
    return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / 100.0;
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  void aProcessProbeByNameMeasuresTheProcessTheTestStarted() throws Exception {
    Path yes = uniqueBinary("/usr/bin/yes");
    Process busy = new ProcessBuilder(yes.toString()).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    try (ScriptedTarget load = new ScriptedTarget(n -> "")) {
      ArrayNode probes = ApiClient.JSON.createArrayNode();
      probes.addObject().put("name", "busy").put("kind", "process").put("intervalSeconds", 0.2).putObject("match").put("name", yes.getFileName().toString());
      double before = cpuSeconds(busy.pid());
      api.enqueueProbed("job1", "http", json("{\"url\":\"" + load.workUrl() + "\",\"warmupIterations\":0,\"iterations\":5,\"iterationTime\":200}"), probes);
      JsonNode run;
      try (TestAgent agent = agent(false)) {
        run = api.await("complete").body().path("run");
        assertEquals(0, agent.stop());
      }
      double spent = cpuSeconds(busy.pid()) - before;
      List<Double> cpu = samples(metric(run, "busy.cpu_percent"));
      // CPU seconds the probe saw over the window: never more than the process used over the whole job.
      double seen = cpu.stream().mapToDouble(percent -> percent / 100 * 0.2).sum();
      System.out.printf("probe process: cpu_percent %s (%.2f CPU s in the window; %.2f CPU s over the whole job), rss %s B, threads %s%n",
          cpu, seen, spent, samples(metric(run, "busy.rss")), samples(metric(run, "busy.threads")));
      assertTrue(seen > 0 && seen <= spent * 1.1 + 0.02, "seen " + seen + " of " + spent);
      samples(metric(run, "busy.threads")).forEach(threads -> assertEquals(1.0, threads));
      samples(metric(run, "busy.rss_peak")).forEach(rss -> assertTrue(rss > 0));
      assertEquals("%", metric(run, "busy.cpu_percent_max").path("unit").asText());
    } finally {
      busy.destroyForcibly().waitFor();
    }
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  void aNameSeveralProcessesHaveFailsTheJobNamingThem() throws Exception {
    Path sleep = uniqueBinary("/bin/sleep");
    Process one = new ProcessBuilder(sleep.toString(), "60").start();
    Process two = new ProcessBuilder(sleep.toString(), "61").start();
    try (ScriptedTarget load = new ScriptedTarget(n -> "")) {
      String name = sleep.getFileName().toString();
      ArrayNode probes = ApiClient.JSON.createArrayNode();
      probes.addObject().put("name", "db").put("kind", "process").putObject("match").put("name", name);
      api.enqueueProbed("job1", "http", json("{\"url\":\"" + load.workUrl() + "\",\"steadyState\":false,\"warmupTime\":100,\"iterations\":2,\"iterationTime\":100}"), probes);
      try (TestAgent agent = agent(false)) {
        JsonNode fail = api.await("fail").body();
        long low = Math.min(one.pid(), two.pid());
        long high = Math.max(one.pid(), two.pid());
        assertEquals("probe \"db\": 2 processes named \"" + name + "\", say which with a pid or a narrower pattern: "
            + low + " (" + sleep + " " + (low == one.pid() ? "60" : "61") + "), " + high + " (" + sleep + " " + (high == one.pid() ? "60" : "61") + ")", fail.path("error").asText());
        assertFalse(fail.path("retryable").asBoolean(true));
        assertEquals(0, agent.stop());
      }
      assertEquals(0, load.requests(), "no load was sent");
    } finally {
      one.destroyForcibly().waitFor();
      two.destroyForcibly().waitFor();
    }
  }

  @Test
  void aCancelledJobStopsItsProbes() throws Exception {
    try (ScriptedTarget metrics = new ScriptedTarget(n -> processText(n * 0.01)); ScriptedTarget load = new ScriptedTarget(n -> "")) {
      ArrayNode probes = ApiClient.JSON.createArrayNode();
      probes.addObject().put("name", "app").put("kind", "prometheus").put("url", metrics.metricsUrl()).put("intervalSeconds", 0.1);
      // Long enough that only the cancel ends it; the cancel comes once the probe is sampling.
      api.enqueueProbed("job1", "http", json("{\"url\":\"" + load.workUrl() + "\",\"warmupIterations\":0,\"iterations\":600,\"iterationTime\":100}"), probes);
      api.answer(call -> call.action().equals("lease") && metrics.scrapes() > 5 ? new FakeJobApi.Answer(200, "{\"cancelRequested\":true}") : null);
      try (TestAgent agent = agent(false)) {
        JsonNode fail = api.await("fail").body();
        assertTrue(fail.path("cancelled").asBoolean(), fail.toString());
        int after = metrics.scrapes();
        Thread.sleep(500);
        assertEquals(after, metrics.scrapes(), "no reading after the job ended");
        assertEquals(0, agent.stop());
      }
    }
  }

  @Test
  void aJobWithoutProbesHasNoProbeMetricsNorWarnings() throws Exception {
    try (ScriptedTarget load = new ScriptedTarget(n -> "")) {
      api.enqueueProbed("job1", "http", json("{\"url\":\"" + load.workUrl() + "\",\"steadyState\":false,\"warmupTime\":100,\"iterations\":2,\"iterationTime\":100}"), ApiClient.JSON.createArrayNode());
      JsonNode run;
      try (TestAgent agent = agent(false)) {
        run = api.await("complete").body().path("run");
        assertEquals(0, agent.stop());
      }
      assertEquals(List.of(), warningsBesideNoise(run), run.path("warnings").toString());
      run.path("metrics").forEach(metric -> assertFalse(metric.path("key").asText().contains("."), metric.toString()));
      assertNotNull(metric(run, "latency"));
    }
  }
}
