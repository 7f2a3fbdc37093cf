// Package workloadtest holds the checks every workload's tests share.
package workloadtest

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"slices"
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
// describes one set of values and each series holds whole seconds; and, for the load workloads'
// family (internal/workload/loadgen), that its figures agree with each other.
func RequireConsistentMetrics(t *testing.T, run result.Run, seconds float64) {
	t.Helper()
	requireLoadFamilyAgrees(t, run, seconds)
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

// requireLoadFamilyAgrees checks the load family's run figures against each other, where the run
// has them: p50 ≤ p95 ≤ p99; the peak is the busiest second of the throughput series (or, with
// no whole second, the run's rate); the requests are at least the responses the rate counts; the
// bytes moved are the in and out rates over the window.
func requireLoadFamilyAgrees(t *testing.T, run result.Run, seconds float64) {
	t.Helper()
	byKey := map[string]result.Metric{}
	for _, m := range run.Metrics {
		byKey[m.Key] = m
	}
	value := func(key string) (float64, bool) {
		m, ok := byKey[key]
		if !ok || m.Value == nil {
			return 0, false
		}
		return *m.Value, true
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
	p50, ok50 := value("latency_p50")
	p95, ok95 := value("latency_p95")
	p99, ok99 := value("latency_p99")
	if ok50 && ok95 && ok99 && (p50 > p95 || p95 > p99) {
		t.Errorf("latency_p50 %v, latency_p95 %v, latency_p99 %v: not in order", p50, p95, p99)
	}
	if ok95 != ok99 {
		t.Errorf("latency_p95 given: %v, latency_p99 given: %v", ok95, ok99)
	}
	rate, okRate := value("throughput")
	if peak, ok := value("throughput_peak"); ok && okRate {
		want := rate
		if ts := byKey["throughput"].TimeSeries; ts != nil && len(ts.Values) > 0 {
			want = slices.Max(ts.Values)
		}
		if peak != want {
			t.Errorf("throughput_peak %v, want the busiest whole second %v", peak, want)
		}
	} else if okRate {
		t.Errorf("throughput without throughput_peak")
	}
	if requests, ok := value("requests"); ok && okRate {
		if requests != math.Trunc(requests) || requests < math.Round(rate*seconds) {
			t.Errorf("requests %v: want a whole count of at least the %v responses the throughput counts", requests, rate*seconds)
		}
	} else if okRate {
		t.Errorf("throughput without requests")
	}
	in, okIn := value("bytes_in")
	out, okOut := value("bytes_out")
	if total, ok := value("bytes_total"); ok && okIn && okOut {
		if want := (in + out) * seconds; !near(total, want) || total != math.Trunc(total) {
			t.Errorf("bytes_total %v, want the whole bytes of bytes_in + bytes_out over %v s = %v", total, seconds, want)
		}
	} else if okIn || okOut {
		t.Errorf("bytes_in or bytes_out without bytes_total")
	}
}
