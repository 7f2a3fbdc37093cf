package dev.versus.agent.run;

import java.nio.file.Path;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * What a run may need beyond its workload and settings: whether to stop (a cancel, a lost lease,
 * a shutdown), and the plugins directory's jars and a class loader that sees all of them (so a
 * workload can find, say, a JCE provider dropped there by name, or a forked JVM can be given
 * the same class path).
 */
public record RunContext(BooleanSupplier cancelled, ClassLoader pluginClassLoader, List<Path> pluginJars) {}
