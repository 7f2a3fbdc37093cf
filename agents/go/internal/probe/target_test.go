//go:build linux

package probe

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The probes are tested against real targets: cmd/versus-target (client_golang's process and Go
// collectors, burning a known share of a core) run as a process of its own, and httptest servers.

var (
	buildOnce   sync.Once
	builtTarget string
	buildErr    error
	buildDir    string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// targetBinary builds cmd/versus-target once per test binary.
func targetBinary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "probe-target-")
		if buildErr != nil {
			return
		}
		builtTarget = filepath.Join(buildDir, "versus-target")
		out, err := exec.Command("go", "build", "-o", builtTarget, "github.com/versus/agents/go/cmd/versus-target").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build cmd/versus-target: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtTarget
}

// target is a running versus-target.
type target struct {
	pid int
	url string // http://127.0.0.1:port/
	cmd *exec.Cmd
}

// startTarget runs versus-target under the given program name (its comm, at most 15 characters)
// with -metrics and the extra flags; it is killed when the test ends.
func startTarget(t testing.TB, name string, args ...string) *target {
	t.Helper()
	bin := targetBinary(t)
	path := filepath.Join(t.TempDir(), name)
	if err := os.Link(bin, path); err != nil {
		data, err := os.ReadFile(bin)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(path, append([]string{"-metrics"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tg := &target{pid: cmd.Process.Pid, cmd: cmd}
	t.Cleanup(tg.kill)
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("versus-target said nothing: %v", err)
	}
	tg.url = strings.TrimSpace(strings.TrimPrefix(line, "listening on "))
	return tg
}

func (tg *target) kill() {
	if tg.cmd.ProcessState == nil {
		_ = tg.cmd.Process.Kill()
		_ = tg.cmd.Wait()
	}
}

// cpuSeconds is the process's utime + stime as the test reads /proc/<pid>/stat itself.
func cpuSeconds(t testing.TB, pid int) float64 {
	t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	// Fields after the command name (which may hold spaces) start after the last ')'.
	fields := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+2:]))
	utime, _ := strconv.ParseFloat(fields[11], 64)
	stime, _ := strconv.ParseFloat(fields[12], 64)
	return (utime + stime) / 100 // USER_HZ is 100 on Linux
}

// openAll opens the probes, failing the test if one cannot be read.
func openAll(t testing.TB, specs ...Spec) []*Probe {
	t.Helper()
	for i := range specs {
		if err := specs[i].check(); err != nil {
			t.Fatal(err)
		}
	}
	probes, err := Open(context.Background(), specs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { Close(probes) })
	return probes
}

// sample runs a sampler for the window and returns its report.
func sample(probes []*Probe, window time.Duration) Report {
	s := StartSampler(probes)
	time.Sleep(window)
	return s.Stop()
}

func metricNamed(t testing.TB, r Report, key string) []float64 {
	t.Helper()
	for _, m := range r.Metrics {
		if m.Key == key {
			return m.Samples
		}
	}
	var keys []string
	for _, m := range r.Metrics {
		keys = append(keys, m.Key)
	}
	t.Fatalf("no metric %s (have %v)", key, keys)
	return nil
}

func mean(values []float64) float64 {
	var sum float64
	for _, v := range values {
		sum += v
	}
	return sum / float64(len(values))
}

// uniqueName is a program name no other process on the machine has (comm: 15 characters).
func uniqueName(prefix string) string {
	return fmt.Sprintf("%s%d", prefix, os.Getpid()%1000000)
}
