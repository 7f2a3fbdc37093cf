package dev.versus.targetapp;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** The JVM target's HTTP server: the payload endpoints and /metrics, until closed. */
public final class TargetServer implements AutoCloseable {
  private final HttpServer server;
  private final ExecutorService threads;
  private final TargetMetrics metrics = new TargetMetrics();

  private TargetServer(HttpServer server, ExecutorService threads) {
    this.server = server;
    this.threads = threads;
  }

  /** Starts listening on the address (port 0: any free port) with that many request threads. */
  public static TargetServer start(InetSocketAddress address, int payloadSize, int threadCount) throws IOException {
    HttpServer server = HttpServer.create(address, 0);
    ExecutorService threads = Executors.newFixedThreadPool(threadCount);
    TargetServer target = new TargetServer(server, threads);
    Payloads payloads = new Payloads(payloadSize);
    server.setExecutor(threads);
    server.createContext("/payload/binary", payloads::binary);
    server.createContext("/payload/json", payloads::json);
    server.createContext("/metrics", exchange -> {
      if (!"GET".equals(exchange.getRequestMethod())) {
        Http.methodNotAllowed(exchange);
        return;
      }
      Http.send(exchange, 200, "text/plain; version=0.0.4; charset=utf-8", target.metrics.scrape().getBytes(StandardCharsets.UTF_8));
    });
    server.createContext("/", exchange ->
        Http.error(exchange, 404, exchange.getRequestURI().getPath() + ": not here; the JVM target serves /payload/binary, /payload/json and /metrics"));
    server.start();
    return target;
  }

  /** The address it listens on, e.g. 127.0.0.1:41234. */
  public InetSocketAddress address() {
    return server.getAddress();
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
    metrics.close();
  }
}
