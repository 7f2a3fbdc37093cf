package dev.versus.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The warning of a run whose measured iterations varied too much, from fixed iteration times. */
class MeasuredNoiseTest {
  private static final long SECOND = 1_000_000_000L;
  /** CV 1.2%. */
  private static final double[] STABLE = {100, 101, 99, 100, 102, 98, 100, 101, 99, 100};
  /** CV 25.8%: the kind of run a busy machine gives. */
  private static final double[] NOISY = {100, 130, 80, 140, 90, 120, 70, 110, 100, 60};

  /** A warm-up of flat 1 s iterations that ends where the trend test finds no trend (or the fixed count). */
  private static Warmup.Report warmup(int warmupIterations, boolean steadyState, long maxWarmupTimeMs, double... times) {
    Warmup warmup = new Warmup(new HarnessSettings(warmupIterations, 1000, 10, 1000, 0, 0, 1, List.of(), steadyState, maxWarmupTimeMs));
    int n = 0;
    while (warmup.goesOn()) warmup.iteration(times[Math.min(n++, times.length - 1)], SECOND);
    return warmup.report();
  }

  private static Warmup.Report steady() {
    Warmup.Report report = warmup(5, true, 30_000, 100);
    assertTrue(report.steady());
    assertEquals(5, report.iterations());
    return report;
  }

  @Test
  void stableMeasuredIterationsSayNothing() {
    assertNull(MeasuredNoise.warning(steady(), STABLE));
  }

  @Test
  void noisyMeasuredIterationsAfterASteadyWarmupAreWarnedAboutWithTheirCv() {
    assertEquals("the measured iterations' times per operation varied by a CV of 25.8%, more than 10%, though warm-up reached steady state after 5 iterations:"
        + " the machine was busy or the workload has not settled; treat the figure with care — rerun on a quieter machine, or with more or longer iterations",
        MeasuredNoise.warning(steady(), NOISY));
  }

  @Test
  void theLimitIsTenPercent() {
    assertNull(MeasuredNoise.warning(steady(), new double[] {100, 112, 88, 111, 89, 100, 113, 87, 100, 100}), "CV 9.8%");
    String warning = MeasuredNoise.warning(steady(), new double[] {100, 113, 87, 112, 88, 100, 114, 86, 100, 100});
    assertTrue(warning != null && warning.startsWith("the measured iterations' times per operation varied by a CV of 10.6%, more than 10%"), warning);
  }

  @Test
  void aFixedWarmupOrNoneIsNamed() {
    Warmup.Report fixed = warmup(3, false, 30_000, 100);
    assertTrue(MeasuredNoise.warning(fixed, NOISY).contains("varied by a CV of 25.8%, more than 10%, after a fixed warm-up of 3 iterations: the machine"), MeasuredNoise.warning(fixed, NOISY));
    Warmup.Report none = warmup(0, true, 30_000, 100);
    assertTrue(MeasuredNoise.warning(none, NOISY).contains("more than 10%, without warm-up: the machine"), MeasuredNoise.warning(none, NOISY));
  }

  @Test
  void aWarmupThatNeverSettledHasItsOwnWarningWhichNamesTheCv() {
    // Falling by 1% an iteration until maxWarmupTime: Warmup.warning says so, with the measured CV.
    double[] falling = new double[40];
    for (int i = 0; i < falling.length; i++) falling[i] = 1000 - 10 * i;
    Warmup.Report unsettled = warmup(5, true, 12_000, falling);
    assertEquals(Boolean.FALSE, unsettled.steady());
    assertNull(MeasuredNoise.warning(unsettled, NOISY));
  }

  @Test
  void oneMeasuredIterationHasNoSpread() {
    assertNull(MeasuredNoise.warning(steady(), new double[] {100}));
  }
}
