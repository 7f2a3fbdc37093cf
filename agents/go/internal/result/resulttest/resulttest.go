// Package resulttest checks run documents in workloads' tests: that each summary describes one
// set of values, by the rules the server refuses a summary with (docs/agent-protocol.md,
// "Summaries and values"), and that time series hold whole seconds.
package resulttest

import (
	"fmt"
	"math"

	"github.com/versus/agents/go/internal/result"
)

// Tolerances as the server's: floating-point arithmetic, and bounds derived from n and the
// extremes to 1 part in 1,000 (HdrHistogram's 3 significant digits).
const (
	float   = 1e-9
	printed = 1e-3
	tiny    = 1e-300
)

// Contradictions lists what in s no set of values could give; empty when s can be true.
func Contradictions(s result.Summary) []string {
	var out []string
	if s.N < 1 {
		return append(out, fmt.Sprintf("n %d is below 1", s.N))
	}
	n, mean := float64(s.N), s.Mean
	scale := math.Abs(mean)
	for _, p := range []*float64{s.Min, s.Max} {
		if p != nil {
			scale = math.Max(scale, math.Abs(*p))
		}
	}
	above := func(a, b, tolerance float64) bool { return a > b+tolerance*scale+tiny }
	if s.SD != nil && *s.SD < 0 {
		out = append(out, fmt.Sprintf("sd %v is negative", *s.SD))
	}
	if s.Min != nil && s.Max != nil && above(*s.Min, *s.Max, float) {
		out = append(out, fmt.Sprintf("min %v is above max %v", *s.Min, *s.Max))
	}
	if s.Min != nil && above(*s.Min, mean, float) {
		out = append(out, fmt.Sprintf("mean %v is below min %v", mean, *s.Min))
	}
	if s.Max != nil && above(mean, *s.Max, float) {
		out = append(out, fmt.Sprintf("mean %v is above max %v", mean, *s.Max))
	}
	var previous *float64
	for _, p := range []struct {
		name  string
		value *float64
	}{{"p50", s.P50}, {"p90", s.P90}, {"p95", s.P95}, {"p99", s.P99}, {"p99.9", s.P999}} {
		if p.value == nil {
			continue
		}
		v := *p.value
		switch {
		case s.Min != nil && above(*s.Min, v, float):
			out = append(out, fmt.Sprintf("%s %v is below min %v", p.name, v, *s.Min))
		case s.Max != nil && above(v, *s.Max, float):
			out = append(out, fmt.Sprintf("%s %v is above max %v", p.name, v, *s.Max))
		case previous != nil && above(*previous, v, float):
			out = append(out, fmt.Sprintf("%s %v is below the percentile before it, %v", p.name, v, *previous))
		}
		previous = p.value
	}
	if s.N == 1 {
		if s.SD != nil && above(*s.SD, 0, float) {
			out = append(out, fmt.Sprintf("n = 1 with sd %v", *s.SD))
		}
		for _, p := range []*float64{s.Min, s.Max, s.P50, s.P90, s.P95, s.P99, s.P999} {
			if p != nil && (above(*p, mean, float) || above(mean, *p, float)) {
				out = append(out, fmt.Sprintf("n = 1, but a figure %v is not the mean %v", *p, mean))
			}
		}
	} else if s.Min != nil && s.Max != nil && !above(*s.Min, *s.Max, float) {
		lo, hi := *s.Min, *s.Max
		lowest, highest := ((n-1)*lo+hi)/n, (lo+(n-1)*hi)/n
		if above(lowest, mean, printed) || above(mean, highest, printed) {
			out = append(out, fmt.Sprintf("mean %v is not possible for %d values from %v to %v", mean, s.N, lo, hi))
		} else if s.SD != nil && *s.SD >= 0 {
			largest := math.Sqrt(n/(n-1)) * math.Sqrt(math.Max(0, hi-mean)) * math.Sqrt(math.Max(0, mean-lo))
			smallest := (hi - lo) / math.Sqrt(2*n)
			if above(*s.SD, largest, printed) || above(smallest, *s.SD, printed) {
				out = append(out, fmt.Sprintf("sd %v is not possible for %d values from %v to %v with mean %v", *s.SD, s.N, lo, hi, mean))
			}
		}
	}
	if s.Sum != nil && math.Abs(*s.Sum-mean*n) > 1e-6*math.Max(math.Abs(*s.Sum), n*scale)+tiny {
		out = append(out, fmt.Sprintf("sum %v is not mean × n = %v", *s.Sum, mean*n))
	}
	return out
}

// WholeSeconds reports what in a time series is not one point per whole second of a window of
// `seconds` (a last partial second is left out): offsets on whole seconds, before `seconds`.
func WholeSeconds(ts result.TimeSeries, seconds float64) []string {
	var out []string
	whole := math.Floor(seconds + 1e-9)
	for i := range ts.Values {
		offset := float64(i) * ts.IntervalMs
		if ts.OffsetsMs != nil {
			offset = ts.OffsetsMs[i]
		} else if ts.IntervalMs != 1000 {
			out = append(out, fmt.Sprintf("interval %v ms, not a second", ts.IntervalMs))
			break
		}
		if math.Mod(offset, 1000) != 0 || offset/1000 >= whole {
			out = append(out, fmt.Sprintf("point %d at %v ms is not a whole second of the %v s window", i, offset, seconds))
		}
	}
	return out
}
