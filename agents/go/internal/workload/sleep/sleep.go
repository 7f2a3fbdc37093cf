// Package sleep is a workload that sleeps for a while and reports how long it slept: a job that
// lasts as long as a test needs (e.g. long enough to stop an agent in the middle of it), at no
// CPU cost. Its settings match the reference agent's sleep workload (agents/reference), plus
// "fail" to play a workload that breaks.
package sleep

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/versus/agents/go/internal/result"
	"github.com/versus/agents/go/internal/workload"
)

var schema = workload.MustCompileSchema("sleep", []byte(`{
  "type": "object",
  "additionalProperties": false,
  "properties": {
    "ms": {"type": "integer", "x-unit": "ms", "minimum": 0, "maximum": 86400000, "default": 1000, "description": "How long to sleep, in milliseconds"},
    "fail": {"type": "boolean", "default": false, "description": "Fail after sleeping instead of reporting (for tests of failure handling)"}
  }
}`))

// Settings of one sleep.
type Settings struct {
	Ms   int64 `json:"ms"`
	Fail bool  `json:"fail"`
}

// Workload is the sleep workload.
type Workload struct{}

// New returns the sleep workload.
func New() Workload { return Workload{} }

func (Workload) Info() workload.Info {
	return workload.Info{
		Name:           "sleep",
		Description:    "Sleep for a given time (for tests of the agent itself)",
		SettingsSchema: schema.Raw(),
		Metrics: []workload.MetricSpec{
			{Key: "slept_ms", Unit: "ms", Direction: result.LowerIsBetter, Aggregation: "mean", Description: "How long the sleep took"},
		},
	}
}

func (Workload) Prepare(raw json.RawMessage) (workload.Runner, error) {
	s := Settings{Ms: 1000}
	if err := schema.Decode(raw, &s); err != nil {
		return nil, err
	}
	return runner(s), nil
}

type runner Settings

// ErrAsked is the failure the "fail" setting asks for.
var ErrAsked = errors.New("failing as the settings ask (fail: true)")

func (r runner) Run(ctx context.Context, rec workload.Recorder) error {
	start := time.Now()
	rec.Logf("sleeping %d ms", r.Ms)
	timer := time.NewTimer(time.Duration(r.Ms) * time.Millisecond)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
	}
	if r.Fail {
		return ErrAsked
	}
	rec.Sample("slept_ms", float64(time.Since(start).Microseconds())/1000)
	return nil
}
