package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/versus/agents/go/internal/fakeapi"
)

// buildAgent builds the real versus-agent binary once for the tests that run it as a process.
func buildAgent(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "versus-agent")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// lockedBuffer collects a process's output while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestTheBinary(t *testing.T) {
	bin := buildAgent(t)

	t.Run("SIGTERM mid-job releases the job and exits 0", func(t *testing.T) {
		fake := fakeapi.Start(t)
		dir := t.TempDir()
		var out lockedBuffer
		cmd := exec.Command(bin, "--url", fake.URL, "--enrollment-token", fakeapi.EnrollmentToken, "--name", "proc", "--shutdown-grace", "0",
			"--credential-file", filepath.Join(dir, "credential.json"), "--buffer-dir", filepath.Join(dir, "buffer"))
		cmd.Env = append(os.Environ(), "VERSUS_AGENT_CLAIM_JITTER_MS=0")
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		id := fake.Enqueue("sleep", map[string]any{"ms": 86400000}, fakeapi.JobOptions{})
		fake.AwaitRunning(t, id)
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		if err := cmd.Wait(); err != nil {
			t.Fatalf("exit: %v\n%s", err, out.String())
		}
		if n := fake.Releases(id); n != 1 {
			t.Errorf("%d releases, want 1\n%s", n, out.String())
		}
		for _, want := range []string{"event=job.started job=" + id, "event=job.released", "event=agent.stopped exit_code=0"} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("log lacks %q:\n%s", want, out.String())
			}
		}
	})

	t.Run("a bad flag exits 78 naming it", func(t *testing.T) {
		var out bytes.Buffer
		cmd := exec.Command(bin, "agent", "--url", "http://x", "--shutdown-grace", "soon")
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 78 {
			t.Fatalf("got %v, want exit 78\n%s", err, out.String())
		}
		if !strings.Contains(out.String(), "--shutdown-grace / VERSUS_AGENT_SHUTDOWN_GRACE_SECONDS") {
			t.Errorf("output %s", out.String())
		}
	})

	t.Run("--exit-with-parent stops when the parent is killed", func(t *testing.T) {
		fake := fakeapi.Start(t)
		dir := t.TempDir()
		logFile := filepath.Join(dir, "agent.log")
		// sh is the agent's parent; SIGKILL it and the agent is re-parented.
		script := `"$0" --url "$1" --enrollment-token "$2" --name orphan --shutdown-grace 0 --credential-file "$3/credential.json" --buffer-dir "$3/buffer" --exit-with-parent >"$3/agent.log" 2>&1 & wait`
		parent := exec.Command("sh", "-c", script, bin, fake.URL, fakeapi.EnrollmentToken, dir)
		if err := parent.Start(); err != nil {
			t.Fatal(err)
		}
		id := fake.Enqueue("sleep", map[string]any{"ms": 86400000}, fakeapi.JobOptions{})
		fake.AwaitRunning(t, id)
		if err := parent.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		_ = parent.Wait()
		fake.Await(t, "the agent's own stop", func() bool {
			data, _ := os.ReadFile(logFile)
			return strings.Contains(string(data), "event=agent.stopped")
		})
		data, _ := os.ReadFile(logFile)
		if fake.Releases(id) != 1 || !strings.Contains(string(data), `reason="the parent process exited"`) {
			t.Errorf("releases %d, log:\n%s", fake.Releases(id), data)
		}
	})
}
