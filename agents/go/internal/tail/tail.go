// Package tail keeps the end of a process's output: enough for its last lines (the reason it
// failed), never the whole output of a chatty one.
package tail

import (
	"strings"
	"sync"
)

// tailBytes is how much output is kept.
const tailBytes = 16 * 1024

// Buffer keeps the last tailBytes written to it; it is safe for concurrent use.
type Buffer struct {
	mu  sync.Mutex
	buf []byte
}

func (t *Buffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - tailBytes; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

// LastLines returns up to n of the last non-empty lines.
func (t *Buffer) LastLines(n int) []string {
	t.mu.Lock()
	text := string(t.buf)
	t.mu.Unlock()
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	var out []string
	for i := len(lines) - 1; i >= 0 && len(out) < n; i-- {
		if line := strings.TrimRight(lines[i], "\r"); strings.TrimSpace(line) != "" {
			out = append(out, line)
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}
