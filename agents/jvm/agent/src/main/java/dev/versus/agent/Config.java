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
 * directory. Flags reads the command line; this checks each value once at start, and a bad value
 * names the flag and the variable.
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
    GitSource git,
    /** The workloads to offer (--workloads); empty: every one the agent has. */
    List<String> workloads,
    boolean exitWithParent,
    /** The file the agents of this machine lock while one of them claims and runs a job (--machine-lock); null: none. */
    Path machineLock) {

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

    HelpRequested(String usage) {
      super(usage);
    }
  }

  private static final Pattern LABEL_KEY = Pattern.compile("[A-Za-z0-9_.-]{1,63}");

  /**
   * ~/.versus-agent, where ~ is $HOME as the shell sets it (as the reference agent reads it), and
   * Java's user.home (from the password database) only when HOME is unset or empty: a service
   * started with HOME=/srv/agent keeps its state there, not in the account's home.
   */
  static Path stateDir(Map<String, String> env) {
    String home = env.get("HOME");
    return Path.of(home == null || home.isEmpty() ? System.getProperty("user.home") : home, ".versus-agent");
  }

  public static Config read(String[] argv, Map<String, String> env) throws ConfigException, HelpRequested {
    Flags flags = Flags.parse(argv, env);

    Path stateDir = stateDir(env);
    String url = flags.url;
    if (url == null || !isHttpUrl(url)) throw new ConfigException("url: --url / VERSUS_URL must be the server's address, e.g. http://localhost:3000");
    url = url.replaceAll("/+$", "");

    String token = flags.enrollmentToken;
    if (token != null && !token.trim().startsWith("venr_")) throw new ConfigException("enrollmentToken: --enrollment-token / VERSUS_ENROLLMENT_TOKEN must be a venr_… token");

    String name = (flags.name == null ? hostName() : flags.name).trim();
    if (name.isEmpty() || name.length() > 100) throw new ConfigException("name: --name / VERSUS_AGENT_NAME must be 1-100 characters");

    double grace = number(flags.shutdownGrace, "shutdownGraceSeconds: --shutdown-grace / VERSUS_AGENT_SHUTDOWN_GRACE_SECONDS");
    String jitterMs = env.get("VERSUS_AGENT_CLAIM_JITTER_MS");
    double jitter = number(jitterMs == null || jitterMs.isEmpty() ? "1000" : jitterMs, "claimJitterMs: VERSUS_AGENT_CLAIM_JITTER_MS");

    Map<String, String> labels = new LinkedHashMap<>();
    labels.put("os", Platform.os());
    labels.put("arch", Platform.arch());
    List<String> pairs = new ArrayList<>();
    if (env.get("VERSUS_AGENT_LABELS") != null) pairs.add(env.get("VERSUS_AGENT_LABELS"));
    pairs.addAll(flags.labels);
    labels.putAll(parseLabels(pairs));

    return new Config(
        url,
        token == null ? null : token.trim(),
        name,
        Map.copyOf(labels),
        flags.credentialFile == null ? stateDir.resolve("credential.json") : Path.of(flags.credentialFile),
        flags.bufferDir == null ? stateDir.resolve("buffer") : Path.of(flags.bufferDir),
        flags.pluginsDir == null ? stateDir.resolve("plugins") : Path.of(flags.pluginsDir),
        grace,
        Math.round(jitter),
        GitSource.read(env, GitSource::runGit),
        names(flags.workloads),
        flags.exitWithParent,
        flags.machineLock == null || flags.machineLock.isBlank() ? null : Path.of(flags.machineLock.trim()));
  }

  /** "json, kafka" into [json, kafka]; null or blank: none. */
  private static List<String> names(String list) {
    if (list == null) return List.of();
    return java.util.Arrays.stream(list.split(",")).map(String::trim).filter(name -> !name.isEmpty()).distinct().toList();
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
