package dev.versus.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.versus.harness.Platform;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Flags, their environment variables and defaults, and what a bad value says (README: the flag table). */
class ConfigTest {
  private static final Path HOME = Path.of(System.getProperty("user.home"), ".versus-agent");

  private static Config read(Map<String, String> env, String... argv) throws Exception {
    return Config.read(argv, env);
  }

  private static String refused(Map<String, String> env, String... argv) {
    return assertThrows(Config.ConfigException.class, () -> Config.read(argv, env), List.of(argv) + " " + env).getMessage();
  }

  @Test
  void everyFlagSetsItsValueInEitherSpelling() throws Exception {
    Config config = read(Map.of(),
        "--url", "http://versus.test:3000/", "--enrollment-token", " venr_abc ", "--name", " jvm-7 ", "--label", "pool=lab", "--label=gpu=none,os=plan9",
        "--credential-file", "/tmp/c.json", "--buffer-dir=/tmp/buffer", "--plugins-dir", "/tmp/plugins", "--shutdown-grace=2.5");
    assertEquals("http://versus.test:3000", config.url(), "trailing slashes go");
    assertEquals("venr_abc", config.enrollmentToken());
    assertEquals("jvm-7", config.name());
    assertEquals(Map.of("os", "plan9", "arch", Platform.arch(), "pool", "lab", "gpu", "none"), config.labels());
    assertEquals(Path.of("/tmp/c.json"), config.credentialFile());
    assertEquals(Path.of("/tmp/buffer"), config.bufferDir());
    assertEquals(Path.of("/tmp/plugins"), config.pluginsDir());
    assertEquals(2.5, config.shutdownGraceSeconds());
  }

  @Test
  void eachFlagFallsBackToItsEnvironmentVariable() throws Exception {
    Config config = read(Map.of(
        "VERSUS_URL", "https://versus.test",
        "VERSUS_ENROLLMENT_TOKEN", "venr_env",
        "VERSUS_AGENT_NAME", "from-env",
        "VERSUS_AGENT_LABELS", "pool=lab, rack=3",
        "VERSUS_AGENT_CREDENTIAL_FILE", "/env/c.json",
        "VERSUS_AGENT_BUFFER_DIR", "/env/buffer",
        "VERSUS_AGENT_PLUGINS_DIR", "/env/plugins",
        "VERSUS_AGENT_SHUTDOWN_GRACE_SECONDS", "4",
        "VERSUS_AGENT_CLAIM_JITTER_MS", "250.4"));
    assertEquals("https://versus.test", config.url());
    assertEquals("venr_env", config.enrollmentToken());
    assertEquals("from-env", config.name());
    assertEquals(Map.of("os", Platform.os(), "arch", Platform.arch(), "pool", "lab", "rack", "3"), config.labels());
    assertEquals(Path.of("/env/c.json"), config.credentialFile());
    assertEquals(Path.of("/env/buffer"), config.bufferDir());
    assertEquals(Path.of("/env/plugins"), config.pluginsDir());
    assertEquals(4.0, config.shutdownGraceSeconds());
    assertEquals(250, config.claimJitterMs());
  }

  @Test
  void workloadsComeFromTheFlagOrTheVariableAndExitWithParentOnlyFromTheFlag() throws Exception {
    assertEquals(List.of(), read(Map.of(), "--url", "http://x").workloads(), "none named: every workload");
    assertEquals(List.of("json", "kafka"), read(Map.of("VERSUS_URL", "http://x", "VERSUS_AGENT_WORKLOADS", " json, kafka,,json ")).workloads());
    assertEquals(List.of("cipher"), read(Map.of("VERSUS_AGENT_WORKLOADS", "json"), "--url", "http://x", "--workloads", "cipher").workloads());
    assertFalse(read(Map.of(), "--url", "http://x").exitWithParent());
    assertTrue(read(Map.of(), "--url", "http://x", "--exit-with-parent").exitWithParent());
  }

  @Test
  void aFlagBeatsItsVariableAndAnEmptyVariableIsUnset() throws Exception {
    Config config = read(Map.of("VERSUS_URL", "http://env.test", "VERSUS_AGENT_NAME", "env-name", "VERSUS_AGENT_LABELS", "pool=env,rack=3", "VERSUS_AGENT_SHUTDOWN_GRACE_SECONDS", ""),
        "--url", "http://flag.test", "--name", "flag-name", "--label", "pool=flag");
    assertEquals("http://flag.test", config.url());
    assertEquals("flag-name", config.name());
    assertEquals(Map.of("os", Platform.os(), "arch", Platform.arch(), "pool", "flag", "rack", "3"), config.labels(), "labels merge: the variable's, then the flags'");
    assertEquals(10.0, config.shutdownGraceSeconds());
  }

  @Test
  void theDefaults() throws Exception {
    Config config = read(Map.of("VERSUS_URL", "http://localhost:3000"));
    assertEquals(null, config.enrollmentToken());
    assertEquals(InetAddress.getLocalHost().getHostName(), config.name());
    assertEquals(Map.of("os", Platform.os(), "arch", Platform.arch()), config.labels());
    assertEquals(HOME.resolve("credential.json"), config.credentialFile());
    assertEquals(HOME.resolve("buffer"), config.bufferDir());
    assertEquals(HOME.resolve("plugins"), config.pluginsDir());
    assertEquals(10.0, config.shutdownGraceSeconds());
    assertEquals(1000, config.claimJitterMs());
    assertEquals(GitSource.NONE, config.git());
  }

  @Test
  void theStateFolderFollowsHomeAsTheShellSetsIt() throws Exception {
    // $HOME, as the README, the reference agent and `HOME=/srv/agent java -jar …` expect; Java's
    // user.home (from the password database) only when HOME is unset or empty.
    Path home = Path.of("/srv/versus-home");
    Config config = read(Map.of("VERSUS_URL", "http://localhost:3000", "HOME", home.toString()));
    assertEquals(home.resolve(".versus-agent").resolve("credential.json"), config.credentialFile());
    assertEquals(home.resolve(".versus-agent").resolve("buffer"), config.bufferDir());
    assertEquals(home.resolve(".versus-agent").resolve("plugins"), config.pluginsDir());
    assertEquals(HOME.resolve("plugins"), read(Map.of("VERSUS_URL", "http://localhost:3000", "HOME", "")).pluginsDir());
  }

  @Test
  void badArgumentsAreRefusedNamingThem() {
    Map<String, String> env = Map.of("VERSUS_URL", "http://localhost:3000");
    String unknown = refused(env, "--bogus", "1");
    assertTrue(unknown.contains("--bogus") && unknown.contains("see --help"), unknown);
    String positional = refused(env, "stray");
    assertTrue(positional.contains("stray") && positional.contains("see --help"), positional);
    String noValue = refused(env, "--name");
    assertTrue(noValue.contains("--name"), noValue);
  }

  @Test
  void badValuesAreRefusedNamingTheFlagAndTheVariable() {
    Map<String, String> url = Map.of("VERSUS_URL", "http://localhost:3000");
    assertEquals("url: --url / VERSUS_URL must be the server's address, e.g. http://localhost:3000", refused(Map.of()));
    assertEquals("url: --url / VERSUS_URL must be the server's address, e.g. http://localhost:3000", refused(Map.of(), "--url", "ftp://x"));
    assertEquals("enrollmentToken: --enrollment-token / VERSUS_ENROLLMENT_TOKEN must be a venr_… token", refused(url, "--enrollment-token", "vsag_x"));
    assertEquals("name: --name / VERSUS_AGENT_NAME must be 1-100 characters", refused(url, "--name", "n".repeat(101)));
    assertEquals("shutdownGraceSeconds: --shutdown-grace / VERSUS_AGENT_SHUTDOWN_GRACE_SECONDS must be a number ≥ 0, not \"-1\"", refused(url, "--shutdown-grace", "-1"));
    assertEquals("claimJitterMs: VERSUS_AGENT_CLAIM_JITTER_MS must be a number ≥ 0, not \"soon\"", refused(Map.of("VERSUS_URL", "http://x", "VERSUS_AGENT_CLAIM_JITTER_MS", "soon")));
    assertEquals("label \"pool\" is not key=value", refused(url, "--label", "pool"));
    assertEquals("label key \"bad key\": use 1-63 letters, digits and _ . -", refused(Map.of("VERSUS_URL", "http://x", "VERSUS_AGENT_LABELS", "bad key=1")));
  }

  @Test
  void helpListsEveryFlagAndVariable() {
    for (String flag : List.of("--help", "-h")) {
      Config.HelpRequested help = assertThrows(Config.HelpRequested.class, () -> Config.read(new String[] {flag}, Map.of()));
      for (String word : List.of("--url", "--enrollment-token", "--name", "--label", "--credential-file", "--buffer-dir", "--plugins-dir", "--shutdown-grace", "--workloads", "--exit-with-parent",
          "VERSUS_AGENT_WORKLOADS", "VERSUS_URL", "VERSUS_ENROLLMENT_TOKEN", "VERSUS_AGENT_NAME", "VERSUS_AGENT_LABELS", "VERSUS_AGENT_CREDENTIAL_FILE", "VERSUS_AGENT_BUFFER_DIR",
          "VERSUS_AGENT_PLUGINS_DIR", "VERSUS_AGENT_SHUTDOWN_GRACE_SECONDS", "VERSUS_AGENT_CLAIM_JITTER_MS", "VERSUS_GIT_COMMIT", "VERSUS_GIT_DIR")) {
        assertTrue(help.getMessage().contains(word), word + " in:\n" + help.getMessage());
      }
    }
  }
}
