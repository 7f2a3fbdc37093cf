package env

import (
	"path/filepath"
	"runtime"
	"testing"
)

func fixture(name string) Sources {
	return Sources{Proc: filepath.Join("testdata", name, "proc"), Cgroup: filepath.Join("testdata", name, "cgroup")}
}

func TestReadLimits(t *testing.T) {
	for _, c := range []struct {
		fixture string
		want    Limits
	}{
		// The lowest limit from the agent's cgroup up: its own CPU limit, its parent's memory limit.
		{"v2", Limits{CPU: 1.5, MemoryBytes: 2147483648, Version: "v2"}},
		{"v2-container", Limits{CPU: 0.5, Version: "v2"}},
		{"v1", Limits{CPU: 2, MemoryBytes: 536870912, Version: "v1"}},
		{"v1-unlimited", Limits{Version: "v1"}},
		{"none", Limits{}},
	} {
		src := fixture(c.fixture)
		if got := ReadLimits(filepath.Join(src.Proc, "self", "cgroup"), src.Cgroup); got != c.want {
			t.Errorf("%s: got %+v, want %+v", c.fixture, got, c.want)
		}
	}
}

func TestCaptureReadsTheMachineFromItsFiles(t *testing.T) {
	got := New(fixture("v2")).Capture("1.2.3")
	want := map[string]any{
		"cpuModel":         "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz",
		"memoryBytes":      int64(16303052 * 1024),
		"kernel":           "6.1.0-18-amd64",
		"osRelease":        "#1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)",
		"loadAverage1m":    0.43,
		"cpuLimit":         1.5,
		"memoryLimitBytes": int64(2147483648),
		"cgroup":           "v2",
		"cores":            runtime.NumCPU(),
		"goVersion":        runtime.Version(),
		"goos":             runtime.GOOS,
		"agentVersion":     "1.2.3",
	}
	for key, value := range want {
		if got[key] != value {
			t.Errorf("%s = %#v, want %#v", key, got[key], value)
		}
	}
}

func TestCaptureLeavesOutWhatItCannotRead(t *testing.T) {
	got := New(fixture("none")).Capture("")
	for _, key := range []string{"memoryBytes", "kernel", "osRelease", "loadAverage1m", "cpuLimit", "memoryLimitBytes", "cgroup", "agentVersion"} {
		if _, ok := got[key]; ok {
			t.Errorf("%s = %v from no files", key, got[key])
		}
	}
	if got["cpuModel"] != "unknown" || got["cores"] != runtime.NumCPU() || got["hostname"] == nil {
		t.Errorf("got %v", got)
	}
}

func TestOSAndArchInTheReferenceAgentsWords(t *testing.T) {
	for goos, node := range map[string]string{"linux": "linux", "darwin": "darwin", "windows": "win32"} {
		if got := NodePlatform(goos); got != node {
			t.Errorf("%s: %s, want %s", goos, got, node)
		}
	}
	for goarch, node := range map[string]string{"amd64": "x64", "arm64": "arm64", "386": "ia32"} {
		if got := NodeArch(goarch); got != node {
			t.Errorf("%s: %s, want %s", goarch, got, node)
		}
	}
}

func TestCaptureIsAFreshMapEachTime(t *testing.T) {
	c := New(fixture("v2"))
	first := c.Capture("")
	first["cpuModel"] = "changed by a caller"
	if c.Capture("")["cpuModel"] == "changed by a caller" {
		t.Fatal("a caller's change leaked into the cached facts")
	}
}
