package dev.versus.harness;

/**
 * Whether warm-up iteration times have stopped trending: the test that ends an adaptive warm-up.
 *
 * <p>It looks at the last {@link #WINDOW} iterations' mean times per operation, two ways, each
 * asking for a change that matters (more than {@link #DRIFT_LIMIT} of the window's mean) and that
 * the iterations' own noise does not explain (more than {@link #T_CRITICAL} standard errors:
 * Student's t, two-sided 95%, 3 degrees of freedom):
 * <ul>
 *   <li>a drift: a least-squares line through the window, its change over the window's span;
 *   <li>a step (a change point): for each split of the window into an earlier and a later part,
 *       the difference of their means, against the pooled spread within the parts. A JIT
 *       compilation or a heap resize that lands inside the window is a step, which a line
 *       through five points does not tell from noise.
 * </ul>
 * Steady means neither, and the window's CV (sample sd / mean) at most {@link #NOISE_LIMIT}: on a
 * machine so busy that iterations differ by more, no trend can be seen, and the run is not
 * called steady (a trend hidden in less noise passes; the measured iterations' CV says how much
 * there was).
 */
final class SteadyState {
  static final int WINDOW = 5;
  static final double DRIFT_LIMIT = 0.02;
  static final double NOISE_LIMIT = 0.10;
  /** t(0.975, 3 degrees of freedom): both tests have WINDOW − 2 = 3. */
  static final double T_CRITICAL = 3.182;

  private SteadyState() {}

  /**
   * @param steady no drift, no step and no more noise than NOISE_LIMIT in the window
   * @param drift the change found, relative to the window's mean (−0.04: 4% faster by the window's
   *     end): the line's drift, or when only a step was found the step; the line's drift otherwise
   * @param cv the window's coefficient of variation
   */
  record Verdict(boolean steady, boolean trending, double drift, double cv) {
    /** Too noisy to judge, rather than trending. */
    boolean noisy() {
      return !steady && !trending;
    }
  }

  /** The verdict on the last {@link #WINDOW} values of the first {@code count} of {@code times}. */
  static Verdict assess(double[] times, int count) {
    if (count < WINDOW) throw new IllegalArgumentException("need " + WINDOW + " iterations, have " + count);
    int from = count - WINDOW;
    double meanX = (WINDOW - 1) / 2.0;
    double meanY = 0;
    for (int i = 0; i < WINDOW; i++) meanY += times[from + i];
    meanY /= WINDOW;
    if (meanY <= 0) return new Verdict(true, false, 0, 0);
    double cv = cv(java.util.Arrays.copyOfRange(times, from, count));
    double sxx = 0;
    double sxy = 0;
    for (int i = 0; i < WINDOW; i++) {
      double dx = i - meanX;
      sxx += dx * dx;
      sxy += dx * (times[from + i] - meanY);
    }
    double slope = sxy / sxx;
    double residuals = 0;
    for (int i = 0; i < WINDOW; i++) {
      double r = times[from + i] - (meanY + slope * (i - meanX));
      residuals += r * r;
    }
    double drift = slope * (WINDOW - 1) / meanY;
    if (changes(drift, Math.abs(slope), Math.sqrt(residuals / (WINDOW - 2) / sxx))) return new Verdict(false, true, drift, cv);
    for (int split = 1; split < WINDOW; split++) {
      double early = mean(times, from, from + split);
      double late = mean(times, from + split, count);
      double within = squares(times, from, from + split, early) + squares(times, from + split, count, late);
      double error = Math.sqrt(within / (WINDOW - 2) * (1.0 / split + 1.0 / (WINDOW - split)));
      double step = (late - early) / meanY;
      if (changes(step, Math.abs(late - early), error)) return new Verdict(false, true, step, cv);
    }
    return new Verdict(cv <= NOISE_LIMIT, false, drift, cv);
  }

  /** A change that matters and stands out from the noise. */
  private static boolean changes(double relative, double size, double standardError) {
    return Math.abs(relative) > DRIFT_LIMIT && size > T_CRITICAL * standardError;
  }

  private static double mean(double[] values, int from, int to) {
    double sum = 0;
    for (int i = from; i < to; i++) sum += values[i];
    return sum / (to - from);
  }

  private static double squares(double[] values, int from, int to, double mean) {
    double sum = 0;
    for (int i = from; i < to; i++) sum += (values[i] - mean) * (values[i] - mean);
    return sum;
  }

  /** Sample coefficient of variation (sd / mean) of the values; 0 for fewer than two. */
  static double cv(double[] values) {
    if (values.length < 2) return 0;
    double mean = 0;
    for (double v : values) mean += v;
    mean /= values.length;
    if (mean == 0) return 0;
    double squares = 0;
    for (double v : values) squares += (v - mean) * (v - mean);
    return Math.sqrt(squares / (values.length - 1)) / mean;
  }
}
