package dev.versus.agent.run;

/** A run that failed with a log worth showing (e.g. a forked JVM's last lines): the job's log tail. */
public class RunFailure extends Exception {
  private static final long serialVersionUID = 1L;
  private final String logTail;

  public RunFailure(String message, String logTail, Throwable cause) {
    super(message, cause);
    this.logTail = logTail == null ? "" : logTail;
  }

  public String logTail() {
    return logTail;
  }
}
