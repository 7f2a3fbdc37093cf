package exec

import (
	"context"
	"testing"
	"time"
)

var ballast []byte

// Go starts a command from its own address space (vfork), and Linux carries that address space's
// peak resident size into the command's ru_maxrss: without a reset, a command run after the agent
// once held 200 MiB would report max_rss ≥ 200 MiB for ever. With it, a tiny command's max_rss is
// at most what the agent holds when it starts the command (the floor the run records).
func TestMaxRSSIsNotTheAgentsOwnPeak(t *testing.T) {
	ballast = make([]byte, 200<<20)
	for i := 0; i < len(ballast); i += 4096 { // one write a page makes it resident
		ballast[i] = 1
	}
	ballast = nil
	_, rec, err := runIt(t, context.Background(), map[string]any{"command": []string{"true"}, "runs": 1, "warmupRuns": 0})
	if err != nil {
		t.Fatal(err)
	}
	run := rec.Build(time.Now(), time.Now(), nil)
	floor, _ := run.Environment["maxRssFloorKiB"].(float64)
	if floor <= 0 {
		t.Fatalf("no maxRssFloorKiB in %v", run.Environment)
	}
	for _, m := range run.Metrics {
		if m.Key == "max_rss" && m.Samples[0] > floor+20<<10 {
			t.Fatalf("max_rss of true is %v KiB, the agent holds %v KiB: the agent's old peak", m.Samples[0], floor)
		}
	}
}
