package loadgen

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/versus/agents/go/internal/result"
	"github.com/versus/agents/go/internal/workload"
)

// LatencyScale: latency is reported in ms and recorded in µs, so round(ms × 1000) = recorded.
const LatencyScale = 1000

// Totals are the counts behind a run's metrics, for the workload's own facts and log line.
type Totals struct {
	Responses int64
	// Errors counts the operations that got no response, by the plan's ErrorKinds.
	Errors map[string]int64
	// NoResponse is the sum of Errors.
	NoResponse int64
	// Statuses counts the responses by status; statuses ≥ 600 are counted under -1.
	Statuses map[int]int64
	// FailedResponses are the responses whose status the plan's Failed calls a failure.
	FailedResponses int64
	// Seconds is the measured window.
	Seconds           float64
	BytesIn, BytesOut int64
	Clamped           int64 // latencies above an hour, recorded as an hour
}

// Report closes the last (partial) second and records the metric family every load workload
// reports: latency (HdrHistogram and summary), throughput, latency_p50, latency_p95, latency_p99,
// errors, bytes_in and bytes_out, each with its run value and per-second series, and the run
// figures throughput_peak, requests and bytes_total (a value each, no series). Call it after Run,
// when the run was not cancelled.
func (l *Load) Report(rec workload.Recorder) (Totals, error) {
	l.finish()
	all := l.allStats()
	run := hdrhistogram.New(lowestUs, highestUs, runDigits)
	var status [statusSlots]int64
	var statusX, clamped, lastDone int64
	var errs [maxErrorKinds]int64
	for _, s := range all {
		run.Merge(s.run)
		for code, n := range s.status {
			status[code] += n
		}
		statusX += s.statusX
		clamped += s.clamped
		for k, n := range s.errs {
			errs[k] += n
		}
		lastDone = max(lastDone, s.lastDone)
	}
	t := Totals{Errors: map[string]int64{}, Statuses: map[int]int64{}, Clamped: clamped}
	for k, name := range l.p.ErrorKinds {
		t.Errors[name] = errs[k]
		t.NoResponse += errs[k]
	}
	t.Responses = run.TotalCount()
	if t.Responses+t.NoResponse == 0 {
		return t, errors.New("nothing finished in the measured window")
	}
	for code, n := range status {
		if n > 0 {
			t.Statuses[code] = n
			if l.p.Failed(code) {
				t.FailedResponses += n
			}
		}
	}
	if statusX > 0 {
		t.Statuses[-1] = statusX
		t.FailedResponses += statusX
	}

	// The measured window: from the end of the warm-up to the planned end or the last answer,
	// whichever is later (operations in flight at the end are waited for and counted).
	windowEnd := lastDone
	if l.end != math.MaxInt64 {
		windowEnd = max(windowEnd, l.end)
	}
	window := time.Duration(windowEnd - l.measureFrom)
	t.Seconds = window.Seconds()
	startedAt := l.base.Add(time.Duration(l.measureFrom))

	// Latency: the whole run's histogram and its summary (n = responses).
	ms := func(us int64) float64 { return float64(us) / LatencyScale }
	var latency result.Summary
	if t.Responses > 0 {
		latency = HistogramSummary(run, LatencyScale)
		rec.Histogram("latency", run, LatencyScale)
		rec.Summary("latency", latency)
	}

	// Per-second series hold whole seconds of the window: a last, partial second is left out (its
	// operations count in the run's values, which divide by the whole window). A metric whose run
	// figure is a rate or the run's own percentile sends it as its value; the server summarises
	// the series (n = seconds).
	secs := l.secs.closed
	whole := int(window / time.Second)
	at := func(i int) secondFigures {
		if i < len(secs) {
			return secs[i]
		}
		return secondFigures{}
	}
	seriesOf := func(points int, value func(i int) float64) result.TimeSeries {
		values := make([]float64, points)
		for i := range values {
			values[i] = value(i)
		}
		return result.TimeSeries{StartedAt: &startedAt, IntervalMs: 1000, Values: values}
	}
	series := func(key string, ts result.TimeSeries) {
		if len(ts.Values) > 0 {
			rec.Series(key, ts)
		}
	}
	rec.Value("throughput", float64(t.Responses)/t.Seconds)
	perSecond := seriesOf(whole, func(i int) float64 { return float64(at(i).requests) })
	series("throughput", perSecond)
	// The peak is the busiest whole second; a window shorter than one second has none, and its
	// rate stands in for it.
	peak := float64(t.Responses) / t.Seconds
	if len(perSecond.Values) > 0 {
		peak = slices.Max(perSecond.Values)
	}
	rec.Value("throughput_peak", peak)
	rec.Value("requests", float64(t.Responses+t.NoResponse))

	if t.Responses > 0 {
		for _, q := range []struct {
			key string
			run *float64
			of  func(f secondFigures) int64
		}{
			{"latency_p50", latency.P50, func(f secondFigures) int64 { return f.p50Us }},
			{"latency_p95", latency.P95, func(f secondFigures) int64 { return f.p95Us }},
			{"latency_p99", latency.P99, func(f secondFigures) int64 { return f.p99Us }},
		} {
			rec.Value(q.key, *q.run)
			// Seconds without an answer (a full stall) have no percentile: they are left out.
			ts := result.TimeSeries{StartedAt: &startedAt}
			for i := 0; i < whole && i < len(secs); i++ {
				if secs[i].hasLatency {
					ts.OffsetsMs = append(ts.OffsetsMs, float64(i)*1000)
					ts.Values = append(ts.Values, ms(q.of(secs[i])))
				}
			}
			series(q.key, ts)
		}
	}

	rec.Value("errors", float64(t.NoResponse+t.FailedResponses))
	series("errors", seriesOf(whole, func(i int) float64 { return float64(at(i).failures) }))

	t.BytesIn, t.BytesOut = l.lastIn-l.inAtMeasure, l.lastOut-l.outAt
	for _, b := range []struct {
		key   string
		total int64
		per   []int64
	}{{"bytes_in", t.BytesIn, l.bytesIn}, {"bytes_out", t.BytesOut, l.bytesOut}} {
		per := b.per
		rec.Value(b.key, float64(b.total)/t.Seconds)
		// The byte counters are read once a second by the ticker, and once more at the end (the
		// partial second): only the ticks' seconds are whole.
		series(b.key, seriesOf(min(whole, max(0, len(per)-1)), func(i int) float64 { return float64(per[i]) }))
	}
	rec.Value("bytes_total", float64(t.BytesIn+t.BytesOut))
	// Once, so the environment and the warning give the same figures.
	l.measuredPace = l.Pace()
	if l.measuredPace != nil {
		rec.Environment("generator", l.measuredPace)
	}
	return t, nil
}

// Nouns name a workload's workers and operations in its warnings ("connections", "requests").
type Nouns struct{ Workers, Operations string }

// Warn records the caveats of the model: the closed model's coordinated omission, an open model
// that could not keep its rate, latencies clamped at an hour.
func (l *Load) Warn(rec workload.Recorder, t Totals, n Nouns) {
	if l.p.Model == ModelClosed {
		rec.Warn(fmt.Sprintf("closed model: each of the %d %s waits for an answer before sending again, so while the server stalls no %s are sent and the stall barely shows in the latency percentiles (coordinated omission); use the open model (model: \"open\", rate: …) to measure latency honestly", l.p.Workers, n.Workers, n.Operations))
	} else if sent := float64(t.Responses+t.NoResponse) / t.Seconds; sent < 0.95*l.p.Rate {
		rec.Warn(fmt.Sprintf("open model: %.0f %s/s finished of the %.0f asked for: the target (or this machine) could not keep up, and the latencies include the time %s waited", sent, n.Operations, l.p.Rate, n.Operations))
	}
	warnPace(rec, l.measuredPace, l.p.MaxInFlight, n)
	if t.Clamped > 0 {
		rec.Warn(fmt.Sprintf("%d latencies were above an hour and were recorded as an hour", t.Clamped))
	}
}
