package dev.versus.workload;

/** A prepared workload: the operation the harness times, and what only the workload can report. */
public interface Benchmark extends AutoCloseable {
  /**
   * One operation. Give whatever it computes to the blackhole, so the JIT cannot remove the work
   * as dead code.
   */
  void operation(Blackhole blackhole) throws Exception;

  /**
   * Before each iteration (warm-up and measured), untimed: JMH's {@code @Setup(Level.Iteration)}.
   * Called on the thread that runs the iteration; with {@code threads} above 1 each thread calls
   * it before its own iterations, so state it resets per iteration belongs in a ThreadLocal.
   */
  default void beforeIteration() throws Exception {}

  /** After each iteration, untimed: JMH's {@code @TearDown(Level.Iteration)}; called as {@link #beforeIteration}. */
  default void afterIteration() throws Exception {}

  /**
   * Once, when warm-up has ended on every thread and before the first measured iteration,
   * untimed: a workload that counts figures of its own (e.g. the time until a broker acknowledged
   * each message) starts them afresh here, so {@link #report} covers the measured iterations only.
   */
  default void beforeMeasurement() throws Exception {}

  /**
   * Bytes one operation processes (e.g. the cipher's input size); when positive the harness also
   * reports {@code data_rate} in MB/s (1 MB = 2^20 B), one sample per measured iteration.
   */
  default long bytesPerOperation() {
    return 0;
  }

  /** After the measured iterations: metrics only the workload knows (e.g. bytes after gzip). */
  default void report(Recorder recorder) {}

  @Override
  default void close() throws Exception {}
}
