package dev.versus.harness;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.versus.workload.SettingsException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** A job's settings against the advertised schema (networknt json-schema-validator, draft 2020-12). */
final class SettingsCheck {
  private SettingsCheck() {}

  private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);

  /**
   * Throws a SettingsException naming the first bad field (in document order). Unknown settings
   * come first, all of one object in one message with the settings it takes ("unknown settings
   * 'target', 'vus'; valid settings are url, method, …"), so another tool's words teach this one's.
   */
  static void check(ObjectNode schema, JsonNode settings) throws SettingsException {
    if (settings == null || !settings.isObject()) throw new SettingsException("", "must be a JSON object");
    JsonSchema compiled = FACTORY.getSchema(schema);
    Set<ValidationMessage> problems = compiled.validate(settings);
    ValidationMessage firstUnknown = problems.stream().filter(m -> "additionalProperties".equals(m.getType()))
        .min(Comparator.comparing(m -> m.getInstanceLocation().toString())).orElse(null);
    if (firstUnknown != null) {
      String at = path(firstUnknown);
      Set<String> unknown = new HashSet<>();
      for (ValidationMessage m : problems) {
        if ("additionalProperties".equals(m.getType()) && path(m).equals(at)) unknown.add(m.getProperty());
      }
      throw new SettingsException(at, unknownSettings(inDocumentOrder(settings, at, unknown), propertiesAt(schema, at)));
    }
    ValidationMessage first = problems.stream().min(Comparator.comparing(m -> m.getInstanceLocation().toString())).orElse(null);
    if (first == null) return;
    throw new SettingsException(field(first), message(first));
  }

  /** "unknown settings 'a', 'b'; valid settings are x, y". */
  static String unknownSettings(List<String> unknown, List<String> valid) {
    StringBuilder text = new StringBuilder(unknown.size() == 1 ? "unknown setting " : "unknown settings ");
    for (int i = 0; i < unknown.size(); i++) text.append(i == 0 ? "" : ", ").append('\'').append(unknown.get(i)).append('\'');
    if (!valid.isEmpty()) text.append("; valid settings are ").append(String.join(", ", valid));
    return text.toString();
  }

  /** The names among `names` of the object at `path` in settings, in the order the settings give them. */
  private static List<String> inDocumentOrder(JsonNode settings, String path, Set<String> names) {
    JsonNode object = settings;
    if (!path.isEmpty()) for (String step : path.split("\\.")) object = object.path(step);
    List<String> ordered = new ArrayList<>();
    object.fieldNames().forEachRemaining(name -> {
      if (names.contains(name)) ordered.add(name);
    });
    for (String name : names) if (!ordered.contains(name)) ordered.add(name);
    return ordered;
  }

  /** The properties the schema defines for the object at `path` (in its order); empty where it does not say. */
  private static List<String> propertiesAt(JsonNode schema, String path) {
    JsonNode node = schema;
    if (!path.isEmpty()) for (String step : path.split("\\.")) node = node.path("properties").path(step);
    List<String> names = new ArrayList<>();
    node.path("properties").fieldNames().forEachRemaining(names::add);
    return names;
  }

  /** The JSON path of the object a message is about ("" for the settings themselves, "headers.0"). */
  private static String path(ValidationMessage message) {
    String location = message.getInstanceLocation().toString();
    String path = location.equals("$") ? "" : location.startsWith("$.") ? location.substring(2) : location.substring(1);
    return path.replaceAll("\\[(\\d+)]", ".$1");
  }

  /** The JSON path inside settings ("level", "headers.0"); for a missing property, that property. */
  static String field(ValidationMessage message) {
    String path = path(message);
    String property = message.getProperty();
    if (property != null && "required".equals(message.getType())) {
      return path.isEmpty() ? property : path + "." + property;
    }
    return path;
  }

  /** The validator's message without its location prefix ("must be at most 9"). */
  static String message(ValidationMessage message) {
    String text = message.getMessage();
    int colon = text.indexOf(": ");
    String rest = colon >= 0 && text.startsWith("$") ? text.substring(colon + 2) : text;
    if ("required".equals(message.getType())) return "is required";
    return rest;
  }
}
