//go:build unix

package exec

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/versus/agents/go/internal/result"
	"github.com/versus/agents/go/internal/workload"
	"github.com/versus/agents/go/internal/workload/workloadtest"
)

func prepare(t *testing.T, settings any) workload.Runner {
	t.Helper()
	raw, _ := json.Marshal(settings)
	r, err := New().Prepare(raw)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func runIt(t *testing.T, ctx context.Context, settings any) (map[string]result.Metric, *result.Builder, error) {
	t.Helper()
	rec := result.NewBuilder(nil, nil)
	err := prepare(t, settings).Run(ctx, rec)
	out := map[string]result.Metric{}
	for _, m := range rec.Build(time.Now(), time.Now(), nil).Metrics {
		out[m.Key] = m
	}
	return out, rec, err
}

func requireUnix(t *testing.T) {
	if !hasRusage {
		t.Skip("needs a Unix: /bin/sh, process groups and rusage")
	}
}

func TestMeasuresACommandThatBurnsCPU(t *testing.T) {
	requireUnix(t)
	m, _, err := runIt(t, context.Background(), map[string]any{
		"command": []string{"sh", "-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done"}, "runs": 2, "warmupRuns": 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"wall_time", "cpu_user", "cpu_system", "cpu_total", "max_rss"} {
		if n := len(m[key].Samples); n != 2 {
			t.Fatalf("%s has %d samples, want 2 (warm-up not measured)", key, n)
		}
	}
	for i := 0; i < 2; i++ {
		wall, user, sys, total := m["wall_time"].Samples[i], m["cpu_user"].Samples[i], m["cpu_system"].Samples[i], m["cpu_total"].Samples[i]
		if total <= 0 || total != user+sys {
			t.Fatalf("run %d: cpu_total %v, user %v + system %v", i, total, user, sys)
		}
		// One single-threaded shell: its CPU time cannot exceed its wall time by more than the
		// kernel's accounting granularity (a tick).
		if total > wall+20 {
			t.Fatalf("run %d: cpu_total %v ms > wall_time %v ms", i, total, wall)
		}
		if rss := m["max_rss"].Samples[i]; rss < 100 || rss > 1<<20 {
			t.Fatalf("run %d: max_rss %v KiB is not a shell's", i, rss)
		}
	}
}

func TestShellLineRunsWithSh(t *testing.T) {
	requireUnix(t)
	dir := t.TempDir()
	_, rec, err := runIt(t, context.Background(), map[string]any{
		"shell": `echo "$GREETING from $(pwd)"; read line; echo "got $line" >&2`, "runs": 1, "warmupRuns": 0,
		"env": []string{"GREETING=hello"}, "dir": dir, "stdin": "input line\n",
	})
	if err != nil {
		t.Fatal(err)
	}
	logs := rec.LogTail()
	for _, want := range []string{"stdout | hello from " + dir, "stderr | got input line"} {
		if !strings.Contains(logs, want) {
			t.Errorf("log %q lacks %q", logs, want)
		}
	}
}

func TestAnExitCodeOutsideOkExitCodesFailsWithItAndStderr(t *testing.T) {
	requireUnix(t)
	_, _, err := runIt(t, context.Background(), map[string]any{
		"shell": "echo first >&2; echo 'disk full' >&2; exit 3", "runs": 3, "warmupRuns": 0,
	})
	if err == nil || !strings.Contains(err.Error(), "run 1 exited with code 3") || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("got %v", err)
	}
	m, rec, err := runIt(t, context.Background(), map[string]any{"shell": "exit 3", "runs": 2, "okExitCodes": []int{0, 3}})
	if err != nil || len(m["wall_time"].Samples) != 2 || len(rec.Warnings()) != 0 {
		t.Fatalf("okExitCodes [0,3]: %v, %d samples, warnings %v", err, len(m["wall_time"].Samples), rec.Warnings())
	}
	m, rec, err = runIt(t, context.Background(), map[string]any{"shell": "exit 4", "runs": 2, "warmupRuns": 0, "ignoreFailures": true})
	if err != nil || len(m["wall_time"].Samples) != 2 || len(rec.Warnings()) != 1 || !strings.Contains(rec.Warnings()[0], "2×4") {
		t.Fatalf("ignoreFailures: %v, %d samples, warnings %v", err, len(m["wall_time"].Samples), rec.Warnings())
	}
}

func TestAWarmUpFailureFailsToo(t *testing.T) {
	requireUnix(t)
	_, _, err := runIt(t, context.Background(), map[string]any{"command": []string{"false"}, "warmupRuns": 1})
	if err == nil || !strings.Contains(err.Error(), "warm-up run 1 exited with code 1") {
		t.Fatalf("got %v", err)
	}
}

// startedChild reads the pid a shell line wrote (its background child's), waiting as long as needed.
func startedChild(t *testing.T, pidFile string) int {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		data, err := os.ReadFile(pidFile)
		if pid, convErr := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && convErr == nil && strings.HasSuffix(string(data), "\n") {
			return pid
		}
	}
	t.Fatal("the command never wrote its child's pid")
	return 0
}

// gone says whether pid has ended (no such process, or a zombie nobody reaped yet).
func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return runtime.GOOS == "linux"
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(fields) > 0 && fields[0] == "Z"
}

func waitGone(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if gone(pid) {
			return
		}
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
	t.Fatalf("process %d outlived its run", pid)
}

func TestCancelKillsTheProcessGroup(t *testing.T) {
	requireUnix(t)
	pidFile := filepath.Join(t.TempDir(), "pid")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, _, err := runIt(t, ctx, map[string]any{"shell": "sleep 300 & echo $! > " + pidFile + "; wait", "runs": 1, "warmupRuns": 0})
		done <- err
	}()
	child := startedChild(t, pidFile)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	waitGone(t, child)
}

func TestATimeoutKillsTheRunAndFailsTheJob(t *testing.T) {
	requireUnix(t)
	pidFile := filepath.Join(t.TempDir(), "pid")
	_, _, err := runIt(t, context.Background(), map[string]any{
		"shell": "sleep 300 & echo $! > " + pidFile + "; wait", "runs": 1, "warmupRuns": 0, "timeoutSeconds": 0.2,
	})
	if err == nil || !strings.Contains(err.Error(), "timeoutSeconds") {
		t.Fatalf("got %v", err)
	}
	waitGone(t, startedChild(t, pidFile))
}

func TestABackgroundChildHoldingTheOutputDoesNotHoldTheRun(t *testing.T) {
	requireUnix(t)
	pidFile := filepath.Join(t.TempDir(), "pid")
	// The child keeps stdout open after the shell exits; the run ends with the shell.
	m, _, err := runIt(t, context.Background(), map[string]any{"shell": "sleep 300 & echo $! > " + pidFile, "runs": 1, "warmupRuns": 0})
	child := startedChild(t, pidFile)
	defer syscall.Kill(child, syscall.SIGKILL)
	if err != nil || len(m["wall_time"].Samples) != 1 {
		t.Fatalf("%v, %d samples", err, len(m["wall_time"].Samples))
	}
}

func TestBadSettingsNameTheField(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	workloadtest.RequireRefused(t, New(), []workloadtest.SettingsCase{
		{`{}`, "settings.command:", "give command"},
		{`{"runs": 3}`, "settings.command:", "or shell"},
		{`{"command": ["true"], "shell": "true"}`, "settings.shell:", "not with command"},
		{`{"command": []}`, "settings.command:", "minItems"},
		{`{"command": [""]}`, "settings.command:", "empty"},
		{`{"command": ["no-such-program-versus"]}`, "settings.command:", "not on the agent's PATH"},
		{`{"shell": ""}`, "settings.shell:", "minLength"},
		{`{"command": ["true"], "runs": 0}`, "settings.runs:", "minimum"},
		{`{"command": ["true"], "timeoutSeconds": 0}`, "settings.timeoutSeconds:", "exclusiveMinimum"},
		{`{"command": ["true"], "env": ["NOEQUALS"]}`, "settings.env.0:", "pattern"},
		{`{"command": ["true"], "okExitCodes": [256]}`, "settings.okExitCodes.0:", "maximum"},
		{`{"command": ["true"], "okExitCodes": []}`, "settings.okExitCodes:", "minItems"},
		{`{"command": ["true"], "dir": "/no/such/dir/versus"}`, "settings.dir:", "no such file"},
		{`{"command": ["true"], "dir": ` + strconv.Quote(file) + `}`, "settings.dir:", "not a directory"},
		{`{"command": ["true"], "colour": 1}`, "'colour'", "valid settings are command, shell, runs"},
	})
}

func TestSchemaAloneNeedsExactlyOneOfCommandAndShell(t *testing.T) {
	// The advertised schema says what Prepare's clearer check says, for anyone validating with it.
	for _, raw := range []string{`{}`, `{"command": ["true"], "shell": "true"}`} {
		s := defaults()
		if err := schema.Decode(json.RawMessage(raw), &s); err == nil {
			t.Errorf("schema accepted %s", raw)
		}
	}
	for _, raw := range []string{`{"command": ["true"]}`, `{"shell": "true"}`} {
		s := defaults()
		if err := schema.Decode(json.RawMessage(raw), &s); err != nil {
			t.Errorf("schema refused %s: %v", raw, err)
		}
	}
}
