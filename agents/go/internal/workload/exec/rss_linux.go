package exec

import (
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// Go starts a command with vfork, from the agent's own address space, and when the command execs,
// Linux carries that address space's peak resident size into the command's ru_maxrss. Left alone,
// every command run after the agent once held a large buffer (a 64 MiB gzip job) would report at
// least that peak. So before a run the agent gives freed memory back to the OS and resets its
// peak to what it holds now (clear_refs 5); what it still holds then is max_rss's floor, recorded
// in the run's environment as maxRssFloorKiB.

// releaseAgentPeak is called once before a job's runs: it returns the agent's freed heap to the OS.
func releaseAgentPeak() { debug.FreeOSMemory() }

// resetAgentPeak resets the agent's peak resident size before one run (best effort: a kernel
// without clear_refs leaves the old peak, and the floor shows it).
func resetAgentPeak() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// agentPeakKiB is the agent's peak resident size now (VmHWM), 0 when unknown.
func agentPeakKiB() float64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kib, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kib
		}
	}
	return 0
}
