package dev.versus.workload;

import org.HdrHistogram.Histogram;

/** Receives what a workload reports itself; a key's unit and direction come from its MetricSpec. */
public interface Recorder {
  /** A metric known as a summary (e.g. bytes that are the same for every operation). */
  void summary(String key, Summary summary);

  /** One value of a metric (e.g. the size of one message). */
  void sample(String key, double value);

  /** A metric's histogram; it recorded round(value x scale). */
  void histogram(String key, Histogram histogram, double scale);

  /** A per-interval series (e.g. requests per second). */
  void series(String key, double intervalMs, double[] values);

  /** A fact about this run for its environment (e.g. the JCE provider used). */
  void environment(String key, Object value);

  /** A caveat a reader of the results must see. */
  void warn(String message);

  /** A line of progress; the last lines go with a failure as its log tail. */
  void log(String line);
}
