package dev.versus.agent.probe;

import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/** The samples of one scrape (or of one reading of /proc, under names of its own). */
public record Exposition(List<Sample> samples) {
  /** One line of the text format: sample name, labels, value. */
  public record Sample(String name, Map<String, String> labels, double value) {}

  public Exposition {
    samples = List.copyOf(samples);
  }

  /**
   * The sum of the samples of this name whose labels include every label of the filter (a
   * Micrometer timer has one series per gc, action and cause; the probe wants them all);
   * empty when no sample matches.
   */
  public OptionalDouble sum(String name, Map<String, String> filter) {
    double sum = 0;
    boolean any = false;
    for (Sample sample : samples) {
      if (!sample.name().equals(name)) continue;
      boolean matches = true;
      for (Map.Entry<String, String> label : filter.entrySet()) {
        if (!label.getValue().equals(sample.labels().get(label.getKey()))) {
          matches = false;
          break;
        }
      }
      if (!matches) continue;
      sum += sample.value();
      any = true;
    }
    return any ? OptionalDouble.of(sum) : OptionalDouble.empty();
  }

  public OptionalDouble sum(String name) {
    return sum(name, Map.of());
  }
}
