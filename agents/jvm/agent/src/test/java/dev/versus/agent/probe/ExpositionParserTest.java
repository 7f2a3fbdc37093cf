package dev.versus.agent.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExpositionParserTest {
  @Test
  void readsTheTextFormatWithLabelsEscapesAndSpecialValues() throws Exception {
    Exposition e = ExpositionParser.parse("""
        # HELP http_requests_total The total.
        # TYPE http_requests_total counter
        http_requests_total{method="post",code="200"} 1027 1395066363000
        http_requests_total{method="post",code="400"}    3 1395066363000
        msdos_file_access_time_seconds{path="C:\\\\DIR\\\\FILE.TXT",error="Cannot find file:\\n\\"FILE.TXT\\""} 1.458255915e9
        metric_without_timestamp_and_labels 12.47
        something_weird{problem="division by zero"} +Inf -3982045
        minus{a="b",} -Inf
        not_a_number NaN
        """);
    assertEquals(1030.0, e.sum("http_requests_total").getAsDouble());
    assertEquals(3.0, e.sum("http_requests_total", Map.of("code", "400")).getAsDouble());
    assertTrue(e.sum("http_requests_total", Map.of("code", "500")).isEmpty());
    Exposition.Sample weird = e.samples().get(2);
    assertEquals("C:\\DIR\\FILE.TXT", weird.labels().get("path"));
    assertEquals("Cannot find file:\n\"FILE.TXT\"", weird.labels().get("error"));
    assertEquals(1.458255915e9, weird.value());
    assertEquals(12.47, e.sum("metric_without_timestamp_and_labels").getAsDouble());
    assertEquals(Double.POSITIVE_INFINITY, e.sum("something_weird").getAsDouble());
    assertEquals(Double.NEGATIVE_INFINITY, e.sum("minus", Map.of("a", "b")).getAsDouble());
    assertTrue(Double.isNaN(e.sum("not_a_number").getAsDouble()));
  }

  @Test
  void readsOpenMetricsWithExemplarsAndEof() throws Exception {
    Exposition e = ExpositionParser.parse("""
        # TYPE foo counter
        # UNIT foo seconds
        foo_total{a="1"} 17.0 1520879607.789 # {trace_id="KOO5S4vxi0o"} 0.67
        foo_created{a="1"} 1520430000.123
        # EOF
        """);
    assertEquals(17.0, e.sum("foo_total").getAsDouble());
    assertEquals(2, e.samples().size());
  }

  @Test
  void aLineThatIsNotOfTheFormatIsNamedByNumber() {
    ExpositionParser.ParseException noValue = assertThrows(ExpositionParser.ParseException.class, () -> ExpositionParser.parse("ok 1\nbroken\n"));
    assertEquals("line 2: expected a space and a value after broken", noValue.getMessage());
    ExpositionParser.ParseException badNumber = assertThrows(ExpositionParser.ParseException.class, () -> ExpositionParser.parse("x{a=\"1\"} twelve"));
    assertEquals("line 1: \"twelve\" is not a number", badNumber.getMessage());
    ExpositionParser.ParseException open = assertThrows(ExpositionParser.ParseException.class, () -> ExpositionParser.parse("x{a=\"1} 3"));
    assertEquals("line 1: the value of label a is not closed", open.getMessage());
    assertThrows(ExpositionParser.ParseException.class, () -> ExpositionParser.parse("<html><body>Not found</body></html>"));
  }

  /** What a real writer (Micrometer's Prometheus registry, client_java underneath) writes reads back as it recorded it. */
  @Test
  void readsBackWhatMicrometerWrites() throws Exception {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    Counter.builder("orders").tag("queue", "a \"quoted\" \\ name\nwith a line break").register(registry).increment(5);
    Counter.builder("orders").tag("queue", "b").register(registry).increment(2);
    Timer timer = Timer.builder("pause").tag("gc", "G1 Young").register(registry);
    timer.record(Duration.ofMillis(30));
    timer.record(Duration.ofMillis(20));
    Exposition e = ExpositionParser.parse(registry.scrape());
    assertEquals(7.0, e.sum("orders_total").getAsDouble());
    assertEquals(5.0, e.sum("orders_total", Map.of("queue", "a \"quoted\" \\ name\nwith a line break")).getAsDouble());
    assertEquals(2.0, e.sum("pause_seconds_count", Map.of("gc", "G1 Young")).getAsDouble());
    assertEquals(0.05, e.sum("pause_seconds_sum").getAsDouble(), 1e-9);
    Exposition open = ExpositionParser.parse(registry.scrape("application/openmetrics-text; version=1.0.0; charset=utf-8"));
    assertEquals(7.0, open.sum("orders_total").getAsDouble());
  }
}
