package dev.versus.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versus.agent.api.ApiClient;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which properties the agent's code reads from the JSON it parses: while open, every object that
 * {@link ApiClient#JSON} makes on this thread records the names it is asked for (path, get, has).
 * {@link #readsOf} turns the reads from a tree equal to a given answer into JSON pointers
 * ("/job/workload/name"), so a test can check each against the answer's schema. Other threads
 * (the fake job API's) get plain objects.
 */
final class ReadRecorder implements AutoCloseable {
  private final Thread thread = Thread.currentThread();
  private final List<Recording> made = new ArrayList<>();
  private final JsonNodeFactory previous = ApiClient.JSON.getNodeFactory();

  ReadRecorder() {
    ApiClient.JSON.setNodeFactory(new Factory());
  }

  /** The properties read from any parsed tree equal to answer, as JSON pointers. */
  Set<String> readsOf(JsonNode answer) {
    Map<JsonNode, String> pointers = new IdentityHashMap<>();
    for (Recording object : made) if (object.equals(answer)) index(object, "", pointers);
    Set<String> reads = new TreeSet<>();
    for (Recording object : made) {
      String at = pointers.get(object);
      if (at != null) for (String name : object.reads) reads.add(at + "/" + name);
    }
    return reads;
  }

  private static void index(JsonNode node, String at, Map<JsonNode, String> pointers) {
    pointers.put(node, at);
    if (node.isObject()) node.fields().forEachRemaining(entry -> index(entry.getValue(), at + "/" + entry.getKey(), pointers));
    if (node.isArray()) for (int i = 0; i < node.size(); i++) index(node.get(i), at + "/" + i, pointers);
  }

  @Override
  public void close() {
    ApiClient.JSON.setNodeFactory(previous);
  }

  private final class Factory extends JsonNodeFactory {
    private static final long serialVersionUID = 1L;

    @Override
    public ObjectNode objectNode() {
      if (Thread.currentThread() != thread) return super.objectNode();
      Recording object = new Recording(this);
      made.add(object);
      return object;
    }
  }

  private static final class Recording extends ObjectNode {
    private static final long serialVersionUID = 1L;
    final transient Set<String> reads = new TreeSet<>();

    Recording(JsonNodeFactory nodes) {
      super(nodes);
    }

    @Override
    public JsonNode get(String name) {
      reads.add(name);
      return super.get(name);
    }

    @Override
    public JsonNode path(String name) {
      reads.add(name);
      return super.path(name);
    }
  }
}
