package dev.versus.agent.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versus.agent.Signal;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;

/**
 * The protocol client: one method per call of docs/agent-protocol.md, each with its own retry
 * policy. Methods return parsed answers or throw the typed {@link ApiException}s; callers never
 * see a status code. Every call takes the signal that gives it up (the agent is stopping).
 */
public final class ApiClient {
  /** The calls, each with its retry policy. */
  public enum CallName {
    REGISTER, HEARTBEAT, CLAIM, LEASE, COMPLETE, FAIL, RELEASE;

    String wire() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** Sized to what giving up costs: results are never given up on; a heartbeat is sent again soon. */
  public static Map<CallName, RetryPolicy> defaultPolicies() {
    Map<CallName, RetryPolicy> policies = new EnumMap<>(CallName.class);
    // Nothing works without a credential; keep trying while the server is down.
    policies.put(CallName.REGISTER, new RetryPolicy(RetryPolicy.FOREVER, 1_000, 60_000));
    // The next tick sends another one.
    policies.put(CallName.HEARTBEAT, new RetryPolicy(3, 500, 5_000));
    // The idle loop: waiting out an outage here costs nothing.
    policies.put(CallName.CLAIM, new RetryPolicy(RetryPolicy.FOREVER, 1_000, 30_000));
    // Must land before the lease ends; the next renewal comes a third of a lease later.
    policies.put(CallName.LEASE, new RetryPolicy(4, 500, 5_000));
    // A measured result (on disk meanwhile): retried until the server takes it.
    policies.put(CallName.COMPLETE, new RetryPolicy(RetryPolicy.FOREVER, 1_000, 60_000));
    policies.put(CallName.FAIL, new RetryPolicy(RetryPolicy.FOREVER, 1_000, 60_000));
    // Shutting down: if the server cannot be reached the lease simply expires.
    policies.put(CallName.RELEASE, new RetryPolicy(3, 500, 2_000));
    return policies;
  }

  /** How long one request may take before it counts as a network error (claims add their wait). */
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

  public static final ObjectMapper JSON = new ObjectMapper();

  private final URI base;
  private final String userAgent;
  private final Logger log;
  private final Map<CallName, RetryPolicy> policies;
  private final HttpClient http;
  private volatile String credential;

  public ApiClient(String baseUrl, String userAgent, Logger log, Map<CallName, RetryPolicy> overrides) {
    this.base = URI.create(baseUrl.endsWith("/") ? baseUrl : baseUrl + "/");
    this.userAgent = userAgent;
    this.log = log;
    this.policies = defaultPolicies();
    if (overrides != null) this.policies.putAll(overrides);
    // HTTP/1.1: a plain-http server is not asked to upgrade to h2c on every call.
    this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
  }

  public void setCredential(String credential) {
    this.credential = credential;
  }

  public Registration register(String enrollmentToken, ObjectNode body, Signal until) throws ApiException {
    JsonNode answer = call(CallName.REGISTER, "api/v1/agents/register", body, enrollmentToken, REQUEST_TIMEOUT, until);
    JsonNode agent = answer.path("agent");
    String credential = answer.path("credential").asText("");
    if (credential.isEmpty()) throw new IllegalStateException("register: the server answered without a credential");
    return new Registration(
        agent.path("id").asText(),
        agent.path("name").asText(),
        agent.path("project").asText(),
        credential,
        positive(answer.path("heartbeatIntervalSeconds"), 10),
        answer.path("claimWaitSeconds").isNumber() ? answer.path("claimWaitSeconds").asInt() : 30,
        positive(answer.path("leaseSeconds"), 60));
  }

  public HeartbeatAnswer heartbeat(ObjectNode body, Signal until) throws ApiException {
    JsonNode answer = call(CallName.HEARTBEAT, "api/v1/agents/heartbeat", body, null, REQUEST_TIMEOUT, until);
    List<String> cancel = new ArrayList<>();
    answer.path("cancelJobIds").forEach(id -> cancel.add(id.asText()));
    return new HeartbeatAnswer(List.copyOf(cancel), answer.path("stop").asBoolean(false), positive(answer.path("heartbeatIntervalSeconds"), 0));
  }

  /** Long-polls for a job; empty when none came within waitSeconds. */
  public Optional<Job> claim(int waitSeconds, Signal until) throws ApiException, ApiException.UnreadableJob {
    JsonNode answer = call(CallName.CLAIM, "api/v1/jobs/claim?wait=" + waitSeconds, JSON.createObjectNode(), null, REQUEST_TIMEOUT.plusSeconds(waitSeconds), until);
    if (answer == null) return Optional.empty();
    JsonNode job = answer.path("job");
    try {
      return Optional.of(Job.parse(job));
    } catch (IllegalArgumentException problem) {
      if (job.path("id").isTextual() && job.path("leaseToken").isTextual()) {
        throw new ApiException.UnreadableJob(job.path("id").asText(), job.path("leaseToken").asText(), problem.getMessage());
      }
      throw new IllegalStateException("claim: unexpected response from the server: " + problem.getMessage(), problem);
    }
  }

  /** Renews the lease; true when a user asked to cancel the job. */
  public boolean renewLease(String jobId, String leaseToken, Signal until) throws ApiException {
    JsonNode answer = call(CallName.LEASE, jobPath(jobId, "lease"), lease(leaseToken), null, REQUEST_TIMEOUT, until);
    return answer != null && answer.path("cancelRequested").asBoolean(false);
  }

  /** Sends a finished run; the answer's {@code run} (null for a warm-up) and {@code replayed}. */
  public JsonNode complete(String jobId, String leaseToken, JsonNode run, Signal until) throws ApiException {
    ObjectNode body = lease(leaseToken);
    body.set("run", run);
    return call(CallName.COMPLETE, jobPath(jobId, "complete"), body, null, REQUEST_TIMEOUT, until);
  }

  /** Reports a failure (body without the lease token); the job's new status. */
  public String fail(String jobId, String leaseToken, ObjectNode failure, Signal until) throws ApiException {
    ObjectNode body = lease(leaseToken);
    body.setAll(failure);
    JsonNode answer = call(CallName.FAIL, jobPath(jobId, "fail"), body, null, REQUEST_TIMEOUT, until);
    return answer == null ? null : answer.path("status").asText(null);
  }

  /** Gives the job back without counting an attempt; the job's new status. */
  public String release(String jobId, String leaseToken, Signal until) throws ApiException {
    JsonNode answer = call(CallName.RELEASE, jobPath(jobId, "release"), lease(leaseToken), null, REQUEST_TIMEOUT, until);
    return answer == null ? null : answer.path("status").asText(null);
  }

  private static ObjectNode lease(String leaseToken) {
    return JSON.createObjectNode().put("leaseToken", leaseToken);
  }

  private static String jobPath(String jobId, String action) {
    return "api/v1/jobs/" + URLEncoder.encode(jobId, StandardCharsets.UTF_8) + "/" + action;
  }

  private static int positive(JsonNode value, int fallback) {
    return value.isNumber() && value.asDouble() > 0 ? (int) Math.ceil(value.asDouble()) : fallback;
  }

  /** One call with its retry policy; a 204 answers null. */
  private JsonNode call(CallName name, String path, JsonNode body, String bearer, Duration timeout, Signal until) throws ApiException {
    return policies.get(name).run(
        () -> send(name, path, body, bearer, timeout, until),
        until,
        (error, attempt, delayMs) -> log.atWarn().setMessage("api.retry").addKeyValue("call", name.wire()).addKeyValue("attempt", attempt).addKeyValue("delay_ms", delayMs).addKeyValue("error", error.getMessage()).log());
  }

  private JsonNode send(CallName name, String path, JsonNode body, String bearer, Duration timeout, Signal until) throws ApiException {
    String call = name.wire();
    String token = bearer != null ? bearer : credential;
    HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path))
        .timeout(timeout)
        .header("content-type", "application/json")
        .header("user-agent", userAgent)
        .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8));
    if (token != null) request.header("authorization", "Bearer " + token);
    CompletableFuture<HttpResponse<String>> pending = http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    // Stopping gives up a waiting call (a long-poll claim above all) at once.
    Runnable unsubscribe = until.onFire(() -> pending.cancel(true));
    HttpResponse<String> response;
    try {
      response = pending.get();
    } catch (CancellationException e) {
      throw new ApiException.Unavailable(call, 0, call + ": given up, the agent is stopping");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ApiException.Unavailable(call, 0, call + ": interrupted");
    } catch (ExecutionException e) {
      throw new ApiException.Unavailable(call, 0, call + ": " + describe(e.getCause()));
    } finally {
      unsubscribe.run();
    }
    int status = response.statusCode();
    if (status < 200 || status >= 300) {
      long retryAfterMs = RetryPolicy.parseRetryAfter(response.headers().firstValue("retry-after").orElse(null), Instant.now());
      throw ApiException.forResponse(call, status, errorBody(response.body()), retryAfterMs);
    }
    if (status == 204) return null;
    try {
      return response.body().isEmpty() ? JSON.createObjectNode() : JSON.readTree(response.body());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(call + ": the server's answer is not JSON: " + e.getOriginalMessage(), e);
    }
  }

  private static JsonNode errorBody(String text) {
    try {
      JsonNode json = JSON.readTree(text);
      if (json != null && json.path("error").isObject()) return json.path("error");
    } catch (IOException notJson) {
      // fall through: keep the start of the text as the message
    }
    if (text == null || text.isEmpty()) return null;
    return JSON.createObjectNode().put("message", text.substring(0, Math.min(200, text.length())));
  }

  private static String describe(Throwable cause) {
    if (cause instanceof HttpTimeoutException) return "no answer in time";
    if (cause == null) return "network error";
    String message = cause.getMessage();
    return cause.getClass().getSimpleName() + (message == null ? "" : " " + message);
  }
}
