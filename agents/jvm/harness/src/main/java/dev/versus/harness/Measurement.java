package dev.versus.harness;

import dev.versus.workload.Benchmark;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Phaser;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.HdrHistogram.Histogram;

/**
 * Warm-up and measured iterations of a benchmark on {@code threads} threads, and the JVM's figures
 * (allocation, GC, CPU, heap) over the measured part. How long warm-up lasts is {@link Warmup}'s
 * decision, taken on the first thread's iterations (the others follow at their next iteration's end).
 *
 * <p>Timing. Reading the clock costs ~20-25 ns, too much to time a 50 ns operation alone. Like
 * JMH, the harness times batches: {@code batchSize} operations between two clock reads, and
 * records each operation of the batch as taking batch time / batch size. During warm-up the batch
 * doubles until one lasts {@link #TARGET_BATCH_NS} (so one clock read costs ~0.1% of it), unless
 * the settings fix it; an operation slower than that is timed alone (batch size 1). What this
 * does to the latency histogram: below the target its percentiles are those of batch means, so
 * its spread is narrower than the operations' own (a rare slow operation is averaged with its
 * batch); the mean, counts and throughput are exact. Operations of 20 µs and more are each timed
 * alone. {@code batchSize: 1} forces per-operation timing when the spread matters more than the
 * clock's cost.
 */
final class Measurement {
  static final long TARGET_BATCH_NS = 20_000;
  static final int MAX_BATCH = 1 << 20;
  /** The histogram records picoseconds per operation, so batch means keep sub-nanosecond detail. */
  static final long PS_PER_NS = 1000;
  /** One hour in picoseconds: longer operations are recorded as one hour. */
  static final long HIGHEST_PS = 3_600_000_000_000_000L;
  /** How often the cancellation check runs while threads measure. */
  private static final long POLL_MS = 50;

  /** What the measured iterations gave, summed over the threads. */
  record Result(
      Histogram psPerOperation,
      long operations,
      /** Sum over threads of the time spent in measured batches. */
      long measuredNs,
      /** Wall time of the measured part (all threads). */
      long wallNs,
      long allocatedBytes,
      /** Operations per second of each measured iteration, summed over the threads. */
      double[] throughputPerIteration,
      int batchSize,
      JvmCounters.Delta counters,
      /** What warm-up did (decided on the first thread's iterations). */
      Warmup.Report warmup,
      /** The measured iterations' mean time per operation (ns; all threads), one per iteration. */
      double[] nsPerOperationPerIteration,
      /** The process's CPU % in each whole second of the measured part ({@link CpuSampler}); empty when unknown. */
      CpuSampler.Seconds cpuPercentPerSecond) {}

  private final Benchmark benchmark;
  private final HarnessSettings settings;
  private final BooleanSupplier cancelled;
  private final MeasuredWindow window;
  private volatile boolean stop;
  /** Set by the first thread when its warm-up ends: the others end theirs at their next iteration's end. */
  private volatile boolean warmedUp;
  private final Warmup warmup;
  private final AtomicReference<Throwable> failure = new AtomicReference<>();

  Measurement(Benchmark benchmark, HarnessSettings settings, BooleanSupplier cancelled, MeasuredWindow window) {
    this.benchmark = benchmark;
    this.settings = settings;
    this.cancelled = cancelled;
    this.window = window;
    this.warmup = new Warmup(settings);
  }

  /** Runs it all; the threads take the caller's context class loader. */
  Result run() throws Exception {
    int threads = settings.threads();
    Phaser phaser = new Phaser(1 + threads);
    List<Worker> workers = new ArrayList<>();
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    for (int t = 0; t < threads; t++) {
      Worker worker = new Worker(phaser);
      worker.decides = t == 0;
      Thread thread = new Thread(worker, "versus-measure-" + t);
      thread.setDaemon(true);
      thread.setContextClassLoader(loader);
      worker.thread = thread;
      workers.add(worker);
    }
    workers.forEach(w -> w.thread.start());
    boolean open = false;
    CpuSampler cpu = null;
    try {
      await(phaser); // warm-up done everywhere
      benchmark.beforeMeasurement();
      window.opened();
      open = true;
      JvmCounters.Snapshot before = JvmCounters.start();
      cpu = CpuSampler.start();
      long wallStart = System.nanoTime();
      await(phaser); // measuring starts
      await(phaser); // measuring done everywhere
      long wallNs = System.nanoTime() - wallStart;
      CpuSampler.Seconds cpuPerSecond = cpu == null ? CpuSampler.Seconds.NONE : cpu.stop();
      cpu = null;
      open = false;
      window.closed();
      JvmCounters.Delta counters = JvmCounters.since(before, wallNs);
      await(phaser); // threads have handed in their figures
      return combine(workers, wallNs, counters, cpuPerSecond);
    } finally {
      if (cpu != null) cpu.stop();
      if (open) window.closed();
      // Frees threads waiting at a phase after a failure or cancellation.
      stop = true;
      phaser.forceTermination();
      for (Worker w : workers) w.thread.join();
    }
  }

  /** Waits for the phase to end while checking for cancellation and failed threads. */
  private void await(Phaser phaser) throws Exception {
    int phase = phaser.arrive();
    while (true) {
      rethrow();
      if (cancelled.getAsBoolean()) {
        stop = true;
        throw new CancellationSignal();
      }
      try {
        phaser.awaitAdvanceInterruptibly(phase, POLL_MS, TimeUnit.MILLISECONDS);
        rethrow();
        return;
      } catch (TimeoutException stillRunning) {
        // poll again
      }
    }
  }

  private void rethrow() throws Exception {
    Throwable t = failure.get();
    if (t == null) return;
    stop = true;
    if (t instanceof Exception e) throw e;
    if (t instanceof Error e) throw e;
    throw new IllegalStateException(t);
  }

  private Result combine(List<Worker> workers, long wallNs, JvmCounters.Delta counters, CpuSampler.Seconds cpuPercentPerSecond) {
    Histogram histogram = newHistogram();
    long operations = 0;
    long measuredNs = 0;
    long allocated = 0;
    double[] throughput = new double[settings.iterations()];
    double[] iterationNs = new double[settings.iterations()];
    double[] iterationOps = new double[settings.iterations()];
    for (Worker w : workers) {
      histogram.add(w.histogram);
      operations += w.operations;
      measuredNs += w.measuredNs;
      allocated += w.allocatedBytes;
      for (int i = 0; i < throughput.length; i++) {
        throughput[i] += w.throughput[i];
        iterationNs[i] += w.measuredIterationNs[i];
        iterationOps[i] += w.iterationOpsMeasured[i];
      }
    }
    double[] nsPerOp = new double[iterationNs.length];
    for (int i = 0; i < nsPerOp.length; i++) nsPerOp[i] = iterationOps[i] == 0 ? 0 : iterationNs[i] / iterationOps[i];
    return new Result(histogram, operations, measuredNs, wallNs, allocated, throughput, workers.get(0).batch, counters, warmup.report(), nsPerOp, cpuPercentPerSecond);
  }

  static Histogram newHistogram() {
    return new Histogram(HIGHEST_PS, 3);
  }

  /** Thrown inside the harness when the run is cancelled; the caller turns it into RunCancelledException. */
  static final class CancellationSignal extends Exception {
    private static final long serialVersionUID = 1L;

    CancellationSignal() {
      super("cancelled", null, false, false);
    }
  }

  /** One measuring thread: its own blackhole, histogram and allocation counter. */
  private final class Worker implements Runnable {
    private final Phaser phaser;
    Thread thread;
    final Histogram histogram = newHistogram();
    final double[] throughput = new double[settings.iterations()];
    final long[] measuredIterationNs = new long[settings.iterations()];
    final long[] iterationOpsMeasured = new long[settings.iterations()];
    /** The first thread decides when warm-up ends. */
    boolean decides;
    int batch;
    long operations;
    long measuredNs;
    long allocatedBytes;
    /** Per iteration, set by {@link #iteration}. */
    private long iterationOps;

    Worker(Phaser phaser) {
      this.phaser = phaser;
    }

    @Override
    public void run() {
      try {
        SinkBlackhole blackhole = new SinkBlackhole();
        boolean calibrate = settings.batchSize() == 0;
        batch = calibrate ? 1 : settings.batchSize();
        long warmupNs = TimeUnit.MILLISECONDS.toNanos(settings.warmupTimeMs());
        if (decides) {
          while (warmup.goesOn() && !stop) {
            long ns = iteration(blackhole, warmupNs, null, calibrate);
            warmup.iteration(iterationOps == 0 ? 0 : (double) ns / iterationOps, ns);
          }
          warmedUp = true;
        } else if (settings.steadyState()) {
          while (!warmedUp && !stop && settings.warmupIterations() > 0) iteration(blackhole, warmupNs, null, calibrate);
        } else {
          for (int w = 0; w < settings.warmupIterations() && !stop; w++) iteration(blackhole, warmupNs, null, calibrate);
        }
        phaser.arriveAndAwaitAdvance();
        phaser.arriveAndAwaitAdvance();
        long iterationNs = TimeUnit.MILLISECONDS.toNanos(settings.iterationTimeMs());
        long allocatedBefore = JvmCounters.threadAllocatedBytes();
        for (int i = 0; i < settings.iterations() && !stop; i++) {
          long ns = iteration(blackhole, iterationNs, histogram, false);
          operations += iterationOps;
          measuredNs += ns;
          measuredIterationNs[i] = ns;
          iterationOpsMeasured[i] = iterationOps;
          throughput[i] = ns == 0 ? 0 : iterationOps * 1e9 / ns;
        }
        allocatedBytes = JvmCounters.threadAllocatedBytes() - allocatedBefore;
        phaser.arriveAndAwaitAdvance();
        if (blackhole.sink() == this) allocatedBytes++; // never: keeps the sink reachable
        phaser.arriveAndDeregister();
      } catch (Throwable t) {
        failure.compareAndSet(null, t);
        stop = true;
        phaser.forceTermination();
      }
    }

    /**
     * One iteration: batches until the time is up or the operation count reached. Returns the
     * time its batches took; {@link #iterationOps} is their operations.
     */
    private long iteration(SinkBlackhole blackhole, long durationNs, Histogram record, boolean calibrate) throws Exception {
      Benchmark b = benchmark;
      long limit = settings.operationsPerIteration();
      long ops = 0;
      b.beforeIteration();
      long start = System.nanoTime();
      long deadline = start + durationNs;
      long t0 = start;
      while (true) {
        int n = limit > 0 ? (int) Math.min(batch, limit - ops) : batch;
        for (int i = 0; i < n; i++) {
          b.operation(blackhole);
        }
        long t1 = System.nanoTime();
        long elapsed = t1 - t0;
        ops += n;
        if (record != null) {
          record.recordValueWithCount(Math.max(1, Math.min(HIGHEST_PS, Math.round(elapsed * (double) PS_PER_NS / n))), n);
        } else if (calibrate && elapsed < TARGET_BATCH_NS && batch < MAX_BATCH && n == batch) {
          batch *= 2;
        }
        t0 = t1;
        if (limit > 0 ? ops >= limit : t1 - deadline >= 0) break;
        if (stop) break;
      }
      iterationOps = ops;
      b.afterIteration();
      return t0 - start;
    }
  }
}
