package dev.versus.agent;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * The git commit a run measured, for the metric's history (docs/agent-protocol.md, "The commit a
 * run measured"); the same variables and rules as the reference agent
 * (agents/reference/git-commit.ts). An agent does not know what it benchmarks, so it is told:
 * VERSUS_GIT_COMMIT (with VERSUS_GIT_BRANCH, VERSUS_GIT_COMMIT_MESSAGE, VERSUS_GIT_COMMIT_TIME
 * optional) names the commit outright, for every run; otherwise VERSUS_GIT_DIR names a git
 * checkout whose HEAD is read before each run (a CI job that checks out one commit after another
 * keeps one agent): hash, commit time, subject line and branch (none on a detached HEAD;
 * VERSUS_GIT_BRANCH then gives it). Checked at start, so a typo stops the agent (exit 78)
 * instead of every run going without it.
 */
public final class GitSource {
  /** A run's commit fields as POST /api/v1/results takes them; null: absent. */
  public record Commit(String hash, String branch, String message, String time) {
    static final Commit NONE = new Commit(null, null, null, null);
  }

  /** The commit of a run, or none and why (a checkout that cannot be read any more). */
  public record Captured(Commit commit, String problem) {}

  /** Runs git with args in dir; its standard output. */
  @FunctionalInterface
  public interface GitRunner {
    String run(String dir, String... args) throws IOException;
  }

  /** No commit. */
  public static final GitSource NONE = new GitSource(null, null, null);

  // The server's limits (server/schemas/results.ts).
  private static final int MAX_COMMIT = 64;
  private static final int MAX_BRANCH = 200;
  private static final int MAX_MESSAGE = 500;
  private static final Pattern ISO_WITH_OFFSET = Pattern.compile("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d(:\\d\\d(\\.\\d+)?)?(Z|[+-]\\d\\d:\\d\\d)");
  private static final Pattern HEX_HASH = Pattern.compile("[0-9a-f]{7,64}");

  private final Commit fixed;
  private final String dir;
  private final String branch;

  private GitSource(Commit fixed, String dir, String branch) {
    this.fixed = fixed;
    this.dir = dir;
    this.branch = branch;
  }

  /** The git on PATH, stopped after 10 s. */
  public static String runGit(String dir, String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of("git", "-C", dir));
    command.addAll(Arrays.asList(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(false).start();
    process.getOutputStream().close();
    try {
      String out = read(process.getInputStream());
      String err = read(process.getErrorStream());
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IOException("git " + String.join(" ", args) + " did not finish within 10 s");
      }
      if (process.exitValue() != 0) throw new IOException("git " + String.join(" ", args) + " exited with " + process.exitValue() + ": " + err.trim());
      return out;
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      throw new IOException("interrupted while running git", interrupted);
    }
  }

  private static String read(InputStream in) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    in.transferTo(bytes);
    return bytes.toString(StandardCharsets.UTF_8);
  }

  /** The source the environment describes; a ConfigException naming the variable when it is unusable. */
  public static GitSource read(Map<String, String> env, GitRunner git) throws Config.ConfigException {
    String commit = present(env.get("VERSUS_GIT_COMMIT"));
    String branch = present(env.get("VERSUS_GIT_BRANCH"));
    String message = present(env.get("VERSUS_GIT_COMMIT_MESSAGE"));
    String time = present(env.get("VERSUS_GIT_COMMIT_TIME"));
    String dir = present(env.get("VERSUS_GIT_DIR"));
    if (branch != null && branch.length() > MAX_BRANCH) throw new Config.ConfigException("VERSUS_GIT_BRANCH must be at most " + MAX_BRANCH + " characters");
    if (commit != null) {
      if (commit.length() > MAX_COMMIT) throw new Config.ConfigException("VERSUS_GIT_COMMIT must be at most " + MAX_COMMIT + " characters (a commit hash)");
      if (time != null && !validTime(time)) {
        throw new Config.ConfigException("VERSUS_GIT_COMMIT_TIME must be ISO 8601 with an offset, e.g. 2026-11-24T15:00:00+01:00 (git log -1 --format=%cI), not \"" + time + "\"");
      }
      return new GitSource(new Commit(commit, branch, message == null ? null : cutMessage(message), time), null, null);
    }
    if (message != null || time != null) {
      throw new Config.ConfigException("VERSUS_GIT_COMMIT_MESSAGE and VERSUS_GIT_COMMIT_TIME describe VERSUS_GIT_COMMIT: set it too (or VERSUS_GIT_DIR instead)");
    }
    if (dir != null) {
      GitSource source = new GitSource(null, dir, branch);
      try {
        source.readCheckout(git);
      } catch (IOException unreadable) {
        throw new Config.ConfigException("VERSUS_GIT_DIR=" + dir + ": cannot read its HEAD commit with git: " + unreadable.getMessage());
      }
      return source;
    }
    if (branch != null) throw new Config.ConfigException("VERSUS_GIT_BRANCH names the branch of VERSUS_GIT_COMMIT or of VERSUS_GIT_DIR's HEAD: set one of them too");
    return NONE;
  }

  /** The commit of the run about to start. */
  public Captured capture(GitRunner git) {
    if (fixed != null) return new Captured(fixed, null);
    if (dir == null) return new Captured(Commit.NONE, null);
    try {
      return new Captured(readCheckout(git), null);
    } catch (IOException unreadable) {
      return new Captured(Commit.NONE, "VERSUS_GIT_DIR=" + dir + ": cannot read its HEAD commit, the run goes without one: " + unreadable.getMessage());
    }
  }

  private Commit readCheckout(GitRunner git) throws IOException {
    // Hash, committer time (strict ISO 8601), subject: one per line; the subject may be empty.
    String[] lines = git.run(dir, "log", "-1", "--format=%H%n%cI%n%s").split("\n", -1);
    String hash = lines.length > 0 ? lines[0].trim() : "";
    String time = lines.length > 1 ? lines[1].trim() : "";
    if (!HEX_HASH.matcher(hash).matches() || !validTime(time)) throw new IOException("unexpected output of git log: \"" + hash + "\\n" + time + "\"");
    String subject = lines.length > 2 ? String.join(" ", Arrays.copyOfRange(lines, 2, lines.length)).trim() : "";
    String onBranch = branch;
    if (onBranch == null) {
      String head = git.run(dir, "rev-parse", "--abbrev-ref", "HEAD").trim();
      if (!head.isEmpty() && !head.equals("HEAD")) onBranch = truncate(head, MAX_BRANCH);
    }
    return new Commit(hash, onBranch, subject.isEmpty() ? null : cutMessage(subject), time);
  }

  private static String present(String value) {
    return value == null || value.isBlank() ? null : value.trim();
  }

  private static boolean validTime(String value) {
    if (!ISO_WITH_OFFSET.matcher(value).matches()) return false;
    try {
      OffsetDateTime.parse(value);
      return true;
    } catch (DateTimeParseException bad) {
      return false;
    }
  }

  /** The server keeps 500 characters of a message; a longer subject is cut with an ellipsis rather than refused. */
  private static String cutMessage(String message) {
    return message.length() <= MAX_MESSAGE ? message : truncate(message, MAX_MESSAGE - 1) + "…";
  }

  /** At most n UTF-16 units (as the server counts), never splitting a surrogate pair. */
  static String truncate(String text, int n) {
    if (text.length() <= n) return text;
    int end = Character.isHighSurrogate(text.charAt(n - 1)) ? n - 1 : n;
    return text.substring(0, end);
  }
}
