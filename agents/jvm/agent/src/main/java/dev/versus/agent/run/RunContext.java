package dev.versus.agent.run;

import dev.versus.harness.MeasuredWindow;
import java.nio.file.Path;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * What a run may need beyond its workload and settings: whether to stop (a cancel, a lost lease,
 * a shutdown), and the plugins directory's jars and a class loader that sees all of them (so a
 * workload can find, say, a JCE provider dropped there by name, or a forked JVM can be given
 * the same class path); and whom to tell when the measured iterations start and end (the job's
 * probes sample the system under test over that window).
 */
public record RunContext(BooleanSupplier cancelled, ClassLoader pluginClassLoader, List<Path> pluginJars, MeasuredWindow window) {}
