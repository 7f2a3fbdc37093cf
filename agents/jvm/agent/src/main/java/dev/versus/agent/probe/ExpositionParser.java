package dev.versus.agent.probe;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the Prometheus text format (0.0.4) and OpenMetrics text (1.0) into samples. Written here
 * because the Java client (io.prometheus prometheus-metrics-exposition-textformats, simpleclient_common)
 * only writes these formats; it has no parser. It reads what a probe needs: every sample line's
 * name, labels (with the format's escapes) and value; comments, HELP/TYPE/UNIT lines, timestamps,
 * exemplars and {@code # EOF} are skipped.
 */
public final class ExpositionParser {
  private ExpositionParser() {}

  /** A line that is not of the format. */
  public static final class ParseException extends Exception {
    private static final long serialVersionUID = 1L;

    ParseException(int line, String message) {
      super("line " + line + ": " + message);
    }
  }

  public static Exposition parse(String text) throws ParseException {
    List<Exposition.Sample> samples = new ArrayList<>();
    int number = 0;
    for (String line : text.split("\n", -1)) {
      number++;
      String trimmed = line.strip();
      if (trimmed.isEmpty() || trimmed.startsWith("#")) continue;
      samples.add(new Line(trimmed, number).sample());
    }
    return new Exposition(samples);
  }

  /** A cursor over one sample line. */
  private static final class Line {
    private final String text;
    private final int number;
    private int at;

    Line(String text, int number) {
      this.text = text;
      this.number = number;
    }

    Exposition.Sample sample() throws ParseException {
      String name = name("a metric name");
      Map<String, String> labels = new LinkedHashMap<>();
      int afterName = at;
      skipSpaces();
      if (at < text.length() && text.charAt(at) == '{') {
        at++;
        labels(labels);
      } else {
        at = afterName;
      }
      if (at >= text.length() || !Character.isWhitespace(text.charAt(at))) throw fail("expected a space and a value after " + name);
      skipSpaces();
      int start = at;
      while (at < text.length() && !Character.isWhitespace(text.charAt(at))) at++;
      double value = number(text.substring(start, at));
      // What may follow (a timestamp, an OpenMetrics exemplar) is not needed.
      return new Exposition.Sample(name, Map.copyOf(labels), value);
    }

    private void labels(Map<String, String> labels) throws ParseException {
      while (true) {
        skipSpaces();
        if (at < text.length() && text.charAt(at) == '}') {
          at++;
          return;
        }
        String label = name("a label name");
        skipSpaces();
        expect('=');
        skipSpaces();
        expect('"');
        StringBuilder value = new StringBuilder();
        while (true) {
          if (at >= text.length()) throw fail("the value of label " + label + " is not closed");
          char c = text.charAt(at++);
          if (c == '"') break;
          if (c == '\\') {
            if (at >= text.length()) throw fail("a backslash ends the line");
            char escaped = text.charAt(at++);
            value.append(escaped == 'n' ? '\n' : escaped);
          } else {
            value.append(c);
          }
        }
        labels.put(label, value.toString());
        skipSpaces();
        if (at < text.length() && text.charAt(at) == ',') at++;
        else if (at >= text.length() || text.charAt(at) != '}') throw fail("expected , or } after label " + label);
      }
    }

    private String name(String what) throws ParseException {
      int start = at;
      while (at < text.length()) {
        char c = text.charAt(at);
        boolean letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
        if (!letter && !(at > start && c >= '0' && c <= '9')) break;
        at++;
      }
      if (at == start) throw fail("expected " + what);
      return text.substring(start, at);
    }

    private double number(String token) throws ParseException {
      switch (token) {
        case "+Inf", "Inf" -> {
          return Double.POSITIVE_INFINITY;
        }
        case "-Inf" -> {
          return Double.NEGATIVE_INFINITY;
        }
        case "NaN" -> {
          return Double.NaN;
        }
        default -> {
          try {
            return Double.parseDouble(token);
          } catch (NumberFormatException bad) {
            throw fail("\"" + token + "\" is not a number");
          }
        }
      }
    }

    private void expect(char c) throws ParseException {
      if (at >= text.length() || text.charAt(at) != c) throw fail("expected " + c);
      at++;
    }

    private void skipSpaces() {
      while (at < text.length() && (text.charAt(at) == ' ' || text.charAt(at) == '\t')) at++;
    }

    private ParseException fail(String message) {
      return new ParseException(number, message);
    }
  }
}
