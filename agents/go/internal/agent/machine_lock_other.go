//go:build !(linux || darwin || freebsd)

package agent

import (
	"errors"
	"os"
)

// tryLockFile: the machine lock is implemented on Linux, macOS and FreeBSD (fcntl record locks).
func tryLockFile(*os.File) (bool, error) {
	return false, errors.New("a machine lock needs fcntl record locks (Linux, macOS, FreeBSD)")
}
