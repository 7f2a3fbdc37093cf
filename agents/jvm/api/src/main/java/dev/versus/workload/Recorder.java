package dev.versus.workload;

import org.HdrHistogram.Histogram;

/** Receives what a workload reports itself; a key's unit and direction come from its MetricSpec. */
public interface Recorder {
  /**
   * A metric known as a summary of n values (e.g. bytes that are the same for every operation):
   * n, mean, sd, min and max must describe the same values, or the run fails saying why.
   */
  void summary(String key, Summary summary);

  /**
   * What the run contributes to comparisons when it is none of the figures of the metric's
   * summary or samples: the whole run's rate while the samples are per-second rates, a slope.
   */
  void value(String key, double value);

  /** One value of a metric (e.g. the size of one message). */
  void sample(String key, double value);

  /** A metric's histogram; it recorded round(value x scale). */
  void histogram(String key, Histogram histogram, double scale);

  /**
   * A per-interval series (e.g. requests per second). A per-second series holds whole seconds:
   * leave out a last, partial second (its operations still count in the run's value).
   */
  void series(String key, double intervalMs, double[] values);

  /** A fact about this run for its environment (e.g. the JCE provider used). */
  void environment(String key, Object value);

  /** A caveat a reader of the results must see. */
  void warn(String message);

  /** A line of progress; the last lines go with a failure as its log tail. */
  void log(String line);
}
