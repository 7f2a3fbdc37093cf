package dev.versus.workload;

/** A metric a workload reports: its key, unit (as the server names units: "ns", "B", "ms" …) and direction. */
public record MetricSpec(String key, String unit, Direction direction, String description) {}
