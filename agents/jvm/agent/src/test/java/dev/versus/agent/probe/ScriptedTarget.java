package dev.versus.agent.probe;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * A target on the JDK's HttpServer for the probe tests: /metrics answers what the test's script
 * says for the n-th scrape (1-based; null stops the server from that scrape on, so later scrapes
 * are refused), /work answers "ok" and counts the requests (the load a job sends).
 */
public final class ScriptedTarget implements AutoCloseable {
  private final HttpServer server;
  private final AtomicInteger scrapes = new AtomicInteger();
  private final AtomicInteger requests = new AtomicInteger();

  public ScriptedTarget(IntFunction<String> script) throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newCachedThreadPool(runnable -> {
      Thread thread = new Thread(runnable, "scripted-target");
      thread.setDaemon(true);
      return thread;
    }));
    server.createContext("/metrics", exchange -> {
      String body = script.apply(scrapes.incrementAndGet());
      if (body == null) {
        exchange.close();
        // Stopping waits for open exchanges: not on the thread of one.
        new Thread(() -> server.stop(0)).start();
        return;
      }
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, bytes.length);
      try (exchange) {
        exchange.getResponseBody().write(bytes);
      }
    });
    server.createContext("/work", exchange -> {
      requests.incrementAndGet();
      byte[] bytes = "ok".getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, bytes.length);
      try (exchange) {
        exchange.getResponseBody().write(bytes);
      }
    });
    server.start();
  }

  public int port() {
    return server.getAddress().getPort();
  }

  public String metricsUrl() {
    return "http://127.0.0.1:" + port() + "/metrics";
  }

  public String workUrl() {
    return "http://127.0.0.1:" + port() + "/work";
  }

  public int scrapes() {
    return scrapes.get();
  }

  public int requests() {
    return requests.get();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
