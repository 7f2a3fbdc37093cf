package dev.versus.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.versus.agent.api.ApiClient;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * An in-memory job API on the JDK's HttpServer: enrolls with {@link #TOKEN}, hands out queued jobs,
 * records every call, and lets a test answer any call its own way (an outage, a 409, a cancel).
 */
final class FakeJobApi implements AutoCloseable {
  static final String TOKEN = "venr_test";
  static final String CREDENTIAL = "vsag_test";

  /** One request as the fake saw it. */
  record Call(String path, String authorization, JsonNode body) {
    String action() {
      return path.substring(path.lastIndexOf('/') + 1).replaceAll("\\?.*", "");
    }
  }

  /** An answer: status, JSON body (null: none) and Retry-After header (null: none). */
  record Answer(int status, String body, String retryAfter) {
    Answer(int status, String body) {
      this(status, body, null);
    }
  }

  private final HttpServer server;
  private final BlockingQueue<ObjectNode> queue = new LinkedBlockingQueue<>();
  private final List<Call> calls = new ArrayList<>();
  private volatile Function<Call, Answer> override = call -> null;

  FakeJobApi() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newCachedThreadPool(runnable -> {
      Thread thread = new Thread(runnable, "fake-api");
      thread.setDaemon(true);
      return thread;
    }));
    server.createContext("/", this::handle);
    server.start();
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Answers calls its own way; null from the function falls back to the normal answer. */
  void answer(Function<Call, Answer> function) {
    override = function;
  }

  /** Queues a job with probes ({@code job.probes}) the agent can claim; returns its id. */
  String enqueueProbed(String id, String workload, JsonNode settings, JsonNode probes, String... metricsKeyUnit) {
    // A short lease: renewed every second, so a test that answers a renewal with a cancel waits little.
    ObjectNode job = job(id, workload, settings, 3, metricsKeyUnit);
    job.set("probes", probes);
    queue.add(job);
    return id;
  }

  /** Queues a job the agent can claim; returns its id. */
  String enqueue(String id, String workload, JsonNode settings, int leaseSeconds, String... metricsKeyUnit) {
    queue.add(job(id, workload, settings, leaseSeconds, metricsKeyUnit));
    return id;
  }

  private static ObjectNode job(String id, String workload, JsonNode settings, int leaseSeconds, String... metricsKeyUnit) {
    ObjectNode job = ApiClient.JSON.createObjectNode()
        .put("id", id)
        .put("leaseToken", "vlease_" + id)
        .put("leaseSeconds", leaseSeconds)
        .put("attempt", 1)
        .put("repetition", 1)
        .put("warmup", false);
    job.putObject("experiment").put("slug", "exp").put("title", "Exp");
    job.putObject("variant").put("name", "A");
    job.putObject("workload").put("name", workload).set("settings", settings);
    var metrics = job.putArray("metrics");
    for (int i = 0; i + 1 < metricsKeyUnit.length; i += 2) metrics.addObject().put("key", metricsKeyUnit[i]).put("unit", metricsKeyUnit[i + 1]).put("direction", "lower_is_better");
    return job;
  }

  List<Call> calls() {
    synchronized (calls) {
      return List.copyOf(calls);
    }
  }

  List<Call> calls(String action) {
    return calls().stream().filter(call -> call.action().equals(action)).toList();
  }

  /** Waits (as long as a test may take) until a call matches; returns it. */
  Call await(Predicate<Call> match) throws InterruptedException {
    synchronized (calls) {
      while (true) {
        for (Call call : calls) if (match.test(call)) return call;
        calls.wait(60_000);
      }
    }
  }

  /** Waits until there are more than `before` calls of this action; returns the newest. */
  Call awaitMore(String action, int before) throws InterruptedException {
    synchronized (calls) {
      while (true) {
        List<Call> matching = calls.stream().filter(call -> call.action().equals(action)).toList();
        if (matching.size() > before) return matching.get(matching.size() - 1);
        calls.wait(60_000);
      }
    }
  }

  Call await(String action) throws InterruptedException {
    return await(call -> call.action().equals(action));
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      JsonNode body = ApiClient.JSON.readTree(exchange.getRequestBody().readAllBytes());
      Call call = new Call(exchange.getRequestURI().toString(), exchange.getRequestHeaders().getFirst("authorization"), body);
      Answer answer = override.apply(call);
      if (answer == null) answer = normal(call);
      synchronized (calls) {
        calls.add(call);
        calls.notifyAll();
      }
      if (answer.retryAfter() != null) exchange.getResponseHeaders().set("retry-after", answer.retryAfter());
      if (answer.body() == null) {
        exchange.sendResponseHeaders(answer.status(), -1);
        return;
      }
      byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("content-type", "application/json");
      exchange.sendResponseHeaders(answer.status(), bytes.length);
      exchange.getResponseBody().write(bytes);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private Answer normal(Call call) throws InterruptedException {
    String bearer = "Bearer " + (call.path().endsWith("/register") ? TOKEN : CREDENTIAL);
    if (!bearer.equals(call.authorization())) return error(401, "UNAUTHORIZED", "unknown credential");
    switch (call.action()) {
      case "register":
        return new Answer(201, "{\"agent\":{\"id\":\"ag1\",\"name\":\"" + call.body().path("name").asText() + "\",\"project\":\"p\"},\"credential\":\"" + CREDENTIAL
            + "\",\"heartbeatIntervalSeconds\":1,\"claimWaitSeconds\":1,\"leaseSeconds\":60}");
      case "heartbeat":
        return new Answer(200, "{\"cancelJobIds\":[],\"stop\":false}");
      case "claim":
        // A short long-poll: the agent's claim loop comes back at once.
        ObjectNode job = queue.poll(200, TimeUnit.MILLISECONDS);
        if (job == null) return new Answer(204, null);
        ObjectNode answer = ApiClient.JSON.createObjectNode();
        answer.set("job", job);
        return new Answer(200, answer.toString());
      case "lease":
        return new Answer(200, "{\"leaseExpiresAt\":\"2030-01-01T00:00:00.000Z\",\"cancelRequested\":false}");
      case "complete":
        return new Answer(201, "{\"run\":{\"id\":\"run1\",\"repetition\":1},\"replayed\":false}");
      case "fail":
        return new Answer(200, "{\"status\":\"" + (call.body().path("cancelled").asBoolean() ? "cancelled" : "failed") + "\"}");
      case "release":
        return new Answer(200, "{\"status\":\"queued\"}");
      default:
        return error(404, "NOT_FOUND", "no such call");
    }
  }

  static Answer error(int status, String code, String message) {
    return new Answer(status, "{\"error\":{\"code\":\"" + code + "\",\"message\":\"" + message + "\"}}");
  }

  /**
   * Stops the fake, then checks every body the agent sent against the server's request schemas
   * (docs/openapi.json, closed to properties they do not list): the fake answers what the tests
   * need, the document says what the real server takes.
   */
  @Override
  public void close() {
    server.stop(0);
    ProtocolDocument doc = ProtocolDocument.load();
    List<String> problems = new ArrayList<>();
    for (Call call : calls()) {
      for (String problem : doc.problems(call.path(), call.body())) if (!problems.contains(problem)) problems.add(problem);
    }
    if (!problems.isEmpty()) throw new AssertionError("the agent sent what the server's schema (" + doc.file + ") refuses:\n  " + String.join("\n  ", problems));
  }
}
