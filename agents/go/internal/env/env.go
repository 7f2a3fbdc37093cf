// Package env captures the machine a run ran on; every run carries it in its environment. The
// keys are the TypeScript reference agent's (agents/reference/environment.ts: cpuModel, cores,
// memoryBytes, os, osRelease, kernel, arch, hostname, loadAverage1m, cpuLimit, memoryLimitBytes;
// os and arch in Node's words, so runs of both agents group alike), plus the Go agent's own:
// goVersion, goos, goarch, agent, agentVersion and cgroup.
package env

import (
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
)

// Sources are where the facts are read from: the real /proc and /sys/fs/cgroup, or fixtures.
type Sources struct {
	Proc   string // /proc
	Cgroup string // /sys/fs/cgroup
}

// DefaultSources are this machine's.
func DefaultSources() Sources { return Sources{Proc: "/proc", Cgroup: "/sys/fs/cgroup"} }

// Capturer captures the environment of runs; the facts that do not change while the agent runs
// are read once, so a capture per run costs one small file read (the load average).
type Capturer struct {
	src    Sources
	static map[string]any
}

// New reads the static facts from src.
func New(src Sources) *Capturer {
	return &Capturer{src: src, static: staticFacts(src)}
}

var machine = sync.OnceValue(func() *Capturer { return New(DefaultSources()) })

// Capture returns facts about this machine and process.
func Capture() map[string]any { return machine().Capture("") }

// CaptureFor is Capture with the agent's version.
func CaptureFor(agentVersion string) map[string]any { return machine().Capture(agentVersion) }

// Capture returns the static facts, the load average now and the agent's version (if given).
func (c *Capturer) Capture(agentVersion string) map[string]any {
	out := make(map[string]any, len(c.static)+2)
	for k, v := range c.static {
		out[k] = v
	}
	if load, ok := loadAverage1m(filepath.Join(c.src.Proc, "loadavg")); ok {
		out["loadAverage1m"] = load
	}
	if agentVersion != "" {
		out["agentVersion"] = agentVersion
	}
	return out
}

func staticFacts(src Sources) map[string]any {
	hostname, _ := os.Hostname()
	facts := map[string]any{
		"cpuModel":  cpuModel(filepath.Join(src.Proc, "cpuinfo")),
		"cores":     runtime.NumCPU(),
		"os":        NodePlatform(runtime.GOOS),
		"arch":      NodeArch(runtime.GOARCH),
		"goos":      runtime.GOOS,
		"goarch":    runtime.GOARCH,
		"hostname":  hostname,
		"goVersion": runtime.Version(),
		"agent":     "versus-agent (go)",
	}
	if memory, ok := memTotal(filepath.Join(src.Proc, "meminfo")); ok {
		facts["memoryBytes"] = memory
	}
	if kernel := readTrimmed(filepath.Join(src.Proc, "sys", "kernel", "osrelease")); kernel != "" {
		facts["kernel"] = kernel
	}
	if version := readTrimmed(filepath.Join(src.Proc, "sys", "kernel", "version")); version != "" {
		facts["osRelease"] = version
	}
	limits := ReadLimits(filepath.Join(src.Proc, "self", "cgroup"), src.Cgroup)
	if limits.CPU > 0 {
		facts["cpuLimit"] = limits.CPU
	}
	if limits.MemoryBytes > 0 {
		facts["memoryLimitBytes"] = limits.MemoryBytes
	}
	if limits.Version != "" {
		facts["cgroup"] = limits.Version
	}
	return facts
}

// cpuModel is the first "model name" of /proc/cpuinfo (x86), else its "Hardware" or "cpu model"
// line (ARM, MIPS); "unknown" when there is none (the reference agent says the same).
func cpuModel(file string) string {
	data, err := os.ReadFile(file)
	if err != nil {
		return "unknown"
	}
	found := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		if _, seen := found[key]; !seen && value != "" {
			found[key] = value
		}
	}
	for _, key := range []string{"model name", "Hardware", "cpu model", "Processor"} {
		if model, ok := found[key]; ok {
			return model
		}
	}
	return "unknown"
}

// memTotal is /proc/meminfo's MemTotal in bytes.
func memTotal(file string) (int64, bool) {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			kib, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kib * 1024, err == nil
		}
	}
	return 0, false
}

// loadAverage1m is /proc/loadavg's first figure, to two decimals like the reference agent's.
func loadAverage1m(file string) (float64, bool) {
	fields := strings.Fields(readTrimmed(file))
	if len(fields) == 0 {
		return 0, false
	}
	load, err := strconv.ParseFloat(fields[0], 64)
	return math.Round(load*100) / 100, err == nil
}

// NodePlatform is Node's process.platform for a GOOS (the reference agent's "os").
func NodePlatform(goos string) string {
	if goos == "windows" {
		return "win32"
	}
	return goos
}

// NodeArch is Node's process.arch for a GOARCH (the reference agent's "arch").
func NodeArch(goarch string) string {
	switch goarch {
	case "amd64":
		return "x64"
	case "386":
		return "ia32"
	case "mips64le":
		return "mips64el"
	case "mipsle":
		return "mipsel"
	default:
		return goarch
	}
}
