package dev.versus.agent;

import dev.versus.harness.Platform;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The agent's configuration: command-line flags first, then environment variables, then
 * defaults; the same names as the reference agent (agents/reference/config.ts), plus the plugins
 * directory. Checked once at start; a bad value names the flag and the variable.
 */
public record Config(
    String url,
    String enrollmentToken,
    String name,
    Map<String, String> labels,
    Path credentialFile,
    Path bufferDir,
    Path pluginsDir,
    double shutdownGraceSeconds,
    long claimJitterMs,
    GitSource git) {

  /** A configuration the agent cannot start with; exit 78. */
  public static final class ConfigException extends Exception {
    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
      super(message);
    }
  }

  /** --help was asked for: print it and exit 0. */
  public static final class HelpRequested extends Exception {
    private static final long serialVersionUID = 1L;

    HelpRequested() {
      super(HELP);
    }
  }

  private static final Pattern LABEL_KEY = Pattern.compile("[A-Za-z0-9_.-]{1,63}");

  public static final String HELP = String.join("\n",
      "Usage: java -jar versus-agent-jvm.jar [options]",
      "The Versus JVM agent: claims jobs, runs workloads in the benchmark harness, reports runs. See docs/agent-protocol.md.",
      "",
      "  --url <url>                  Versus server address (VERSUS_URL)",
      "  --enrollment-token <token>   venr_… token from the project's Agents page, used once to enroll (VERSUS_ENROLLMENT_TOKEN)",
      "  --name <name>                agent name, unique in the project (VERSUS_AGENT_NAME; default: the host name)",
      "  --label <key=value>          a label jobs can require, repeatable (VERSUS_AGENT_LABELS=k=v,k=v)",
      "  --credential-file <path>     where the credential is kept, mode 0600 (VERSUS_AGENT_CREDENTIAL_FILE; default ~/.versus-agent/credential.json)",
      "  --buffer-dir <path>          results not yet acknowledged (VERSUS_AGENT_BUFFER_DIR; default ~/.versus-agent/buffer)",
      "  --plugins-dir <path>         jars with more workloads (VERSUS_AGENT_PLUGINS_DIR; default ~/.versus-agent/plugins)",
      "  --shutdown-grace <seconds>   on SIGTERM, how long a running job may take to finish before it is released (VERSUS_AGENT_SHUTDOWN_GRACE_SECONDS; default 10)",
      "  VERSUS_AGENT_CLAIM_JITTER_MS longest random pause between two claims (default 1000)",
      "  VERSUS_GIT_COMMIT            the commit every run measured (with VERSUS_GIT_BRANCH, VERSUS_GIT_COMMIT_MESSAGE, VERSUS_GIT_COMMIT_TIME)",
      "  VERSUS_GIT_DIR               instead: a git checkout whose HEAD is read before each run",
      "  --help                       this text");

  private static final List<String> VALUE_FLAGS = List.of("url", "enrollment-token", "name", "label", "credential-file", "buffer-dir", "plugins-dir", "shutdown-grace");

  public static Config read(String[] argv, Map<String, String> env) throws ConfigException, HelpRequested {
    Map<String, String> flags = new LinkedHashMap<>();
    List<String> labelFlags = new ArrayList<>();
    for (int i = 0; i < argv.length; i++) {
      String arg = argv[i];
      if (arg.equals("--help") || arg.equals("-h")) throw new HelpRequested();
      if (!arg.startsWith("--")) throw new ConfigException("unexpected argument \"" + arg + "\" (see --help)");
      String flag = arg.substring(2);
      String value = null;
      int eq = flag.indexOf('=');
      if (eq >= 0) {
        value = flag.substring(eq + 1);
        flag = flag.substring(0, eq);
      }
      if (!VALUE_FLAGS.contains(flag)) throw new ConfigException("unknown option --" + flag + " (see --help)");
      if (value == null) {
        if (i + 1 >= argv.length) throw new ConfigException("--" + flag + " needs a value");
        value = argv[++i];
      }
      if (flag.equals("label")) labelFlags.add(value);
      else flags.put(flag, value);
    }

    Path stateDir = Path.of(System.getProperty("user.home"), ".versus-agent");
    String url = pick(flags.get("url"), env.get("VERSUS_URL"), null);
    if (url == null || !isHttpUrl(url)) throw new ConfigException("url: --url / VERSUS_URL must be the server's address, e.g. http://localhost:3000");
    url = url.replaceAll("/+$", "");

    String token = pick(flags.get("enrollment-token"), env.get("VERSUS_ENROLLMENT_TOKEN"), null);
    if (token != null && !token.trim().startsWith("venr_")) throw new ConfigException("enrollmentToken: --enrollment-token / VERSUS_ENROLLMENT_TOKEN must be a venr_… token");

    String name = pick(flags.get("name"), env.get("VERSUS_AGENT_NAME"), hostName()).trim();
    if (name.isEmpty() || name.length() > 100) throw new ConfigException("name: --name / VERSUS_AGENT_NAME must be 1-100 characters");

    double grace = number(pick(flags.get("shutdown-grace"), env.get("VERSUS_AGENT_SHUTDOWN_GRACE_SECONDS"), "10"), "shutdownGraceSeconds: --shutdown-grace / VERSUS_AGENT_SHUTDOWN_GRACE_SECONDS");
    double jitter = number(pick(null, env.get("VERSUS_AGENT_CLAIM_JITTER_MS"), "1000"), "claimJitterMs: VERSUS_AGENT_CLAIM_JITTER_MS");

    Map<String, String> labels = new LinkedHashMap<>();
    labels.put("os", Platform.os());
    labels.put("arch", Platform.arch());
    List<String> pairs = new ArrayList<>();
    if (env.get("VERSUS_AGENT_LABELS") != null) pairs.add(env.get("VERSUS_AGENT_LABELS"));
    pairs.addAll(labelFlags);
    labels.putAll(parseLabels(pairs));

    return new Config(
        url,
        token == null ? null : token.trim(),
        name,
        Map.copyOf(labels),
        Path.of(pick(flags.get("credential-file"), env.get("VERSUS_AGENT_CREDENTIAL_FILE"), stateDir.resolve("credential.json").toString())),
        Path.of(pick(flags.get("buffer-dir"), env.get("VERSUS_AGENT_BUFFER_DIR"), stateDir.resolve("buffer").toString())),
        Path.of(pick(flags.get("plugins-dir"), env.get("VERSUS_AGENT_PLUGINS_DIR"), stateDir.resolve("plugins").toString())),
        grace,
        Math.round(jitter),
        GitSource.read(env, GitSource::runGit));
  }

  /** "pool=lab,os=linux" (or repeated --label pool=lab) into {pool: lab, os: linux}. */
  public static Map<String, String> parseLabels(List<String> items) throws ConfigException {
    Map<String, String> labels = new LinkedHashMap<>();
    for (String item : items) {
      for (String raw : item.split(",")) {
        String pair = raw.trim();
        if (pair.isEmpty()) continue;
        int at = pair.indexOf('=');
        if (at <= 0) throw new ConfigException("label \"" + pair + "\" is not key=value");
        String key = pair.substring(0, at).trim();
        if (!LABEL_KEY.matcher(key).matches()) throw new ConfigException("label key \"" + key + "\": use 1-63 letters, digits and _ . -");
        labels.put(key, pair.substring(at + 1).trim());
      }
    }
    return labels;
  }

  private static String pick(String flag, String env, String fallback) {
    if (flag != null) return flag;
    if (env != null && !env.isEmpty()) return env;
    return fallback;
  }

  private static boolean isHttpUrl(String text) {
    try {
      URI uri = URI.create(text);
      return ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null;
    } catch (IllegalArgumentException bad) {
      return false;
    }
  }

  private static double number(String text, String what) throws ConfigException {
    try {
      double value = Double.parseDouble(text.trim());
      if (value >= 0 && Double.isFinite(value)) return value;
    } catch (NumberFormatException bad) {
      // fall through
    }
    throw new ConfigException(what + " must be a number ≥ 0, not \"" + text + "\"");
  }

  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (java.io.IOException unknown) {
      String env = System.getenv("HOSTNAME");
      return env == null || env.isBlank() ? "jvm-agent" : env;
    }
  }
}
