package dev.versus.agent.probe;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@link MicrometerTarget} in a JVM of its own (the test's class path, a small heap and the
 * serial collector, so a little load makes many collections), and its side channel read back:
 * one {@link Scrape} per scrape it served.
 */
public final class TargetJvm implements AutoCloseable {
  private static final Pattern SCRAPE = Pattern.compile("scrape gc=(\\d+) heapBefore=(\\d+) heapAfter=(\\d+) heapHigh=(\\d+)");

  /** What the target read of itself around one scrape. */
  public record Scrape(long gcCount, long heapBefore, long heapAfter, long heapHigh) {}

  private final Process process;
  private final List<Scrape> scrapes = new ArrayList<>();
  private final int port;

  public TargetJvm() throws IOException, InterruptedException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    process = new ProcessBuilder(java, "-Xmx64m", "-Xmn8m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), MicrometerTarget.class.getName())
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
    BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    String first = out.readLine();
    if (first == null || !first.startsWith("port=")) throw new IOException("the target JVM did not start: " + first);
    port = Integer.parseInt(first.substring(5));
    Thread reader = new Thread(() -> {
      try {
        String line;
        while ((line = out.readLine()) != null) {
          Matcher m = SCRAPE.matcher(line);
          if (!m.matches()) continue;
          synchronized (scrapes) {
            scrapes.add(new Scrape(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)), Long.parseLong(m.group(4))));
          }
        }
      } catch (IOException ended) {
        // the target was stopped
      }
    }, "target-jvm-out");
    reader.setDaemon(true);
    reader.start();
  }

  public String metricsUrl() {
    return "http://127.0.0.1:" + port + "/metrics";
  }

  public String workUrl() {
    return "http://127.0.0.1:" + port + "/work";
  }

  public long pid() {
    return process.pid();
  }

  /** The scrapes served so far, waiting (up to 5 s) until there are at least count. */
  public List<Scrape> scrapes(int count) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (true) {
      synchronized (scrapes) {
        if (scrapes.size() >= count || System.nanoTime() > deadline) return List.copyOf(scrapes);
      }
      Thread.sleep(10);
    }
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(5, TimeUnit.SECONDS)) process.destroyForcibly();
  }
}
