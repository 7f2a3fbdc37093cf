package dev.versus.harness;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versus.workload.Benchmark;
import dev.versus.workload.Blackhole;
import dev.versus.workload.Direction;
import dev.versus.workload.MetricSpec;
import dev.versus.workload.Recorder;
import dev.versus.workload.SettingsException;
import dev.versus.workload.Summary;
import dev.versus.workload.Workload;
import java.util.List;

/** Workloads for the harness's tests, listed in META-INF/services so a fork finds them too. */
public final class TestWorkloads {
  private TestWorkloads() {}

  /** Allocates a byte[size] per operation and hands it to the blackhole; counts its calls. */
  public static final class Alloc implements Workload {
    @Override
    public String name() {
      return "test-alloc";
    }

    @Override
    public String description() {
      return "allocates size bytes per operation";
    }

    @Override
    public String settingsSchema() {
      return """
          {"type": "object", "additionalProperties": false, "properties": {
            "size": {"type": "integer", "minimum": 0, "default": 1000},
            "failAt": {"type": "integer", "minimum": 1, "description": "throw at this call"},
            "reject": {"type": "boolean", "description": "prepare throws a SettingsException naming reject"}
          }}""";
    }

    @Override
    public List<MetricSpec> metrics() {
      return List.of(new MetricSpec("calls", "count", Direction.LOWER_IS_BETTER, "operations the workload saw"));
    }

    @Override
    public Benchmark prepare(JsonNode settings) throws SettingsException {
      if (settings.path("reject").asBoolean(false)) throw new SettingsException("reject", "rejected by prepare");
      if (settings.has("iterations")) throw new SettingsException("iterations", "the harness's settings must not reach the workload");
      int size = settings.path("size").asInt(1000);
      long failAt = settings.path("failAt").asLong(0);
      return new Benchmark() {
        long calls;

        @Override
        public void operation(Blackhole blackhole) {
          if (++calls == failAt) throw new IllegalStateException("failing at call " + calls);
          blackhole.consume(new byte[size]);
        }

        @Override
        public void report(Recorder recorder) {
          recorder.summary("calls", Summary.constant(1, calls));
        }
      };
    }
  }

  /** Sleeps per operation, logging once: a run to cancel. */
  public static final class Slow implements Workload {
    @Override
    public String name() {
      return "test-slow";
    }

    @Override
    public String description() {
      return "sleeps 5 ms per operation";
    }

    @Override
    public String settingsSchema() {
      return "{\"type\": \"object\", \"properties\": {}}";
    }

    @Override
    public MetricSpec operationTime() {
      return new MetricSpec("sleep_time", "ms", Direction.LOWER_IS_BETTER, "time per sleep");
    }

    @Override
    public Benchmark prepare(JsonNode settings) {
      System.err.println("test-slow: started in pid " + ProcessHandle.current().pid());
      return blackhole -> Thread.sleep(5);
    }
  }
  /**
   * Sleeps 1 ms per operation while warming up, then 1 ms and 10 ms in turn, iteration by
   * iteration: measured iterations that differ by a CV far over 10% on any machine.
   */
  public static final class Uneven implements Workload {
    @Override
    public String name() {
      return "test-uneven";
    }

    @Override
    public String description() {
      return "measured iterations sleep 1 ms and 10 ms per operation in turn";
    }

    @Override
    public String settingsSchema() {
      return "{\"type\": \"object\", \"properties\": {}}";
    }

    @Override
    public Benchmark prepare(JsonNode settings) {
      return new Benchmark() {
        boolean measuring;
        int iteration;
        long sleepMs = 1;

        @Override
        public void beforeMeasurement() {
          measuring = true;
        }

        @Override
        public void beforeIteration() {
          sleepMs = measuring && iteration++ % 2 == 1 ? 10 : 1;
        }

        @Override
        public void operation(Blackhole blackhole) throws InterruptedException {
          Thread.sleep(sleepMs);
        }
      };
    }
  }
}
