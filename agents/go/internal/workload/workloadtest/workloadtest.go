// Package workloadtest holds the checks every workload's tests share.
package workloadtest

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/versus/agents/go/internal/execute"
	"github.com/versus/agents/go/internal/result"
	"github.com/versus/agents/go/internal/result/resulttest"
	"github.com/versus/agents/go/internal/workload"
)

// SettingsCase is {settings a workload must refuse, the field its error names (e.g.
// "settings.level:"), words the message says}.
type SettingsCase [3]string

// RequireRefused checks that Prepare refuses each case with settings errors naming its field.
func RequireRefused(t *testing.T, w workload.Workload, cases []SettingsCase) {
	t.Helper()
	for _, c := range cases {
		settings, field, says := c[0], c[1], c[2]
		_, err := w.Prepare(json.RawMessage(settings))
		var se workload.SettingsErrors
		if !errors.As(err, &se) {
			t.Errorf("%s: want settings errors, got %v", settings, err)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, field) || !strings.Contains(msg, says) {
			t.Errorf("%s: error %q does not name %q with %q", settings, msg, field, says)
		}
	}
}

// Run runs a workload through the agent's one execute path and returns the run document; a
// failure fails the test with the run's log tail.
func Run(t *testing.T, w workload.Workload, settings string) result.Run {
	t.Helper()
	outcome := execute.Run(context.Background(), w, json.RawMessage(settings), nil, nil)
	if outcome.Err != nil {
		t.Fatalf("run %s: %v\n%s", settings, outcome.Err, outcome.Recorder.LogTail())
	}
	return outcome.Run
}

// Metric is the run's metric of that key; a missing one fails the test.
func Metric(t *testing.T, run result.Run, key string) result.Metric {
	t.Helper()
	for _, m := range run.Metrics {
		if m.Key == key {
			return m
		}
	}
	t.Fatalf("no metric %q in %v", key, run.Metrics)
	return result.Metric{}
}

// Environment decodes the run's environment entry key into out, through JSON as it travels.
func Environment(t *testing.T, run result.Run, key string, out any) {
	t.Helper()
	raw, err := json.Marshal(run.Environment[key])
	if err == nil {
		err = json.Unmarshal(raw, out)
	}
	if err != nil {
		t.Fatalf("environment %q: %v", key, err)
	}
}

// RequireConsistentMetrics checks every metric of a run measured over `seconds`: each summary
// describes one set of values and each series holds whole seconds.
func RequireConsistentMetrics(t *testing.T, run result.Run, seconds float64) {
	t.Helper()
	for _, m := range run.Metrics {
		if m.Summary != nil {
			if problems := resulttest.Contradictions(*m.Summary); len(problems) > 0 {
				t.Errorf("%s: summary %+v cannot be true: %v", m.Key, *m.Summary, problems)
			}
		}
		if m.TimeSeries != nil {
			if problems := resulttest.WholeSeconds(*m.TimeSeries, seconds); len(problems) > 0 {
				t.Errorf("%s: %v", m.Key, problems)
			}
		}
	}
}
