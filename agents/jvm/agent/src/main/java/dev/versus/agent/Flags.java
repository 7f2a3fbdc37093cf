package dev.versus.agent;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The command line as picocli reads it, each flag falling back to its environment variable (an
 * empty variable counts as unset). Values stay text here; Config checks them, so a bad value
 * names the flag and the variable whichever of the two gave it.
 */
@Command(
    name = "java -jar versus-agent-jvm.jar",
    abbreviateSynopsis = true,
    usageHelpWidth = 120,
    sortOptions = false,
    description = "The Versus JVM agent: claims jobs, runs workloads in the benchmark harness, reports runs. See docs/agent-protocol.md.%n",
    footerHeading = "%nSet by environment variable only:%n",
    footer = {
      "  VERSUS_AGENT_CLAIM_JITTER_MS  longest random pause between two claims (default 1000)",
      "  VERSUS_GIT_COMMIT             the commit every run measured (with VERSUS_GIT_BRANCH, VERSUS_GIT_COMMIT_MESSAGE,",
      "                                VERSUS_GIT_COMMIT_TIME: its branch, subject line and commit time)",
      "  VERSUS_GIT_DIR                instead: a git checkout whose HEAD is read before each run"})
final class Flags {
  /** The variable each flag falls back to; labels are merged instead (see Config). */
  private static final Map<String, String> VARIABLES = Map.of(
      "--url", "VERSUS_URL",
      "--enrollment-token", "VERSUS_ENROLLMENT_TOKEN",
      "--name", "VERSUS_AGENT_NAME",
      "--credential-file", "VERSUS_AGENT_CREDENTIAL_FILE",
      "--buffer-dir", "VERSUS_AGENT_BUFFER_DIR",
      "--plugins-dir", "VERSUS_AGENT_PLUGINS_DIR",
      "--shutdown-grace", "VERSUS_AGENT_SHUTDOWN_GRACE_SECONDS",
      "--workloads", "VERSUS_AGENT_WORKLOADS",
      "--machine-lock", "VERSUS_AGENT_MACHINE_LOCK");

  @Option(names = "--url", paramLabel = "<url>", description = "Versus server address (VERSUS_URL)")
  String url;

  @Option(names = "--enrollment-token", paramLabel = "<token>", description = "venr_… token from the project's Agents page, used once to enroll (VERSUS_ENROLLMENT_TOKEN)")
  String enrollmentToken;

  @Option(names = "--name", paramLabel = "<name>", description = "agent name, unique in the project (VERSUS_AGENT_NAME; default: the host name)")
  String name;

  @Option(names = "--label", paramLabel = "<key=value>", description = "a label jobs can require, repeatable (VERSUS_AGENT_LABELS=k=v,k=v)")
  List<String> labels = new ArrayList<>();

  @Option(names = "--credential-file", paramLabel = "<path>", description = {"where the credential is kept, mode 0600 (VERSUS_AGENT_CREDENTIAL_FILE;", "default ~/.versus-agent/credential.json)"})
  String credentialFile;

  @Option(names = "--buffer-dir", paramLabel = "<path>", description = "results not yet acknowledged (VERSUS_AGENT_BUFFER_DIR; default ~/.versus-agent/buffer)")
  String bufferDir;

  @Option(names = "--plugins-dir", paramLabel = "<path>", description = "jars with more workloads (VERSUS_AGENT_PLUGINS_DIR; default ~/.versus-agent/plugins)")
  String pluginsDir;

  @Option(names = "--shutdown-grace", paramLabel = "<seconds>", defaultValue = "10",
      description = "on SIGTERM, how long a running job may take to finish before it is released (VERSUS_AGENT_SHUTDOWN_GRACE_SECONDS; default 10)")
  String shutdownGrace;

  @Option(names = "--workloads", paramLabel = "<name,name>",
      description = {"offer only these workloads (VERSUS_AGENT_WORKLOADS; default: every built-in and plugin workload);", "npm start offers only those the Go agent lacks"})
  String workloads;

  @Option(names = "--machine-lock", paramLabel = "<path>",
      description = {"a file the agents of this machine lock while one of them claims and runs a job, so they measure one at a time", "(VERSUS_AGENT_MACHINE_LOCK; npm start gives its Go and JVM agents the same one)"})
  String machineLock;

  @Option(names = "--exit-with-parent", description = "stop (as on SIGTERM) when the process that started the agent exits; npm start uses it")
  boolean exitWithParent;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "this text")
  boolean help;

  private Flags() {}

  /** The flags of argv, unset ones from env; a parse error is a ConfigException pointing at --help. */
  static Flags parse(String[] argv, Map<String, String> env) throws Config.ConfigException, Config.HelpRequested {
    Flags flags = new Flags();
    CommandLine command = new CommandLine(flags)
        // As before picocli: a flag's value is the next argument whatever it looks like, and
        // "@file" is an argument like any other, not a file of arguments.
        .setAllowOptionsAsOptionParameters(true)
        .setExpandAtFiles(false)
        .setDefaultValueProvider(arg -> {
          if (!(arg instanceof CommandLine.Model.OptionSpec option)) return null;
          String variable = VARIABLES.get(option.longestName());
          String value = variable == null ? null : env.get(variable);
          return value == null || value.isEmpty() ? null : value;
        });
    try {
      command.parseArgs(argv);
    } catch (CommandLine.ParameterException bad) {
      throw new Config.ConfigException(bad.getMessage() + " (see --help)");
    }
    if (command.isUsageHelpRequested()) throw new Config.HelpRequested(command.getUsageMessage(CommandLine.Help.Ansi.OFF));
    return flags;
  }
}
