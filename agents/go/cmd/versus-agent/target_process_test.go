package main

import (
	"bufio"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// `versus-agent target` as a process: it prints where it listens, answers, and exits 0 on SIGTERM;
// a bad flag exits 2 naming it.
func TestTargetCommand(t *testing.T) {
	bin := buildAgent(t)

	cmd := exec.Command(bin, "target", "--addr", "127.0.0.1:0", "--payload-size", "1000")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	base, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
	if err != nil || !ok {
		t.Fatalf("first line %q (%v), want listening on http://…/", line, err)
	}
	resp, err := http.Get(base + "payload/binary")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if len(body) != 1000 {
		t.Fatalf("GET /payload/binary: %d bytes, want --payload-size 1000", len(body))
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("after SIGTERM: %v, want exit 0", err)
	}

	out, err := exec.Command(bin, "target", "--burn", "2").CombinedOutput()
	if code := exitCode(err); code != 2 || !strings.Contains(string(out), "--burn must be from 0 to 1") {
		t.Fatalf("--burn 2: exit %d, %q; want 2 and the flag named", code, out)
	}
}

func exitCode(err error) int {
	if exit, ok := err.(*exec.ExitError); ok {
		return exit.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}
