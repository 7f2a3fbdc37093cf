package dev.versus.harness;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.versus.workload.SettingsException;
import java.util.Comparator;
import java.util.Set;

/** A job's settings against the advertised schema (networknt json-schema-validator, draft 2020-12). */
final class SettingsCheck {
  private SettingsCheck() {}

  private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);

  /** Throws a SettingsException naming the first bad field (in document order). */
  static void check(ObjectNode schema, JsonNode settings) throws SettingsException {
    if (settings == null || !settings.isObject()) throw new SettingsException("", "must be a JSON object");
    JsonSchema compiled = FACTORY.getSchema(schema);
    Set<ValidationMessage> problems = compiled.validate(settings);
    ValidationMessage first = problems.stream().min(Comparator.comparing(m -> m.getInstanceLocation().toString())).orElse(null);
    if (first == null) return;
    throw new SettingsException(field(first), message(first));
  }

  /** The JSON path inside settings ("level", "headers.0"); for a missing or extra property, that property. */
  static String field(ValidationMessage message) {
    String location = message.getInstanceLocation().toString();
    String path = location.equals("$") ? "" : location.startsWith("$.") ? location.substring(2) : location.substring(1);
    path = path.replaceAll("\\[(\\d+)]", ".$1");
    String property = message.getProperty();
    if (property != null && ("required".equals(message.getType()) || "additionalProperties".equals(message.getType()))) {
      return path.isEmpty() ? property : path + "." + property;
    }
    return path;
  }

  /** The validator's message without its location prefix ("must be at most 9"). */
  static String message(ValidationMessage message) {
    String text = message.getMessage();
    int colon = text.indexOf(": ");
    String rest = colon >= 0 && text.startsWith("$") ? text.substring(colon + 2) : text;
    if ("additionalProperties".equals(message.getType())) return "is not a setting of this workload";
    if ("required".equals(message.getType())) return "is required";
    return rest;
  }
}
