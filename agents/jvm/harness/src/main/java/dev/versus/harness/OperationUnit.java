package dev.versus.harness;

/** The time unit of a workload's operation-time metric: how many nanoseconds one of it is. */
record OperationUnit(String unit, double nanos) {
  static OperationUnit of(String unit) {
    return switch (unit) {
      case "ns" -> new OperationUnit(unit, 1);
      case "us" -> new OperationUnit(unit, 1e3);
      case "ms" -> new OperationUnit(unit, 1e6);
      case "s" -> new OperationUnit(unit, 1e9);
      default -> throw new IllegalArgumentException("operation time unit " + unit + " is not one of ns, us, ms, s");
    };
  }

  /** The histogramScale: the histogram holds picoseconds, i.e. value in this unit × scale. */
  double histogramScale() {
    return Measurement.PS_PER_NS * nanos;
  }
}
