package dev.versus.agent.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.versus.agent.api.Job;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunMetricsTest {
  @Test
  void aMetricInTheExperimentsUnitHasEveryFigureConvertedItsValueToo() throws Exception {
    JsonNode recorded = new ObjectMapper().readTree("""
        [{"key": "t", "unit": "us", "summary": {"n": 2, "mean": 1500, "min": 1000, "max": 2000, "p50": 1000, "sum": 3000}, "value": 4000}]""");
    JsonNode metric = RunMetrics.select(List.of(new Job.JobMetric("t", "ms", null)), recorded).metrics().get(0);
    assertEquals("ms", metric.get("unit").asText());
    assertEquals(1.5, metric.get("summary").get("mean").asDouble());
    assertEquals(1.0, metric.get("summary").get("p50").asDouble());
    assertEquals(3.0, metric.get("summary").get("sum").asDouble());
    assertEquals(4.0, metric.get("value").asDouble());
  }
}
