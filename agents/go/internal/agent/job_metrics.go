package agent

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/versus/agents/go/internal/api"
	"github.com/versus/agents/go/internal/result"
	"github.com/versus/agents/go/internal/workload"
)

// unitFamilies: units that convert into each other, by their size in the family's base unit
// (the same table as agents/reference/agent/run-metrics.ts).
var unitFamilies = []map[string]float64{
	{"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1},
	{"B": 1, "KB": 1e3, "kB": 1e3, "KiB": 1024, "MB": 1e6, "MiB": 1024 * 1024, "GB": 1e9, "GiB": 1024 * 1024 * 1024},
}

// unitFactor is the factor from `from` to `to` when both are units of one family.
func unitFactor(from, to string) (float64, bool) {
	if from == to {
		return 1, true
	}
	for _, family := range unitFamilies {
		a, okA := family[from]
		b, okB := family[to]
		if okA && okB {
			return a / b, true
		}
	}
	return 0, false
}

// jobMetrics turns what a workload recorded into the run's metrics for the experiment that asked
// for them: only the metrics the job lists (an experiment may have others, filled by uploads),
// each in the experiment's unit when the two are of one family (µs → ms, B → KiB). A job that
// lists none of what the workload recorded cannot be stored: the problem says why. A job that
// lists no metrics gets everything recorded.
func jobMetrics(requested []api.JobMetric, specs []workload.MetricSpec, recorded []result.Metric) (metrics []result.Metric, missing []string, problem string) {
	byKey := make(map[string]result.Metric, len(recorded))
	for _, m := range recorded {
		byKey[m.Key] = m
	}
	wanted := requested
	if len(wanted) == 0 {
		for _, m := range recorded {
			wanted = append(wanted, api.JobMetric{Key: m.Key})
		}
	}
	for _, w := range wanted {
		m, ok := byKey[w.Key]
		if !ok {
			missing = append(missing, w.Key)
			continue
		}
		if w.Unit != "" && w.Unit != m.Unit {
			// A unit of another family goes as recorded; the server then refuses it, saying why.
			if factor, ok := unitFactor(m.Unit, w.Unit); ok {
				m = scaleMetric(m, factor)
				m.Unit = w.Unit
			}
		}
		if w.Direction != "" {
			m.Direction = result.Direction(w.Direction)
		}
		if w.Aggregation != "" {
			m.Aggregation = w.Aggregation
		}
		metrics = append(metrics, m)
	}
	if len(metrics) == 0 {
		offered := make([]string, len(specs))
		for i, s := range specs {
			offered[i] = fmt.Sprintf("%s (%s)", s.Key, s.Unit)
		}
		return nil, missing, fmt.Sprintf("the workload reports none of the experiment's metrics (%s); it reports %s",
			strings.Join(missing, ", "), strings.Join(offered, ", "))
	}
	return metrics, missing, ""
}

// scaleMetric multiplies every value of a metric by factor, in whatever form it was recorded.
func scaleMetric(m result.Metric, factor float64) result.Metric {
	scale := func(v float64) float64 { return v * factor }
	scalePtr := func(p *float64) *float64 {
		if p == nil {
			return nil
		}
		return result.F(*p * factor)
	}
	if len(m.Samples) > 0 {
		out := make([]float64, len(m.Samples))
		for i, v := range m.Samples {
			out[i] = scale(v)
		}
		m.Samples = out
	}
	if m.SamplesBase64 != "" {
		if values, err := decodeSamples(m.SamplesBase64); err == nil {
			for i := range values {
				values[i] = scale(values[i])
			}
			m.SamplesBase64 = result.EncodeSamples(values)
		}
	}
	if m.Summary != nil {
		s := *m.Summary
		s.Mean = scale(s.Mean)
		s.SD, s.Min, s.Max, s.Sum = scalePtr(s.SD), scalePtr(s.Min), scalePtr(s.Max), scalePtr(s.Sum)
		s.P50, s.P90, s.P95, s.P99, s.P999 = scalePtr(s.P50), scalePtr(s.P90), scalePtr(s.P95), scalePtr(s.P99), scalePtr(s.P999)
		m.Summary = &s
	}
	if m.Histogram != "" && m.HistogramScale > 0 {
		// The histogram holds round(value × scale); in the new unit value' = value × factor, so
		// the same counts read with scale / factor.
		m.HistogramScale /= factor
	}
	if m.Value != nil {
		m.Value = scalePtr(m.Value)
	}
	if m.TimeSeries != nil {
		ts := *m.TimeSeries
		ts.Values = make([]float64, len(m.TimeSeries.Values))
		for i, v := range m.TimeSeries.Values {
			ts.Values[i] = scale(v)
		}
		m.TimeSeries = &ts
	}
	return m
}

// decodeSamples reads samplesBase64 (little-endian float64 values).
func decodeSamples(encoded string) ([]float64, error) {
	data, err := base64.StdEncoding.DecodeString(encoded)
	if err != nil {
		return nil, err
	}
	if len(data)%8 != 0 {
		return nil, fmt.Errorf("samplesBase64 is %d bytes, not a whole number of float64 values", len(data))
	}
	out := make([]float64, len(data)/8)
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(data[8*i:]))
	}
	return out, nil
}
