package dev.versus.agent.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** The process probe against processes this test starts, read from the real /proc. */
@EnabledOnOs(OS.LINUX)
class ProcessProbeTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path PROC = Path.of("/proc");

  private static ProbeSpec spec(String match) throws Exception {
    return ProbeSpec.parse(JSON.readTree("{\"name\":\"p\",\"kind\":\"process\",\"match\":" + match + "}"), "probe");
  }

  @Test
  void aPatternOverTheCommandLineFindsTheOneProcessAndReadsIt() throws Exception {
    // A duration no other process on this host has on its command line.
    String seconds = "60." + Long.toString(System.nanoTime() % 1_000_000);
    Process sleep = new ProcessBuilder("sleep", seconds).start();
    try {
      ProcessProbe probe = ProcessProbe.find(spec("{\"pattern\":\"^sleep " + seconds.replace(".", "\\\\.") + "$\"}"), PROC, 100);
      assertEquals(sleep.pid(), probe.pid());
      Exposition reading = probe.read();
      assertEquals(1.0, reading.sum(ProcessProbe.THREADS).getAsDouble());
      assertTrue(reading.sum(ProcessProbe.RSS_BYTES).getAsDouble() > 0);
      assertTrue(reading.sum(ProcessProbe.CPU_SECONDS).getAsDouble() >= 0);
      sleep.destroyForcibly().waitFor();
      Probe.ProbeException gone = assertThrows(Probe.ProbeException.class, probe::read);
      assertEquals("process " + sleep.pid() + " has exited", gone.getMessage());
    } finally {
      sleep.destroyForcibly().waitFor();
    }
  }

  @Test
  void nothingMatchingIsNamed() throws Exception {
    assertEquals("no process named \"no-such-proc-x\"", assertThrows(Probe.ProbeException.class, () -> ProcessProbe.find(spec("{\"name\":\"no-such-proc-x\"}"), PROC, 100)).getMessage());
    assertEquals("no process whose command line matches \"^no such command line$\"",
        assertThrows(Probe.ProbeException.class, () -> ProcessProbe.find(spec("{\"pattern\":\"^no such command line$\"}"), PROC, 100)).getMessage());
    assertEquals("no process with pid 999999999", assertThrows(Probe.ProbeException.class, () -> ProcessProbe.find(spec("{\"pid\":999999999}"), PROC, 100)).getMessage());
  }

  @Test
  void theAgentsOwnProcessIsNotMatchedByAPatternButMayBeByPid() throws Exception {
    // This JVM's whole command line, from its java to its last argument (surefire's own
    // temporary files): a pattern only the process the probe runs in matches (the shell that
    // started it has the same words, but after "sh -c").
    String[] args = new String(java.nio.file.Files.readAllBytes(PROC.resolve("self/cmdline")), java.nio.charset.StandardCharsets.UTF_8).split("\0");
    String pattern = "^" + java.util.regex.Pattern.quote(args[0]) + " .*" + java.util.regex.Pattern.quote(args[args.length - 1]) + "$";
    Probe.ProbeException none = assertThrows(Probe.ProbeException.class, () -> ProcessProbe.find(spec(JSON.writeValueAsString(java.util.Map.of("pattern", pattern))), PROC, 100));
    assertTrue(none.getMessage().startsWith("no process whose command line matches"), none.getMessage());
    // By pid the user says which: then it may be this very process.
    ProbeSpec byPid = spec("{\"pid\":" + ProcessHandle.current().pid() + "}");
    assertEquals(ProcessHandle.current().pid(), ProcessProbe.find(byPid, PROC, 100).pid());
  }
}
