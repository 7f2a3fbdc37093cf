package dev.versus.agent;

import dev.versus.agent.plugins.Plugins;
import dev.versus.agent.plugins.WorkloadFactory;
import dev.versus.agent.run.HarnessJobRunner;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Entry point: {@code java -jar versus-agent-jvm.jar --url http://localhost:3000 --enrollment-token venr_…}
 * (or the same through VERSUS_URL and VERSUS_ENROLLMENT_TOKEN); {@code … workloads} prints the
 * workloads it would advertise (settings schemas and metrics) as JSON and exits. SIGTERM or SIGINT stops
 * gracefully (see Agent): a shutdown hook asks the agent to stop, waits for it (the running job's
 * grace, its release, the buffered results) and ends the process with status 0. Exit codes: 0
 * stopped, 78 configuration or credential refused (restarting will not help), 1 a crash.
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    if (args.length > 0 && args[0].equals("workloads")) {
      // What this agent would advertise: each workload with its settings schema and metrics (on
      // stdout; its log lines, info too, go to stderr so the JSON stays whole: see logback.xml).
      System.setProperty("versus.agent.log.info", "System.err");
      Logger quiet = LoggerFactory.getLogger(Agent.class);
      // The plugins folder the agent would scan: VERSUS_AGENT_PLUGINS_DIR, else $HOME/.versus-agent/plugins.
      String dir = System.getenv("VERSUS_AGENT_PLUGINS_DIR");
      java.nio.file.Path pluginsDir = dir == null || dir.isEmpty() ? Config.stateDir(System.getenv()).resolve("plugins") : java.nio.file.Path.of(dir);
      quiet.atInfo().setMessage("agent.starting").addKeyValue("version", Agent.VERSION).addKeyValue("plugins_dir", pluginsDir).log();
      Plugins plugins = Plugins.load(pluginsDir, Main.class.getClassLoader(), quiet);
      System.out.println(Adverts.of(new WorkloadFactory(plugins), new HarnessJobRunner(quiet, true), quiet).toPrettyString());
      System.exit(Agent.EXIT_OK);
      return;
    }
    Logger log = LoggerFactory.getLogger(Agent.class);
    Config config;
    try {
      config = Config.read(args, System.getenv());
    } catch (Config.HelpRequested help) {
      System.out.println(help.getMessage());
      System.exit(Agent.EXIT_OK);
      return;
    } catch (Config.ConfigException bad) {
      log.atError().setMessage("agent.bad_config").addKeyValue("reason", bad.getMessage()).log();
      System.exit(Agent.EXIT_CONFIG);
      return;
    }

    // The folders first, so a plugin that is not found, or a credential that is, can be looked for where the agent looked.
    log.atInfo().setMessage("agent.starting").addKeyValue("version", Agent.VERSION).addKeyValue("credential_file", config.credentialFile())
        .addKeyValue("buffer_dir", config.bufferDir()).addKeyValue("plugins_dir", config.pluginsDir()).log();
    Plugins plugins = Plugins.load(config.pluginsDir(), Main.class.getClassLoader(), log);
    WorkloadFactory workloads;
    try {
      workloads = new WorkloadFactory(plugins, config.workloads());
    } catch (IllegalArgumentException unknown) {
      log.atError().setMessage("agent.bad_config").addKeyValue("reason", "workloads: --workloads / VERSUS_AGENT_WORKLOADS: " + unknown.getMessage()).log();
      System.exit(Agent.EXIT_CONFIG);
      return;
    }
    Agent agent = new Agent(config, workloads, new HarnessJobRunner(log, true), log, null);
    if (config.exitWithParent()) ParentWatch.start(() -> agent.stop("parent exited"));

    CountDownLatch finished = new CountDownLatch(1);
    int[] exitCode = {1};
    Thread hook = new Thread(() -> {
      agent.stop("SIGTERM");
      try {
        finished.await();
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
      }
      // A JVM ended by a signal exits 143 however its hooks end; the agent stopped as asked.
      Runtime.getRuntime().halt(exitCode[0]);
    }, "shutdown");
    Runtime.getRuntime().addShutdownHook(hook);

    try {
      exitCode[0] = agent.run();
    } catch (Throwable crash) {
      StringWriter trace = new StringWriter();
      crash.printStackTrace(new PrintWriter(trace));
      log.atError().setMessage("agent.crashed").addKeyValue("error", trace.toString()).log();
      exitCode[0] = 1;
    }
    finished.countDown();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // The hook is running (a signal): it ends the process with the code set above.
      return;
    }
    System.exit(exitCode[0]);
  }
}
