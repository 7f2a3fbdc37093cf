package dev.versus.workloads.kafka;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * The event serializers by name: the built-ins and those a plugin jar lists, found with
 * ServiceLoader on the thread context class loader (the harness makes it the loader that sees
 * the agent's plugin jars in-process; a forked run has them on its class path).
 */
public final class EventSerializers {
  private EventSerializers() {}

  public static Optional<EventSerializer> find(String name) {
    return Optional.ofNullable(all().get(name));
  }

  /** Every name there is, the built-ins first. */
  public static Set<String> names() {
    return all().keySet();
  }

  private static Map<String, EventSerializer> all() {
    Map<String, EventSerializer> byName = new LinkedHashMap<>();
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    Iterator<EventSerializer> it = ServiceLoader.load(EventSerializer.class, loader == null ? EventSerializers.class.getClassLoader() : loader).iterator();
    while (true) {
      try {
        if (!it.hasNext()) return byName;
        EventSerializer serializer = it.next();
        byName.putIfAbsent(serializer.name(), serializer);
      } catch (ServiceConfigurationError broken) {
        // a serializer jar that cannot load is not offered
      }
    }
  }
}
