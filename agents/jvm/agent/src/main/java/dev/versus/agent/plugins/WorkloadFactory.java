package dev.versus.agent.plugins;

import dev.versus.workload.Workload;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Finds the workload a job names: a built-in by its short name, then a plugin's, then a class
 * name (as JMH and slf4j do) loaded through the plugins' class loader, so
 * {@code com.example.MyWorkload} runs without a services file. Classes found by name are made
 * once and kept. An agent started with {@code --workloads} offers only the workloads named there:
 * `npm start` runs this agent beside the Go one for the workloads only the JVM has, so a job the
 * Go agent should run is never claimed here.
 */
public final class WorkloadFactory {
  private final Plugins plugins;
  /** The workloads offered; empty: all of them. */
  private final Set<String> only;
  private final Map<String, Workload> byClassName = new ConcurrentHashMap<>();

  public WorkloadFactory(Plugins plugins) {
    this(plugins, List.of());
  }

  /** @throws IllegalArgumentException a name that is no workload of this agent (the message lists those there are) */
  public WorkloadFactory(Plugins plugins, List<String> only) {
    this.plugins = plugins;
    this.only = new LinkedHashSet<>(only);
    List<String> all = allNames();
    for (String name : only) {
      if (!all.contains(name)) throw new IllegalArgumentException("no workload \"" + name + "\" to offer (this agent has " + String.join(", ", all) + ")");
    }
  }

  public Plugins plugins() {
    return plugins;
  }

  /** @throws IllegalArgumentException no such workload (the message lists those there are) */
  public Workload find(String name) {
    if (!only.isEmpty() && !only.contains(name)) {
      throw new IllegalArgumentException("this agent does not offer the workload \"" + name + "\" (it offers " + String.join(", ", names()) + ")");
    }
    Workload workload = plugins.builtIn().get(name);
    if (workload == null) workload = plugins.discovered().get(name);
    if (workload == null && name.contains(".")) workload = byClassName.computeIfAbsent(name, this::instantiate);
    if (workload == null) {
      throw new IllegalArgumentException("this agent has no workload \"" + name + "\" (it has " + String.join(", ", names()) + ")");
    }
    return workload;
  }

  /** The names the agent advertises. */
  public List<String> names() {
    return offered().stream().map(Workload::name).toList();
  }

  /** The workloads the agent advertises, built-in ones first. */
  public List<Workload> offered() {
    return plugins.all().stream().filter(workload -> only.isEmpty() || only.contains(workload.name())).toList();
  }

  private List<String> allNames() {
    List<String> names = new ArrayList<>(plugins.builtIn().keySet());
    names.addAll(plugins.discovered().keySet());
    return names;
  }

  private Workload instantiate(String className) {
    Class<?> type;
    try {
      type = Class.forName(className, true, plugins.classLoader());
    } catch (ClassNotFoundException | LinkageError missing) {
      return null;
    }
    if (!Workload.class.isAssignableFrom(type)) {
      throw new IllegalArgumentException("class " + className + " does not implement " + Workload.class.getName());
    }
    try {
      return (Workload) type.getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException | RuntimeException | LinkageError broken) {
      Throwable cause = broken.getCause() != null ? broken.getCause() : broken;
      throw new IllegalArgumentException("workload class " + className + " cannot be made: " + cause, broken);
    }
  }
}
