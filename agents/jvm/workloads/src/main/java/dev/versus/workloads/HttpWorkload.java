package dev.versus.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versus.workload.Benchmark;
import dev.versus.workload.Blackhole;
import dev.versus.workload.Direction;
import dev.versus.workload.MetricSpec;
import dev.versus.workload.Recorder;
import dev.versus.workload.SettingsException;
import dev.versus.workload.Summary;
import dev.versus.workload.Workload;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Requests against a URL with java.net.http: a closed model, each of the harness's {@code threads}
 * a virtual user sending its next request when the last one answered. Latency per request (each
 * request is timed alone: it lasts longer than the harness's batching target), requests per second
 * (the harness's throughput), and the responses that were not 2xx/3xx. The length of the test is
 * the harness's: iterations × iterationTime, or iterations × operationsPerIteration requests per user.
 */
public final class HttpWorkload implements Workload {
  @Override
  public String name() {
    return "http";
  }

  @Override
  public String description() {
    return "Requests against a URL with java.net.http (closed model, threads = virtual users): latency and throughput";
  }

  @Override
  public String settingsSchema() {
    return """
        {"type": "object", "additionalProperties": false, "required": ["url"], "properties": {
          "url": {"type": "string", "minLength": 1, "description": "http:// or https:// URL to request"},
          "method": {"type": "string", "enum": ["GET", "HEAD", "POST", "PUT", "DELETE"], "default": "GET", "description": "HTTP method"},
          "body": {"type": "string", "default": "", "description": "Request body (POST and PUT)"},
          "headers": {"type": "array", "items": {"type": "string", "pattern": "^[^:]+:.*$"}, "default": [], "description": "Extra headers, \\"Name: value\\""},
          "httpVersion": {"type": "string", "enum": ["HTTP_1_1", "HTTP_2"], "default": "HTTP_1_1", "description": "HTTP/1.1, or HTTP/2 (negotiated; h2c upgrade on http://)"},
          "timeoutMs": {"type": "integer", "x-unit": "ms", "minimum": 1, "maximum": 600000, "default": 10000, "description": "Longest a request may take; longer fails the run"},
          "forks": {"type": "integer", "minimum": 1, "maximum": 20, "default": 1, "description": "Fresh JVMs the test runs in, one after another (the harness's setting; 1 here: a load test measures the target, and probes sample the first fork's window)"}
        }}""";
  }

  @Override
  public MetricSpec operationTime() {
    return new MetricSpec("latency", "ms", Direction.LOWER_IS_BETTER, "Time from sending a request to its whole response");
  }

  @Override
  public List<MetricSpec> metrics() {
    return List.of(new MetricSpec("error_count", "count", Direction.LOWER_IS_BETTER, "Responses that were not 2xx or 3xx"));
  }

  @Override
  public Benchmark prepare(JsonNode settings) throws SettingsException {
    URI uri;
    try {
      uri = URI.create(settings.path("url").asText());
    } catch (IllegalArgumentException e) {
      throw new SettingsException("url", "is not a URL: " + e.getMessage());
    }
    if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) throw new SettingsException("url", "must start with http:// or https://");
    if (uri.getHost() == null) throw new SettingsException("url", "has no host");
    Duration timeout = Duration.ofMillis(settings.path("timeoutMs").asLong(10_000));
    String method = settings.path("method").asText("GET");
    String body = settings.path("body").asText("");
    HttpRequest.Builder builder = HttpRequest.newBuilder(uri).timeout(timeout)
        .method(method, body.isEmpty() ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    int index = 0;
    for (JsonNode header : settings.path("headers")) {
      String line = header.asText();
      int colon = line.indexOf(':');
      try {
        builder.header(line.substring(0, colon).trim(), line.substring(colon + 1).trim());
      } catch (IllegalArgumentException e) {
        throw new SettingsException("headers." + index, e.getMessage());
      }
      index++;
    }
    HttpRequest request = builder.build();
    ExecutorService executor = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "versus-http");
      t.setDaemon(true);
      return t;
    });
    HttpClient client = HttpClient.newBuilder()
        .version(HttpClient.Version.valueOf(settings.path("httpVersion").asText("HTTP_1_1")))
        .connectTimeout(timeout)
        .executor(executor)
        .build();
    AtomicLong errors = new AtomicLong();
    AtomicLong requests = new AtomicLong();
    return new Benchmark() {
      @Override
      public void operation(Blackhole blackhole) throws Exception {
        HttpResponse<Void> response = client.send(request, HttpResponse.BodyHandlers.discarding());
        requests.incrementAndGet();
        if (response.statusCode() >= 400) errors.incrementAndGet();
        blackhole.consume(response.statusCode());
      }

      @Override
      public void report(Recorder recorder) {
        recorder.summary("error_count", Summary.constant(1, errors.get()));
        if (errors.get() > 0) recorder.warn(errors.get() + " of " + requests.get() + " responses were not 2xx or 3xx");
        recorder.environment("httpClient", "java.net.http " + client.version());
      }

      @Override
      public void close() {
        executor.shutdownNow();
      }
    };
  }
}
