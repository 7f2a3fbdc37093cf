package dev.versus.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versus.workload.Benchmark;
import dev.versus.workload.Workload;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The measured window is told to whoever asks (the agent's probes), in this JVM and from a fork. */
class MeasuredWindowTest {
  private static final String SETTINGS = "{\"steadyState\": false, \"warmupIterations\": 2, \"warmupTime\": 50, \"iterations\": 3, \"iterationTime\": 50}";

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

  /** Counts its operations, so a test can see how many ran when the window opened and closed. */
  private static final class Counting implements Workload {
    final AtomicLong operations = new AtomicLong();

    @Override
    public String name() {
      return "test-counting";
    }

    @Override
    public String description() {
      return "counts its operations";
    }

    @Override
    public String settingsSchema() {
      return "{\"type\": \"object\", \"properties\": {}}";
    }

    @Override
    public Benchmark prepare(JsonNode settings) {
      return blackhole -> blackhole.consume(operations.incrementAndGet());
    }
  }

  @Test
  void theWindowIsExactlyTheMeasuredOperations() throws Exception {
    Counting counting = new Counting();
    List<Long> seen = Collections.synchronizedList(new ArrayList<>());
    MeasuredWindow window = new MeasuredWindow() {
      @Override
      public void opened() {
        seen.add(counting.operations.get());
      }

      @Override
      public void closed() {
        seen.add(counting.operations.get());
      }
    };
    // 2 threads × (3 warm-up + 4 measured iterations) × 1000 operations.
    Harness.run(counting, HarnessTest.settings("{\"threads\": 2, \"steadyState\": false, \"warmupIterations\": 3, \"iterations\": 4, \"operationsPerIteration\": 1000, \"batchSize\": 1}"),
        RunOptions.inProcess().withMeasuredWindow(window));
    assertEquals(List.of(6000L, 14000L), seen, "opened after every warm-up operation, closed after every measured one");
  }

  @Test
  void aForkReportsTheWindowThroughItsLogWithoutShowingTheMarker() throws Exception {
    Recording window = new Recording();
    List<String> log = Collections.synchronizedList(new ArrayList<>());
    RunResult result = Harness.run(new TestWorkloads.Slow(), HarnessTest.settings(SETTINGS), RunOptions.defaults().withMeasuredWindow(window).withLog(log::add));
    List<String> eachFork = new ArrayList<>();
    for (int fork = 0; fork < HarnessSettings.DEFAULT_FORKS; fork++) eachFork.addAll(List.of("opened", "closed"));
    assertEquals(eachFork, window.events, "each fork's window, in turn");
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
