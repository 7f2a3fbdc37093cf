package dev.versus.workload;

/** A summary of n values; sd, min and max may be null when unknown. */
public record Summary(long n, double mean, Double sd, Double min, Double max) {
  /** n operations that all gave the same value. */
  public static Summary constant(long n, double value) {
    return new Summary(n, value, 0.0, value, value);
  }
}
