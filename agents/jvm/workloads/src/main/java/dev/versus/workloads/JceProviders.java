package dev.versus.workloads;

import java.security.Provider;
import java.security.Security;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * JCE providers by name: the installed ones ({@link Security#getProviders()}) and those a plugin
 * jar offers through {@code META-INF/services/java.security.Provider}, found with the thread
 * context class loader. The harness makes that the loader that sees the agent's plugin jars (its
 * RunOptions.classLoader in-process; in a forked JVM the plugin jars are on the class path), so a
 * provider jar dropped in the plugins directory is selectable by name without installing it.
 */
public final class JceProviders {
  private JceProviders() {}

  public static Optional<Provider> find(String name) {
    Provider installed = Security.getProvider(name);
    if (installed != null) return Optional.of(installed);
    for (Provider provider : loaded()) {
      if (provider.getName().equals(name)) return Optional.of(provider);
    }
    return Optional.empty();
  }

  /** Every provider name this lookup can find, installed first. */
  public static Set<String> names() {
    Set<String> names = new LinkedHashSet<>();
    for (Provider provider : Security.getProviders()) names.add(provider.getName());
    for (Provider provider : loaded()) names.add(provider.getName());
    return names;
  }

  private static Set<Provider> loaded() {
    Set<Provider> providers = new LinkedHashSet<>();
    Iterator<Provider> it = ServiceLoader.load(Provider.class, Thread.currentThread().getContextClassLoader()).iterator();
    while (true) {
      try {
        if (!it.hasNext()) return providers;
        providers.add(it.next());
      } catch (ServiceConfigurationError broken) {
        // a provider jar that cannot load is not offered
      }
    }
  }
}
