package dev.versus.agent.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Interval values from readings, without a clock: the arithmetic of every preset and aggregation. */
class ProbeTrackTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static ProbeSpec spec(String json) throws Exception {
    return ProbeSpec.parse(JSON.readTree(json), "probe");
  }

  private static Exposition text(String text) throws Exception {
    return ExpositionParser.parse(text);
  }

  private static JsonNode metric(ArrayNode metrics, String key) {
    for (JsonNode metric : metrics) if (metric.path("key").asText().equals(key)) return metric;
    throw new AssertionError("no " + key + " in " + metrics);
  }

  /** Micrometer's CPU time in ns is read as CPU seconds, under its own name (a reset warning names it). */
  @Test
  void theProcessPresetFallsBackToCpuTimeInNanoseconds() throws Exception {
    ProbeSpec app = spec("{\"name\":\"app\",\"kind\":\"prometheus\",\"url\":\"http://h/metrics\",\"presets\":[\"process\"],\"intervalSeconds\":2}");
    List<String> notes = new ArrayList<>();
    String page = "# TYPE process_cpu_time_ns_total counter\nprocess_cpu_time_ns_total 1.19E9\n";
    List<Presets.Named> settled = Probes.settle(app, Presets.of(app.presets(), app.series()), text(page), notes);
    assertEquals(List.of("process_cpu_time_ns_total"), settled.stream().map(named -> named.series().source()).toList());
    ProbeTrack track = new ProbeTrack(app, settled);
    track.baseline(0, text(page), null);
    track.interval(2, text("process_cpu_time_ns_total 2.19E9\n"), null);
    assertEquals(50.0, metric(track.metrics(Instant.EPOCH), "app.cpu_percent").path("samples").get(0).asDouble(), 1e-9);
    assertEquals(List.of("probe \"app\": preset process: the target has no process_resident_memory_bytes series, so rss and rss_peak are not reported; a process probe reads its RSS from /proc on the target's host"), notes);
  }

  @Test
  void aProcessPresetWithNoCpuSeriesNamesBoth() throws Exception {
    ProbeSpec app = spec("{\"name\":\"app\",\"kind\":\"prometheus\",\"url\":\"http://h/metrics\",\"presets\":[\"process\"]}");
    Probe.ProbeException refused = assertThrows(Probe.ProbeException.class, () -> Probes.settle(app, Presets.of(app.presets(), app.series()), text("up 1\n"), new ArrayList<>()));
    assertEquals("preset process: no process_cpu_seconds_total or process_cpu_time_ns_total series", refused.getMessage());
  }

  @Test
  void nodeHostCpuIsTheShareOfNonIdleTimeOverAllCpus() throws Exception {
    ProbeSpec node = spec("{\"name\":\"host\",\"kind\":\"prometheus\",\"url\":\"http://h:9100/metrics\",\"presets\":[\"node\"],\"intervalSeconds\":2}");
    ProbeTrack track = new ProbeTrack(node, Presets.of(node.presets(), node.series()));
    String memory = "node_memory_MemTotal_bytes 1000\nnode_memory_MemAvailable_bytes 400\n";
    track.baseline(0, text("node_cpu_seconds_total{cpu=\"0\",mode=\"idle\"} 10\nnode_cpu_seconds_total{cpu=\"0\",mode=\"user\"} 5\nnode_cpu_seconds_total{cpu=\"1\",mode=\"idle\"} 10\n" + memory), null);
    // 4 CPU seconds passed over two CPUs, 1 of them idle: 75 % busy.
    track.interval(2, text("node_cpu_seconds_total{cpu=\"0\",mode=\"idle\"} 10.5\nnode_cpu_seconds_total{cpu=\"0\",mode=\"user\"} 8\nnode_cpu_seconds_total{cpu=\"1\",mode=\"idle\"} 10.5\n" + memory), null);
    ArrayNode metrics = track.metrics(Instant.parse("2030-01-01T00:00:00Z"));
    assertEquals("[75.0]", metric(metrics, "host.host_cpu_percent").path("samples").toString());
    assertEquals("max", metric(metrics, "host.host_cpu_percent_max").path("aggregation").asText());
    assertEquals("[600.0]", metric(metrics, "host.host_memory_used_peak").path("samples").toString());
    assertEquals(2000.0, metric(metrics, "host.host_cpu_percent").path("timeSeries").path("intervalMs").asDouble());
  }

  @Test
  void customSeriesMatchLabelsAndAggregateAsAsked() throws Exception {
    ProbeSpec app = spec("""
        {"name":"app","kind":"prometheus","url":"http://h/metrics","presets":[],"intervalSeconds":0.5,"series":[
          {"key":"orders_rate","metric":"orders_total","labels":{"queue":"a"},"aggregation":"rate","unit":"1/s","direction":"higher_is_better"},
          {"key":"orders","metric":"orders_total","aggregation":"delta","unit":"count","direction":"higher_is_better"},
          {"key":"depth","metric":"depth","aggregation":"max","unit":"count","direction":"lower_is_better"}]}""");
    ProbeTrack track = new ProbeTrack(app, Presets.of(app.presets(), app.series()));
    track.baseline(0, text("orders_total{queue=\"a\"} 10\norders_total{queue=\"b\"} 1\ndepth 3\n"), null);
    track.interval(0.5, text("orders_total{queue=\"a\"} 12\norders_total{queue=\"b\"} 2\ndepth 5\n"), null);
    track.interval(1.0, text("orders_total{queue=\"a\"} 13\norders_total{queue=\"b\"} 2\ndepth 4\n"), null);
    ArrayNode metrics = track.metrics(Instant.parse("2030-01-01T00:00:00Z"));
    JsonNode rate = metric(metrics, "app.orders_rate");
    assertEquals("[4.0,2.0]", rate.path("samples").toString());
    assertEquals("mean", rate.path("aggregation").asText());
    assertEquals("higher_is_better", rate.path("direction").asText());
    JsonNode delta = metric(metrics, "app.orders");
    assertEquals("[3.0,1.0]", delta.path("samples").toString());
    assertEquals("sum", delta.path("aggregation").asText());
    assertEquals("[5.0,4.0]", metric(metrics, "app.depth").path("samples").toString());
    assertNull(track.gapWarning());
  }

  @Test
  void aGapSpansCountersAcrossItAndIsWordedAsTheProtocolSays() throws Exception {
    ProbeSpec jvm = spec("{\"name\":\"app-1\",\"kind\":\"prometheus\",\"url\":\"http://h/metrics\",\"presets\":[\"jvm\"]}");
    ProbeTrack track = new ProbeTrack(jvm, Presets.of(jvm.presets(), jvm.series()));
    String heap = "jvm_memory_used_bytes{area=\"heap\",id=\"eden\"} 100\njvm_memory_used_bytes{area=\"heap\",id=\"old\"} 50\njvm_memory_used_bytes{area=\"nonheap\",id=\"meta\"} 7\njvm_threads_live_threads 9\n";
    // No GC yet: Micrometer has no jvm_gc_pause series, which counts as none so far.
    track.baseline(0, text(heap), null);
    track.interval(1, text(heap + "jvm_gc_pause_seconds_count{gc=\"young\"} 2\njvm_gc_pause_seconds_sum{gc=\"young\"} 0.004\n"), null);
    track.interval(2, null, "GET http://h/metrics: HTTP 503");
    track.interval(3, null, "GET http://h/metrics: connection refused");
    track.interval(4, text(heap + "jvm_gc_pause_seconds_count{gc=\"young\"} 5\njvm_gc_pause_seconds_count{gc=\"old\"} 1\njvm_gc_pause_seconds_sum{gc=\"young\"} 0.01\njvm_gc_pause_seconds_sum{gc=\"old\"} 0.1\n"), null);
    assertEquals("probe \"app-1\" did not answer for 2 of 4 intervals (1 s – 3 s): GET http://h/metrics: connection refused", track.gapWarning());
    ArrayNode metrics = track.metrics(Instant.parse("2030-01-01T00:00:00Z"));
    // The collections during the gap are counted once the target answers again: none is lost.
    assertEquals("[2.0,4.0]", metric(metrics, "app-1.gc_count").path("samples").toString());
    assertEquals(106.0, metric(metrics, "app-1.gc_time").path("samples").get(1).asDouble(), 1e-9);
    assertEquals("[150.0,150.0]", metric(metrics, "app-1.heap_used_peak").path("samples").toString());
    assertEquals("[0.0,3000.0]", metric(metrics, "app-1.heap_used").path("timeSeries").path("offsetsMs").toString());
    assertEquals(List.of(), track.warnings());
  }
}
