package dev.versus.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The measured window is told to whoever asks (the agent's probes), in this JVM and from a fork. */
class MeasuredWindowTest {
  private static final String SETTINGS = "{\"warmupIterations\": 2, \"warmupTime\": 50, \"iterations\": 3, \"iterationTime\": 50}";

  /** Records the window's moments, and the run's log lines as they come. */
  private static final class Recording implements MeasuredWindow {
    final List<String> events = Collections.synchronizedList(new ArrayList<>());

    @Override
    public void opened() {
      events.add("opened");
    }

    @Override
    public void closed() {
      events.add("closed");
    }
  }

  @Test
  void opensAfterWarmUpAndClosesAfterTheMeasuredIterations() throws Exception {
    Recording window = new Recording();
    List<String> log = Collections.synchronizedList(new ArrayList<>());
    Harness.run(new TestWorkloads.Slow(), HarnessTest.settings(SETTINGS), RunOptions.inProcess().withMeasuredWindow(window).withLog(line -> {
      log.add(line);
      window.events.add("log");
    }));
    // The first log line (the plan) comes before warm-up, the last (the figures) after measuring.
    assertEquals("opened", window.events.get(window.events.indexOf("log") + 1), window.events.toString());
    assertEquals(List.of("opened", "closed"), window.events.stream().filter(e -> !e.equals("log")).toList());
    assertTrue(window.events.lastIndexOf("closed") < window.events.lastIndexOf("log"), window.events.toString());
  }

  @Test
  void aForkReportsTheWindowThroughItsLogWithoutShowingTheMarker() throws Exception {
    Recording window = new Recording();
    List<String> log = Collections.synchronizedList(new ArrayList<>());
    RunResult result = Harness.run(new TestWorkloads.Slow(), HarnessTest.settings(SETTINGS), RunOptions.defaults().withMeasuredWindow(window).withLog(log::add));
    assertEquals(List.of("opened", "closed"), window.events);
    assertTrue(log.stream().noneMatch(line -> line.contains("versus-window-")), log.toString());
    assertTrue(!result.logTail().contains("versus-window-"), result.logTail());
  }

  @Test
  void aRunCancelledInsideTheWindowClosesIt() throws Exception {
    Recording window = new Recording();
    RunOptions options = RunOptions.inProcess().withMeasuredWindow(window).withCancellation(() -> window.events.contains("opened"));
    assertThrows(RunCancelledException.class, () -> Harness.run(new TestWorkloads.Slow(), HarnessTest.settings("{\"warmupIterations\": 1, \"warmupTime\": 50, \"iterations\": 3600, \"iterationTime\": 1000}"), options));
    assertEquals(List.of("opened", "closed"), window.events);
  }
}
