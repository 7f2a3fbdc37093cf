package dev.versus.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ForkWarningsTest {
  @Test
  void warningsThatDifferOnlyInFiguresAreOneLineWithEachForksFigures() {
    String unsettled = "did not reach steady state in 20 s: the last 5 warm-up iterations' times per operation varied by a CV of %s%%, over the 5%% a trend can be judged in";
    List<String> merged = ForkWarnings.merge(List.of(
        List.of(String.format(unsettled, "12.3")),
        List.of(String.format(unsettled, "9.8"), "this JVM does not count allocated bytes per thread: no alloc_per_op"),
        List.of(String.format(unsettled, "11.0"))));
    assertEquals(List.of(
        "forks 1, 2 and 3 of 3: " + String.format(unsettled, "12.3/9.8/11.0"),
        "fork 2 of 3: this JVM does not count allocated bytes per thread: no alloc_per_op"), merged);
  }

  @Test
  void identicalWarningsAreOneLineAsTheyAre() {
    String drift = "over the last 5 warm-up iterations the time per operation still moved by +3.1%";
    assertEquals(List.of("forks 1 and 3 of 3: " + drift), ForkWarnings.merge(List.of(List.of(drift), List.of(), List.of(drift))));
  }

  @Test
  void signedFiguresAndAForkRepeatingAShapeKeepEveryWarning() {
    List<String> merged = ForkWarnings.merge(List.of(
        List.of("moved by +3.1%", "moved by -0.5%"),
        List.of("moved by -2.0%")));
    assertEquals(List.of("forks 1 and 2 of 2: moved by +3.1/-2.0%", "fork 1 of 2: moved by -0.5%"), merged);
  }

  @Test
  void warningsOfDifferentWordsStayApart() {
    assertEquals(List.of("fork 1 of 2: only 1 warm-up iteration fitted", "fork 2 of 2: only 2 warm-up iterations fitted"),
        ForkWarnings.merge(List.of(List.of("only 1 warm-up iteration fitted"), List.of("only 2 warm-up iterations fitted"))));
  }

  @Test
  void oneForkIsNamed() {
    assertEquals(List.of("fork 1 of 1: no warm-up iterations"), ForkWarnings.merge(List.of(List.of("no warm-up iterations"))));
  }
}
