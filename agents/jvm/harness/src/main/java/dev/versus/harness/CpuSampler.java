package dev.versus.harness;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * The measuring JVM's own CPU, second by second, over the measured iterations: a daemon thread
 * reads the process's CPU time (OperatingSystemMXBean) at the window's start and then once a
 * second, each whole second giving CPU seconds per second x 100 (100 = one core busy). The agent's
 * {@code process} probe cannot do this for a run: the forked JVM does not exist yet when probes
 * read their targets before the load, so the JVM that does the work measures itself. A last,
 * partial second is left out (the window's mean, cpu_percent, still counts it); the thread's own
 * reads cost a few microseconds a second.
 */
final class CpuSampler {
  static final long INTERVAL_NS = 1_000_000_000L;

  /** The CPU % of each whole second from {@code startedAt}; none when the JVM cannot tell. */
  record Seconds(Instant startedAt, double[] percents) {
    static final Seconds NONE = new Seconds(Instant.EPOCH, new double[0]);
  }

  private final List<Double> percents = new ArrayList<>();
  private final Instant startedAt = Instant.now();
  private final Thread thread;
  private volatile boolean stop;

  private CpuSampler() {
    thread = new Thread(this::sample, "versus-cpu-sampler");
    thread.setDaemon(true);
  }

  /** Starts sampling now; null when this JVM cannot tell its process's CPU time. */
  static CpuSampler start() {
    if (JvmCounters.processCpuNs() < 0) return null;
    CpuSampler sampler = new CpuSampler();
    sampler.thread.start();
    return sampler;
  }

  private void sample() {
    long start = System.nanoTime();
    long lastCpu = JvmCounters.processCpuNs();
    long lastWall = start;
    for (long second = 1; ; second++) {
      long due = start + second * INTERVAL_NS;
      for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
        if (stop) return;
        LockSupport.parkNanos(Math.min(wait, 50_000_000L));
      }
      if (stop) return;
      long wall = System.nanoTime();
      long cpu = JvmCounters.processCpuNs();
      // The interval as it really was (the read may come late on a busy machine).
      double percent = Math.max(0, (cpu - lastCpu) * 100.0 / (wall - lastWall));
      synchronized (percents) {
        percents.add(percent);
      }
      lastCpu = cpu;
      lastWall = wall;
    }
  }

  /** Stops sampling; the CPU % of each whole second since start, in order. */
  Seconds stop() throws InterruptedException {
    stop = true;
    thread.join();
    synchronized (percents) {
      return new Seconds(startedAt, percents.stream().mapToDouble(Double::doubleValue).toArray());
    }
  }
}
