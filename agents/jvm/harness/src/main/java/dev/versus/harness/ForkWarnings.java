package dev.versus.harness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The forks' warnings as the run's. Forks of one run mostly warn alike ("did not reach steady state
 * in 20 s: … CV of 12.3%" from each of three), and three near-identical lines read as three
 * problems: warnings that differ only in their figures are one line, naming the forks that gave it,
 * with each figure that differs given fork by fork in the forks' order:
 * {@code forks 1, 2 and 3 of 3: did not reach steady state in 20 s: … CV of 12.3/9.8/11.0%}.
 * A warning one fork alone gave keeps that fork's prefix ({@code fork 2 of 3: …}).
 */
final class ForkWarnings {
  private ForkWarnings() {}

  // A figure as the warnings print them: a sign, digits, a decimal part.
  private static final Pattern FIGURE = Pattern.compile("[+-]?\\d+(?:\\.\\d+)?");

  /** Each fork's warnings (in fork order) as the run's. */
  static List<String> merge(List<List<String>> forks) {
    // Warnings of one shape (the text with its figures taken out), in the order first given; a
    // fork repeating a shape starts another line of it, so no fork's warning is lost.
    Map<String, List<Given>> byShape = new LinkedHashMap<>();
    for (int fork = 0; fork < forks.size(); fork++) {
      Map<String, Integer> seen = new LinkedHashMap<>();
      for (String warning : forks.get(fork)) {
        String shape = FIGURE.matcher(warning).replaceAll("#");
        int occurrence = seen.merge(shape, 1, Integer::sum);
        byShape.computeIfAbsent(occurrence + "\u0000" + shape, k -> new ArrayList<>()).add(new Given(fork, warning));
      }
    }
    List<String> merged = new ArrayList<>();
    for (List<Given> given : byShape.values()) merged.add(prefix(given, forks.size()) + text(given));
    return merged;
  }

  private record Given(int fork, String warning) {}

  private static String prefix(List<Given> given, int forks) {
    if (given.size() == 1) return "fork " + (given.get(0).fork() + 1) + " of " + forks + ": ";
    StringBuilder names = new StringBuilder("forks ");
    for (int i = 0; i < given.size(); i++) {
      if (i > 0) names.append(i == given.size() - 1 ? " and " : ", ");
      names.append(given.get(i).fork() + 1);
    }
    return names.append(" of ").append(forks).append(": ").toString();
  }

  /** The first fork's text, with each figure that differs between the forks as theirs, joined by "/". */
  private static String text(List<Given> given) {
    List<List<String>> figures = new ArrayList<>();
    for (Given g : given) {
      List<String> own = new ArrayList<>();
      Matcher m = FIGURE.matcher(g.warning());
      while (m.find()) own.add(m.group());
      figures.add(own);
    }
    Matcher m = FIGURE.matcher(given.get(0).warning());
    StringBuilder text = new StringBuilder();
    int index = 0;
    while (m.find()) {
      final int at = index++;
      List<String> values = figures.stream().map(own -> own.get(at)).toList();
      m.appendReplacement(text, Matcher.quoteReplacement(values.stream().distinct().count() == 1 ? values.get(0) : String.join("/", values)));
    }
    m.appendTail(text);
    return text.toString();
  }
}
