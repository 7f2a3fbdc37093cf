package dev.versus.targetapp;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** The few things every handler of the JDK's HTTP server needs: answers, errors, a query value. */
final class Http {
  private Http() {}

  static void json(HttpExchange exchange, int status, Object value) throws IOException {
    send(exchange, status, "application/json", Payloads.toJson(value));
  }

  static void error(HttpExchange exchange, int status, String message) throws IOException {
    json(exchange, status, Map.of("error", message));
  }

  static void methodNotAllowed(HttpExchange exchange) throws IOException {
    exchange.getResponseHeaders().set("Allow", "GET, POST");
    error(exchange, 405, exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath() + ": use GET or POST");
  }

  static void send(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
    drain(exchange);
    exchange.getResponseHeaders().set("Content-Type", contentType);
    exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  /**
   * Reads what is left of the request body (an error may answer before reading it): answering
   * with part of it unread, the JDK's server can reset the connection under the answer. Past
   * 1 MiB the connection is closed instead.
   */
  private static void drain(HttpExchange exchange) {
    InputStream in = exchange.getRequestBody();
    byte[] buffer = new byte[64 << 10];
    try {
      for (int read = 0, n; (n = in.read(buffer)) > 0; ) {
        read += n;
        if (read > (1 << 20)) {
          exchange.getResponseHeaders().set("Connection", "close");
          return;
        }
      }
    } catch (IOException closed) {
      // The handler read it all and closed it.
    }
  }

  /** The first value of a query parameter, or null. */
  static String query(HttpExchange exchange, String name) {
    String query = exchange.getRequestURI().getRawQuery();
    if (query == null) return null;
    for (String pair : query.split("&")) {
      String[] kv = pair.split("=", 2);
      if (URLDecoder.decode(kv[0], StandardCharsets.UTF_8).equals(name)) return kv.length > 1 ? URLDecoder.decode(kv[1], StandardCharsets.UTF_8) : "";
    }
    return null;
  }
}
