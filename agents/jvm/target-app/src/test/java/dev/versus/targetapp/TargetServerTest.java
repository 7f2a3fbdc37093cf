package dev.versus.targetapp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The JVM target over real HTTP on loopback: its payload endpoints, their errors and /metrics. */
class TargetServerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient CLIENT = HttpClient.newHttpClient();
  private static TargetServer server;
  private static String base;

  @BeforeAll
  static void start() throws IOException {
    server = TargetServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 3000, 4);
    base = "http://127.0.0.1:" + server.address().getPort();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static HttpResponse<byte[]> get(String path) throws IOException, InterruptedException {
    return CLIENT.send(HttpRequest.newBuilder(URI.create(base + path)).build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  private static HttpResponse<byte[]> post(String path, String contentType, byte[] body) throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (contentType != null) request.header("Content-Type", contentType);
    return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  /** The "error" of a JSON error answer, after checking its status. */
  private static String error(HttpResponse<byte[]> answer, int status) throws IOException {
    assertEquals(status, answer.statusCode(), new String(answer.body()));
    return JSON.readTree(answer.body()).get("error").asText();
  }

  private static void says(String message, String... parts) {
    for (String part : parts) assertTrue(message.contains(part), () -> "\"" + message + "\" does not say \"" + part + "\"");
  }

  @Test
  void binaryPayloadIsSentAndReceived() throws Exception {
    HttpResponse<byte[]> answer = get("/payload/binary");
    assertEquals(200, answer.statusCode());
    assertEquals("application/octet-stream", answer.headers().firstValue("Content-Type").orElse(""));
    assertEquals(3000, answer.body().length, "--payload-size 3000 by default");
    assertTrue(Arrays.stream(toInts(Arrays.copyOf(answer.body(), 2048))).distinct().count() > 200, "random bytes");

    byte[] mib = get("/payload/binary?size=1048576").body();
    assertEquals(1 << 20, mib.length);
    assertArrayEquals(answer.body(), Arrays.copyOf(mib, 3000));
    assertEquals(0, get("/payload/binary?size=0").body().length);

    assertEquals("{\"receivedBytes\":1048576}", new String(post("/payload/binary", "application/octet-stream", mib).body()));
    assertEquals("{\"receivedBytes\":3}", new String(post("/payload/binary", null, new byte[3]).body()));
    says(error(post("/payload/binary", "text/plain", new byte[3]), 415), "Content-Type", "application/octet-stream", "text/plain");
    for (String bad : new String[] {"-1", "abc", "67108865"}) says(error(get("/payload/binary?size=" + bad), 400), "size:", "from 0 to 67108864", bad);
  }

  @Test
  void jsonPayloadCarriesTheSameBytesInBase64() throws Exception {
    byte[] binary = get("/payload/binary?size=100001").body();
    HttpResponse<byte[]> answer = get("/payload/json?size=100001");
    assertEquals(200, answer.statusCode());
    assertEquals("application/json", answer.headers().firstValue("Content-Type").orElse(""));
    JsonNode document = JSON.readTree(answer.body());
    assertEquals(1, document.size(), "only {\"payload\": …}");
    assertArrayEquals(binary, Base64.getDecoder().decode(document.get("payload").asText()));

    byte[] body = ("{\"payload\": \"" + Base64.getEncoder().encodeToString(binary) + "\"}").getBytes();
    assertEquals("{\"receivedBytes\":100001}", new String(post("/payload/json", "application/json; charset=utf-8", body).body()));
    says(error(post("/payload/json", "application/json", "{\"payload\": \"a!b=\"}".getBytes()), 400), "payload:", "base64");
    says(error(post("/payload/json", "application/json", "{\"payload\": 12}".getBytes()), 400), "payload:", "base64");
    says(error(post("/payload/json", "application/json", "{\"data\": \"aGk=\"}".getBytes()), 400), "payload: missing");
    says(error(post("/payload/json", "application/json", "{\"payload\": \"aGk=".getBytes()), 400), "not JSON");
    says(error(post("/payload/json", "application/octet-stream", body), 415), "application/json");
    says(error(get("/nowhere"), 404), "/nowhere", "/payload/binary");
  }

  @Test
  void metricsHaveTheJvmHeapAndGc() throws Exception {
    for (int i = 0; i < 8; i++) get("/payload/json?size=1048576");
    System.gc(); // Micrometer registers jvm_gc_pause_seconds at the first collection it hears of
    String page = "";
    for (long deadline = System.nanoTime() + 10_000_000_000L; System.nanoTime() < deadline; Thread.sleep(50)) {
      HttpResponse<byte[]> answer = get("/metrics");
      assertEquals(200, answer.statusCode());
      assertTrue(answer.headers().firstValue("Content-Type").orElse("").startsWith("text/plain; version=0.0.4"));
      page = new String(answer.body());
      if (page.contains("jvm_gc_pause_seconds_count")) break;
    }
    assertTrue(sum(page, "jvm_gc_pause_seconds_count", "") >= 1, "a collection counted:\n" + page);
    assertTrue(sum(page, "jvm_gc_pause_seconds_sum", "") >= 0, "GC time:\n" + page);
    assertTrue(sum(page, "jvm_memory_used_bytes", "area=\"heap\"") > 0, "heap in use");
    assertTrue(sum(page, "jvm_threads_live_threads", "") >= 4, "the request threads are live");
    assertTrue(page.contains("\nprocess_cpu_usage "), "process CPU");
    assertTrue(sum(page, "process_cpu_time_ns_total", "") > 0, "process CPU time");
  }

  @Test
  void badFlagsNameTheFlagAndABusyPortIsSaidPlainly() {
    StringWriter err = new StringWriter();
    CommandLine command = new CommandLine(new TargetApp()).setErr(new PrintWriter(err));
    assertEquals(2, command.execute("--payload-size", "-1"));
    says(err.toString(), "--payload-size must be from 0 to 67108864");
    assertEquals(2, new CommandLine(new TargetApp()).setErr(new PrintWriter(err)).execute("--addr", "localhost"));
    says(err.toString(), "--addr must be host:port");
    // The port this test's server holds: a message, not a stack trace.
    StringWriter busy = new StringWriter();
    assertEquals(1, new CommandLine(new TargetApp()).setErr(new PrintWriter(busy, true)).execute("--addr", "127.0.0.1:" + server.address().getPort()));
    says(busy.toString(), "cannot listen on 127.0.0.1:" + server.address().getPort());
  }

  /** The sum of a metric's samples whose labels contain the given text; NaN when it has none. */
  private static double sum(String page, String name, String labels) {
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + "(\\{[^}]*\\})? ([-+0-9.eE]+)$").matcher(page);
    double total = Double.NaN;
    while (m.find()) {
      if (m.group(1) != null ? !m.group(1).contains(labels) : !labels.isEmpty()) continue;
      total = (Double.isNaN(total) ? 0 : total) + Double.parseDouble(m.group(2));
    }
    return total;
  }

  private static int[] toInts(byte[] bytes) {
    int[] ints = new int[bytes.length];
    for (int i = 0; i < bytes.length; i++) ints[i] = bytes[i];
    return ints;
  }
}
