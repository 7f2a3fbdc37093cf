package loadgen

import (
	"math"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/versus/agents/go/internal/result"
)

// HistogramSummary is the summary of the values a histogram holds, every figure of the same
// values: each recorded value read as the middle of its range of equivalent values, as
// HdrHistogram's Mean and StdDev read them (its Min is the low end of a range and its Max the
// high end, which beside that mean describe no set of values when a run has one request). n is
// the count, sd the sample sd, and a percentile the value at HdrHistogram's rank for it. Divided
// by scale into the metric's unit. h must hold at least one value.
func HistogramSummary(h *hdrhistogram.Histogram, scale float64) result.Summary {
	type bar struct {
		value float64
		count int64
	}
	var bars []bar
	for _, b := range h.Distribution() {
		if b.Count > 0 {
			size := b.To - b.From + 1
			bars = append(bars, bar{float64(b.From+size>>1) / scale, b.Count})
		}
	}
	n := h.TotalCount()
	valueAt := func(percentile float64) *float64 {
		rank := max(int64(1), min(n, int64(percentile/100*float64(n)+0.5)))
		var seen int64
		for _, b := range bars {
			if seen += b.count; seen >= rank {
				return result.F(b.value)
			}
		}
		return result.F(bars[len(bars)-1].value)
	}
	lo, hi := bars[0].value, bars[len(bars)-1].value
	s := result.Summary{
		N: n, Mean: math.Min(hi, math.Max(lo, h.Mean()/scale)), Min: result.F(lo), Max: result.F(hi),
		P50: valueAt(50), P90: valueAt(90), P95: valueAt(95), P99: valueAt(99), P999: valueAt(99.9),
	}
	if n > 1 {
		s.SD = result.F(h.StdDev() / scale * math.Sqrt(float64(n)/float64(n-1)))
	}
	return s
}
