package loadgen

import (
	"github.com/versus/agents/go/internal/result"
	"github.com/versus/agents/go/internal/workload"
)

// MetricWords are how a workload words the metric family Report records: its throughput unit,
// its operations, and the descriptions that depend on what an operation and an error are.
type MetricWords struct {
	ThroughputUnit string // "req/s"
	Operations     string // "requests"
	Latency        string
	Throughput     string
	Errors         string
}

// Metrics are the specs of the metrics Report records, for the workload's Info.
func Metrics(w MetricWords) []workload.MetricSpec {
	return []workload.MetricSpec{
		{Key: "latency", Unit: "ms", Direction: result.LowerIsBetter, Description: w.Latency},
		{Key: "throughput", Unit: w.ThroughputUnit, Direction: result.HigherIsBetter, Description: w.Throughput},
		{Key: "latency_p50", Unit: "ms", Direction: result.LowerIsBetter, Description: "Median latency: the run's value is the median of all its " + w.Operations + "; the series holds each whole second's median"},
		{Key: "latency_p95", Unit: "ms", Direction: result.LowerIsBetter, Description: "95th percentile latency: the run's value is the p95 of all its " + w.Operations + "; the series holds each whole second's p95"},
		{Key: "latency_p99", Unit: "ms", Direction: result.LowerIsBetter, Description: "99th percentile latency: the run's value is the p99 of all its " + w.Operations + "; the series holds each whole second's p99"},
		{Key: "throughput_peak", Unit: w.ThroughputUnit, Direction: result.HigherIsBetter, Description: "The busiest whole second of the measured window: its count of " + w.Operations + " finished (any status); a window shorter than a second gives its rate instead"},
		{Key: "requests", Unit: "count", Direction: result.HigherIsBetter, Description: "The " + w.Operations + " finished in the measured window, answered or not (a total: a longer run counts more)"},
		{Key: "errors", Unit: "count", Direction: result.LowerIsBetter, Description: w.Errors},
		{Key: "bytes_in", Unit: "B/s", Direction: result.HigherIsBetter, Description: "Bytes received on the wire (below TLS): the run's value is bytes ÷ the measured seconds; the series counts each whole second"},
		{Key: "bytes_out", Unit: "B/s", Direction: result.HigherIsBetter, Description: "Bytes sent on the wire (below TLS): the run's value is bytes ÷ the measured seconds; the series counts each whole second"},
		{Key: "bytes_total", Unit: "B", Direction: result.HigherIsBetter, Description: "Bytes received and sent on the wire (below TLS) in the measured window: the data the run moved"},
	}
}
