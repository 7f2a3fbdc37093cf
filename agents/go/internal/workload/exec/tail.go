package exec

import (
	"strings"
	"sync"
)

// tailBytes is how much of a run's output is kept: enough for its last lines, never the whole
// output of a chatty command.
const tailBytes = 16 * 1024

// tail keeps the last tailBytes written to it.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - tailBytes; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

// lastLines returns up to n of the last non-empty lines.
func (t *tail) lastLines(n int) []string {
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
