//go:build linux || darwin || freebsd

package agent

import (
	"errors"
	"io"
	"os"
	"syscall"
)

// tryLockFile takes an exclusive POSIX record lock (fcntl F_SETLK on the whole file) without
// waiting: false when another process holds it. It is the lock the JVM's FileChannel.tryLock
// takes, so the Go and the JVM agent exclude each other (flock would not: Linux keeps the two kinds apart).
func tryLockFile(file *os.File) (bool, error) {
	lock := syscall.Flock_t{Type: syscall.F_WRLCK, Whence: io.SeekStart, Start: 0, Len: 0}
	err := syscall.FcntlFlock(file.Fd(), syscall.F_SETLK, &lock)
	if errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.EACCES) {
		return false, nil
	}
	return err == nil, err
}
