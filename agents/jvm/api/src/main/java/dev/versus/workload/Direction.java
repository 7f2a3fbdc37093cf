package dev.versus.workload;

/** Which way a metric improves. */
public enum Direction {
  LOWER_IS_BETTER("lower_is_better"),
  HIGHER_IS_BETTER("higher_is_better");

  private final String wire;

  Direction(String wire) {
    this.wire = wire;
  }

  /** As the server's API spells it. */
  public String wire() {
    return wire;
  }
}
