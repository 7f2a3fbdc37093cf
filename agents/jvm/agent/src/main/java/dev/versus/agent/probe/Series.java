package dev.versus.agent.probe;

import java.util.List;

/**
 * One thing a probe reads at each scrape and the metrics it becomes. A gauge's interval value is
 * its reading at the end of the interval; a counter's comes from two readings (the one before
 * and this one) and the seconds between them, and a counter that went down is a reset.
 *
 * @param source what is read, as the messages name it ({@code jvm_memory_used_bytes{area="heap"}})
 * @param required whether the probe fails at start when it is absent (Micrometer registers its
 *     GC timer only at the first collection: absent there means none yet, read as 0); a series
 *     that is not required and absent at start is left out with its metrics, and the run says so
 *     (dropHint: what reads it instead)
 * @param fallback what is read instead when the first reading has no such series (Micrometer
 *     exports process_cpu_time_ns_total, not process_cpu_seconds_total), or null
 */
public record Series(String source, boolean counter, boolean required, Reader reader, Formula formula, List<Output> outputs, Series fallback, String dropHint) {
  /** The reading (several numbers for a formula over several counters), or null when absent. */
  public interface Reader {
    double[] read(Exposition exposition);
  }

  /** A counter's interval value from the reading before, this reading and the seconds between. */
  public interface Formula {
    double value(double[] before, double[] after, double seconds);
  }

  /** A metric of the run, keyed {@code <probe>.<suffix>}, whose samples are the interval values. */
  public record Output(String suffix, String unit, String direction, String aggregation) {}

  public Series {
    outputs = List.copyOf(outputs);
  }

  static Series gauge(String source, Reader reader, Output... outputs) {
    return new Series(source, false, true, reader, null, List.of(outputs), null, null);
  }

  static Series counter(String source, boolean required, Reader reader, Formula formula, Output... outputs) {
    return new Series(source, true, required, reader, formula, List.of(outputs), null, null);
  }

  /** This series, or the other when the target has none of this one at the start. */
  Series orElse(Series other) {
    return new Series(source, counter, required, reader, formula, outputs, other, dropHint);
  }

  /** This series, left out (with a warning ending in hint) when the target has none at the start. */
  Series droppable(String hint) {
    return new Series(source, counter, false, reader, formula, outputs, fallback, hint);
  }

  static Output lower(String suffix, String unit, String aggregation) {
    return new Output(suffix, unit, "lower_is_better", aggregation);
  }
}
