package dev.versus.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import com.fasterxml.jackson.databind.JsonNode;
import dev.versus.agent.api.ApiClient;
import dev.versus.harness.RunResult;
import dev.versus.workload.SettingsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Marker;

/** The agent's protocol and loops against a fake job API. */
class AgentTest extends AgainstFakeJobApi {
  @TempDir Path dir;

  private static JsonNode settings(String json) throws Exception {
    return ApiClient.JSON.readTree(json);
  }

  @Test
  void registersOnceAndReusesTheSavedCredential() throws Exception {
    try (TestAgent first = new TestAgent(TestAgent.config(api, dir, FakeJobApi.TOKEN, 0), TestRunner.quick())) {
      first.awaitEvent("agent.ready");
      assertEquals(0, first.stop());
    }
    FakeJobApi.Call register = api.calls("register").get(0);
    assertEquals("jvm", register.body().path("kind").asText());
    assertEquals("echo", register.body().path("workloads").get(0).path("name").asText());
    assertEquals("integer", register.body().path("workloads").get(0).path("settingsSchema").path("properties").path("iterations").path("type").asText());
    // Its metrics, so the dashboard can offer them: the operation time at least.
    JsonNode metric = register.body().path("workloads").get(0).path("metrics").get(0);
    assertEquals("{\"key\":\"op_time\",\"unit\":\"ns\",\"direction\":\"lower_is_better\",\"aggregation\":\"mean\",\"description\":\"Time per operation\"}", String.valueOf(metric));
    Path file = dir.resolve("credential.json");
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    JsonNode saved = ApiClient.JSON.readTree(file.toFile());
    assertEquals(FakeJobApi.CREDENTIAL, saved.path("credential").asText());
    assertEquals(api.url(), saved.path("url").asText());
    assertEquals("ag1", saved.path("agentId").asText());

    // A second start without a token uses the file: no register, the saved credential on every call.
    int beats = api.calls("heartbeat").size();
    try (TestAgent second = new TestAgent(TestAgent.config(api, dir, null, 0), TestRunner.quick())) {
      second.awaitEvent("agent.credential_loaded");
      FakeJobApi.Call beat = api.awaitMore("heartbeat", beats);
      assertEquals("Bearer " + FakeJobApi.CREDENTIAL, beat.authorization());
      assertEquals("echo", beat.body().path("capabilities").get(0).asText());
      assertEquals("lab", beat.body().path("labels").path("pool").asText());
      assertTrue(beat.body().path("runningJobIds").isArray());
      assertEquals(0, second.stop());
    }
    assertEquals(1, api.calls("register").size());
  }

  @Test
  void claimsRunsAndCompletesWithTheJobsMetricsInItsUnits() throws Exception {
    api.enqueue("job1", "echo", settings("{\"iterations\":3}"), 60, "op_time", "us");
    try (TestAgent agent = new TestAgent(TestAgent.config(api, dir, FakeJobApi.TOKEN, 0), TestRunner.quick())) {
      FakeJobApi.Call complete = api.await("complete");
      assertEquals("/api/v1/jobs/job1/complete", complete.path());
      assertEquals("vlease_job1", complete.body().path("leaseToken").asText());
      JsonNode run = complete.body().path("run");
      assertEquals(1, run.path("metrics").size(), "only the metric the job asks for");
      assertEquals("us", run.path("metrics").get(0).path("unit").asText());
      assertEquals(1.0, run.path("metrics").get(0).path("samples").get(0).asDouble(), 1e-9);
      assertEquals(3.0, run.path("metrics").get(0).path("samples").get(1).asDouble(), 1e-9);
      assertEquals("jvm", run.path("environment").path("agent").path("kind").asText());
      assertEquals("a caveat", run.path("environment").path("warnings").get(0).asText());
      // And in run.warnings, which the server stores with the run and the run page shows.
      assertEquals("[\"a caveat\"]", run.path("warnings").toString());
      agent.awaitEvent("job.completed");
      assertEquals(0, agent.stop());
    }
    assertEquals(List.of(), List.of(dir.resolve("buffer").toFile().list()), "the buffer is empty once the server took the run");
  }

  @Test
  void stoppingIsLoggedBeforeStopped() throws Exception {
    // The stopping line is slow to write (a busy machine, a slow terminal): the agent must not
    // have stopped, and said so, meanwhile. Seen failing: SIGTERM printed agent.stopped first.
    TurboFilter slowStopping = new TurboFilter() {
      @Override
      public FilterReply decide(Marker marker, ch.qos.logback.classic.Logger logger, Level level, String format, Object[] params, Throwable t) {
        if ("agent.stopping".equals(format)) {
          try {
            Thread.sleep(500);
          } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
          }
        }
        return FilterReply.NEUTRAL;
      }
    };
    slowStopping.start();
    try (TestAgent agent = new TestAgent(TestAgent.config(api, dir, FakeJobApi.TOKEN, 0), TestRunner.quick(), slowStopping)) {
      agent.awaitEvent("agent.ready");
      assertEquals(0, agent.stop());
      List<String> events = agent.lines().stream().map(line -> line.replaceAll(".* event=(\\S+).*", "$1")).toList();
      assertTrue(events.indexOf("agent.stopping") >= 0 && events.indexOf("agent.stopping") < events.indexOf("agent.stopped"), events.toString());
    }
  }

  @Test
  void runsCarryTheCommitItWasTold() throws Exception {
    GitSource git = GitSource.read(java.util.Map.of("VERSUS_GIT_COMMIT", "0123456789abcdef0123456789abcdef01234567", "VERSUS_GIT_BRANCH", "main",
        "VERSUS_GIT_COMMIT_MESSAGE", "Reuse the deflate state", "VERSUS_GIT_COMMIT_TIME", "2026-11-24T15:00:00+01:00"), GitSource::runGit);
    api.enqueue("job1", "echo", settings("{\"iterations\":1}"), 60, "op_time", "us");
    try (TestAgent agent = new TestAgent(TestAgent.config(api, dir, FakeJobApi.TOKEN, 0, git), TestRunner.quick())) {
      JsonNode run = api.await("complete").body().path("run");
      assertEquals("0123456789abcdef0123456789abcdef01234567", run.path("gitCommit").asText());
      assertEquals("main", run.path("gitBranch").asText());
      assertEquals("Reuse the deflate state", run.path("gitCommitMessage").asText());
      assertEquals("2026-11-24T15:00:00+01:00", run.path("gitCommitTime").asText());
      assertEquals(0, agent.stop());
    }
  }

  @Test
  void runsWithoutACommitSendNone() throws Exception {
    api.enqueue("job1", "echo", settings("{\"iterations\":1}"), 60, "op_time", "us");
    try (TestAgent agent = new TestAgent(TestAgent.config(api, dir, FakeJobApi.TOKEN, 0), TestRunner.quick())) {
      JsonNode run = api.await("complete").body().path("run");
      assertFalse(run.has("gitCommit") || run.has("gitBranch") || run.has("gitCommitMessage") || run.has("gitCommitTime"), run.toString());
      assertEquals(0, agent.stop());
    }
  }

  @Test
  void aLostLeaseDropsTheJob() throws Exception {
    api.enqueue("job1", "echo", settings("{}"), 1, "op_time", "ns");
    api.answer(call -> call.action().equals("lease") ? FakeJobApi.error(409, "CONFLICT", "the lease is not yours") : null);
    TestRunner runner = TestRunner.untilCancelled();
    try (TestAgent agent = new TestAgent(TestAgent.config(api, dir, FakeJobApi.TOKEN, 0), runner)) {
      agent.awaitEvent("job.dropped");
      assertTrue(runner.sawCancel);
      assertEquals(0, agent.stop());
    }
    assertEquals(0, api.calls("complete").size());
    assertEquals(0, api.calls("fail").size());
    assertEquals(0, api.calls("release").size());
  }

  @Test
  void aCancelThroughTheHeartbeatFailsTheJobAsCancelled() throws Exception {
    api.enqueue("job1", "echo", settings("{}"), 60, "op_time", "ns");
    api.answer(call -> call.action().equals("heartbeat") && call.body().path("runningJobIds").toString().contains("job1")
        ? new FakeJobApi.Answer(200, "{\"cancelJobIds\":[\"job1\"],\"stop\":false}")
        : null);
    TestRunner runner = TestRunner.untilCancelled();
    try (TestAgent agent = new TestAgent(TestAgent.config(api, dir, FakeJobApi.TOKEN, 0), runner)) {
      FakeJobApi.Call fail = api.await("fail");
      assertTrue(fail.body().path("cancelled").asBoolean());
      assertFalse(fail.body().path("retryable").asBoolean());
      assertTrue(runner.sawCancel);
      agent.awaitEvent("job.cancel_acknowledged");
      assertEquals(0, agent.stop());
    }
  }

  @Test
  void aCancelThroughTheLeaseFailsTheJobAsCancelled() throws Exception {
    api.enqueue("job1", "echo", settings("{}"), 1, "op_time", "ns");
    api.answer(call -> call.action().equals("lease") ? new FakeJobApi.Answer(200, "{\"cancelRequested\":true}") : null);
    TestRunner runner = TestRunner.untilCancelled();
    try (TestAgent agent = new TestAgent(TestAgent.config(api, dir, FakeJobApi.TOKEN, 0), runner)) {
      FakeJobApi.Call fail = api.await("fail");
      assertTrue(fail.body().path("cancelled").asBoolean());
      assertEquals("cancelled by a user", fail.body().path("error").asText());
      assertEquals(0, agent.stop());
    }
  }

  @Test
  void aRunTheServerCannotTakeWaitsOnDiskAndTheNextAgentDeliversItOnce() throws Exception {
    api.enqueue("job1", "echo", settings("{}"), 60, "op_time", "ns");
    AtomicBoolean outage = new AtomicBoolean(true);
    api.answer(call -> call.action().equals("complete") && outage.get() ? FakeJobApi.error(503, "UNAVAILABLE", "database down") : null);
    try (TestAgent agent = new TestAgent(TestAgent.config(api, dir, FakeJobApi.TOKEN, 0), TestRunner.quick())) {
      // Retried through the outage, and on disk meanwhile.
      api.awaitMore("complete", 2);
      assertTrue(Files.exists(dir.resolve("buffer/job1.json")));
      assertEquals(0, agent.stop());
      agent.awaitEvent("job.result_kept");
    }
    assertTrue(Files.exists(dir.resolve("buffer/job1.json")), "kept for the next start");

    outage.set(false);
    int before = api.calls("complete").size();
    try (TestAgent next = new TestAgent(TestAgent.config(api, dir, null, 0), TestRunner.quick())) {
      next.awaitEvent("job.completed");
      next.awaitEvent("agent.ready");
      assertEquals(0, next.stop());
    }
    List<FakeJobApi.Call> completes = api.calls("complete");
    assertEquals(before + 1, completes.size(), "delivered once");
    assertEquals("op_time", completes.get(completes.size() - 1).body().path("run").path("metrics").get(0).path("key").asText());
    assertFalse(Files.exists(dir.resolve("buffer/job1.json")));
  }

  @Test
  void aConflictOnCompleteDropsTheBufferedRun() throws Exception {
    api.enqueue("job1", "echo", settings("{}"), 60, "op_time", "ns");
    api.answer(call -> call.action().equals("complete") ? FakeJobApi.error(409, "CONFLICT", "taken") : null);
    try (TestAgent agent = new TestAgent(TestAgent.config(api, dir, FakeJobApi.TOKEN, 0), TestRunner.quick())) {
      agent.awaitEvent("job.result_dropped");
      assertEquals(0, agent.stop());
    }
    assertFalse(Files.exists(dir.resolve("buffer/job1.json")));
  }

  @Test
  void aRunTheServerRefusesFailsTheJobWithItsMessage() throws Exception {
    api.enqueue("job1", "echo", settings("{}"), 60, "op_time", "ns");
    api.answer(call -> call.action().equals("complete") ? FakeJobApi.error(422, "UNPROCESSABLE", "run.metrics.0.unit: not the experiment's unit") : null);
    try (TestAgent agent = new TestAgent(TestAgent.config(api, dir, FakeJobApi.TOKEN, 0), TestRunner.quick())) {
      FakeJobApi.Call fail = api.await("fail");
      assertEquals("the server refused the run: run.metrics.0.unit: not the experiment's unit", fail.body().path("error").asText());
      assertFalse(fail.body().path("retryable").asBoolean());
      assertEquals(0, agent.stop());
    }
  }

  @Test
  void aRefusedCredentialStopsTheAgentWithExit78() throws Exception {
    try (TestAgent first = new TestAgent(TestAgent.config(api, dir, FakeJobApi.TOKEN, 0), TestRunner.quick())) {
      first.awaitEvent("agent.ready");
      first.stop();
    }
    api.answer(call -> call.action().equals("register") ? null : FakeJobApi.error(401, "UNAUTHORIZED", "revoked"));
    try (TestAgent agent = new TestAgent(TestAgent.config(api, dir, null, 0), TestRunner.quick())) {
      assertEquals(78, agent.exit.get(60, TimeUnit.SECONDS));
      assertTrue(agent.awaitEvent("agent.unauthorized").contains("revoked"));
    }
  }

  @Test
  void noCredentialAndNoTokenIsExit78() throws Exception {
    try (TestAgent agent = new TestAgent(TestAgent.config(api, dir, null, 0), TestRunner.quick())) {
      assertEquals(78, agent.exit.get(60, TimeUnit.SECONDS));
      assertTrue(agent.awaitEvent("agent.cannot_start").contains("VERSUS_ENROLLMENT_TOKEN"));
    }
  }

  @Test
  void badSettingsFailTheJobWithoutRetryNamingTheField() throws Exception {
    api.enqueue("job1", "echo", settings("{\"iterations\":0}"), 60, "op_time", "ns");
    TestRunner runner = new TestRunner((workload, settings, context) -> {
      throw new SettingsException("iterations", "must be at least 1, got " + settings.path("iterations").asInt());
    });
    try (TestAgent agent = new TestAgent(TestAgent.config(api, dir, FakeJobApi.TOKEN, 0), runner)) {
      FakeJobApi.Call fail = api.await("fail");
      assertEquals("bad settings for workload \"echo\": settings.iterations: must be at least 1, got 0", fail.body().path("error").asText());
      assertFalse(fail.body().path("retryable").asBoolean());
      assertFalse(fail.body().path("cancelled").asBoolean());
      assertEquals(0, agent.stop());
    }
  }

  @Test
  void aWorkloadThatThrowsFailsTheJobRetryablyWithItsTrace() throws Exception {
    api.enqueue("job1", "echo", settings("{}"), 60, "op_time", "ns");
    TestRunner runner = new TestRunner((workload, settings, context) -> {
      throw new IllegalStateException("disk full");
    });
    try (TestAgent agent = new TestAgent(TestAgent.config(api, dir, FakeJobApi.TOKEN, 0), runner)) {
      FakeJobApi.Call fail = api.await("fail");
      assertEquals("workload echo failed: java.lang.IllegalStateException: disk full", fail.body().path("error").asText());
      assertTrue(fail.body().path("retryable").asBoolean());
      assertTrue(fail.body().path("logTail").asText().contains("AgentTest"));
      assertEquals(0, agent.stop());
    }
  }

  @Test
  void anUnknownWorkloadFailsTheJobListingTheKnownOnes() throws Exception {
    api.enqueue("job1", "nope", settings("{}"), 60, "op_time", "ns");
    try (TestAgent agent = new TestAgent(TestAgent.config(api, dir, FakeJobApi.TOKEN, 0), TestRunner.quick())) {
      FakeJobApi.Call fail = api.await("fail");
      assertTrue(fail.body().path("error").asText().startsWith("this agent has no workload \"nope\" (it has echo"), fail.body().toString());
      assertFalse(fail.body().path("retryable").asBoolean());
      assertEquals(0, agent.stop());
    }
  }

  @Test
  void aJobItCannotReadIsFailedSayingWhy() throws Exception {
    api.answer(call -> call.action().equals("claim") && api.calls("fail").isEmpty()
        ? new FakeJobApi.Answer(200, "{\"job\":{\"id\":\"job9\",\"leaseToken\":\"vlease_9\",\"experiment\":{\"slug\":\"e\"},\"variant\":{\"name\":\"A\"},\"repetition\":1}}")
        : null);
    try (TestAgent agent = new TestAgent(TestAgent.config(api, dir, FakeJobApi.TOKEN, 0), TestRunner.quick())) {
      FakeJobApi.Call fail = api.await("fail");
      assertEquals("/api/v1/jobs/job9/fail", fail.path());
      assertEquals("the agent cannot read job job9: job.workload.name: expected a string", fail.body().path("error").asText());
      assertEquals(0, agent.stop());
    }
  }

  @Test
  void shutdownMidJobReleasesItAfterTheGrace() throws Exception {
    api.enqueue("job1", "echo", settings("{}"), 60, "op_time", "ns");
    TestRunner runner = TestRunner.untilCancelled();
    try (TestAgent agent = new TestAgent(TestAgent.config(api, dir, FakeJobApi.TOKEN, 0), runner)) {
      assertTrue(runner.started.await(60, TimeUnit.SECONDS));
      assertEquals(0, agent.stop());
      FakeJobApi.Call release = api.await("release");
      assertEquals("vlease_job1", release.body().path("leaseToken").asText());
      assertTrue(runner.sawCancel);
    }
    assertEquals(0, api.calls("complete").size());
    assertEquals(0, api.calls("fail").size());
  }

  @Test
  void shutdownLetsAJobThatEndsWithinTheGraceFinish() throws Exception {
    api.enqueue("job1", "echo", settings("{}"), 60, "op_time", "ns");
    java.util.concurrent.CountDownLatch proceed = new java.util.concurrent.CountDownLatch(1);
    TestRunner runner = new TestRunner((workload, settings, context) -> {
      proceed.await();
      return new RunResult(TestRunner.document(), List.of(), "");
    });
    try (TestAgent agent = new TestAgent(TestAgent.config(api, dir, FakeJobApi.TOKEN, 600), runner)) {
      assertTrue(runner.started.await(60, TimeUnit.SECONDS));
      agent.agent.stop("SIGTERM");
      agent.awaitEvent("agent.stopping");
      proceed.countDown();
      assertEquals(0, agent.exit.get(60, TimeUnit.SECONDS));
    }
    assertEquals(1, api.calls("complete").size());
    assertEquals(0, api.calls("release").size());
  }

  @Test
  void theServersStopEndsTheAgent() throws Exception {
    api.answer(call -> call.action().equals("heartbeat") ? new FakeJobApi.Answer(200, "{\"cancelJobIds\":[],\"stop\":true}") : null);
    try (TestAgent agent = new TestAgent(TestAgent.config(api, dir, FakeJobApi.TOKEN, 0), TestRunner.quick())) {
      assertEquals(0, agent.exit.get(60, TimeUnit.SECONDS));
      agent.awaitEvent("agent.stop_requested");
    }
  }
}
