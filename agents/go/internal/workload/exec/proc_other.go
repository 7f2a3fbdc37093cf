//go:build !unix

package exec

import "os/exec"

// hasRusage: Go gives no portable CPU times or peak memory of a child outside Unix; runs there
// report wall time only (and say so in a warning).
const hasRusage = false

// shellArgv: Windows has no /bin/sh; cmd.exe runs the line.
func shellArgv(line string) []string { return []string{"cmd.exe", "/C", line} }

// ownGroup: without process groups, stopping kills the command itself (exec's default).
func ownGroup(cmd *exec.Cmd) {}

func usageOf(cmd *exec.Cmd) (usage, bool) { return usage{}, false }
