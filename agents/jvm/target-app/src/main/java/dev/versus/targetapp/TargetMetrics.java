package dev.versus.targetapp;

import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * Micrometer's Prometheus registry with what a probe of a JVM reads: heap and non-heap use per
 * pool ({@code jvm_memory_used_bytes}), GC pauses ({@code jvm_gc_pause_seconds}, registered at
 * the first collection), live threads and process CPU ({@code process_cpu_usage},
 * {@code process_cpu_time_ns_total}). The target serves it at /metrics; the agent's probe tests
 * use it for their JVM under test.
 */
public final class TargetMetrics implements AutoCloseable {
  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  /** Listens for the JVM's GC notifications until closed. */
  private final JvmGcMetrics gc = new JvmGcMetrics();

  public TargetMetrics() {
    gc.bindTo(registry);
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
  }

  public PrometheusMeterRegistry registry() {
    return registry;
  }

  /** The Prometheus text format of every metric now. */
  public String scrape() {
    return registry.scrape();
  }

  @Override
  public void close() {
    gc.close();
    registry.close();
  }
}
