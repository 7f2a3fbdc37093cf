package dev.versus.agent.run;

import dev.versus.harness.RunResult;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versus.harness.Harness;
import dev.versus.harness.RunFailedException;
import dev.versus.harness.RunOptions;
import dev.versus.workload.MetricSpec;
import dev.versus.workload.SettingsException;
import dev.versus.workload.Workload;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;

/**
 * Runs jobs in the benchmark harness (module harness): by default each run in a fresh JVM whose
 * class path is the agent's own (its jar) plus the plugins directory's jars, so a plugin's
 * workload and a JCE provider dropped there are found in the fork as in the agent. In-process
 * runs get the plugins' class loader as their context class loader.
 */
public final class HarnessJobRunner implements JobRunner {
  private final Logger log;
  private final boolean fork;

  public HarnessJobRunner(Logger log, boolean fork) {
    this.log = log;
    this.fork = fork;
  }

  @Override
  public ObjectNode settingsSchema(Workload workload) {
    return Harness.settingsSchema(workload);
  }

  @Override
  public List<MetricSpec> metrics(Workload workload) {
    return Harness.metrics(workload);
  }

  @Override
  public RunResult run(Workload workload, JsonNode settings, RunContext context) throws SettingsException, RunFailedException {
    List<Path> classpath = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (!entry.isEmpty()) classpath.add(Path.of(entry));
    }
    classpath.addAll(context.pluginJars());
    RunOptions options = RunOptions.defaults()
        .withFork(fork)
        .withClasspath(classpath)
        .withClassLoader(context.pluginClassLoader())
        .withCancellation(context.cancelled())
        .withMeasuredWindow(context.window())
        .withLog(line -> log.atInfo().setMessage("workload.log").addKeyValue("workload", workload.name()).addKeyValue("line", line).log());
    // A failure (or cancellation) is the harness's RunFailedException, with the run's log tail.
    return Harness.run(workload, settings, options);
  }
}
