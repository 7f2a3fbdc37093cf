package dev.versus.harness;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules the server refuses a summary with (docs/agent-protocol.md, "Summaries and values"):
 * n, mean, sd, min, max, the percentiles and sum must describe one set of n values. The recorder
 * checks every summary a workload records against them, so a plugin's summary that cannot be true
 * fails its run here, naming the metric, instead of being refused by the server after the run.
 */
public final class SummaryRules {
  private SummaryRules() {}

  /** Floating-point arithmetic; bounds derived from n and the extremes, to HdrHistogram's 3 digits. */
  private static final double FLOAT = 1e-9;
  private static final double PRINTED = 1e-3;
  private static final double TINY = 1e-300;
  private static final String[] PERCENTILES = {"p50", "p90", "p95", "p99", "p999"};

  /** What in a summary (a run document's "summary" object) no set of values could give; empty when it can be true. */
  public static List<String> contradictions(JsonNode s) {
    List<String> out = new ArrayList<>();
    long count = s.path("n").asLong(0);
    if (count < 1) {
      out.add("n " + count + " is below 1");
      return out;
    }
    double n = count;
    double mean = s.path("mean").asDouble();
    Double sd = figure(s, "sd");
    Double min = figure(s, "min");
    Double max = figure(s, "max");
    double scale = Math.max(Math.abs(mean), Math.max(min == null ? 0 : Math.abs(min), max == null ? 0 : Math.abs(max)));
    if (sd != null && sd < 0) out.add("sd " + sd + " is negative");
    if (min != null && max != null && above(min, max, FLOAT, scale)) out.add("min " + min + " is above max " + max);
    if (min != null && above(min, mean, FLOAT, scale)) out.add("mean " + mean + " is below min " + min);
    if (max != null && above(mean, max, FLOAT, scale)) out.add("mean " + mean + " is above max " + max);
    Double previous = null;
    for (String name : PERCENTILES) {
      Double p = figure(s, name);
      if (p == null) continue;
      if (min != null && above(min, p, FLOAT, scale)) out.add(name + " " + p + " is below min " + min);
      else if (max != null && above(p, max, FLOAT, scale)) out.add(name + " " + p + " is above max " + max);
      else if (previous != null && above(previous, p, FLOAT, scale)) out.add(name + " " + p + " is below the percentile before it, " + previous);
      previous = p;
    }
    if (count == 1) {
      if (sd != null && above(sd, 0, FLOAT, scale)) out.add("n = 1 with sd " + sd);
      for (String name : new String[] {"min", "max", "p50", "p90", "p95", "p99", "p999"}) {
        Double v = figure(s, name);
        if (v != null && (above(v, mean, FLOAT, scale) || above(mean, v, FLOAT, scale))) out.add("n = 1, but " + name + " " + v + " is not the mean " + mean);
      }
    } else if (min != null && max != null && !above(min, max, FLOAT, scale)) {
      double lowest = ((n - 1) * min + max) / n;
      double highest = (min + (n - 1) * max) / n;
      if (above(lowest, mean, PRINTED, scale) || above(mean, highest, PRINTED, scale)) {
        out.add("mean " + mean + " is not possible for " + count + " values from " + min + " to " + max);
      } else if (sd != null && sd >= 0) {
        double largest = Math.sqrt(n / (n - 1)) * Math.sqrt(Math.max(0, max - mean)) * Math.sqrt(Math.max(0, mean - min));
        double smallest = (max - min) / Math.sqrt(2 * n);
        if (above(sd, largest, PRINTED, scale) || above(smallest, sd, PRINTED, scale)) {
          out.add("sd " + sd + " is not possible for " + count + " values from " + min + " to " + max + " with mean " + mean);
        }
      }
    }
    Double sum = figure(s, "sum");
    if (sum != null && Math.abs(sum - mean * n) > 1e-6 * Math.max(Math.abs(sum), n * scale) + TINY) out.add("sum " + sum + " is not mean x n = " + mean * n);
    return out;
  }

  private static Double figure(JsonNode s, String name) {
    JsonNode v = s.get(name);
    return v == null || v.isNull() ? null : v.asDouble();
  }

  private static boolean above(double a, double b, double tolerance, double scale) {
    return a > b + tolerance * scale + TINY;
  }
}
