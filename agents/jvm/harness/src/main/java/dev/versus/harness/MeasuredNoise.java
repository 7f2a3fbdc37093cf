package dev.versus.harness;

/**
 * The warning of a run whose measured iterations varied too much to trust their mean, though
 * nothing else was wrong with it: warm-up reached steady state (or was a fixed count, untested),
 * yet the measured iterations' times per operation spread by a CV over {@link #LIMIT}. Warm-up's
 * test only asks whether the times still trend; a busy machine can leave them trendless and
 * scattered, and without this the run would be stored as a quiet number. A warm-up that never
 * settled has its own warning ({@link Warmup#warning}), which already names the measured CV.
 */
final class MeasuredNoise {
  /**
   * 10%: with the default 10 measured iterations, a CV of 10% leaves the mean's 95% confidence
   * interval at ±t(0.975, 9) × 10% / √10 ≈ ±7%, already wider than the ±5% the harness aims to
   * hold against JMH; past it the figure says more about the machine than the workload. It is
   * also the spread past which warm-up's trend test calls its window too noisy to judge
   * ({@link SteadyState#NOISE_LIMIT}), so warm-up and measured iterations answer to one standard.
   */
  static final double LIMIT = 0.10;

  private MeasuredNoise() {}

  /** The warning, or null: the measured iterations' CV is at most LIMIT, or warm-up never settled. */
  static String warning(Warmup.Report warmup, double[] nsPerOperationPerIteration) {
    if (Boolean.FALSE.equals(warmup.steady())) return null;
    double cv = SteadyState.cv(nsPerOperationPerIteration);
    if (cv <= LIMIT) return null;
    String warmedUp;
    if (warmup.iterations() == 0) warmedUp = "without warm-up";
    else if (warmup.steady() == null) warmedUp = "after a fixed warm-up of " + iterations(warmup.iterations());
    else warmedUp = "though warm-up reached steady state after " + iterations(warmup.iterations());
    return String.format("the measured iterations' times per operation varied by a CV of %.1f%%, more than %.0f%%, %s: the machine was busy or the workload has not settled;"
        + " treat the figure with care — rerun on a quieter machine, or with more or longer iterations", cv * 100, LIMIT * 100, warmedUp);
  }

  private static String iterations(int count) {
    return count + (count == 1 ? " iteration" : " iterations");
  }
}
