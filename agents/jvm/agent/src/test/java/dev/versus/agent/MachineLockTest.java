package dev.versus.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --machine-lock: the agent claims only while no other agent of the machine (another process) holds the lock, then with short long-polls. */
class MachineLockTest extends AgainstFakeJobApi {
  @TempDir Path dir;

  @Test
  void claimsOnlyOnceTheOtherAgentOfTheMachineLetsGoOfTheLock() throws Exception {
    Path lockFile = dir.resolve("machine.lock");
    Process holder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", System.getProperty("java.class.path"),
        LockHolder.class.getName(), lockFile.toString()).redirectErrorStream(true).start();
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
      assertEquals("held", out.readLine(), "the other process took the lock");
      api.enqueue("job1", "echo", dev.versus.agent.api.ApiClient.JSON.readTree("{\"iterations\":1}"), 60, "op_time", "us");
      Config base = TestAgent.config(api, dir, FakeJobApi.TOKEN, 0);
      Config config = new Config(base.url(), base.enrollmentToken(), base.name(), base.labels(), base.credentialFile(), base.bufferDir(), base.pluginsDir(),
          base.shutdownGraceSeconds(), base.claimJitterMs(), base.git(), List.of(), false, lockFile);
      try (TestAgent agent = new TestAgent(config, TestRunner.quick())) {
        agent.awaitEvent("agent.ready");
        // While the other process holds the lock, the agent does not even ask for work.
        Thread.sleep(1500);
        assertEquals(List.of(), api.calls("claim"), "no claim while another agent of the machine held the lock");
        holder.getOutputStream().close();
        assertTrue(holder.waitFor(30, TimeUnit.SECONDS));
        api.await("complete");
        // The fake asks for 1 s long polls; a real server's 30 s is cut to 2 s while the lock is held.
        for (FakeJobApi.Call claim : api.calls("claim")) assertTrue(claim.path().matches(".*wait=[12]$"), "a short long-poll while holding the lock: " + claim.path());
        assertEquals(0, agent.stop());
      }
    } finally {
      holder.destroyForcibly();
    }
  }
}
