// Package workload is the contract between the agent and what it runs. A workload never sees the
// protocol: it gets its settings, records numbers on a Recorder and stops when its context ends
// (the job was cancelled, its lease was lost, or the agent is shutting down). The agent never
// looks inside a workload's settings: the workload's JSON Schema and decoder check them.
//
// The core interface is small; optional capabilities are extra interfaces a workload may also
// implement (checked with a type assertion), the way k6 outputs do it.
package workload

import (
	"context"
	"encoding/json"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/versus/agents/go/internal/result"
)

// MetricSpec is a metric a workload reports, with the unit its values are in. The agent
// advertises every spec of every workload (register and heartbeat), so the dashboard offers them
// when a user picks the workload, and the server refuses an experiment metric it never reports.
type MetricSpec struct {
	Key       string           `json:"key"`
	Unit      string           `json:"unit"`
	Direction result.Direction `json:"direction"`
	// Aggregation is how one run is summarised when the metric is compared (mean, median, p99, …);
	// empty is DefaultAggregation.
	Aggregation string `json:"aggregation,omitempty"`
	Description string `json:"description"`
}

// DefaultAggregation is the aggregation advertised for a spec that names none (the server's own
// default for a metric).
const DefaultAggregation = "mean"

// AdvertisedMetrics are the workload's metric specs as the agent advertises them: each with its
// aggregation spelled out.
func (i Info) AdvertisedMetrics() []MetricSpec {
	out := make([]MetricSpec, len(i.Metrics))
	for n, m := range i.Metrics {
		if m.Aggregation == "" {
			m.Aggregation = DefaultAggregation
		}
		out[n] = m
	}
	return out
}

// Info describes a workload; the agent advertises it to the server at register and heartbeat.
type Info struct {
	Name        string
	Description string
	// SettingsSchema is a JSON Schema (draft 2020-12) of the settings object; the dashboard draws
	// a typed form from it and Prepare validates against it.
	SettingsSchema json.RawMessage
	Metrics        []MetricSpec
}

// Workload is one kind of work, e.g. "gzip". Implementations are stateless; Prepare makes a Run.
type Workload interface {
	Info() Info
	// Prepare checks raw settings (JSON object; absent fields take defaults) and returns what
	// runs them. A bad setting returns a *SettingsError naming the field.
	Prepare(settings json.RawMessage) (Runner, error)
}

// Runner runs one prepared job. It returns ctx.Err() when stopped through ctx.
type Runner interface {
	Run(ctx context.Context, rec Recorder) error
}

// Recorder receives a run's numbers. Each method may be called for several keys; a key's unit
// and direction come from the workload's MetricSpec.
type Recorder interface {
	// Sample records one per-operation value (e.g. the time of one compression).
	Sample(key string, value float64)
	// Histogram attaches a histogram of a metric; it recorded round(value × scale).
	Histogram(key string, h *hdrhistogram.Histogram, scale float64)
	// Summary gives a metric known only as a summary (e.g. bytes that are the same every time).
	Summary(key string, s result.Summary)
	// Series gives a metric's time series (e.g. requests per second, second by second): one
	// point per whole second; a last, partial second is left out (its values still count in the
	// run's Value).
	Series(key string, s result.TimeSeries)
	// Value gives what the run contributes to comparisons when it is none of the figures of the
	// metric's summary or series (the whole run's rate while the series holds per-second rates).
	Value(key string, v float64)
	// Environment adds facts about this run to its environment (e.g. the target's protocol).
	Environment(key string, value any)
	// Warn records a caveat a reader of the results must see (printed in summaries, logged).
	Warn(message string)
	// Logf records a line of progress; the last lines go with a failure as its log tail.
	Logf(format string, args ...any)
}

// Capabilities is optional: extra capability names a workload provides beyond its own name
// (e.g. "http2"), advertised so jobs can require them.
type Capabilities interface {
	Capabilities() []string
}

// TargetStarter is optional on a Runner: it starts the processes its load is aimed at (the
// bundled targets of http's and grpc's `targets` setting). A run calls it after the settings are
// checked and before the probes are first read, and stops what it started after the workload
// and the probes are done, also when the run fails or is cancelled.
type TargetStarter interface {
	// StartTargets returns nil when the settings name no targets. It records the targets in the
	// run's environment and warnings through rec.
	StartTargets(ctx context.Context, rec Recorder) (RunningTargets, error)
}

// RunningTargets are started targets.
type RunningTargets interface {
	// Exited delivers the error of the first target that exits before Stop: the run fails with it.
	Exited() <-chan error
	// Stop ends every target and waits for them; later calls do nothing.
	Stop()
}

// The run builder is the recorder the agent and `versus-agent run` hand to workloads.
var _ Recorder = (*result.Builder)(nil)

// MeasuringMarker is optional on a Recorder: it wants to know when the measured part of a run
// begins (the warm-up is over), e.g. so probes of the system under test sample the same window.
type MeasuringMarker interface {
	MeasuringStarts()
}

// MeasuringStarts tells the recorder, if it wants to know, that the warm-up is over. A workload
// with a warm-up calls it once, as its measured part begins; without a call the whole run is
// measured.
func MeasuringStarts(rec Recorder) {
	if m, ok := rec.(MeasuringMarker); ok {
		m.MeasuringStarts()
	}
}

// PermanentError is a failure another attempt would meet again, e.g. a bucket the credentials
// cannot write: the job fails, not retryable, with its message.
type PermanentError struct{ Err error }

func (e *PermanentError) Error() string { return e.Err.Error() }
func (e *PermanentError) Unwrap() error { return e.Err }
