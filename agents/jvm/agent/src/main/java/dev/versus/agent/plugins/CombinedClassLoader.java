package dev.versus.agent.plugins;

import java.io.IOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/**
 * Sees the agent's class path (its parent) and every plugin jar's loader, in order: what the
 * harness gets to look up classes and services (e.g. a JCE provider) across all plugins. It
 * asks the jars' own loaders, so a class has one identity whichever way it was found.
 */
final class CombinedClassLoader extends ClassLoader {
  static {
    registerAsParallelCapable();
  }

  private final List<ClassLoader> plugins;

  CombinedClassLoader(ClassLoader parent, List<ClassLoader> plugins) {
    super("versus-plugins", parent);
    this.plugins = List.copyOf(plugins);
  }

  @Override
  protected Class<?> findClass(String name) throws ClassNotFoundException {
    for (ClassLoader plugin : plugins) {
      try {
        return plugin.loadClass(name);
      } catch (ClassNotFoundException | LinkageError notThere) {
        // try the next jar
      }
    }
    throw new ClassNotFoundException(name);
  }

  @Override
  protected URL findResource(String name) {
    for (ClassLoader plugin : plugins) {
      URL url = plugin.getResource(name);
      if (url != null) return url;
    }
    return null;
  }

  @Override
  protected Enumeration<URL> findResources(String name) throws IOException {
    // The parent's resources come first through getResources; add only each jar's own ones.
    List<URL> urls = new ArrayList<>();
    List<URL> inherited = Collections.list(getParent().getResources(name));
    for (ClassLoader plugin : plugins) {
      for (URL url : Collections.list(plugin.getResources(name))) {
        if (!inherited.contains(url) && !urls.contains(url)) urls.add(url);
      }
    }
    return Collections.enumeration(urls);
  }
}
