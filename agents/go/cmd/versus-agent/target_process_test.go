package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// `versus-agent target` as a process: it prints where it listens (HTTP, then gRPC), answers both
// (`versus-agent run --workload grpc` as the README shows it), and exits 0 on SIGTERM; a bad flag
// exits 2 naming it.
func TestTargetCommand(t *testing.T) {
	bin := buildAgent(t)

	cmd := exec.Command(bin, "target", "--addr", "127.0.0.1:0", "--payload-size", "1000", "--grpc-addr", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	lines := bufio.NewReader(stdout)
	line, err := lines.ReadString('\n')
	base, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
	if err != nil || !ok {
		t.Fatalf("first line %q (%v), want listening on http://…/", line, err)
	}
	line, err = lines.ReadString('\n')
	grpcAddr, ok := strings.CutPrefix(strings.TrimSpace(line), "listening for gRPC on ")
	if err != nil || !ok {
		t.Fatalf("second line %q (%v), want listening for gRPC on ADDR", line, err)
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
	settings := `{"target": "` + grpcAddr + `", "method": "versus.target.Payloads/Stream", "data": "{\"size\": 1048576}", "calls": 3, "callers": 1}`
	out, err := exec.Command(bin, "run", "--workload", "grpc", "--settings", settings).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "Status codes: OK: 3") || !strings.Contains(string(out), "serverStreaming, server reflection") {
		t.Fatalf("run --workload grpc against the target: %v\n%s", err, out)
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("after SIGTERM: %v, want exit 0", err)
	}

	out, err = exec.Command(bin, "target", "--burn", "2").CombinedOutput()
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

// The targets a run starts die with the agent, however it dies: killed with SIGKILL (no chance
// to stop them), its target's port is free again soon after.
func TestTargetsDieWithTheAgent(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the parent-death signal is Linux's")
	}
	bin := buildAgent(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	settings := fmt.Sprintf(`{"url": "http://%s/", "rate": 20, "duration": 60, "targets": [{"name": "app-1", "addr": %q}]}`, addr, addr)
	cmd := exec.Command(bin, "run", "--workload", "http", "--settings", settings)
	var out lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	waitFor(t, func() bool { return strings.Contains(out.String(), `target "app-1": pid `) }, "the agent to start its target:\n"+out.String())
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	waitFor(t, func() bool {
		ln, err := net.Listen("tcp", addr)
		if err == nil {
			ln.Close()
		}
		return err == nil
	}, "the target to die with the agent (its port is still taken)")
}

// waitFor polls until ok, for at most 20 s (a state the test waits for, not a timing it asserts).
func waitFor(t *testing.T, ok func() bool, what string) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !ok(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited 20 s for %s", what)
		}
	}
}
