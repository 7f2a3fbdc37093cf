package dev.versus.agent.api;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What can go wrong on a call, as types the loops act on (the table in docs/agent-protocol.md):
 * {@link Unauthorized} stops the agent; {@link Conflict} and {@link NotFound} drop the job;
 * {@link Rejected} (400, 413, 422) is never retried as is; {@link Unavailable} (5xx, 429, a
 * network error) is retried with backoff, no sooner than the server's Retry-After, and the result
 * kept.
 */
public abstract class ApiException extends Exception {
  private static final long serialVersionUID = 1L;
  private final String call;
  private final int status;
  private final transient JsonNode body;

  ApiException(String call, int status, String message, JsonNode body) {
    super(message);
    this.call = call;
    this.status = status;
    this.body = body;
  }

  public String call() {
    return call;
  }

  /** HTTP status, or 0 when no response came (network error, timeout). */
  public int status() {
    return status;
  }

  /** The server's own message ({@code error.message}), else this exception's. */
  public String serverMessage() {
    if (body != null && body.path("message").isTextual()) return body.path("message").asText();
    return getMessage();
  }

  /**
   * The typed error for a response that was not a success; body is the {@code error} object,
   * retryAfterMs the response's Retry-After (0: none).
   */
  public static ApiException forResponse(String call, int status, JsonNode body, long retryAfterMs) {
    String text = body != null && body.path("message").isTextual() ? " " + body.path("message").asText() : "";
    String message = call + ": HTTP " + status + text;
    if (status == 401) return new Unauthorized(call, status, message, body);
    if (status == 404) return new NotFound(call, status, message, body);
    if (status == 409) return new Conflict(call, status, message, body);
    if (status == 429 || status >= 500) return new Unavailable(call, status, message, body, retryAfterMs);
    return new Rejected(call, status, message, body);
  }

  public static final class Unauthorized extends ApiException {
    private static final long serialVersionUID = 1L;

    Unauthorized(String call, int status, String message, JsonNode body) {
      super(call, status, message, body);
    }
  }

  public static final class Conflict extends ApiException {
    private static final long serialVersionUID = 1L;

    Conflict(String call, int status, String message, JsonNode body) {
      super(call, status, message, body);
    }
  }

  public static final class NotFound extends ApiException {
    private static final long serialVersionUID = 1L;

    NotFound(String call, int status, String message, JsonNode body) {
      super(call, status, message, body);
    }
  }

  public static final class Rejected extends ApiException {
    private static final long serialVersionUID = 1L;

    Rejected(String call, int status, String message, JsonNode body) {
      super(call, status, message, body);
    }
  }

  /** 5xx, 429, a network error, or a call given up because the agent is stopping. */
  public static final class Unavailable extends ApiException {
    private static final long serialVersionUID = 1L;
    private final long retryAfterMs;

    public Unavailable(String call, int status, String message) {
      this(call, status, message, null, 0);
    }

    Unavailable(String call, int status, String message, JsonNode body, long retryAfterMs) {
      super(call, status, message, body);
      this.retryAfterMs = retryAfterMs;
    }

    /** How long the server asked to wait before the next try (its Retry-After); 0 when it did not say. */
    public long retryAfterMs() {
      return retryAfterMs;
    }
  }

  /**
   * A claim answered with a job this agent cannot read (a server speaking another version of the
   * protocol). It is leased to this agent all the same, so the agent fails it, saying why.
   */
  public static final class UnreadableJob extends Exception {
    private static final long serialVersionUID = 1L;
    private final String jobId;
    private final String leaseToken;

    public UnreadableJob(String jobId, String leaseToken, String problem) {
      super("the agent cannot read job " + jobId + ": " + problem);
      this.jobId = jobId;
      this.leaseToken = leaseToken;
    }

    public String jobId() {
      return jobId;
    }

    public String leaseToken() {
      return leaseToken;
    }
  }
}
