package dev.versus.harness;

/** {@link RunOptions#cancelled()} said stop: the run ended early (a fork was destroyed). */
public class RunCancelledException extends RunFailedException {
  private static final long serialVersionUID = 1L;

  public RunCancelledException(String logTail) {
    super("cancelled", logTail, null);
  }
}
