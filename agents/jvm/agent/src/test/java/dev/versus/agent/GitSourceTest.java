package dev.versus.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commit a run measured: named by the environment, or read from a real git checkout's HEAD
 * before each run (so a checkout that moves between jobs is followed); unusable settings stop the
 * agent at start, naming the variable.
 */
class GitSourceTest {
  @TempDir Path repo;
  private int commits;

  private String git(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("git", "-C", repo.toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    Map<String, String> env = builder.environment();
    env.put("GIT_AUTHOR_NAME", "t");
    env.put("GIT_AUTHOR_EMAIL", "t@example.com");
    env.put("GIT_COMMITTER_NAME", "t");
    env.put("GIT_COMMITTER_EMAIL", "t@example.com");
    env.put("GIT_AUTHOR_DATE", "2026-03-04T05:06:07+02:00");
    env.put("GIT_COMMITTER_DATE", "2026-03-04T05:06:07+02:00");
    Process process = builder.start();
    String out = new String(process.getInputStream().readAllBytes()).trim();
    assertTrue(process.waitFor(30, TimeUnit.SECONDS));
    assertEquals(0, process.exitValue(), out);
    return out;
  }

  private String commit(String subject) throws Exception {
    Files.writeString(repo.resolve("file.txt"), subject + (++commits));
    git("add", "file.txt");
    git("commit", "-q", "-m", subject, "-m", "A body that is not the subject.");
    return git("rev-parse", "HEAD");
  }

  @BeforeEach
  void init() throws Exception {
    git("init", "-q", "-b", "main");
  }

  private GitSource dir(Map<String, String> more) throws Config.ConfigException {
    Map<String, String> env = new java.util.HashMap<>(more);
    env.put("VERSUS_GIT_DIR", repo.toString());
    return GitSource.read(env, GitSource::runGit);
  }

  @Test
  void readsTheCheckoutsHeadBeforeEachRun() throws Exception {
    String first = commit("Raise gzip level");
    GitSource source = dir(Map.of());
    assertEquals(new GitSource.Captured(new GitSource.Commit(first, "main", "Raise gzip level", "2026-03-04T05:06:07+02:00"), null), source.capture(GitSource::runGit));
    // The checkout moves on between jobs: the next run measures the new HEAD.
    String second = commit("Reuse the deflate state");
    GitSource.Commit next = source.capture(GitSource::runGit).commit();
    assertEquals(second, next.hash());
    assertEquals("Reuse the deflate state", next.message());
  }

  @Test
  void aDetachedHeadHasNoBranchUnlessNamed() throws Exception {
    String first = commit("One");
    commit("Two");
    git("checkout", "-q", first);
    GitSource.Commit detached = dir(Map.of()).capture(GitSource::runGit).commit();
    assertEquals(first, detached.hash());
    assertNull(detached.branch());
    assertEquals("release", dir(Map.of("VERSUS_GIT_BRANCH", "release")).capture(GitSource::runGit).commit().branch());
  }

  @Test
  void aLongSubjectIsCutToWhatTheServerKeeps() throws Exception {
    commit("x".repeat(600));
    String message = dir(Map.of()).capture(GitSource::runGit).commit().message();
    assertEquals(500, message.length());
    assertTrue(message.endsWith("…"));
    assertEquals("ab", GitSource.truncate("ab\uD83D\uDE00c", 3), "never splits a surrogate pair");
  }

  @Test
  void theEnvironmentNamesTheCommitAndTheCheckoutIsThenNotRead() throws Exception {
    GitSource source = GitSource.read(Map.of("VERSUS_GIT_COMMIT", "abc1234", "VERSUS_GIT_BRANCH", "main", "VERSUS_GIT_COMMIT_MESSAGE", "Fix it",
        "VERSUS_GIT_COMMIT_TIME", "2026-11-24T15:00:00Z", "VERSUS_GIT_DIR", "/nowhere"), (dir, args) -> { throw new IOException("not to be run"); });
    assertEquals(new GitSource.Commit("abc1234", "main", "Fix it", "2026-11-24T15:00:00Z"), source.capture(GitSource::runGit).commit());
    assertEquals(new GitSource.Commit(null, null, null, null), GitSource.read(Map.of(), GitSource::runGit).capture(GitSource::runGit).commit());
  }

  @Test
  void unusableSettingsAreRefusedAtStartNamingTheVariable() {
    Map<Map<String, String>, String> cases = Map.of(
        Map.of("VERSUS_GIT_DIR", repo.resolve("missing").toString()), "VERSUS_GIT_DIR=",
        Map.of("VERSUS_GIT_DIR", repo.toString()), "cannot read its HEAD commit with git", // no commit yet
        Map.of("VERSUS_GIT_COMMIT", "abc1234", "VERSUS_GIT_COMMIT_TIME", "yesterday"), "VERSUS_GIT_COMMIT_TIME must be ISO 8601 with an offset",
        Map.of("VERSUS_GIT_COMMIT", "abc1234", "VERSUS_GIT_COMMIT_TIME", "2026-11-24T15:00:00"), "VERSUS_GIT_COMMIT_TIME must be ISO 8601 with an offset",
        Map.of("VERSUS_GIT_COMMIT", "a".repeat(65)), "VERSUS_GIT_COMMIT must be at most 64 characters",
        Map.of("VERSUS_GIT_COMMIT_MESSAGE", "Fix"), "set it too",
        Map.of("VERSUS_GIT_BRANCH", "main"), "VERSUS_GIT_BRANCH names the branch");
    cases.forEach((env, want) -> {
      Config.ConfigException refused = assertThrows(Config.ConfigException.class, () -> GitSource.read(env, GitSource::runGit), env.toString());
      assertTrue(refused.getMessage().contains(want), refused.getMessage());
    });
    // Through the agent's configuration: exit 78 like any bad setting.
    Config.ConfigException viaConfig = assertThrows(Config.ConfigException.class,
        () -> Config.read(new String[] {"--url", "http://x"}, Map.of("VERSUS_GIT_COMMIT", "abc1234", "VERSUS_GIT_COMMIT_TIME", "soon")));
    assertTrue(viaConfig.getMessage().contains("VERSUS_GIT_COMMIT_TIME"), viaConfig.getMessage());
  }

  @Test
  void anUnreadableCheckoutGivesNoCommitAndTheReason() throws Exception {
    commit("One");
    GitSource source = dir(Map.of());
    try (var files = Files.walk(repo.resolve(".git"))) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    }
    GitSource.Captured captured = source.capture(GitSource::runGit);
    assertNull(captured.commit().hash());
    assertTrue(captured.problem().contains("cannot read its HEAD commit, the run goes without one"), captured.problem());
  }
}
