//go:build unix

package loadgen

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user and system) this process has used so far.
func processCPU() (time.Duration, bool) {
	var usage syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &usage); err != nil {
		return 0, false
	}
	return time.Duration(usage.Utime.Nano() + usage.Stime.Nano()), true
}
