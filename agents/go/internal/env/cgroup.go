package env

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Limits are the CPU and memory limits of the cgroup the agent runs in: a benchmark in a
// container limited to one CPU on a 64-core host measures the limit, not the host.
type Limits struct {
	// CPU is the CPUs the cgroup may use (quota / period); 0 = no limit.
	CPU float64
	// MemoryBytes is the cgroup's memory limit; 0 = no limit.
	MemoryBytes int64
	// Version is "v2", "v1" or "" (no cgroup files found).
	Version string
}

// cgroup v1 writes "no limit" as a page-rounded 2^63-1; anything this large is no limit.
const noLimitAbove = 1 << 60

// ReadLimits reads the limits of the cgroup that selfCgroup (/proc/self/cgroup) names under the
// cgroup mount root (/sys/fs/cgroup): cgroup v2 (cpu.max, memory.max) first, else v1
// (cpu/cpu.cfs_quota_us and cpu.cfs_period_us, memory/memory.limit_in_bytes). A limit on any
// ancestor applies too, so the lowest from the agent's cgroup up to the root counts; a container
// that sees only its own cgroup at the mount root is the root case.
func ReadLimits(selfCgroup, root string) Limits {
	v2Path, v1Paths := parseSelfCgroup(selfCgroup)
	var l Limits
	v2Root := root
	if !exists(filepath.Join(root, "cgroup.controllers")) {
		v2Root = filepath.Join(root, "unified") // the hybrid layout: v1 controllers, v2 beside them
	}
	if exists(filepath.Join(v2Root, "cgroup.controllers")) {
		l.Version = "v2"
		for _, dir := range upwards(v2Root, v2Path) {
			l.CPU = lowest(l.CPU, cpuMax(filepath.Join(dir, "cpu.max")))
			l.MemoryBytes = int64(lowest(float64(l.MemoryBytes), bytesLimit(filepath.Join(dir, "memory.max"))))
		}
	}
	if l.CPU == 0 {
		if mount := v1Mount(root, "cpu"); mount != "" {
			l.Version = "v1"
			for _, dir := range upwards(mount, v1Paths["cpu"]) {
				l.CPU = lowest(l.CPU, cfsQuota(dir))
			}
		}
	}
	if l.MemoryBytes == 0 {
		if mount := v1Mount(root, "memory"); mount != "" {
			l.Version = "v1"
			for _, dir := range upwards(mount, v1Paths["memory"]) {
				l.MemoryBytes = int64(lowest(float64(l.MemoryBytes), bytesLimit(filepath.Join(dir, "memory.limit_in_bytes"))))
			}
		}
	}
	return l
}

// parseSelfCgroup reads /proc/self/cgroup: "0::/path" is v2, "4:memory:/path" a v1 controller's.
func parseSelfCgroup(file string) (v2 string, v1 map[string]string) {
	v1 = map[string]string{}
	data, err := os.ReadFile(file)
	if err != nil {
		return "/", v1
	}
	v2 = "/"
	for _, line := range strings.Split(string(data), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[0] == "0" && parts[1] == "" {
			v2 = parts[2]
			continue
		}
		for _, controller := range strings.Split(parts[1], ",") {
			v1[controller] = parts[2]
		}
	}
	return v2, v1
}

// upwards lists mount+path and each of its parents up to mount itself (existing ones only).
func upwards(mount, path string) []string {
	var dirs []string
	for p := filepath.Clean("/" + path); ; p = filepath.Dir(p) {
		if dir := filepath.Join(mount, p); exists(dir) {
			dirs = append(dirs, dir)
		}
		if p == "/" {
			return dirs
		}
	}
}

// v1Mount is where a v1 controller is mounted: its own directory or a joint one (cpu,cpuacct).
func v1Mount(root, controller string) string {
	for _, name := range []string{controller, controller + ",cpuacct", "cpuacct," + controller} {
		if dir := filepath.Join(root, name); exists(filepath.Join(dir, "cgroup.procs")) {
			return dir
		}
	}
	return ""
}

// cpuMax reads cgroup v2's "quota period" ("max 100000" = no limit).
func cpuMax(file string) float64 {
	fields := strings.Fields(readTrimmed(file))
	if len(fields) != 2 || fields[0] == "max" {
		return 0
	}
	quota, err1 := strconv.ParseFloat(fields[0], 64)
	period, err2 := strconv.ParseFloat(fields[1], 64)
	if err1 != nil || err2 != nil || quota <= 0 || period <= 0 {
		return 0
	}
	return quota / period
}

// cfsQuota reads cgroup v1's quota and period (quota -1 = no limit).
func cfsQuota(dir string) float64 {
	quota, err1 := strconv.ParseFloat(readTrimmed(filepath.Join(dir, "cpu.cfs_quota_us")), 64)
	period, err2 := strconv.ParseFloat(readTrimmed(filepath.Join(dir, "cpu.cfs_period_us")), 64)
	if err1 != nil || err2 != nil || quota <= 0 || period <= 0 {
		return 0
	}
	return quota / period
}

// bytesLimit reads a memory limit ("max", absent or v1's huge number = none = 0).
func bytesLimit(file string) float64 {
	n, err := strconv.ParseFloat(readTrimmed(file), 64)
	if err != nil || n <= 0 || n >= noLimitAbove {
		return 0
	}
	return n
}

// lowest of two limits where 0 means none.
func lowest(a, b float64) float64 {
	switch {
	case a == 0:
		return b
	case b == 0:
		return a
	default:
		return math.Min(a, b)
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func readTrimmed(file string) string {
	data, err := os.ReadFile(file)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(data))
}
