package env

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A real git checkout in a temporary directory, committed at a known time.
func gitRepo(t *testing.T) (dir string, commit func(subject string) string, run func(args ...string) string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir = t.TempDir()
	run = func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
			"GIT_COMMITTER_DATE=2026-03-04T05:06:07+02:00", "GIT_AUTHOR_DATE=2026-03-04T05:06:07+02:00")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	run("init", "-q", "-b", "main")
	n := 0
	commit = func(subject string) string {
		t.Helper()
		n++
		if err := os.WriteFile(filepath.Join(dir, "file.txt"), []byte(strings.Repeat("x", n)), 0o644); err != nil {
			t.Fatal(err)
		}
		run("add", "file.txt")
		run("commit", "-q", "-m", subject, "-m", "A body that is not the subject.")
		return run("rev-parse", "HEAD")
	}
	return dir, commit, run
}

func envOf(vars map[string]string) func(string) string {
	return func(name string) string { return vars[name] }
}

func TestGitDirIsReadBeforeEachRun(t *testing.T) {
	dir, commit, _ := gitRepo(t)
	first := commit("Raise gzip level")
	source, err := ReadGitSource(envOf(map[string]string{"VERSUS_GIT_DIR": dir}), RunGit)
	if err != nil {
		t.Fatal(err)
	}
	got, problem := source.Capture(RunGit)
	want := Commit{Hash: first, Branch: "main", Message: "Raise gzip level", Time: "2026-03-04T05:06:07+02:00"}
	if got != want || problem != "" {
		t.Fatalf("got %+v (%q), want %+v", got, problem, want)
	}
	// The checkout moves on between jobs: the next run measures the new HEAD.
	second := commit("Reuse the deflate state")
	if got, _ := source.Capture(RunGit); got.Hash != second || got.Message != "Reuse the deflate state" {
		t.Errorf("after a new commit: %+v", got)
	}
}

func TestDetachedHeadHasNoBranchUnlessNamed(t *testing.T) {
	dir, commit, run := gitRepo(t)
	first := commit("One")
	commit("Two")
	run("checkout", "-q", first)
	source, err := ReadGitSource(envOf(map[string]string{"VERSUS_GIT_DIR": dir}), RunGit)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := source.Capture(RunGit); got.Hash != first || got.Branch != "" {
		t.Errorf("detached: %+v", got)
	}
	named, _ := ReadGitSource(envOf(map[string]string{"VERSUS_GIT_DIR": dir, "VERSUS_GIT_BRANCH": "release"}), RunGit)
	if got, _ := named.Capture(RunGit); got.Branch != "release" {
		t.Errorf("named: %+v", got)
	}
}

func TestALongSubjectIsCutToWhatTheServerKeeps(t *testing.T) {
	dir, commit, _ := gitRepo(t)
	commit(strings.Repeat("é", 600))
	source, _ := ReadGitSource(envOf(map[string]string{"VERSUS_GIT_DIR": dir}), RunGit)
	got, _ := source.Capture(RunGit)
	if n := utf16Len(got.Message); n != 500 || !strings.HasSuffix(got.Message, "…") {
		t.Errorf("message of %d characters: %q…", n, got.Message[:20])
	}
	// A character outside the BMP is two UTF-16 units, as the server counts it, and is never split.
	if cut := truncateRunes("ab😀c", 3); cut != "ab" {
		t.Errorf("truncateRunes split a surrogate pair: %q", cut)
	}
}

func TestTheEnvironmentNamesTheCommit(t *testing.T) {
	source, err := ReadGitSource(envOf(map[string]string{"VERSUS_GIT_COMMIT": "abc1234", "VERSUS_GIT_BRANCH": "main", "VERSUS_GIT_COMMIT_MESSAGE": "Fix it", "VERSUS_GIT_COMMIT_TIME": "2026-11-24T15:00:00Z", "VERSUS_GIT_DIR": "/nowhere"}), RunGit)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := source.Capture(RunGit); got != (Commit{Hash: "abc1234", Branch: "main", Message: "Fix it", Time: "2026-11-24T15:00:00Z"}) {
		t.Errorf("got %+v", got)
	}
	none, err := ReadGitSource(envOf(nil), RunGit)
	if got, problem := none.Capture(RunGit); err != nil || got != (Commit{}) || problem != "" {
		t.Errorf("no variables: %+v %q %v", got, problem, err)
	}
}

func TestUnusableSettingsAreRefusedNamingTheVariable(t *testing.T) {
	dir, _, _ := gitRepo(t) // no commit yet
	for vars, want := range map[*map[string]string]string{
		{"VERSUS_GIT_DIR": filepath.Join(dir, "missing")}:                                 "VERSUS_GIT_DIR=",
		{"VERSUS_GIT_DIR": dir}:                                                           "cannot read its HEAD commit with git",
		{"VERSUS_GIT_COMMIT": "abc1234", "VERSUS_GIT_COMMIT_TIME": "yesterday"}:           "VERSUS_GIT_COMMIT_TIME must be ISO 8601 with an offset",
		{"VERSUS_GIT_COMMIT": "abc1234", "VERSUS_GIT_COMMIT_TIME": "2026-11-24T15:00:00"}: "VERSUS_GIT_COMMIT_TIME must be ISO 8601 with an offset",
		{"VERSUS_GIT_COMMIT": strings.Repeat("a", 65)}:                                    "VERSUS_GIT_COMMIT must be at most 64 characters",
		{"VERSUS_GIT_COMMIT_MESSAGE": "Fix"}:                                              "set it too",
		{"VERSUS_GIT_BRANCH": "main"}:                                                     "VERSUS_GIT_BRANCH names the branch",
	} {
		if _, err := ReadGitSource(envOf(*vars), RunGit); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v: error %v, want it to contain %q", *vars, err, want)
		}
	}
}

func TestAnUnreadableCheckoutGivesNoCommitAndTheReason(t *testing.T) {
	dir, commit, _ := gitRepo(t)
	commit("One")
	source, err := ReadGitSource(envOf(map[string]string{"VERSUS_GIT_DIR": dir}), RunGit)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, ".git")); err != nil {
		t.Fatal(err)
	}
	got, problem := source.Capture(RunGit)
	if got != (Commit{}) || !strings.Contains(problem, "cannot read its HEAD commit, the run goes without one") {
		t.Errorf("got %+v, problem %q", got, problem)
	}
}
