// Package result is the run document an agent sends with "complete" (and that `versus-agent run
// --json` prints): the shape of one run of POST /api/v1/results, without variant and repetition,
// which come from the job.
package result

import (
	"encoding/json"
	"fmt"
	"time"
)

// Direction says which way a metric improves.
type Direction string

const (
	LowerIsBetter  Direction = "lower_is_better"
	HigherIsBetter Direction = "higher_is_better"
)

// Run is one execution of one variant.
type Run struct {
	StartedAt   time.Time      `json:"startedAt"`
	FinishedAt  time.Time      `json:"finishedAt"`
	Environment map[string]any `json:"environment"`
	// The commit the run measured, when the agent was told (internal/env: VERSUS_GIT_*).
	GitCommit        string   `json:"gitCommit,omitempty"`
	GitBranch        string   `json:"gitBranch,omitempty"`
	GitCommitMessage string   `json:"gitCommitMessage,omitempty"` // the subject line, at most 500 characters
	GitCommitTime    string   `json:"gitCommitTime,omitempty"`    // ISO 8601 with an offset
	Metrics          []Metric `json:"metrics"`
	// Warnings are caveats a reader of the run must see (a probe's gaps, a restarted target):
	// at most MaxWarnings, each at most 500 characters. Written by MarshalJSON, and only when
	// there are some, so a run without any is what servers before probes take.
	Warnings []string `json:"-"`
}

// MaxWarnings is how many warnings a run document holds.
const MaxWarnings = 20

// runJSON is Run without its methods, for MarshalJSON and UnmarshalJSON.
type runJSON Run

// MarshalJSON adds "warnings" when there are some.
func (r Run) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		runJSON
		Warnings []string `json:"warnings,omitempty"`
	}{runJSON(r), r.Warnings})
}

// UnmarshalJSON reads a run written by MarshalJSON (a buffered report read back).
func (r *Run) UnmarshalJSON(data []byte) error {
	var v struct {
		runJSON
		Warnings []string `json:"warnings"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*r = Run(v.runJSON)
	r.Warnings = v.Warnings
	return nil
}

// SetWarnings sets the run's warnings, keeping at most MaxWarnings: past that the last one says
// how many more there were.
func (r *Run) SetWarnings(warnings []string) {
	all := append([]string(nil), warnings...)
	if len(all) > MaxWarnings {
		more := len(all) - (MaxWarnings - 1)
		all = append(all[:MaxWarnings-1], fmt.Sprintf("%d more warnings (in the agent's log)", more))
	}
	r.Warnings = all
}

// WithCommit is the run with the commit's fields set.
func (r Run) WithCommit(hash, branch, message, when string) Run {
	r.GitCommit, r.GitBranch, r.GitCommitMessage, r.GitCommitTime = hash, branch, message, when
	return r
}

// Metric is one metric's data in a run: at least one of samples, summary, histogram, series,
// value. A summary describes one set of values (n, mean, sd, min, max and percentiles of the same
// values); Value is what the run contributes to comparisons when that is none of them (the whole
// run's rate while the summary or series holds per-second rates).
type Metric struct {
	Key            string      `json:"key"`
	Unit           string      `json:"unit,omitempty"`
	Direction      Direction   `json:"direction,omitempty"`
	Aggregation    string      `json:"aggregation,omitempty"`
	Label          string      `json:"label,omitempty"`
	Samples        []float64   `json:"samples,omitempty"`
	SamplesBase64  string      `json:"samplesBase64,omitempty"`
	Summary        *Summary    `json:"summary,omitempty"`
	Histogram      string      `json:"histogram,omitempty"`
	HistogramScale float64     `json:"histogramScale,omitempty"`
	TimeSeries     *TimeSeries `json:"timeSeries,omitempty"`
	Value          *float64    `json:"value,omitempty"`
}

// Summary is a workload's own summary of n values (pointers: absent is not zero).
type Summary struct {
	N    int64    `json:"n"`
	Mean float64  `json:"mean"`
	SD   *float64 `json:"sd,omitempty"`
	Min  *float64 `json:"min,omitempty"`
	Max  *float64 `json:"max,omitempty"`
	P50  *float64 `json:"p50,omitempty"`
	P90  *float64 `json:"p90,omitempty"`
	P95  *float64 `json:"p95,omitempty"`
	P99  *float64 `json:"p99,omitempty"`
	P999 *float64 `json:"p999,omitempty"`
	Sum  *float64 `json:"sum,omitempty"`
}

// TimeSeries is evenly spaced (IntervalMs) or explicitly timed (OffsetsMs) values.
type TimeSeries struct {
	StartedAt  *time.Time `json:"startedAt,omitempty"`
	IntervalMs float64    `json:"intervalMs,omitempty"`
	OffsetsMs  []float64  `json:"offsetsMs,omitempty"`
	Values     []float64  `json:"values"`
}

// F returns a pointer to v, for Summary's optional fields.
func F(v float64) *float64 { return &v }
