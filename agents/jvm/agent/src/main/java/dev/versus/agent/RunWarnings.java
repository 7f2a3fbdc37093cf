package dev.versus.agent;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.List;

/** {@code run.warnings} as the server takes it: at most 20, each at most 500 characters. */
final class RunWarnings {
  static final int MAX = 20;
  static final int MAX_LENGTH = 500;

  private RunWarnings() {}

  static ArrayNode of(List<String> warnings) {
    ArrayNode out = JsonNodeFactory.instance.arrayNode();
    for (String warning : warnings) {
      if (out.size() == MAX) break;
      out.add(warning.length() > MAX_LENGTH ? warning.substring(0, MAX_LENGTH - 1) + "…" : warning);
    }
    return out;
  }
}
