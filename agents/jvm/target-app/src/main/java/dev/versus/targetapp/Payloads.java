package dev.versus.targetapp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.DatabindException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * /payload/binary and /payload/json, as the Go target answers them: GET sends a payload of
 * {@code ?size=} bytes (default {@code --payload-size}) as application/octet-stream or as
 * {@code {"payload": "<base64>"}}; POST reads one and answers {@code {"receivedBytes": N}}. Bad
 * input is a 4xx with {@code {"error": "..."}} naming what was wrong.
 */
final class Payloads {
  /** The largest payload an endpoint sends or accepts (64 MiB), as in the Go target. */
  static final int MAX_PAYLOAD = 64 << 20;

  private static final ObjectMapper JSON = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
  /** Random (incompressible) bytes, repeated to make a payload of any size. */
  private final byte[] block = new byte[64 << 10];
  private final int defaultSize;

  /** The JSON form; Jackson reads and writes a byte[] as base64. */
  record JsonPayload(byte[] payload) {}

  Payloads(int defaultSize) {
    this.defaultSize = defaultSize;
    new SplittableRandom(0x7665727375L).nextBytes(block);
  }

  void binary(HttpExchange exchange) throws IOException {
    switch (exchange.getRequestMethod()) {
      case "GET" -> {
        Integer size = size(exchange);
        if (size == null) return;
        exchange.getResponseHeaders().set("Content-Type", "application/octet-stream");
        exchange.sendResponseHeaders(200, size == 0 ? -1 : size);
        try (OutputStream out = exchange.getResponseBody()) {
          for (int left = size; left > 0; left -= block.length) out.write(block, 0, Math.min(left, block.length));
        }
      }
      case "POST" -> {
        if (!contentType(exchange, "application/octet-stream")) return;
        long received = 0;
        try (InputStream in = exchange.getRequestBody()) {
          byte[] buffer = new byte[64 << 10];
          for (int n; (n = in.read(buffer)) > 0; ) {
            received += n;
            if (received > MAX_PAYLOAD) {
              Http.error(exchange, 413, "the body is over " + MAX_PAYLOAD + " bytes");
              return;
            }
          }
        }
        Http.json(exchange, 200, Map.of("receivedBytes", received));
      }
      default -> Http.methodNotAllowed(exchange);
    }
  }

  void json(HttpExchange exchange) throws IOException {
    switch (exchange.getRequestMethod()) {
      case "GET" -> {
        Integer size = size(exchange);
        if (size == null) return;
        // Built and encoded per request, as a JSON API serialising a byte array does.
        byte[] payload = new byte[size];
        for (int i = 0; i < size; i += block.length) System.arraycopy(block, 0, payload, i, Math.min(block.length, size - i));
        Http.json(exchange, 200, new JsonPayload(payload));
      }
      case "POST" -> {
        if (!contentType(exchange, "application/json")) return;
        JsonPayload body;
        try (InputStream in = exchange.getRequestBody()) {
          body = JSON.readValue(in, JsonPayload.class);
        } catch (StreamReadException notJson) {
          notJson(exchange, notJson);
          return;
        } catch (DatabindException wrong) {
          // Jackson reads a binary value lazily: a broken document can surface while binding.
          if (wrong.getCause() instanceof StreamReadException notJson) {
            notJson(exchange, notJson);
            return;
          }
          Http.error(exchange, 400, "payload: must be a string of standard base64 (" + wrong.getOriginalMessage() + "); send {\"payload\": \"<base64>\"}");
          return;
        }
        if (body == null || body.payload() == null) {
          Http.error(exchange, 400, "payload: missing; send {\"payload\": \"<base64>\"}");
          return;
        }
        Http.json(exchange, 200, Map.of("receivedBytes", body.payload().length));
      }
      default -> Http.methodNotAllowed(exchange);
    }
  }

  private static void notJson(HttpExchange exchange, StreamReadException problem) throws IOException {
    Http.error(exchange, 400, "the body is not JSON (" + problem.getOriginalMessage() + "); send {\"payload\": \"<base64>\"}");
  }

  /** {@code ?size=} or the default; null when it was bad (and a 400 has been sent). */
  private Integer size(HttpExchange exchange) throws IOException {
    String raw = Http.query(exchange, "size");
    if (raw == null) return defaultSize;
    try {
      int size = Integer.parseInt(raw);
      if (size >= 0 && size <= MAX_PAYLOAD) return size;
    } catch (NumberFormatException notANumber) {
      // answered below
    }
    Http.error(exchange, 400, "size: must be a whole number of bytes from 0 to " + MAX_PAYLOAD + " (got \"" + raw + "\")");
    return null;
  }

  /** Refuses a body declared as something else (none declared is taken as the wanted type). */
  private static boolean contentType(HttpExchange exchange, String want) throws IOException {
    String declared = exchange.getRequestHeaders().getFirst("Content-Type");
    if (declared == null || declared.split(";", 2)[0].trim().equalsIgnoreCase(want)) return true;
    Http.error(exchange, 415, "Content-Type: this endpoint reads " + want + " (got \"" + declared + "\")");
    return false;
  }

  static byte[] toJson(Object value) throws JsonProcessingException {
    return JSON.writeValueAsBytes(value);
  }
}
