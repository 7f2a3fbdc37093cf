package execute

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/versus/agents/go/internal/probe"
	httpworkload "github.com/versus/agents/go/internal/workload/http"
)

// Probes sample the measured window only: the workload's warm-up restarts their window.
func TestProbesSampleTheMeasuredWindowAfterTheWarmUp(t *testing.T) {
	probes, err := probe.Decode([]byte(`[{"name": "me", "kind": "process", "match": {"pid": ` + strconv.Itoa(os.Getpid()) + `}, "intervalSeconds": 0.1}]`))
	if err != nil {
		t.Fatal(err)
	}
	settings := json.RawMessage(`{"selfTarget": {"responseBytes": 10}, "rate": 200, "duration": 1, "warmupSeconds": 0.7}`)
	began := time.Now()
	outcome := RunProbed(context.Background(), httpworkload.Workload{}, settings, probes, nil, nil)
	elapsed := time.Since(began)
	if outcome.Err != nil {
		t.Fatal(outcome.Err)
	}
	for _, m := range outcome.Run.Metrics {
		if m.Key == "me.cpu_percent" {
			// The window opens when the workload marks the end of its 0.7 s warm-up (a timer: at
			// 0.7 s or later, so the 1 s measured can lose up to the first interval, the reading
			// under way) and closes when the workload returns (its last answers and closing
			// included). So at least 9 intervals, and at most the whole intervals of what the run
			// took after the warm-up, ⌊(elapsed − 0.7 s) ÷ 0.1 s⌋; a window that included the
			// warm-up would exceed that bound by 7.
			most := int((elapsed - 700*time.Millisecond) / (100 * time.Millisecond))
			if n := len(m.Samples); n < 9 || n > most {
				t.Errorf("%d intervals for a 1 s measured window after 0.7 s of warm-up (the run took %s: at most %d)", n, elapsed, most)
			}
			return
		}
	}
	t.Errorf("no me.cpu_percent among %d metrics", len(outcome.Run.Metrics))
}

// A probe that cannot be read stops the run before the workload starts, and is not retryable.
func TestAProbeThatCannotBeReadIsNotRetryable(t *testing.T) {
	probes, err := probe.Decode([]byte(`[{"name": "db", "kind": "process", "match": {"pid": 1073741824}}]`))
	if err != nil {
		t.Fatal(err)
	}
	outcome := RunProbed(context.Background(), httpworkload.Workload{}, json.RawMessage(`{"selfTarget": {}, "requests": 5}`), probes, nil, nil)
	var start *probe.StartError
	if !errors.As(outcome.Err, &start) || outcome.Retryable() || outcome.Recorder.LogTail() != `probe "db": no process with pid 1073741824` {
		t.Errorf("outcome %v, retryable %v, log %q", outcome.Err, outcome.Retryable(), outcome.Recorder.LogTail())
	}
}
