package dev.versus.harness;

import dev.versus.workload.Workload;
import java.util.Iterator;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/** Finds a workload by name among those a class loader's ServiceLoader sees (the fork's lookup). */
final class Workloads {
  private Workloads() {}

  static Optional<Workload> find(String name, ClassLoader loader) {
    Iterator<Workload> it = ServiceLoader.load(Workload.class, loader).iterator();
    while (true) {
      try {
        if (!it.hasNext()) return Optional.empty();
        Workload workload = it.next();
        if (workload.name().equals(name)) return Optional.of(workload);
      } catch (ServiceConfigurationError broken) {
        // a broken plugin is skipped here as the agent skips it
      }
    }
  }
}
