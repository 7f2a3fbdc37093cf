package dev.versus.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SteadyStateTest {
  private static SteadyState.Verdict last5(double... times) {
    return SteadyState.assess(times, times.length);
  }

  @Test
  void flatTimesAreSteady() {
    SteadyState.Verdict v = last5(100, 100, 100, 100, 100);
    assertTrue(v.steady());
    assertEquals(0, v.drift(), 1e-12);
  }

  @Test
  void aSteadyDeclineBeyondTwoPercentIsATrend() {
    // 100 → 92 over the window: −8.3% of its mean, on a straight line (no noise to hide in).
    SteadyState.Verdict v = last5(100, 98, 96, 94, 92);
    assertFalse(v.steady());
    assertEquals(-8.0 / 96, v.drift(), 1e-9);
  }

  @Test
  void aStepInsideTheWindowIsATrend() {
    // A JIT compilation landing after the first iteration of the window: a line through these
    // points does not stand out from its residuals (t = 1.7), the split after the first does.
    SteadyState.Verdict early = last5(130, 100, 100, 101, 100);
    assertFalse(early.steady());
    assertEquals((100.25 - 130) / 106.2, early.drift(), 1e-9);
    // And one that just landed: the regime the measurement would see has only begun.
    assertFalse(last5(100, 101, 100, 100, 80).steady());
  }

  @Test
  void aSmallDriftIsSteadyEvenWhenClean() {
    // 1.5% over the window: real (no noise) but below the 2% that matters.
    assertTrue(last5(100, 100.375, 100.75, 101.125, 101.5).steady());
  }

  @Test
  void noiseWithoutATrendIsSteady() {
    // ±6% noise, the slope it happens to give (−2.5%) is well inside its own standard error.
    assertTrue(last5(100, 94, 106, 93, 101).steady());
  }

  @Test
  void tooMuchNoiseIsNotSteady() {
    // No trend the test can see, but iterations 20% apart: a machine too busy to call this settled.
    SteadyState.Verdict v = last5(100, 130, 90, 125, 95);
    assertFalse(v.steady());
    assertTrue(v.noisy() && v.cv() > SteadyState.NOISE_LIMIT, v.toString());
    assertFalse(last5(100, 98, 96, 94, 92).noisy(), "a trend, not noise");
  }

  @Test
  void onlyTheLastFiveIterationsCount() {
    // The early steep part is out of the window.
    double[] times = {300, 200, 150, 100, 100, 100, 100, 100};
    assertTrue(SteadyState.assess(times, times.length).steady());
    assertFalse(SteadyState.assess(times, 5).steady(), "the first five still fall");
  }

  @Test
  void cvIsTheSampleSdOverTheMean() {
    assertEquals(Math.sqrt(2.5) / 3, SteadyState.cv(new double[] {1, 2, 3, 4, 5}), 1e-12);
    assertEquals(0, SteadyState.cv(new double[] {7}));
  }
}
