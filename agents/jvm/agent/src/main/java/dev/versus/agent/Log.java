package dev.versus.agent;

import java.io.PrintStream;
import java.time.Instant;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * Structured logs: one {@code key=value} line per event (logfmt), like the reference agent's
 * ({@code ts=… level=info event=job.started job=… variant=Gzip}). Values with spaces, quotes or
 * {@code =} are quoted. Lines go straight to stdout (info) and stderr (warn, error) rather than
 * through java.util.logging, whose LogManager resets its handlers in a shutdown hook of its own:
 * the lines a SIGTERM shutdown writes (job released, results kept) would be lost.
 */
public final class Log {
  private static final Pattern NEEDS_QUOTES = Pattern.compile("[\\s\"=]");

  private final Consumer<String> out;
  private final Consumer<String> err;

  public Log(Consumer<String> out, Consumer<String> err) {
    this.out = out;
    this.err = err;
  }

  /** Writes info to stdout and warnings and errors to stderr. */
  public static Log console() {
    return new Log(line -> print(System.out, line), line -> print(System.err, line));
  }

  /** Everything to one sink (tests). */
  public static Log to(Consumer<String> sink) {
    return new Log(sink, sink);
  }

  public static Log silent() {
    return new Log(line -> {}, line -> {});
  }

  private static void print(PrintStream stream, String line) {
    synchronized (stream) {
      stream.println(line);
      stream.flush();
    }
  }

  /** fields: key, value, key, value …; null values are left out. */
  public void info(String event, Object... fields) {
    out.accept(format("info", event, fields));
  }

  public void warn(String event, Object... fields) {
    err.accept(format("warn", event, fields));
  }

  public void error(String event, Object... fields) {
    err.accept(format("error", event, fields));
  }

  static String format(String level, String event, Object... fields) {
    StringBuilder line = new StringBuilder();
    line.append("ts=").append(Instant.now()).append(" level=").append(level).append(" event=").append(value(event));
    for (int i = 0; i + 1 < fields.length; i += 2) {
      if (fields[i + 1] == null) continue;
      line.append(' ').append(fields[i]).append('=').append(value(fields[i + 1]));
    }
    return line.toString();
  }

  private static String value(Object value) {
    String text = String.valueOf(value);
    if (!text.isEmpty() && !NEEDS_QUOTES.matcher(text).find()) return text;
    StringBuilder quoted = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      switch (c) {
        case '"' -> quoted.append("\\\"");
        case '\\' -> quoted.append("\\\\");
        case '\n' -> quoted.append("\\n");
        case '\r' -> quoted.append("\\r");
        case '\t' -> quoted.append("\\t");
        default -> quoted.append(c);
      }
    }
    return quoted.append('"').toString();
  }
}
