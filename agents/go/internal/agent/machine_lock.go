package agent

import (
	"context"
	"fmt"
	"os"
	"time"
)

// machineLockPoll is how often a waiting agent tries the machine lock again.
const machineLockPoll = 100 * time.Millisecond

// machineClaimWait is the claim's long poll while the agent holds the machine lock: short, so
// that an agent with nothing to do lets the other agents of the machine claim soon.
const machineClaimWait = 2 * time.Second

// machineLock is the file lock agents sharing a machine hold while they claim and run a job
// (Config.MachineLock): `npm start` runs the Go and the JVM agent side by side, and two
// measurements on one machine disturb each other's numbers, as two jobs in one agent would.
type machineLock struct {
	path string
	file *os.File
}

// acquire waits until this process holds the lock, or ctx ends (then it returns ctx's error).
func (l *machineLock) acquire(ctx context.Context) error {
	file, err := os.OpenFile(l.path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return fmt.Errorf("machine lock %s: %w", l.path, err)
	}
	for {
		held, err := tryLockFile(file)
		if err != nil {
			file.Close()
			return fmt.Errorf("machine lock %s: %w", l.path, err)
		}
		if held {
			l.file = file
			return nil
		}
		if !pause(ctx, machineLockPoll) {
			file.Close()
			return ctx.Err()
		}
	}
}

// release lets the machine's other agents have it (closing the file drops the lock).
func (l *machineLock) release() {
	if l.file != nil {
		l.file.Close()
		l.file = nil
	}
}
