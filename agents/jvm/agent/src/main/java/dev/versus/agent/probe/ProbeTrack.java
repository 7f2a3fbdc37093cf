package dev.versus.agent.probe;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One probe's readings over the measured window turned into interval values: the first reading
 * is the counters' baseline, each later one closes an interval. A reading that failed leaves its
 * interval without a value (a gap; counters then span the gap from the last good reading, so an
 * increase is never lost); a counter that went down is a reset: its interval is skipped and the
 * new reading is the next baseline. No clock here: the sampler says when each reading was taken.
 */
public final class ProbeTrack {
  private final ProbeSpec spec;
  private final List<Presets.Named> series;
  private final double[][] baseline;
  private final double[] baselineAt;
  /** Per series, per interval (1-based index − 1): the value, or null. */
  private final List<List<Double>> values = new ArrayList<>();
  private final List<Integer> missed = new ArrayList<>();
  private final List<String> warnings = new ArrayList<>();
  private String lastError;
  private int intervals;

  public ProbeTrack(ProbeSpec spec, List<Presets.Named> series) {
    this.spec = spec;
    this.series = List.copyOf(series);
    this.baseline = new double[series.size()][];
    this.baselineAt = new double[series.size()];
    for (int i = 0; i < series.size(); i++) values.add(new ArrayList<>());
  }

  /** The reading at the window's start (null: it failed, with error). */
  public void baseline(double seconds, Exposition reading, String error) {
    if (reading == null) {
      lastError = error;
      return;
    }
    for (int s = 0; s < series.size(); s++) {
      baseline[s] = series.get(s).series().reader().read(reading);
      baselineAt[s] = seconds;
    }
  }

  /** The reading that closes the next interval, taken seconds after the window opened (null: it failed, with error). */
  public void interval(double seconds, Exposition reading, String error) {
    intervals++;
    if (reading == null) {
      missed.add(intervals);
      lastError = error;
      for (List<Double> list : values) list.add(null);
      return;
    }
    for (int s = 0; s < series.size(); s++) values.get(s).add(value(s, seconds, reading));
  }

  private Double value(int s, double seconds, Exposition reading) {
    Series one = series.get(s).series();
    double[] now = one.reader().read(reading);
    if (now == null) return null;
    if (!one.counter()) return now[0];
    double[] before = baseline[s];
    double since = baselineAt[s];
    baseline[s] = now;
    baselineAt[s] = seconds;
    if (before == null) return null;
    for (int i = 0; i < now.length; i++) {
      if (now[i] < before[i]) {
        // At the interval's place in the window, as the gap warning and the time series count.
        warn("probe \"" + spec.name() + "\": " + one.source() + " went down at " + Seconds.format(intervals * spec.intervalSeconds()) + " s (target restarted?); the interval was skipped");
        return null;
      }
    }
    double value = one.formula().value(before, now, seconds - since);
    return Double.isFinite(value) ? value : null;
  }

  private void warn(String warning) {
    if (!warnings.contains(warning)) warnings.add(warning);
  }

  public int intervals() {
    return intervals;
  }

  /**
   * The gap warning ({@code probe "app-1" did not answer for 3 of 10 intervals (4 s – 7 s): <last error>}),
   * null when every reading answered.
   */
  public String gapWarning() {
    if (missed.isEmpty()) return null;
    double interval = spec.intervalSeconds();
    String from = Seconds.format((missed.get(0) - 1) * interval);
    String to = Seconds.format(missed.get(missed.size() - 1) * interval);
    return "probe \"" + spec.name() + "\" did not answer for " + missed.size() + " of " + intervals + " intervals (" + from + " s – " + to + " s): " + lastError;
  }

  /** Warnings other than the gap: counter resets. */
  public List<String> warnings() {
    return List.copyOf(warnings);
  }

  /**
   * The probe's metrics: per output of each series, the interval values as samples and as a
   * time series from the window's start (intervalMs when no interval is missing, else each
   * value's offset). An output without a single value is left out.
   */
  public ArrayNode metrics(Instant windowStart) {
    ArrayNode metrics = JsonNodeFactory.instance.arrayNode();
    double intervalMs = new BigDecimal(spec.intervalSeconds() * 1000).setScale(3, RoundingMode.HALF_UP).doubleValue();
    for (int s = 0; s < series.size(); s++) {
      List<Double> list = values.get(s);
      ArrayNode samples = JsonNodeFactory.instance.arrayNode();
      ArrayNode offsets = JsonNodeFactory.instance.arrayNode();
      for (int i = 0; i < list.size(); i++) {
        if (list.get(i) == null) continue;
        samples.add(list.get(i));
        offsets.add(i * intervalMs);
      }
      if (samples.isEmpty()) continue;
      for (Series.Output output : series.get(s).series().outputs()) {
        ObjectNode metric = metrics.addObject()
            .put("key", spec.name() + "." + output.suffix())
            .put("unit", output.unit())
            .put("direction", output.direction())
            .put("aggregation", output.aggregation());
        metric.set("samples", samples.deepCopy());
        ObjectNode timeSeries = metric.putObject("timeSeries").put("startedAt", windowStart.toString());
        if (samples.size() == list.size()) timeSeries.put("intervalMs", intervalMs);
        else timeSeries.set("offsetsMs", offsets.deepCopy());
        timeSeries.set("values", samples.deepCopy());
      }
    }
    return metrics;
  }

  /** Seconds as the warnings write them: 6, 0.4, 1.25. */
  static final class Seconds {
    private Seconds() {}

    static String format(double seconds) {
      return new BigDecimal(seconds).setScale(3, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
    }
  }
}
