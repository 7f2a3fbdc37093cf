package dev.versus.agent.probe;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.versus.targetapp.TargetMetrics;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A JVM under test, run by the probe tests in a process of its own: the JVM target's Micrometer
 * registry ({@link TargetMetrics}: the JVM's GC, memory, thread and processor metrics), served at /metrics; /work
 * allocates (so the collector runs while load comes in). Its side channel is stdout: for each
 * scrape, a line with its own GarbageCollectorMXBean count, its heap use read just before and just
 * after the scrape was written, and the most the heap held meanwhile (the pools' peaks), which the
 * test compares with what the probe reported.
 *
 * <p>A scrape holds off the allocating requests and first waits until Micrometer has heard of
 * every collection the MXBeans count (its GC metrics learn of them from asynchronous
 * notifications), so both describe the same moment.
 */
public final class MicrometerTarget {
  private static final ReentrantReadWriteLock LOCK = new ReentrantReadWriteLock();
  private static volatile Object keep;
  /** Collections before Micrometer listened (the JVM's start-up): the MXBeans count them, Micrometer never will. */
  private static long before;

  private MicrometerTarget() {}

  public static void main(String[] args) throws IOException {
    // The JVM target's registry (versus-target-app), as a probe of `java -jar versus-target-jvm.jar` reads it.
    PrometheusMeterRegistry registry = new TargetMetrics().registry();
    try {
      Thread.sleep(200); // notifications of collections while binding arrive
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
    }
    before = mxbeanCount() - micrometerCount(registry);
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newFixedThreadPool(4));
    server.createContext("/metrics", exchange -> scrape(exchange, registry));
    server.createContext("/work", MicrometerTarget::work);
    server.start();
    System.out.println("port=" + server.getAddress().getPort());
    System.out.flush();
  }

  private static void scrape(HttpExchange exchange, PrometheusMeterRegistry registry) throws IOException {
    byte[] body;
    LOCK.writeLock().lock();
    try {
      long collections;
      long heapBefore;
      long heapAfter;
      // A collection during the scrape itself (it allocates) may or may not be in the body Micrometer
      // wrote: that scrape cannot be compared with the count taken before it, so it is taken again.
      int attempts = 0;
      do {
        collections = settle(registry);
        for (MemoryPoolMXBean pool : heapPools()) pool.resetPeakUsage();
        heapBefore = heapUsed();
        body = registry.scrape().getBytes(StandardCharsets.UTF_8);
        heapAfter = heapUsed();
      } while (mxbeanCount() != collections && ++attempts < 10);
      // The most any pool can have held while Micrometer read it: its peak (the JVM records a
      // pool's use when a collection starts) or, after the last collection, its use now.
      long heapHigh = 0;
      for (MemoryPoolMXBean pool : heapPools()) heapHigh += Math.max(pool.getPeakUsage().getUsed(), pool.getUsage().getUsed());
      System.out.println("scrape gc=" + collections + " heapBefore=" + heapBefore + " heapAfter=" + heapAfter + " heapHigh=" + heapHigh);
      System.out.flush();
    } finally {
      LOCK.writeLock().unlock();
    }
    exchange.getResponseHeaders().set("content-type", "text/plain; version=0.0.4; charset=utf-8");
    exchange.sendResponseHeaders(200, body.length);
    try (exchange) {
      exchange.getResponseBody().write(body);
    }
  }

  /** Waits (up to 5 s) until Micrometer's GC pause count is the MXBeans' count; returns that count. */
  private static long settle(PrometheusMeterRegistry registry) {
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (true) {
      long mxbeans = mxbeanCount();
      if (micrometerCount(registry) + before == mxbeans || System.nanoTime() > deadline) return mxbeans;
      try {
        Thread.sleep(2);
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
        return mxbeans;
      }
    }
  }

  private static long mxbeanCount() {
    long count = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) count += Math.max(0, gc.getCollectionCount());
    return count;
  }

  private static long micrometerCount(PrometheusMeterRegistry registry) {
    long count = 0;
    for (Timer timer : registry.find("jvm.gc.pause").timers()) count += timer.count();
    return count;
  }

  private static long heapUsed() {
    long used = 0;
    for (MemoryPoolMXBean pool : heapPools()) used += pool.getUsage().getUsed();
    return used;
  }

  private static java.util.List<MemoryPoolMXBean> heapPools() {
    return ManagementFactory.getMemoryPoolMXBeans().stream().filter(pool -> pool.getType() == MemoryType.HEAP).toList();
  }

  /** Allocates 1 MiB in small arrays, keeping the last so it is not optimised away. */
  private static void work(HttpExchange exchange) throws IOException {
    LOCK.readLock().lock();
    try {
      for (int i = 0; i < 256; i++) keep = new byte[4096];
    } finally {
      LOCK.readLock().unlock();
    }
    byte[] body = "ok".getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(200, body.length);
    try (exchange) {
      exchange.getResponseBody().write(body);
    }
  }
}
