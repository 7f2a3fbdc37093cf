package dev.versus.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versus.agent.api.ApiClient;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent as a process (Main in a JVM of its own, as java -jar runs it): exit codes, --help,
 * the log lines' shape, info on stdout and warnings and errors on stderr, the state directory in
 * the home directory, and lines written while SIGTERM stops it.
 */
class MainProcessTest extends AgainstFakeJobApi {
  @TempDir Path home;

  private static final Pattern LINE = Pattern.compile("ts=\\S+Z level=(info|warn|error) event=[a-z_.]+( [a-z_]+=(\"([^\"\\\\]|\\\\.)*\"|[^\\s\"=]+))*");

  /** A running agent process; its stdout and stderr lines as they come. */
  private static final class AgentProcess {
    final Process process;
    final List<String> out = new ArrayList<>();
    final List<String> err = new ArrayList<>();
    private final List<Thread> readers = new ArrayList<>();

    AgentProcess(Path home, Map<String, String> env, String... args) throws IOException {
      List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Duser.home=" + home, "-cp", System.getProperty("java.class.path"), Main.class.getName()));
      command.addAll(List.of(args));
      ProcessBuilder builder = new ProcessBuilder(command);
      builder.environment().keySet().removeIf(name -> name.startsWith("VERSUS_"));
      builder.environment().put("HOME", home.toString());
      builder.environment().putAll(env);
      process = builder.start();
      readers.add(collect(process.getInputStream(), out));
      readers.add(collect(process.getErrorStream(), err));
    }

    private static Thread collect(InputStream stream, List<String> into) {
      Thread reader = new Thread(() -> {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
          for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            synchronized (into) {
              into.add(line);
              into.notifyAll();
            }
          }
        } catch (IOException closed) {
          // The process ended.
        }
      }, "process-output");
      reader.setDaemon(true);
      reader.start();
      return reader;
    }

    /** Waits until a stdout line has this event; fails at once when the process ends without one. */
    String awaitOut(String event) throws InterruptedException {
      while (true) {
        boolean ended = !process.isAlive();
        if (ended) for (Thread reader : readers) reader.join(10_000);
        synchronized (out) {
          for (String line : out) if (line.contains(" event=" + event)) return line;
          assertTrue(!ended, "the agent ended without " + event + ": " + out + " " + err());
          out.wait(1_000);
        }
      }
    }

    int exit() throws InterruptedException {
      assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the agent ends");
      // The readers take the last lines until the streams close.
      for (Thread reader : readers) reader.join(10_000);
      return process.exitValue();
    }

    List<String> out() {
      synchronized (out) {
        return List.copyOf(out);
      }
    }

    List<String> err() {
      synchronized (err) {
        return List.copyOf(err);
      }
    }
  }

  @Test
  void helpPrintsTheFlagsAndExitsZero() throws Exception {
    AgentProcess agent = new AgentProcess(home, Map.of(), "--help");
    assertEquals(0, agent.exit());
    String help = String.join("\n", agent.out());
    assertTrue(help.contains("--url") && help.contains("VERSUS_URL") && help.contains("--shutdown-grace"), help);
    assertEquals(List.of(), agent.err());
  }

  @Test
  void aBadFlagExits78WithOneErrorLineOnStderr() throws Exception {
    AgentProcess agent = new AgentProcess(home, Map.of(), "--url", "http://localhost:3000", "--bogus", "1");
    assertEquals(Agent.EXIT_CONFIG, agent.exit());
    assertEquals(List.of(), agent.out());
    assertEquals(1, agent.err().size(), agent.err().toString());
    String line = agent.err().get(0);
    assertTrue(LINE.matcher(line).matches(), line);
    assertTrue(line.contains(" level=error event=agent.bad_config reason=\"") && line.contains("--bogus"), line);
  }

  @Test
  void workloadsPrintsTheAdvertsAsJsonOnStdoutAndEveryLogLineOnStderr() throws Exception {
    Path plugins = home.resolve("plugins");
    TestPluginJars.jar(home, plugins, "good", Map.of("com.example.Good", TestPluginJars.workload("com.example", "Good", "good", "")), "com.example.Good\n");
    AgentProcess agent = new AgentProcess(home, Map.of("VERSUS_AGENT_PLUGINS_DIR", plugins.toString()), "workloads");
    assertEquals(0, agent.exit());
    JsonNode adverts = ApiClient.JSON.readTree(String.join("\n", agent.out()));
    assertTrue(adverts.isArray() && adverts.toString().contains("\"name\":\"good\"") && adverts.toString().contains("\"name\":\"json\""), adverts.toString());
    String err = String.join("\n", agent.err());
    assertTrue(err.contains(" level=info event=plugin.loaded jar=" + plugins.resolve("good.jar") + " workloads=good"), err);
  }

  @Test
  void workloadsLimitsWhatTheAgentAdvertisesAndAnUnknownOneExits78() throws Exception {
    AgentProcess agent = new AgentProcess(home, Map.of("VERSUS_URL", api.url(), "VERSUS_ENROLLMENT_TOKEN", FakeJobApi.TOKEN, "VERSUS_AGENT_WORKLOADS", "cipher,kafka"), "--exit-with-parent");
    agent.awaitOut("agent.ready");
    JsonNode register = api.calls("register").get(0).body();
    List<String> advertised = new ArrayList<>();
    register.path("workloads").forEach(advert -> advertised.add(advert.path("name").asText()));
    assertEquals(List.of("cipher", "kafka"), advertised, register.toString());
    assertTrue(!register.path("capabilities").toString().contains("\"json\""), "json is not offered: " + register.path("capabilities"));
    agent.process.toHandle().destroy();
    assertEquals(0, agent.exit());

    AgentProcess unknown = new AgentProcess(home, Map.of("VERSUS_URL", api.url()), "--workloads", "cipher,nope");
    assertEquals(Agent.EXIT_CONFIG, unknown.exit());
    String line = String.join("\n", unknown.err());
    assertTrue(line.contains("event=agent.bad_config") && line.contains("VERSUS_AGENT_WORKLOADS") && line.contains("no workload \\\"nope\\\""), line);
  }

  @Test
  void exitWithParentStopsTheAgentWhenItsParentDies() throws Exception {
    // A shell that starts the agent in the background and exits: the agent loses its parent at once.
    String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Path pidFile = home.resolve("agent.pid");
    Path log = home.resolve("agent.log");
    ProcessBuilder shell = new ProcessBuilder("sh", "-c",
        "\"$0\" -cp \"$1\" " + Main.class.getName() + " --exit-with-parent > \"$2\" 2>&1 & echo $! > \"$3\"; sleep 3", javaBin, System.getProperty("java.class.path"), log.toString(), pidFile.toString());
    shell.environment().keySet().removeIf(name -> name.startsWith("VERSUS_"));
    shell.environment().putAll(Map.of("HOME", home.toString(), "VERSUS_URL", api.url(), "VERSUS_ENROLLMENT_TOKEN", FakeJobApi.TOKEN));
    Process parent = shell.start();
    assertTrue(parent.waitFor(30, TimeUnit.SECONDS), "the shell ends after starting the agent");
    long pid = Long.parseLong(Files.readString(pidFile).trim());
    ProcessHandle agent = ProcessHandle.of(pid).orElseThrow();
    assertTrue(agent.onExit().get(60, TimeUnit.SECONDS) != null, "the agent stops after its parent exited");
    String lines = Files.readString(log);
    assertTrue(lines.contains("event=agent.stopping") && lines.contains("parent exited") && lines.contains("event=agent.stopped exit_code=0"), lines);
  }

  @Test
  void runsFromTheHomeDirectoryLogsInfoOnStdoutWarningsOnStderrAndStopsOnSigterm() throws Exception {
    Path state = home.resolve(".versus-agent");
    TestPluginJars.jar(home, state.resolve("plugins"), "good", Map.of("com.example.Good", TestPluginJars.workload("com.example", "Good", "good", "")), "com.example.Good\n");
    // A credential for another server: not sent to this one, and said so as a warning.
    CredentialStore.save(state.resolve("credential.json"), new CredentialStore.Saved("http://elsewhere.test", "ag0", "old", "p", "vsag_other", 10, 30));

    AgentProcess agent = new AgentProcess(home, Map.of("VERSUS_URL", api.url(), "VERSUS_ENROLLMENT_TOKEN", FakeJobApi.TOKEN, "VERSUS_AGENT_NAME", "process-agent"));
    String ready = agent.awaitOut("agent.ready");
    assertTrue(ready.contains(" name=process-agent ") && ready.contains("good"), ready);
    JsonNode register = api.calls("register").get(0).body();
    assertEquals("process-agent", register.path("name").asText());
    assertTrue(register.path("capabilities").toString().contains("\"good\""), "the plugin in ~/.versus-agent/plugins is advertised: " + register);
    assertEquals(FakeJobApi.CREDENTIAL, ApiClient.JSON.readTree(state.resolve("credential.json").toFile()).path("credential").asText(), "the credential is kept in ~/.versus-agent");

    // SIGTERM; Process.destroy() would also close this side's pipes, losing the lines written while stopping.
    agent.process.toHandle().destroy();
    assertEquals(0, agent.exit());
    List<String> out = agent.out();
    List<String> err = agent.err();
    for (String line : out) assertTrue(LINE.matcher(line).matches() && line.contains(" level=info "), "stdout: " + line);
    for (String line : err) assertTrue(LINE.matcher(line).matches() && !line.contains(" level=info "), "stderr: " + line);
    String all = String.join("\n", out);
    int previous = -1;
    for (String event : List.of("agent.starting", "plugin.loaded", "agent.registered", "agent.ready", "agent.stopping", "agent.stopped")) {
      int at = all.indexOf(" event=" + event + " ");
      assertTrue(at > previous, event + " in order in\n" + all);
      previous = at;
    }
    assertTrue(all.contains(" event=agent.starting version=" + Agent.VERSION + " credential_file=" + state.resolve("credential.json") + " buffer_dir=" + state.resolve("buffer")
        + " plugins_dir=" + state.resolve("plugins")), "the folders it uses, from $HOME: " + all);
    assertTrue(all.contains(" event=agent.registered agent=ag1 project=p name=process-agent file=" + state.resolve("credential.json")), all);
    assertTrue(all.contains(" event=agent.stopped exit_code=0"), all);
    assertTrue(String.join("\n", err).contains(" level=warn event=agent.credential_for_other_server file=" + state.resolve("credential.json") + " saved_url=http://elsewhere.test"), err.toString());
  }
}
