package dev.versus.agent;

import dev.versus.agent.api.ApiClient;
import dev.versus.agent.api.RetryPolicy;
import dev.versus.agent.plugins.Plugins;
import dev.versus.agent.plugins.WorkloadFactory;
import dev.versus.agent.run.JobRunner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import ch.qos.logback.classic.turbo.TurboFilter;
import org.slf4j.Logger;

/** An agent running on a thread of the test, with quick retries and its log lines kept. */
final class TestAgent implements AutoCloseable {
  final Agent agent;
  final CompletableFuture<Integer> exit = new CompletableFuture<>();
  private final List<String> lines = new ArrayList<>();

  TestAgent(Config config, JobRunner runner) {
    this(config, runner, new TurboFilter[0]);
  }

  /** With logback turbo filters, which run on the logging thread before a line is written. */
  TestAgent(Config config, JobRunner runner, TurboFilter... filters) {
    Logger log = TestLogs.to(line -> {
      synchronized (lines) {
        lines.add(line);
        lines.notifyAll();
      }
    }, filters);
    Map<ApiClient.CallName, RetryPolicy> quick = new EnumMap<>(ApiClient.CallName.class);
    ApiClient.defaultPolicies().forEach((call, policy) -> quick.put(call, new RetryPolicy(policy.attempts(), 5, 20)));
    WorkloadFactory workloads = new WorkloadFactory(Plugins.load(config.pluginsDir(), TestAgent.class.getClassLoader(), log));
    agent = new Agent(config, workloads, runner, log, quick);
    Thread thread = new Thread(() -> {
      try {
        exit.complete(agent.run());
      } catch (Throwable crash) {
        exit.completeExceptionally(crash);
      }
    }, "test-agent");
    thread.setDaemon(true);
    thread.start();
  }

  static Config config(FakeJobApi api, Path dir, String token, double graceSeconds) {
    return config(api, dir, token, graceSeconds, GitSource.NONE);
  }

  static Config config(FakeJobApi api, Path dir, String token, double graceSeconds, GitSource git) {
    return new Config(api.url(), token, "test-agent", Map.of("os", "linux", "pool", "lab"), dir.resolve("credential.json"), dir.resolve("buffer"), dir.resolve("plugins"), graceSeconds, 0, git, java.util.List.of(), false, null);
  }

  /** Waits until a log line has this event; returns the line. */
  String awaitEvent(String event) throws InterruptedException {
    synchronized (lines) {
      while (true) {
        for (String line : lines) if (line.contains(" event=" + event + " ") || line.endsWith(" event=" + event)) return line;
        lines.wait(60_000);
      }
    }
  }

  List<String> lines() {
    synchronized (lines) {
      return List.copyOf(lines);
    }
  }

  /** Stops the agent as SIGTERM does and returns its exit code. */
  int stop() throws Exception {
    agent.stop("test");
    return exit.get(60, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws Exception {
    if (!exit.isDone()) stop();
  }
}
