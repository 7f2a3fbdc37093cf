package dev.versus.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class WarmupTest {
  private static final long MS = 1_000_000;

  private static HarnessSettings settings(int warmupIterations, boolean steadyState, long maxWarmupTimeMs) {
    return new HarnessSettings(warmupIterations, 1000, 10, 1000, 0, 0, 1, List.of(), steadyState, maxWarmupTimeMs);
  }

  /** Feeds iterations of 1 s until the warm-up ends; returns how many it took. */
  private static int feed(Warmup warmup, double... times) {
    int n = 0;
    while (warmup.goesOn()) warmup.iteration(times[Math.min(n++, times.length - 1)], 1000 * MS);
    return n;
  }

  @Test
  void aFixedCountIsJmhs() {
    Warmup warmup = new Warmup(settings(3, false, 30_000));
    assertEquals(3, feed(warmup, 300, 200, 100));
    assertNull(warmup.report().steady(), "not tested");
    assertNull(Warmup.warning(warmup.report(), 0.01));
  }

  @Test
  void endsAtTheFirstIterationWhoseWindowHasNoTrend() {
    Warmup warmup = new Warmup(settings(5, true, 30_000));
    // Falls for four iterations, then flat: the window of iterations 5–9 is the first without a trend.
    assertEquals(9, feed(warmup, 200, 160, 130, 110, 100, 100, 100, 100, 100, 100));
    Warmup.Report report = warmup.report();
    assertEquals(9, report.iterations());
    assertEquals(9000 * MS, report.elapsedNs());
    assertTrue(report.steady());
    assertNull(Warmup.warning(report, 0.01));
  }

  @Test
  void warmupIterationsIsTheFewest() {
    Warmup warmup = new Warmup(settings(8, true, 30_000));
    assertEquals(8, feed(warmup, 100));
    assertTrue(warmup.report().steady());
  }

  @Test
  void fiveIterationsAtLeastSoTheTestCanJudge() {
    assertEquals(5, feed(new Warmup(settings(1, true, 30_000)), 100));
  }

  @Test
  void stopsAtTheLongestWarmupAndSaysItNeverSettled() {
    Warmup warmup = new Warmup(settings(5, true, 12_000));
    double[] falling = new double[40];
    for (int i = 0; i < falling.length; i++) falling[i] = 1000 - 10 * i;
    assertEquals(12, feed(warmup, falling));
    Warmup.Report report = warmup.report();
    assertFalse(report.steady());
    String warning = Warmup.warning(report, 0.034);
    assertTrue(warning.startsWith("did not reach steady state in 12 s: over the last 5 warm-up iterations the time per operation still moved by -4.4% (measured iterations' CV 3.4%)"), warning);
  }

  @Test
  void aMachineTooBusyToJudgeSaysSo() {
    Warmup warmup = new Warmup(settings(5, true, 6_000));
    assertEquals(6, feed(warmup, 100, 130, 90, 125, 95, 120));
    String warning = Warmup.warning(warmup.report(), 0.2);
    assertTrue(warning.startsWith("did not reach steady state in 6 s: the last 5 warm-up iterations' times per operation varied by a CV of 16.3%, over the 10% a trend can be judged in"), warning);
  }

  @Test
  void tooFewIterationsInTheTimeIsNotSteady() {
    Warmup warmup = new Warmup(settings(5, true, 1));
    assertEquals(1, feed(warmup, 100));
    String warning = Warmup.warning(warmup.report(), 0);
    assertTrue(warning.startsWith("did not reach steady state in 1 s: only 1 warm-up iteration fitted, the trend test needs 5"), warning);
  }

  @Test
  void noWarmupIsNoWarmup() {
    Warmup warmup = new Warmup(settings(0, true, 30_000));
    assertFalse(warmup.goesOn());
    assertNull(warmup.report().steady());
  }
}
