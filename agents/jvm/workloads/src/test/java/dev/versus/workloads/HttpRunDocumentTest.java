package dev.versus.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.versus.harness.SummaryRules;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.concurrent.Executors;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Real runs of the http workload against a real HTTP server: every metric of the run document the
 * agent would send describes its values (the server's rules, {@link SummaryRules}), and the
 * latency summary is that of the histogram sent beside it — also for a run of one request.
 */
class HttpRunDocumentTest {
  private HttpServer server;
  private String url;

  @BeforeEach
  void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", exchange -> {
      byte[] body = "ok".getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.setExecutor(Executors.newFixedThreadPool(4));
    server.start();
    url = "http://127.0.0.1:" + server.getAddress().getPort() + "/";
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  void everyMetricDescribesItsValues() throws Exception {
    for (String load : new String[] {
      "\"threads\": 2, \"steadyState\": false, \"warmupIterations\": 1, \"iterations\": 3, \"operationsPerIteration\": 15",
      // One measured request: a summary of one value has no spread.
      "\"threads\": 1, \"warmupIterations\": 0, \"iterations\": 1, \"operationsPerIteration\": 1",
    }) {
      ObjectNode run = Runs.run(new HttpWorkload(), "{\"url\": \"" + url + "\", " + load + "}");
      for (JsonNode metric : run.get("metrics")) {
        String key = metric.get("key").asText();
        assertTrue(metric.has("summary") || metric.has("samples") || metric.has("samplesBase64") || metric.has("value"), key + " has no data");
        if (metric.has("summary")) assertEquals("[]", SummaryRules.contradictions(metric.get("summary")).toString(), key + " " + metric.get("summary") + " (" + load + ")");
      }
      JsonNode latency = Runs.metric(run, "latency");
      JsonNode summary = latency.get("summary");
      long n = summary.get("n").asLong();
      if (latency.has("histogram")) {
        Histogram h = decode(latency.get("histogram").asText());
        double scale = latency.get("histogramScale").asDouble();
        assertEquals(n, h.getTotalCount(), "the summary counts the histogram's values");
        assertTrue(summary.get("min").asDouble() <= h.getMinValue() / scale && summary.get("max").asDouble() >= h.getMaxValue() / scale * (1 - 1e-3), summary + " holds the histogram's values");
      } else {
        assertEquals(1, n, "only a run of one request goes without a histogram: " + latency);
      }
    }
  }

  private static Histogram decode(String base64) throws Exception {
    return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
  }
}
