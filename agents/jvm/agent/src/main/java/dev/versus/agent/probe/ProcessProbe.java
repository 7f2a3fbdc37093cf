package dev.versus.agent.probe;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A process on the agent's own host, read from /proc: CPU (utime + stime of /proc/PID/stat),
 * resident memory (VmRSS) and threads (Threads of /proc/PID/status). The process is found once,
 * when the job starts; a name or pattern that matches several is refused, never one picked.
 */
public final class ProcessProbe extends Probe {
  static final String CPU_SECONDS = "cpu_seconds";
  static final String RSS_BYTES = "rss_bytes";
  static final String THREADS = "threads";
  private static final int COMM_LENGTH = 15; // the kernel keeps 15 characters of a process name

  private final Path proc;
  private final long pid;
  private final double ticksPerSecond;

  private ProcessProbe(ProbeSpec spec, Path proc, long pid, double ticksPerSecond) {
    super(spec, series(pid));
    this.proc = proc;
    this.pid = pid;
    this.ticksPerSecond = ticksPerSecond;
  }

  private static List<Presets.Named> series(long pid) {
    String stat = "utime+stime of /proc/" + pid + "/stat";
    String status = "/proc/" + pid + "/status";
    return List.of(
        new Presets.Named("process", Series.counter(stat, true, Presets.one(CPU_SECONDS, false), Presets::cpuPercent,
            Series.lower("cpu_percent", "%", "mean"), Series.lower("cpu_percent_max", "%", "max"))),
        new Presets.Named("process", Series.gauge("VmRSS of " + status, Presets.one(RSS_BYTES, false), Series.lower("rss", "B", "mean"), Series.lower("rss_peak", "B", "max"))),
        new Presets.Named("process", Series.gauge("Threads of " + status, Presets.one(THREADS, false), Series.lower("threads", "count", "mean"))));
  }

  /** Whether this host has /proc to read (Linux). */
  public static boolean supported() {
    return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux") && Files.isDirectory(Path.of("/proc/self"));
  }

  /** Finds the one process the spec matches. */
  public static ProcessProbe find(ProbeSpec spec, Path proc, double ticksPerSecond) throws ProbeException {
    if (!Files.isDirectory(proc.resolve("self"))) throw new ProbeException("process probes read /proc, which this host (" + System.getProperty("os.name") + ") does not have");
    if (spec.pid() != null) {
      if (!Files.isDirectory(proc.resolve(Long.toString(spec.pid())))) throw new ProbeException("no process with pid " + spec.pid());
      return new ProcessProbe(spec, proc, spec.pid(), ticksPerSecond);
    }
    long self = ProcessHandle.current().pid();
    Pattern pattern = spec.pattern() == null ? null : Pattern.compile(spec.pattern());
    String name = spec.processName() == null ? null : spec.processName().substring(0, Math.min(COMM_LENGTH, spec.processName().length()));
    List<Long> found = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(proc, entry -> entry.getFileName().toString().matches("[0-9]+"))) {
      for (Path entry : entries) {
        long pid = Long.parseLong(entry.getFileName().toString());
        if (pid == self) continue; // the agent itself is not what it measures
        try {
          if (name != null && Files.readString(entry.resolve("comm"), StandardCharsets.UTF_8).strip().equals(name)) found.add(pid);
          if (pattern != null && pattern.matcher(commandLine(entry)).find()) found.add(pid);
        } catch (IOException gone) {
          // exited while the list was read
        }
      }
    } catch (IOException unreadable) {
      throw new ProbeException("cannot list " + proc + ": " + unreadable.getMessage());
    }
    String what = name != null ? "named \"" + spec.processName() + "\"" : "whose command line matches \"" + spec.pattern() + "\"";
    if (found.isEmpty()) throw new ProbeException("no process " + what);
    if (found.size() > 1) {
      found.sort(null);
      List<String> listed = new ArrayList<>();
      for (long pid : found.subList(0, Math.min(5, found.size()))) {
        String command;
        try {
          command = commandLine(proc.resolve(Long.toString(pid)));
        } catch (IOException gone) {
          command = "exited";
        }
        listed.add(pid + " (" + (command.length() > 80 ? command.substring(0, 80) + "…" : command) + ")");
      }
      throw new ProbeException(found.size() + " processes " + what + ", say which with a pid or a narrower pattern: " + String.join(", ", listed) + (found.size() > 5 ? ", …" : ""));
    }
    return new ProcessProbe(spec, proc, found.get(0), ticksPerSecond);
  }

  private static String commandLine(Path entry) throws IOException {
    byte[] raw = Files.readAllBytes(entry.resolve("cmdline"));
    return new String(raw, StandardCharsets.UTF_8).replace('\0', ' ').strip();
  }

  public long pid() {
    return pid;
  }

  @Override
  public Exposition read() throws ProbeException {
    Path dir = proc.resolve(Long.toString(pid));
    String stat;
    List<String> status;
    try {
      stat = Files.readString(dir.resolve("stat"), StandardCharsets.UTF_8);
      status = Files.readAllLines(dir.resolve("status"), StandardCharsets.UTF_8);
    } catch (IOException gone) {
      throw new ProbeException("process " + pid + " has exited");
    }
    // The name (field 2) may hold spaces and parentheses: fields are counted after its last ')'.
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" +");
    // utime and stime are fields 14 and 15 of stat, so 11 and 12 after the name and the state.
    double cpuSeconds = (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / ticksPerSecond;
    List<Exposition.Sample> samples = new ArrayList<>();
    samples.add(new Exposition.Sample(CPU_SECONDS, Map.of(), cpuSeconds));
    for (String line : status) {
      if (line.startsWith("VmRSS:")) samples.add(new Exposition.Sample(RSS_BYTES, Map.of(), Double.parseDouble(line.substring(6).trim().split("\\s+")[0]) * 1024));
      if (line.startsWith("Threads:")) samples.add(new Exposition.Sample(THREADS, Map.of(), Double.parseDouble(line.substring(8).trim())));
    }
    return new Exposition(samples);
  }

  /** Clock ticks per second of /proc/PID/stat's times (getconf CLK_TCK; 100 on every Linux we know). */
  public static double ticksPerSecond() {
    try {
      Process getconf = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
      String out = new String(getconf.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      if (getconf.waitFor() == 0) return Double.parseDouble(out);
    } catch (IOException | NumberFormatException notThere) {
      // the usual value below
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
    }
    return 100;
  }
}
