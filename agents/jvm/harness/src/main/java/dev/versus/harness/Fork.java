package dev.versus.harness;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versus.workload.SettingsException;
import dev.versus.workload.Workload;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A run in a fresh JVM, as JMH forks: {@code java <jvmArgs> -cp <classpath> dev.versus.harness.ForkMain
 * <result file>} gets the workload's name and settings on stdin, runs it in-process and writes
 * the run (or the error) to the result file; its stdout and stderr are the run's log. Each run
 * starts with a clean heap, no JIT profile from other workloads, and the job's own JVM flags.
 */
final class Fork {
  private Fork() {}

  private static final long POLL_MS = 50;

  /**
   * The run in {@code forks} fresh JVMs, one after another (as JMH runs its forks), merged into
   * one run ({@link ForkMerge}). The log names each fork; a cancellation, a failure or a settings
   * error in any fork ends the run. The measured window is told each fork's window (the agent's
   * probes sample the first).
   */
  static RunResult run(Workload workload, JsonNode settings, RunOptions options, int forks) throws SettingsException, RunFailedException {
    List<ForkMerge.ForkRun> runs = new ArrayList<>();
    for (int i = 1; i <= forks; i++) {
      if (options.cancelled().getAsBoolean()) throw new RunCancelledException(runs.isEmpty() ? "" : runs.get(runs.size() - 1).result().logTail());
      if (forks > 1 && options.onLog() != null) options.onLog().accept("fork " + i + " of " + forks);
      runs.add(runOne(workload, settings, options));
    }
    return ForkMerge.merge(runs, workload.operationTime().key());
  }

  static ForkMerge.ForkRun runOne(Workload workload, JsonNode settings, RunOptions options) throws SettingsException, RunFailedException {
    HarnessSettings harness = HarnessSettings.from(settings);
    Path resultFile;
    try {
      resultFile = Files.createTempFile("versus-run-", ".json");
    } catch (IOException e) {
      throw new RunFailedException("cannot create the fork's result file: " + e.getMessage(), "", e);
    }
    Deque<String> tail = new ArrayDeque<>();
    // Random, so no line a workload logs can be taken for one of the window's moments.
    String marker = "versus-window-" + UUID.randomUUID();
    try {
      List<String> command = command(options, harness, resultFile);
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      Thread reader = new Thread(() -> readLog(process, tail, options, marker), "versus-fork-log");
      reader.setDaemon(true);
      reader.start();
      try (OutputStream stdin = process.getOutputStream()) {
        ObjectNode request = Harness.MAPPER.createObjectNode();
        request.put("workload", workload.name());
        request.set("settings", settings);
        request.put("windowMarker", marker);
        stdin.write(Harness.MAPPER.writeValueAsBytes(request));
      } catch (IOException e) {
        // the fork died at once: its log says why
      }
      while (!process.waitFor(POLL_MS, TimeUnit.MILLISECONDS)) {
        if (options.cancelled().getAsBoolean()) {
          destroy(process);
          reader.join(1000);
          throw new RunCancelledException(tail(tail));
        }
      }
      reader.join(5000);
      return result(resultFile, process.exitValue(), tail, options);
    } catch (IOException e) {
      throw new RunFailedException("cannot start the forked JVM: " + e.getMessage(), tail(tail), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RunFailedException("interrupted while the fork ran", tail(tail), e);
    } finally {
      try {
        Files.deleteIfExists(resultFile);
      } catch (IOException e) {
        // a temp file left behind
      }
    }
  }

  static List<String> command(RunOptions options, HarnessSettings harness, Path resultFile) {
    Path java = options.java() != null ? options.java() : Path.of(System.getProperty("java.home"), "bin", "java");
    String classpath = options.classpath().isEmpty()
        ? System.getProperty("java.class.path")
        : options.classpath().stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
    List<String> command = new ArrayList<>();
    command.add(java.toString());
    command.addAll(options.jvmArgs());
    command.addAll(harness.jvmArgs());
    command.add("-cp");
    command.add(classpath);
    command.add(ForkMain.class.getName());
    command.add(resultFile.toString());
    return command;
  }

  /** The fork and anything it started, at once. */
  static void destroy(Process process) {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    try {
      process.waitFor(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** What the fork prints at the measured window's two moments (read back by {@link #readLog}). */
  static MeasuredWindow markerWindow(String marker) {
    return new MeasuredWindow() {
      @Override
      public void opened() {
        System.err.println(marker + " opened");
        System.err.flush();
      }

      @Override
      public void closed() {
        System.err.println(marker + " closed");
        System.err.flush();
      }
    };
  }

  private static void readLog(Process process, Deque<String> tail, RunOptions options, String marker) {
    boolean open = false;
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        if (line.equals(marker + " opened")) {
          open = true;
          options.window().opened();
          continue;
        }
        if (line.equals(marker + " closed")) {
          open = false;
          options.window().closed();
          continue;
        }
        synchronized (tail) {
          tail.addLast(line);
          while (tail.size() > RunRecorder.LOG_TAIL_LINES) tail.removeFirst();
        }
        if (options.onLog() != null) options.onLog().accept(line);
      }
    } catch (IOException e) {
      // the fork was destroyed
    } finally {
      // A fork that died or was destroyed inside the window still closes it.
      if (open) options.window().closed();
    }
  }

  private static String tail(Deque<String> tail) {
    synchronized (tail) {
      return String.join("\n", tail);
    }
  }

  private static ForkMerge.ForkRun result(Path file, int exitCode, Deque<String> tail, RunOptions options) throws SettingsException, RunFailedException {
    JsonNode answer;
    try {
      answer = Files.size(file) == 0 ? null : Harness.MAPPER.readTree(file.toFile());
    } catch (IOException | UncheckedIOException e) {
      answer = null;
    }
    if (answer == null) throw new RunFailedException("the forked JVM exited with code " + exitCode + " without a result", tail(tail), null);
    if (answer.has("settingsError")) {
      JsonNode error = answer.get("settingsError");
      throw new SettingsException(error.path("field").asText(), error.path("message").asText());
    }
    if (answer.has("error")) throw new RunFailedException(answer.get("error").asText(), tail(tail), null);
    List<String> warnings = new ArrayList<>();
    answer.path("warnings").forEach(w -> warnings.add(w.asText()));
    ObjectNode run = (ObjectNode) answer.get("run");
    double[] iterations = new double[answer.path("iterationNsPerOperation").size()];
    for (int i = 0; i < iterations.length; i++) iterations[i] = answer.get("iterationNsPerOperation").get(i).asDouble();
    return new ForkMerge.ForkRun(new RunResult(run, warnings, tail(tail)), iterations);
  }
}
