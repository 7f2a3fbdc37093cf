//go:build !linux

package targets

import "syscall"

// sysProcAttr: without a parent-death signal, a target outlives an agent that is killed; an
// agent that stops normally stops its targets.
func sysProcAttr() *syscall.SysProcAttr { return nil }
