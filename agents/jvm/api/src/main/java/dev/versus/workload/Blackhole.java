package dev.versus.workload;

/** Sink for values an operation computes, so the JIT must compute them. */
public interface Blackhole {
  void consume(Object value);

  void consume(long value);

  void consume(int value);

  void consume(double value);

  void consume(boolean value);
}
