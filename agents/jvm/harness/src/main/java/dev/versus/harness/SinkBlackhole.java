package dev.versus.harness;

import dev.versus.workload.Blackhole;
import java.lang.ref.WeakReference;

/**
 * The harness's blackhole, after JMH's: a value given to it must be computed, yet consuming it
 * costs a nanosecond or so and never allocates (in the measured steady state) nor writes memory
 * another thread reads.
 *
 * <p>Primitives: each type has two volatile fields holding different values. {@code consume(v)}
 * reads both (volatile reads cannot be hoisted out of the loop or folded into constants) and
 * compares {@code v} against them in a way that is false for every {@code v} — {@code (v ^ a) ==
 * (v ^ b)} only when {@code a == b} — but the JIT cannot prove that, because the fields could
 * change at any moment. So {@code v} must exist, i.e. the computation producing it runs. The
 * branch is never taken, so its store never happens.
 *
 * <p>Objects: the reference must escape (so escape analysis cannot scalar-replace the object and
 * drop its allocation), but storing every reference in a field would cost a write barrier per
 * operation. A cheap pseudo-random sequence decides, rarely, to keep the reference (weakly, so it
 * does not keep garbage alive); each time it does, the odds halve (the mask grows), so over a run
 * it happens a few dozen times at most. The JIT sees a store that may happen, which is all it takes.
 *
 * <p>One per measuring thread: the fields are not shared between threads.
 */
final class SinkBlackhole implements Blackhole {
  private volatile int i1 = 1;
  private volatile int i2 = 2;
  private volatile long l1 = 1;
  private volatile long l2 = 2;
  private volatile double d1 = 1;
  private volatile double d2 = 2;
  private volatile boolean b1 = false;
  private volatile boolean b2 = true;
  private volatile int tlrMask = 1;
  private int tlr = (int) System.nanoTime();
  /** Where the never-taken branches write, and where an object is rarely kept. */
  private Object sink;

  @Override
  public void consume(Object value) {
    int mask = tlrMask;
    int next = tlr * 1664525 + 1013904223; // a linear congruential step: cheap, no allocation
    tlr = next;
    if ((next & mask) == 0) {
      sink = new WeakReference<>(value);
      tlrMask = (mask << 1) + 1;
    }
  }

  @Override
  public void consume(long value) {
    if ((value ^ l1) == (value ^ l2)) {
      sink = value;
    }
  }

  @Override
  public void consume(int value) {
    if ((value ^ i1) == (value ^ i2)) {
      sink = value;
    }
  }

  @Override
  public void consume(double value) {
    // Non-short-circuit &: both volatile reads happen, and value cannot equal two different numbers.
    if (value == d1 & value == d2) {
      sink = value;
    }
  }

  @Override
  public void consume(boolean value) {
    if (value == b1 & value == b2) {
      sink = value;
    }
  }

  /** Keeps {@link #sink} observable, so the stores above are not dead either. */
  Object sink() {
    return sink;
  }
}
