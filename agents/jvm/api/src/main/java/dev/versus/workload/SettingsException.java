package dev.versus.workload;

/** A bad setting: which field, and what is wrong with it. The job fails (not retried) with it. */
public class SettingsException extends Exception {
  private static final long serialVersionUID = 1L;
  private final String field;

  public SettingsException(String field, String message) {
    super(field == null || field.isEmpty() ? "settings: " + message : "settings." + field + ": " + message);
    this.field = field;
  }

  /** JSON path inside settings, e.g. "provider"; empty for the whole object. */
  public String field() {
    return field;
  }
}
