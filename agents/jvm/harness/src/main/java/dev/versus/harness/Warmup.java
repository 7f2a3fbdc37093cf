package dev.versus.harness;

import java.util.Arrays;

/**
 * Decides after each warm-up iteration whether warm-up goes on. With {@code steadyState} off it
 * is JMH's fixed count: {@code warmupIterations}. With it on (the default), warm-up lasts at least
 * {@code warmupIterations} iterations (and {@link SteadyState#WINDOW}, the fewest the test can
 * judge) and then until {@link SteadyState} finds no trend in the last iterations, or until
 * {@code maxWarmupTime} has passed: the run then goes on to measure, and {@link #report} says it
 * never settled. {@code warmupIterations: 0} means no warm-up either way.
 */
final class Warmup {
  /**
   * What warm-up did.
   *
   * @param steady true: the test found no trend; false: it never stopped finding one (or too few
   *     iterations fit in the time); null: not tested (a fixed count, or no warm-up)
   * @param drift the last window's drift (see SteadyState), NaN when not tested
   * @param noisy it ended too noisy to judge (no trend found, the window's CV over the limit)
   * @param windowCv the last window's CV, NaN when not tested
   * @param nsPerOperation each warm-up iteration's mean time per operation, for the run's log
   */
  record Report(int iterations, long elapsedNs, Boolean steady, double drift, boolean noisy, double windowCv, double[] nsPerOperation) {}

  private final HarnessSettings settings;
  private double[] times = new double[16];
  private int count;
  private long elapsedNs;
  private SteadyState.Verdict last;
  private boolean done;

  Warmup(HarnessSettings settings) {
    this.settings = settings;
    this.done = settings.warmupIterations() == 0;
  }

  /** True while another warm-up iteration should run. */
  boolean goesOn() {
    return !done;
  }

  /** Records one warm-up iteration: its mean time per operation and its length. */
  void iteration(double nsPerOperation, long iterationNs) {
    if (count == times.length) times = Arrays.copyOf(times, count * 2);
    times[count++] = nsPerOperation;
    elapsedNs += iterationNs;
    if (!settings.steadyState()) {
      done = count >= settings.warmupIterations();
      return;
    }
    if (count >= SteadyState.WINDOW) last = SteadyState.assess(times, count);
    boolean enough = count >= Math.max(settings.warmupIterations(), SteadyState.WINDOW);
    if (enough && last.steady()) done = true;
    else if (elapsedNs >= settings.maxWarmupTimeMs() * 1_000_000L) done = true;
  }

  Report report() {
    double[] seen = Arrays.copyOf(times, count);
    if (!settings.steadyState() || settings.warmupIterations() == 0) return new Report(count, elapsedNs, null, Double.NaN, false, Double.NaN, seen);
    boolean steady = last != null && last.steady() && count >= settings.warmupIterations();
    if (last == null) return new Report(count, elapsedNs, steady, Double.NaN, false, Double.NaN, seen);
    return new Report(count, elapsedNs, steady, last.drift(), !steady && last.noisy(), last.cv(), seen);
  }

  /** The warning of a run whose warm-up never settled, or null. */
  static String warning(Report report, double measuredCv) {
    if (report.steady() == null || report.steady()) return null;
    String seconds = Seconds.format(report.elapsedNs() / 1e9);
    String why;
    if (Double.isNaN(report.drift())) {
      why = String.format("only %d warm-up iteration%s fitted, the trend test needs %d", report.iterations(), report.iterations() == 1 ? "" : "s", SteadyState.WINDOW);
    } else if (report.noisy()) {
      why = String.format("the last %d warm-up iterations' times per operation varied by a CV of %.1f%%, over the %.0f%% a trend can be judged in (a busy machine?)",
          SteadyState.WINDOW, report.windowCv() * 100, SteadyState.NOISE_LIMIT * 100);
    } else {
      why = String.format("over the last %d warm-up iterations the time per operation still moved by %+.1f%%", SteadyState.WINDOW, report.drift() * 100);
    }
    return String.format("did not reach steady state in %s s: %s (measured iterations' CV %.1f%%); the figures may include warm-up — raise maxWarmupTime or warmupTime",
        seconds, why, measuredCv * 100);
  }

  /** Seconds as a person writes them: 30, 0.5, 0.001. */
  static final class Seconds {
    private Seconds() {}

    static String format(double seconds) {
      if (seconds >= 10) return String.valueOf(Math.round(seconds));
      return new java.math.BigDecimal(seconds).round(new java.math.MathContext(2)).stripTrailingZeros().toPlainString();
    }
  }
}
