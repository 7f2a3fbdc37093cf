package dev.versus.harness;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;

/**
 * The JVM's own counters around the measured iterations: collections and their time
 * (GarbageCollectorMXBean), the process's CPU time (OperatingSystemMXBean), the heap's peak
 * (MemoryPoolMXBean, reset when measuring starts) and a thread's allocated bytes (ThreadMXBean).
 */
final class JvmCounters {
  private JvmCounters() {}

  private static final com.sun.management.ThreadMXBean THREADS = threads();

  private static com.sun.management.ThreadMXBean threads() {
    if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean t && t.isThreadAllocatedMemorySupported()) {
      t.setThreadAllocatedMemoryEnabled(true);
      return t;
    }
    return null;
  }

  /** Counters at the start of measuring. */
  record Snapshot(long gcCount, long gcTimeMs, long cpuNs) {}

  /**
   * Over the measured part: collections, their time, the process's CPU time (all threads, the
   * JIT's and GC's included; -1 when unknown) and the heap's peak (sum of the heap pools' peaks).
   */
  record Delta(long gcCount, long gcTimeMs, long cpuNs, long wallNs, long heapPeakBytes) {
    /** CPU time over wall time: 100 is one core busy all along. */
    double cpuPercent() {
      return wallNs == 0 || cpuNs < 0 ? 0 : cpuNs * 100.0 / wallNs;
    }
  }

  /** Resets the heap pools' peaks and reads the counters. */
  static Snapshot start() {
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.isValid()) pool.resetPeakUsage();
    }
    long[] gc = gc();
    return new Snapshot(gc[0], gc[1], processCpuNs());
  }

  static Delta since(Snapshot before, long wallNs) {
    long[] gc = gc();
    long cpu = processCpuNs();
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.isValid() && pool.getPeakUsage() != null) peak += pool.getPeakUsage().getUsed();
    }
    return new Delta(gc[0] - before.gcCount(), gc[1] - before.gcTimeMs(), cpu < 0 || before.cpuNs() < 0 ? -1 : cpu - before.cpuNs(), wallNs, peak);
  }

  private static long[] gc() {
    long count = 0;
    long time = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      count += Math.max(0, gc.getCollectionCount());
      time += Math.max(0, gc.getCollectionTime());
    }
    return new long[] {count, time};
  }

  static long processCpuNs() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getProcessCpuTime();
    }
    return -1;
  }

  /** Bytes the current thread has allocated so far; -1 when the JVM cannot tell. */
  static long threadAllocatedBytes() {
    return THREADS == null ? -1 : THREADS.getCurrentThreadAllocatedBytes();
  }

  static boolean allocationSupported() {
    return THREADS != null;
  }
}
