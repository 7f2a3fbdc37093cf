package dev.versus.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * docs/openapi.json, the OpenAPI document the server generates from its own schemas (committed at
 * the repository's root; the server's tests keep it current), for the agent's conformance checks:
 * every body the agent sends to the fake job API is checked against the request schema, closed to
 * properties the schema does not list ({@link #problems}); answers built from the response schemas
 * ({@link #sample}) go through the agent's own reading code ({@link ProtocolConformanceTest}).
 */
final class ProtocolDocument {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonSchemaFactory SCHEMAS = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
  private static volatile ProtocolDocument loaded;

  final Path file;
  private final JsonNode root;
  private final Map<String, Optional<JsonSchema>> validators = new ConcurrentHashMap<>();

  private ProtocolDocument(Path file, JsonNode root) {
    this.file = file;
    this.root = root;
  }

  /** The document, from the first directory above the working directory that has docs/openapi.json. */
  static ProtocolDocument load() {
    if (loaded == null) {
      for (Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath(); dir != null; dir = dir.getParent()) {
        Path file = dir.resolve("docs/openapi.json");
        if (Files.isRegularFile(file)) {
          try {
            loaded = new ProtocolDocument(file, withProbeProtocol(JSON.readTree(file.toFile())));
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
          return loaded;
        }
      }
      throw new IllegalStateException("no docs/openapi.json above " + System.getProperty("user.dir") + " (it is at the repository's root; `npm run openapi:snapshot` writes it)");
    }
    return loaded;
  }

  /**
   * The probe protocol's two properties, {@code job.probes} (claim) and {@code run.warnings}
   * (complete), as docs/agent-protocol.md defines them, added when the document does not have
   * them yet: the server's side of probes is built beside this agent's, and the document it
   * generates then carries its own definitions, which this leaves alone.
   */
  private static JsonNode withProbeProtocol(JsonNode root) {
    JsonNode job = root.path("components").path("schemas").path("ClaimedJob").path("properties");
    if (job.isObject() && !job.has("probes")) ((ObjectNode) job).putObject("probes").put("type", "array").putObject("items").put("type", "object");
    JsonNode run = root.path("components").path("schemas").path("CompleteRequest").path("properties").path("run").path("properties");
    if (run.isObject() && !run.has("warnings")) {
      ((ObjectNode) run).putObject("warnings").put("type", "array").put("maxItems", 20).putObject("items").put("type", "string").put("maxLength", 500);
    }
    return root;
  }

  /** The operation (POST) at a path as the document spells it ("/api/v1/jobs/{id}/lease"). */
  private JsonNode operation(String path) {
    JsonNode operation = root.path("paths").path(path).path("post");
    if (!operation.isObject()) throw new AssertionError(file + " has no POST " + path + " (it has " + names(root.path("paths")) + ")");
    return operation;
  }

  /** The request body's schema; empty when the operation takes no body. */
  Optional<JsonNode> requestSchema(String path) {
    JsonNode body = operation(path).path("requestBody");
    if (body.isMissingNode()) return Optional.empty();
    return Optional.of(body.path("content").path("application/json").path("schema"));
  }

  /** The schema of the answer with this status. */
  JsonNode responseSchema(String path, String status) {
    JsonNode response = operation(path).path("responses").path(status);
    if (!response.isObject()) throw new AssertionError("POST " + path + " does not answer " + status + " (it answers " + names(operation(path).path("responses")) + ")");
    return response.path("content").path("application/json").path("schema");
  }

  JsonNode component(String name) {
    JsonNode schema = root.path("components").path("schemas").path(name);
    if (!schema.isObject()) throw new AssertionError(file + " has no schema " + name);
    return schema;
  }

  /** The document's path that a request's URL path matches ("/api/v1/jobs/job1/lease" → "/api/v1/jobs/{id}/lease"). */
  Optional<String> pathOf(String urlPath) {
    String bare = urlPath.replaceAll("\\?.*", "");
    for (Iterator<String> paths = root.path("paths").fieldNames(); paths.hasNext(); ) {
      String path = paths.next();
      String pattern = Pattern.quote(path).replaceAll("\\{[^}]+\\}", "\\\\E[^/]+\\\\Q");
      if (bare.matches(pattern)) return Optional.of(path);
    }
    return Optional.empty();
  }

  /**
   * What the server's schema has against a body the agent sent: required fields, types, enums,
   * lengths, formats, and properties the schema does not list (the server ignores those, so a
   * misspelt optional field would be dropped without a word). An operation without a body takes
   * none (or an empty object).
   */
  List<String> problems(String urlPath, JsonNode body) {
    Optional<String> path = pathOf(urlPath);
    if (path.isEmpty()) return List.of("POST " + urlPath + ": " + file + " has no such path");
    List<String> problems = new ArrayList<>();
    int query = urlPath.indexOf('?');
    if (query >= 0) {
      for (String parameter : urlPath.substring(query + 1).split("&")) {
        String name = parameter.replaceAll("=.*", "");
        if (!queryParameters(path.get()).contains(name)) problems.add("POST " + urlPath + ": no query parameter \"" + name + "\" (the document has " + queryParameters(path.get()) + ")");
      }
    }
    Optional<JsonSchema> schema = validators.computeIfAbsent(path.get(), p -> requestSchema(p).map(this::closedSchema));
    boolean empty = body == null || body.isMissingNode() || (body.isObject() && body.isEmpty());
    if (schema.isEmpty()) {
      if (!empty) problems.add("POST " + path.get() + " takes no body, but the agent sent " + body);
      return problems;
    }
    for (ValidationMessage message : schema.get().validate(body == null ? JSON.missingNode() : body)) problems.add("POST " + urlPath + ": " + message.getMessage());
    return problems;
  }

  /** The names of an operation's query parameters. */
  List<String> queryParameters(String path) {
    List<String> names = new ArrayList<>();
    for (JsonNode parameter : operation(path).path("parameters")) if (parameter.path("in").asText().equals("query")) names.add(parameter.path("name").asText());
    return names;
  }

  /** A schema of the document on its own: components as $defs, every object that lists properties closed to others. */
  private JsonSchema closedSchema(JsonNode schema) {
    ObjectNode standalone = (ObjectNode) closed(schema);
    standalone.put("$schema", "https://json-schema.org/draft/2020-12/schema");
    ObjectNode defs = standalone.putObject("$defs");
    root.path("components").path("schemas").fields().forEachRemaining(entry -> defs.set(entry.getKey(), closed(entry.getValue())));
    return SCHEMAS.getSchema(standalone, SchemaValidatorsConfig.builder().formatAssertionsEnabled(true).build());
  }

  private static JsonNode closed(JsonNode node) {
    if (node.isObject()) {
      ObjectNode copy = JsonNodeFactory.instance.objectNode();
      node.fields().forEachRemaining(entry -> copy.set(entry.getKey(), closed(entry.getValue())));
      if (node.path("$ref").isTextual()) copy.put("$ref", node.path("$ref").asText().replace("#/components/schemas/", "#/$defs/"));
      if (node.has("properties") && !node.has("additionalProperties")) copy.put("additionalProperties", false);
      return copy;
    }
    if (node.isArray()) {
      ArrayNode copy = JsonNodeFactory.instance.arrayNode();
      node.forEach(item -> copy.add(closed(item)));
      return copy;
    }
    return node;
  }

  /** Follows a $ref, and of a nullable schema (anyOf with a {"type": "null"} branch) takes the other branch. */
  JsonNode resolve(JsonNode schema) {
    while (true) {
      if (schema.path("$ref").isTextual()) {
        schema = component(schema.path("$ref").asText().replace("#/components/schemas/", ""));
        continue;
      }
      JsonNode anyOf = schema.path("anyOf");
      if (anyOf.size() == 2 && (anyOf.get(0).path("type").asText().equals("null") || anyOf.get(1).path("type").asText().equals("null"))) {
        schema = anyOf.get(0).path("type").asText().equals("null") ? anyOf.get(1) : anyOf.get(0);
        continue;
      }
      return schema;
    }
  }

  /**
   * The schema at a JSON pointer into a value of {@code schema} ("/job/metrics/0/key"; array
   * indices step into items), or a message saying where the pointer leaves it.
   */
  Optional<String> missing(JsonNode schema, String pointer) {
    JsonNode at = resolve(schema);
    StringBuilder walked = new StringBuilder();
    for (String step : pointer.substring(1).split("/", -1)) {
      if (at.has("items") && step.matches("\\d+")) {
        at = resolve(at.path("items"));
      } else if (at.path("properties").has(step)) {
        at = resolve(at.path("properties").path(step));
      } else if (at.path("additionalProperties").isObject()) {
        at = resolve(at.path("additionalProperties"));
      } else {
        return Optional.of((walked.length() == 0 ? "the answer" : walked.substring(1)) + " has no \"" + step + "\" (it has " + names(at.path("properties")) + ")");
      }
      walked.append('.').append(step);
    }
    return Optional.empty();
  }

  /**
   * A value of the schema with every property it lists, so that code reading it reads everything
   * it reads: strings are their property's name (or the first of an enum, or a timestamp), numbers
   * 3, booleans true (not the usual default), arrays one item.
   */
  JsonNode sample(JsonNode schema) {
    return sample(resolve(schema), "value");
  }

  private JsonNode sample(JsonNode schema, String name) {
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    if (schema.has("enum")) return schema.path("enum").get(0);
    String type = schema.path("type").asText(schema.has("properties") ? "object" : "");
    switch (type) {
      case "object": {
        ObjectNode object = nodes.objectNode();
        schema.path("properties").fields().forEachRemaining(entry -> object.set(entry.getKey(), sample(resolve(entry.getValue()), entry.getKey())));
        return object;
      }
      case "array":
        return nodes.arrayNode().add(sample(resolve(schema.path("items")), name));
      case "string":
        return nodes.textNode("date-time".equals(schema.path("format").asText()) ? "2030-01-02T03:04:05.000Z" : name);
      case "integer":
      case "number":
        return nodes.numberNode(3);
      case "boolean":
        return nodes.booleanNode(true);
      default:
        return nodes.objectNode();
    }
  }

  private static String names(JsonNode object) {
    TreeSet<String> names = new TreeSet<>();
    object.fieldNames().forEachRemaining(names::add);
    return String.join(", ", names);
  }
}
