package dev.versus.agent.plugins;

import dev.versus.workload.Workload;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.slf4j.Logger;

/**
 * The workloads this agent can run: those on its own class path (the built-ins), then those of
 * every jar in the plugins directory, each jar in a class loader of its own whose parent is the
 * agent's. A broken plugin (not a jar, a services file naming a missing class, a constructor that
 * throws, a name already taken) is logged and skipped: the agent starts with the rest.
 */
public final class Plugins {
  /** How many broken entries of one services file are reported before giving up on the file. */
  private static final int MAX_ERRORS_PER_SOURCE = 50;

  private final Map<String, Workload> builtIn;
  private final Map<String, Workload> discovered;
  private final List<Path> jars;
  private final ClassLoader classLoader;

  private Plugins(Map<String, Workload> builtIn, Map<String, Workload> discovered, List<Path> jars, ClassLoader classLoader) {
    this.builtIn = builtIn;
    this.discovered = discovered;
    this.jars = jars;
    this.classLoader = classLoader;
  }

  /** Loads the built-ins from agentLoader and the plugins from pluginsDir (absent: none). */
  public static Plugins load(Path pluginsDir, ClassLoader agentLoader, Logger log) {
    Map<String, Workload> builtIn = new LinkedHashMap<>();
    for (Workload workload : discover(agentLoader, false, "class path", log)) add(builtIn, builtIn, workload, "class path", log);

    Map<String, Workload> discovered = new LinkedHashMap<>();
    List<Path> jars = new ArrayList<>();
    List<ClassLoader> loaders = new ArrayList<>();
    for (Path jar : jarsIn(pluginsDir, log)) {
      String source = jar.toString();
      try (JarFile check = new JarFile(jar.toFile())) {
        check.size();
      } catch (IOException | SecurityException notAJar) {
        log.atError().setMessage("plugin.skipped").addKeyValue("jar", source).addKeyValue("reason", "not a readable jar: " + notAJar.getMessage()).log();
        continue;
      }
      URLClassLoader loader;
      try {
        loader = new URLClassLoader("plugin " + jar.getFileName(), new URL[] {jar.toUri().toURL()}, agentLoader);
      } catch (IOException bad) {
        log.atError().setMessage("plugin.skipped").addKeyValue("jar", source).addKeyValue("reason", bad.getMessage()).log();
        continue;
      }
      jars.add(jar);
      loaders.add(loader);
      List<Workload> found = discover(loader, true, source, log);
      for (Workload workload : found) add(discovered, builtIn, workload, source, log);
      log.atInfo().setMessage("plugin.loaded").addKeyValue("jar", source).addKeyValue("workloads", String.join(",", found.stream().map(Plugins::safeName).toList())).log();
    }
    return new Plugins(builtIn, discovered, List.copyOf(jars), loaders.isEmpty() ? agentLoader : new CombinedClassLoader(agentLoader, loaders));
  }

  /** Workloads on the agent's own class path, by name. */
  public Map<String, Workload> builtIn() {
    return builtIn;
  }

  /** Workloads of the plugins directory's jars, by name. */
  public Map<String, Workload> discovered() {
    return discovered;
  }

  /** The plugins directory's jars that could be opened. */
  public List<Path> jars() {
    return jars;
  }

  /** Sees the agent's class path and every plugin jar. */
  public ClassLoader classLoader() {
    return classLoader;
  }

  /** Every workload, built-ins first. */
  public List<Workload> all() {
    List<Workload> all = new ArrayList<>(builtIn.values());
    all.addAll(discovered.values());
    return all;
  }

  private static List<Path> jarsIn(Path dir, Logger log) {
    if (dir == null || !Files.isDirectory(dir)) return List.of();
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(file -> file.getFileName().toString().endsWith(".jar")).sorted().toList();
    } catch (IOException unreadable) {
      log.atError().setMessage("plugin.dir_unreadable").addKeyValue("dir", dir).addKeyValue("reason", unreadable.getMessage()).log();
      return List.of();
    }
  }

  /** The workloads a loader provides; ownOnly leaves out those it inherits from its parent. */
  private static List<Workload> discover(ClassLoader loader, boolean ownOnly, String source, Logger log) {
    List<Workload> found = new ArrayList<>();
    Iterator<ServiceLoader.Provider<Workload>> providers;
    try {
      providers = ServiceLoader.load(Workload.class, loader).stream().iterator();
    } catch (ServiceConfigurationError | RuntimeException broken) {
      log.atError().setMessage("plugin.skipped").addKeyValue("source", source).addKeyValue("reason", describe(broken)).log();
      return found;
    }
    int errors = 0;
    while (errors < MAX_ERRORS_PER_SOURCE) {
      ServiceLoader.Provider<Workload> provider;
      try {
        if (!providers.hasNext()) break;
        provider = providers.next();
      } catch (ServiceConfigurationError | RuntimeException | LinkageError broken) {
        // The lazy iterator moves past the bad entry: report it and go on with the next.
        errors++;
        log.atError().setMessage("plugin.skipped").addKeyValue("source", source).addKeyValue("reason", describe(broken)).log();
        continue;
      }
      if (ownOnly && provider.type().getClassLoader() != loader) continue;
      try {
        found.add(provider.get());
      } catch (ServiceConfigurationError | RuntimeException | LinkageError broken) {
        errors++;
        log.atError().setMessage("plugin.skipped").addKeyValue("source", source).addKeyValue("class", provider.type().getName()).addKeyValue("reason", describe(broken)).log();
      }
    }
    return found;
  }

  private static void add(Map<String, Workload> into, Map<String, Workload> builtIn, Workload workload, String source, Logger log) {
    String name = safeName(workload);
    if (name.isEmpty()) {
      log.atError().setMessage("plugin.skipped").addKeyValue("source", source).addKeyValue("class", workload.getClass().getName()).addKeyValue("reason", "its name() is empty or throws").log();
      return;
    }
    Workload taken = builtIn.containsKey(name) ? builtIn.get(name) : into.get(name);
    if (taken != null && taken != workload) {
      log.atError().setMessage("plugin.skipped").addKeyValue("source", source).addKeyValue("class", workload.getClass().getName()).addKeyValue("reason", "workload name \"" + name + "\" is taken by " + taken.getClass().getName()).log();
      return;
    }
    into.put(name, workload);
  }

  static String safeName(Workload workload) {
    try {
      String name = workload.name();
      return name == null ? "" : name.trim();
    } catch (RuntimeException broken) {
      return "";
    }
  }

  private static String describe(Throwable error) {
    StringBuilder text = new StringBuilder(String.valueOf(error.getMessage()));
    for (Throwable cause = error.getCause(); cause != null; cause = cause.getCause()) {
      text.append(" (caused by ").append(cause.getClass().getSimpleName()).append(": ").append(cause.getMessage()).append(')');
    }
    return text.toString();
  }
}
