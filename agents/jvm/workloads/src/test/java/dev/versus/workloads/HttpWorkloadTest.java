package dev.versus.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.versus.workload.SettingsException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class HttpWorkloadTest {
  private HttpServer server;
  private final AtomicInteger served = new AtomicInteger();
  private String base;

  @BeforeEach
  void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", exchange -> {
      served.incrementAndGet();
      byte[] body = "ok".getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(exchange.getRequestURI().getPath().equals("/missing") ? 404 : 200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.setExecutor(Executors.newFixedThreadPool(4));
    server.start();
    base = "http://127.0.0.1:" + server.getAddress().getPort();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  void virtualUsersSendTheCountedRequestsAndTheLatencyHistogramHasThemAll() throws Exception {
    ObjectNode run = Runs.run(new HttpWorkload(), "{\"url\": \"" + base + "/\", \"threads\": 3, \"steadyState\": false, \"warmupIterations\": 1, \"iterations\": 2, \"operationsPerIteration\": 10}");
    assertEquals(90, served.get(), "3 users x (1 + 2) iterations x 10 requests");
    assertEquals(60, Runs.metric(run, "latency").get("summary").get("n").asLong());
    assertEquals("ms", Runs.metric(run, "latency").get("unit").asText());
    assertEquals(0, Runs.metric(run, "error_count").get("summary").get("mean").asLong());
  }

  @Test
  void errorResponsesAreCountedAndWarnedAbout() throws Exception {
    ObjectNode run = Runs.run(new HttpWorkload(), "{\"url\": \"" + base + "/missing\", " + Runs.BRIEF + "}");
    assertEquals(60, Runs.metric(run, "error_count").get("summary").get("mean").asLong());
    // Among the run's warnings, wherever the harness's own (a noisy machine's, say) put it.
    String warnings = run.get("environment").get("warnings").toString();
    assertTrue(warnings.contains("60 of 60"), warnings);
  }

  @Test
  void aUrlWithoutHttpNamesUrl() {
    SettingsException e = assertThrows(SettingsException.class, () -> Runs.run(new HttpWorkload(), "{\"url\": \"ftp://example.com\"}"));
    assertEquals("url", e.field());
    SettingsException missing = assertThrows(SettingsException.class, () -> Runs.run(new HttpWorkload(), "{}"));
    assertEquals("url", missing.field());
  }
}
