package dev.versus.harness;

/**
 * The run failed: the workload threw, or the fork died. The job fails (retryable) with the message
 * and {@link #logTail()}.
 */
public class RunFailedException extends Exception {
  private static final long serialVersionUID = 1L;
  private final String logTail;

  public RunFailedException(String message, String logTail, Throwable cause) {
    super(message, cause);
    this.logTail = logTail == null ? "" : logTail;
  }

  /** The last lines of the run's log. */
  public String logTail() {
    return logTail;
  }
}
