package dev.versus.harness;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versus.workload.Benchmark;
import dev.versus.workload.MetricSpec;
import dev.versus.workload.SettingsException;
import dev.versus.workload.Summary;
import dev.versus.workload.Workload;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.HdrHistogram.Histogram;

/** A run in this JVM: prepare, measure, report, and the run document. */
final class InProcess {
  private InProcess() {}

  static RunResult run(Workload workload, JsonNode settings, RunOptions options) throws SettingsException, RunFailedException {
    return measure(workload, settings, options).result();
  }

  /** The run, and its measured iterations' mean times per operation (ns), which a fork hands back beside it. */
  static ForkMerge.ForkRun measure(Workload workload, JsonNode settings, RunOptions options) throws SettingsException, RunFailedException {
    HarnessSettings harness = HarnessSettings.from(settings);
    List<MetricSpec> specs = Harness.metrics(workload);
    RunRecorder recorder = new RunRecorder(Harness.MAPPER, specs, options.onLog());
    Instant startedAt = Instant.now();
    Thread current = Thread.currentThread();
    ClassLoader previous = current.getContextClassLoader();
    if (options.classLoader() != null) current.setContextClassLoader(options.classLoader());
    Measurement.Result measured;
    try (Benchmark benchmark = workload.prepare(ownSettings(workload, settings))) {
      recorder.log(String.format("%s: %s warm-up + %d measured iterations of %s, %d thread(s)", workload.name(),
          harness.steadyState() && harness.warmupIterations() > 0
              ? "at least " + harness.warmupIterations() + ", until steady (at most " + Warmup.Seconds.format(harness.maxWarmupTimeMs() / 1000.0) + " s),"
              : String.valueOf(harness.warmupIterations()),
          harness.iterations(),
          harness.operationsPerIteration() > 0 ? harness.operationsPerIteration() + " operations" : harness.iterationTimeMs() + " ms",
          harness.threads()));
      Measurement.Result result = new Measurement(benchmark, harness, options.cancelled(), options.window()).run();
      measured = result;
      record(workload, harness, result, recorder);
      long bytes = benchmark.bytesPerOperation();
      if (bytes > 0) {
        for (double perIteration : result.throughputPerIteration()) recorder.sample(Harness.DATA_RATE, perIteration * bytes / (1024.0 * 1024.0));
      }
      benchmark.report(recorder);
    } catch (SettingsException e) {
      throw e;
    } catch (Measurement.CancellationSignal e) {
      throw new RunCancelledException(recorder.logTail());
    } catch (Exception | Error e) {
      recorder.log("failed: " + e);
      throw new RunFailedException(workload.name() + ": " + e, recorder.logTail(), e);
    } finally {
      current.setContextClassLoader(previous);
    }
    ObjectNode environment = Environment.capture(Harness.MAPPER);
    environment.put("workload", workload.name());
    ObjectNode harnessEnv = harness.toJson(Harness.MAPPER);
    harnessEnv.put("batchSize", measured.batchSize());
    harnessEnv.set("warmup", warmupJson(measured.warmup()));
    harnessEnv.put("measuredCvPercent", round(SteadyState.cv(measured.nsPerOperationPerIteration()) * 100));
    // One JVM: a forked run of several forks says how many in the merged run (ForkMerge).
    harnessEnv.put("forks", 1);
    harnessEnv.put("forked", options.fork());
    environment.set("harness", harnessEnv);
    ObjectNode run = recorder.build(startedAt, Instant.now(), environment);
    return new ForkMerge.ForkRun(new RunResult(run, recorder.warnings(), recorder.logTail()), measured.nsPerOperationPerIteration());
  }

  /** What warm-up did, as the run's environment records it (environment.harness.warmup). */
  static ObjectNode warmupJson(Warmup.Report report) {
    ObjectNode node = Harness.MAPPER.createObjectNode();
    node.put("iterations", report.iterations());
    node.put("timeMs", Math.round(report.elapsedNs() / 1e6));
    if (report.steady() == null) {
      node.put("steadyState", "not tested");
    } else {
      node.put("steadyState", report.steady() ? "reached" : "not reached");
      if (!Double.isNaN(report.drift())) node.put("lastDriftPercent", round(report.drift() * 100));
      if (!Double.isNaN(report.windowCv())) node.put("lastCvPercent", round(report.windowCv() * 100));
      node.put("test", "least-squares drift or a step between earlier and later iterations, in the last " + SteadyState.WINDOW
          + " iterations' time per operation: none over " + Math.round(SteadyState.DRIFT_LIMIT * 100) + "% and beyond t(0.975, 3) = "
          + SteadyState.T_CRITICAL + " standard errors, and a CV of at most " + Math.round(SteadyState.NOISE_LIMIT * 100) + "%");
    }
    return node;
  }

  private static double round(double value) {
    return Math.round(value * 100) / 100.0;
  }

  /** The settings the workload sees: without the harness's, unless its own schema claims the name. */
  static ObjectNode ownSettings(Workload workload, JsonNode settings) {
    ObjectNode own = ((ObjectNode) settings).deepCopy();
    JsonNode ownProperties;
    try {
      ownProperties = Harness.MAPPER.readTree(workload.settingsSchema()).path("properties");
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException(e);
    }
    for (String name : HarnessSettings.names()) {
      if (!ownProperties.has(name)) own.remove(name);
    }
    return own;
  }

  /** The harness's metrics from a measurement. */
  static void record(Workload workload, HarnessSettings harness, Measurement.Result result, RunRecorder recorder) {
    MetricSpec time = workload.operationTime();
    OperationUnit unit = OperationUnit.of(time.unit());
    long ops = result.operations();
    if (ops == 0) throw new IllegalStateException("no operation was measured");
    Histogram h = result.psPerOperation();
    double scale = unit.histogramScale();
    double mean = result.measuredNs() / unit.nanos() / ops;
    if (ops == 1) {
      // One operation: its time is the summary, with no spread (a histogram's range of
      // equivalent values would give it a minimum and maximum apart from its value).
      recorder.summary(time.key(), Summary.constant(1, mean));
    } else {
      recorder.histogram(time.key(), h, scale);
      // The mean from the summed batch times is exact (kept within the histogram's extremes,
      // which round each batch to a picosecond); the histogram gives the sample sd, the extremes
      // and, on the server, the percentiles.
      double min = h.getMinValue() / scale;
      double max = h.getMaxValue() / scale;
      double sd = h.getStdDeviation() / scale * Math.sqrt((double) ops / (ops - 1));
      recorder.summary(time.key(), new Summary(ops, Math.min(max, Math.max(min, mean)), sd, min, max));
    }
    for (double perIteration : result.throughputPerIteration()) recorder.sample(Harness.THROUGHPUT, perIteration);
    if (result.allocatedBytes() >= 0 && JvmCounters.allocationSupported()) {
      recorder.summary(Harness.ALLOC_PER_OP, new Summary(ops, (double) result.allocatedBytes() / ops, null, null, null));
    } else {
      recorder.warn("this JVM does not count allocated bytes per thread: no alloc_per_op");
    }
    JvmCounters.Delta c = result.counters();
    recorder.summary(Harness.GC_COUNT, Summary.constant(1, c.gcCount()));
    recorder.summary(Harness.GC_TIME, Summary.constant(1, c.gcTimeMs()));
    if (c.cpuNs() >= 0) {
      recorder.summary(Harness.CPU_TIME, Summary.constant(1, c.cpuNs() / 1e6));
      recorder.summary(Harness.CPU_PERCENT, Summary.constant(1, c.cpuPercent()));
      // The per-second series shows when the CPU was spent; its highest second is the max. A
      // window shorter than a second is its own only interval.
      double[] perSecond = result.cpuPercentPerSecond().percents();
      recorder.series(Harness.CPU_PERCENT, result.cpuPercentPerSecond().startedAt(), CpuSampler.INTERVAL_NS / 1e6, perSecond);
      recorder.summary(Harness.CPU_PERCENT_MAX, Summary.constant(1, perSecond.length == 0 ? c.cpuPercent() : Arrays.stream(perSecond).max().getAsDouble()));
    }
    recorder.summary(Harness.HEAP_PEAK, Summary.constant(1, c.heapPeakBytes()));
    String unsettled = Warmup.warning(result.warmup(), SteadyState.cv(result.nsPerOperationPerIteration()));
    if (unsettled != null) recorder.warn(unsettled);
    String noisy = MeasuredNoise.warning(result.warmup(), result.nsPerOperationPerIteration());
    if (noisy != null) recorder.warn(noisy);
    if (harness.warmupIterations() == 0) recorder.warn("no warm-up iterations: the JIT compiled during the measured ones" + (harness.batchSize() == 0 ? ", and every operation was timed alone" : ""));
    Warmup.Report w = result.warmup();
    if (w.iterations() > 0) {
      // The last 50 at most: short iterations (a few operations each) can number thousands.
      double[] all = w.nsPerOperation();
      int from = Math.max(0, all.length - 50);
      StringBuilder times = new StringBuilder(from == 0 ? "warm-up iterations, ns/op:" : "warm-up iterations, ns/op (the last 50 of " + all.length + "):");
      for (int i = from; i < all.length; i++) times.append(' ').append(String.format("%.1f", all[i]));
      recorder.log(times.toString());
    }
    recorder.log(String.format("warm-up: %d iterations in %s s, steady state %s; measured %d operations in batches of %d: %.1f ns/op (iterations' CV %.1f%%), %d collections",
        w.iterations(), Warmup.Seconds.format(w.elapsedNs() / 1e9), w.steady() == null ? "not tested" : w.steady() ? "reached" : "not reached",
        ops, result.batchSize(), (double) result.measuredNs() / ops, SteadyState.cv(result.nsPerOperationPerIteration()) * 100, c.gcCount()));
  }
}
