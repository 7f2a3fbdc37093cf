//go:build unix

package exec

import (
	"os/exec"
	"runtime"
	"syscall"
)

// hasRusage: every Unix reports a waited-for child's CPU times and peak memory.
const hasRusage = true

func shellArgv(line string) []string { return []string{"/bin/sh", "-c", line} }

// ownGroup puts the command in a process group of its own, so stopping it stops whatever it
// started too (a shell line's children, a build's compilers).
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return killGroup(cmd) }
}

// killGroup kills the command's whole process group at once.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}

// usageOf reads the finished command's rusage (its own and its reaped children's).
func usageOf(cmd *exec.Cmd) (usage, bool) {
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		return usage{}, false
	}
	maxRSSKiB := float64(ru.Maxrss)
	// ru_maxrss is KiB on Linux and the BSDs, bytes on macOS.
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		maxRSSKiB /= 1024
	}
	return usage{
		userMs:    float64(ru.Utime.Nano()) / 1e6,
		systemMs:  float64(ru.Stime.Nano()) / 1e6,
		maxRSSKiB: maxRSSKiB,
	}, true
}
