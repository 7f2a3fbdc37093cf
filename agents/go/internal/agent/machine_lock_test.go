package agent

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/versus/agents/go/internal/fakeapi"
)

// holdMachineLockIfAsked (called by TestMain) lets the test binary stand in for another agent of
// the machine: run with VERSUS_TEST_HOLD_LOCK=<file>, it takes the machine lock, says "held", and
// keeps it until its stdin closes. (The lock is a per-process fcntl lock: it takes another process.)
func holdMachineLockIfAsked() {
	if path := os.Getenv("VERSUS_TEST_HOLD_LOCK"); path != "" {
		file, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
		if err == nil {
			var held bool
			if held, err = tryLockFile(file); err == nil && !held {
				err = fmt.Errorf("already locked")
			}
		}
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println("held")
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}
}

func TestAnAgentWithAMachineLockClaimsOnlyWhileNoOtherAgentOfTheMachineHoldsIt(t *testing.T) {
	lockFile := filepath.Join(t.TempDir(), "machine.lock")
	holder := exec.Command(os.Args[0])
	holder.Env = append(os.Environ(), "VERSUS_TEST_HOLD_LOCK="+lockFile)
	release, err := holder.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := holder.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { release.Close(); _ = holder.Wait() })
	if line, _ := bufio.NewReader(out).ReadString('\n'); line != "held\n" {
		t.Fatalf("the other process did not take the lock: %q", line)
	}

	fake := fakeapi.Start(t)
	cfg := testConfig(t, fake, t.TempDir())
	cfg.MachineLock = lockFile
	a := start(t, cfg)
	id := fake.Enqueue("sleep", map[string]any{"ms": 1}, fakeapi.JobOptions{})
	fake.Await(t, "the agent registered", func() bool { return len(fake.Calls("/agents/register")) == 1 })
	// While the other process holds the lock, the agent does not even ask for work.
	time.Sleep(1500 * time.Millisecond)
	if claims := len(fake.Calls("/jobs/claim")); claims != 0 {
		t.Fatalf("%d claims while another agent of the machine held the lock", claims)
	}
	release.Close()
	fake.Await(t, "the job done once the lock was free", func() bool { return fake.Job(id).Status == "succeeded" })
	for _, call := range fake.Calls("/jobs/claim") {
		// The fake asks for 1 s long polls; a real server's 30 s is cut to 2 s while the lock is held.
		if call.Query != "wait=1" && call.Query != "wait=2" {
			t.Errorf("a claim while holding the machine lock waits at most 2 s, not %q", call.Query)
		}
	}
	if code := a.stop(t); code != ExitOK {
		t.Fatalf("exit code %d", code)
	}
}
