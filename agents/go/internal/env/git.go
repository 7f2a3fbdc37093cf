package env

// The git commit a run measured, for the metric's history (docs/agent-protocol.md, "The commit a
// run measured"); the same variables and rules as the reference agent (agents/reference/git-commit.ts).
// An agent does not know what it benchmarks, so it is told:
//   - VERSUS_GIT_COMMIT (with VERSUS_GIT_BRANCH, VERSUS_GIT_COMMIT_MESSAGE, VERSUS_GIT_COMMIT_TIME
//     optional) names the commit outright, for every run;
//   - otherwise VERSUS_GIT_DIR names a git checkout whose HEAD is read before each run (a CI job
//     that checks out one commit after another keeps one agent): hash, commit time, subject line
//     and branch (none on a detached HEAD; VERSUS_GIT_BRANCH then gives it).
// Checked at start, so a typo stops the agent (exit 78) instead of every run going without it.

import (
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"time"
	"unicode/utf16"
)

// Commit is a run's commit fields, as POST /api/v1/results takes them (empty: absent).
type Commit struct {
	Hash    string
	Branch  string
	Message string
	Time    string // ISO 8601 with an offset
}

// GitSource says where the commit of each run comes from. The zero value: no commit.
type GitSource struct {
	fixed  *Commit
	dir    string
	branch string // overrides the checkout's branch
}

// GitRunner runs git with args in dir and returns its standard output.
type GitRunner func(dir string, args ...string) (string, error)

// RunGit runs the git on PATH.
func RunGit(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	out, err := cmd.Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) && len(exit.Stderr) > 0 {
			return "", fmt.Errorf("%v: %s", err, strings.TrimSpace(string(exit.Stderr)))
		}
		return "", err
	}
	return string(out), nil
}

// The server's limits (server/schemas/results.ts).
const (
	maxCommit  = 64
	maxBranch  = 200
	maxMessage = 500
)

var (
	isoWithOffset = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$`)
	hexHash       = regexp.MustCompile(`^[0-9a-f]{7,64}$`)
)

// ReadGitSource reads the VERSUS_GIT_* variables; an error names the variable that cannot be used.
func ReadGitSource(getenv func(string) string, git GitRunner) (GitSource, error) {
	get := func(name string) string { return strings.TrimSpace(getenv(name)) }
	commit, branch, message, when, dir := get("VERSUS_GIT_COMMIT"), get("VERSUS_GIT_BRANCH"), get("VERSUS_GIT_COMMIT_MESSAGE"), get("VERSUS_GIT_COMMIT_TIME"), get("VERSUS_GIT_DIR")
	if utf16Len(branch) > maxBranch {
		return GitSource{}, fmt.Errorf("VERSUS_GIT_BRANCH must be at most %d characters", maxBranch)
	}
	switch {
	case commit != "":
		if utf16Len(commit) > maxCommit {
			return GitSource{}, fmt.Errorf("VERSUS_GIT_COMMIT must be at most %d characters (a commit hash)", maxCommit)
		}
		if when != "" && !validTime(when) {
			return GitSource{}, fmt.Errorf("VERSUS_GIT_COMMIT_TIME must be ISO 8601 with an offset, e.g. 2026-11-24T15:00:00+01:00 (git log -1 --format=%%cI), not %q", when)
		}
		return GitSource{fixed: &Commit{Hash: commit, Branch: branch, Message: cutMessage(message), Time: when}}, nil
	case message != "" || when != "":
		return GitSource{}, errors.New("VERSUS_GIT_COMMIT_MESSAGE and VERSUS_GIT_COMMIT_TIME describe VERSUS_GIT_COMMIT: set it too (or VERSUS_GIT_DIR instead)")
	case dir != "":
		source := GitSource{dir: dir, branch: branch}
		if _, err := source.readCheckout(git); err != nil {
			return GitSource{}, fmt.Errorf("VERSUS_GIT_DIR=%s: cannot read its HEAD commit with git: %v", dir, err)
		}
		return source, nil
	case branch != "":
		return GitSource{}, errors.New("VERSUS_GIT_BRANCH names the branch of VERSUS_GIT_COMMIT or of VERSUS_GIT_DIR's HEAD: set one of them too")
	}
	return GitSource{}, nil
}

// Capture is the commit of the run about to start. A checkout that cannot be read any more gives
// no commit and the reason (to log): the run still counts.
func (s GitSource) Capture(git GitRunner) (Commit, string) {
	switch {
	case s.fixed != nil:
		return *s.fixed, ""
	case s.dir == "":
		return Commit{}, ""
	}
	commit, err := s.readCheckout(git)
	if err != nil {
		return Commit{}, fmt.Sprintf("VERSUS_GIT_DIR=%s: cannot read its HEAD commit, the run goes without one: %v", s.dir, err)
	}
	return commit, ""
}

func (s GitSource) readCheckout(git GitRunner) (Commit, error) {
	// Hash, committer time (strict ISO 8601), subject: one per line; the subject may be empty.
	out, err := git(s.dir, "log", "-1", "--format=%H%n%cI%n%s")
	if err != nil {
		return Commit{}, err
	}
	lines := strings.Split(out, "\n")
	for len(lines) < 3 {
		lines = append(lines, "")
	}
	hash, when := strings.TrimSpace(lines[0]), strings.TrimSpace(lines[1])
	if !hexHash.MatchString(hash) || !validTime(when) {
		return Commit{}, fmt.Errorf("unexpected output of git log: %q", hash+"\n"+when)
	}
	commit := Commit{Hash: hash, Time: when, Message: cutMessage(strings.TrimSpace(strings.Join(lines[2:], " "))), Branch: s.branch}
	if commit.Branch == "" {
		head, err := git(s.dir, "rev-parse", "--abbrev-ref", "HEAD")
		if err != nil {
			return Commit{}, err
		}
		if head = strings.TrimSpace(head); head != "HEAD" {
			commit.Branch = truncateRunes(head, maxBranch)
		}
	}
	return commit, nil
}

func validTime(v string) bool {
	if !isoWithOffset.MatchString(v) {
		return false
	}
	_, err := time.Parse(time.RFC3339Nano, normalizeSeconds(v))
	return err == nil
}

// normalizeSeconds adds ":00" to a time without seconds (ISO 8601 allows it; RFC 3339 does not).
func normalizeSeconds(v string) string {
	if len(v) > 16 && v[16] != ':' {
		return v[:16] + ":00" + v[16:]
	}
	return v
}

// cutMessage keeps what the server keeps (500 characters): a longer subject is cut with an
// ellipsis rather than refused.
func cutMessage(message string) string {
	if utf16Len(message) <= maxMessage {
		return message
	}
	return truncateRunes(message, maxMessage-1) + "…"
}

// The server counts characters as JavaScript does: UTF-16 code units.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// truncateRunes keeps at most n UTF-16 code units of s, never splitting a character.
func truncateRunes(s string, n int) string {
	used := 0
	for i, r := range s {
		if used+utf16.RuneLen(r) > n {
			return s[:i]
		}
		used += utf16.RuneLen(r)
	}
	return s
}
