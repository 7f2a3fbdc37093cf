package dev.versus.harness;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * How {@link Harness#run} runs a workload (the agent's side of it; the job's side is the settings).
 *
 * @param fork a fresh JVM for the run (the default, like JMH's forks); false runs in this JVM
 *     (tests, and the harness's own overhead figure)
 * @param classpath what the forked JVM needs to find the workload: the agent's jar (or classes)
 *     and the plugin jars; empty means this JVM's own {@code java.class.path}
 * @param jvmArgs extra arguments of the forked JVM (before the job's own {@code jvmArgs} setting)
 * @param classLoader the loader that sees plugin jars, for an in-process run: it becomes the
 *     thread context class loader while the workload prepares and runs (so the cipher workload
 *     finds a JCE provider from a plugin jar); null keeps the current one
 * @param cancelled polled while the run goes on; true stops it (a fork is destroyed) and the run
 *     throws {@link RunCancelledException}
 * @param onLog sees each log line as it comes (the fork's stderr too); may be null
 * @param java the java executable of the fork; null means this JVM's own
 * @param window told when the measured iterations start and end
 */
public record RunOptions(
    boolean fork,
    List<Path> classpath,
    List<String> jvmArgs,
    ClassLoader classLoader,
    BooleanSupplier cancelled,
    Consumer<String> onLog,
    Path java,
    MeasuredWindow window) {

  public RunOptions {
    classpath = List.copyOf(Objects.requireNonNullElse(classpath, List.of()));
    jvmArgs = List.copyOf(Objects.requireNonNullElse(jvmArgs, List.of()));
    cancelled = Objects.requireNonNullElse(cancelled, () -> false);
    window = Objects.requireNonNullElse(window, MeasuredWindow.NONE);
  }

  /** Forked, with this JVM's class path, never cancelled. */
  public static RunOptions defaults() {
    return new RunOptions(true, List.of(), List.of(), null, null, null, null, null);
  }

  /** In this JVM, never cancelled. */
  public static RunOptions inProcess() {
    return defaults().withFork(false);
  }

  public RunOptions withFork(boolean value) {
    return new RunOptions(value, classpath, jvmArgs, classLoader, cancelled, onLog, java, window);
  }

  public RunOptions withClasspath(List<Path> value) {
    return new RunOptions(fork, value, jvmArgs, classLoader, cancelled, onLog, java, window);
  }

  public RunOptions withJvmArgs(List<String> value) {
    return new RunOptions(fork, classpath, value, classLoader, cancelled, onLog, java, window);
  }

  public RunOptions withClassLoader(ClassLoader value) {
    return new RunOptions(fork, classpath, jvmArgs, value, cancelled, onLog, java, window);
  }

  public RunOptions withCancellation(BooleanSupplier value) {
    return new RunOptions(fork, classpath, jvmArgs, classLoader, value, onLog, java, window);
  }

  public RunOptions withLog(Consumer<String> value) {
    return new RunOptions(fork, classpath, jvmArgs, classLoader, cancelled, value, java, window);
  }

  public RunOptions withMeasuredWindow(MeasuredWindow value) {
    return new RunOptions(fork, classpath, jvmArgs, classLoader, cancelled, onLog, java, value);
  }

  public RunOptions withJava(Path value) {
    return new RunOptions(fork, classpath, jvmArgs, classLoader, cancelled, onLog, value, window);
  }
}
