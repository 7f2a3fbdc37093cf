package http

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/versus/agents/go/internal/result"
	"github.com/versus/agents/go/internal/workload"
)

// latencyScale: latency is reported in ms and recorded in µs, so round(ms × 1000) = recorded.
const latencyScale = 1000

// report turns the merged stats into the run's metrics, environment and warnings.
func report(l *load, target *url.URL, rec workload.Recorder) error {
	all := l.allStats()
	run := hdrhistogram.New(lowestUs, highestUs, runDigits)
	var status [statusSlots]int64
	var statusX, clamped, lastDone int64
	var errs [errorKinds]int64
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
	var transport int64
	for _, n := range errs {
		transport += n
	}
	responses := run.TotalCount()
	if responses+transport == 0 {
		return errors.New("no request finished in the measured window")
	}

	// The measured window: from the end of the warm-up to the planned end or the last answer,
	// whichever is later (requests in flight at the end are waited for and counted).
	windowEnd := lastDone
	if l.end != math.MaxInt64 {
		windowEnd = max(windowEnd, l.end)
	}
	window := time.Duration(windowEnd - l.measureFrom)
	windowS := window.Seconds()
	startedAt := l.base.Add(time.Duration(l.measureFrom))

	// Latency: the whole run's histogram and its summary (n = responses).
	ms := func(us int64) float64 { return float64(us) / latencyScale }
	var latency result.Summary
	if responses > 0 {
		latency = histogramSummary(run, latencyScale)
		rec.Histogram("latency", run, latencyScale)
		rec.Summary("latency", latency)
	}

	// Per-second series hold whole seconds of the window: a last, partial second is left out (its
	// requests count in the run's values, which divide by the whole window). A metric whose run
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
	rec.Value("throughput", float64(responses)/windowS)
	series("throughput", seriesOf(whole, func(i int) float64 { return float64(at(i).requests) }))

	if responses > 0 {
		for _, q := range []struct {
			key string
			run *float64
			of  func(f secondFigures) int64
		}{{"latency_p50", latency.P50, func(f secondFigures) int64 { return f.p50Us }}, {"latency_p99", latency.P99, func(f secondFigures) int64 { return f.p99Us }}} {
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

	var non2xx3xx int64
	codes := map[string]int64{}
	for code, n := range status {
		if n == 0 {
			continue
		}
		codes[strconv.Itoa(code)] = n
		if code < 200 || code >= 400 {
			non2xx3xx += n
		}
	}
	if statusX > 0 {
		codes["other"] = statusX
		non2xx3xx += statusX
	}
	rec.Value("errors", float64(transport+non2xx3xx))
	series("errors", seriesOf(whole, func(i int) float64 { return float64(at(i).failures) }))

	for _, b := range []struct {
		key   string
		total int64
		per   []int64
	}{{"bytes_in", l.lastIn - l.inAtMeasure, l.bytesIn}, {"bytes_out", l.lastOut - l.outAt, l.bytesOut}} {
		per := b.per
		rec.Value(b.key, float64(b.total)/windowS)
		// The byte counters are read once a second by the ticker, and once more at the end (the
		// partial second): only the ticks' seconds are whole.
		series(b.key, seriesOf(min(whole, max(0, len(per)-1)), func(i int) float64 { return float64(per[i]) }))
	}

	byKind := map[string]int64{}
	for k, n := range errs {
		byKind[errorKindNames[k]] = n
	}
	facts := Facts{
		Target:          target.String(),
		Method:          l.p.Method,
		Model:           l.p.Model,
		Protocol:        protocolOf(l.p),
		KeepAlive:       l.p.KeepAlive,
		WarmupSeconds:   l.p.WarmupSeconds,
		DurationSeconds: windowS,
		Requests:        responses + transport,
		Responses:       responses,
		StatusCodes:     codes,
		Non2xx3xx:       non2xx3xx,
		TransportErrors: byKind,
		BytesIn:         l.lastIn - l.inAtMeasure,
		BytesOut:        l.lastOut - l.outAt,
		SelfTarget:      l.p.self,
	}
	if l.p.Model == modelOpen {
		facts.Rate = l.p.Rate
		facts.MaxConnections = l.p.MaxConnections
	} else {
		facts.Connections = l.p.Connections
	}
	rec.Environment("http", facts)

	if l.p.Model == modelClosed {
		rec.Warn(fmt.Sprintf("closed model: each of the %d connections waits for an answer before sending again, so while the server stalls no requests are sent and the stall barely shows in the latency percentiles (coordinated omission); use the open model (model: \"open\", rate: …) to measure latency honestly", l.p.Connections))
	} else if sent := float64(responses+transport) / windowS; sent < 0.95*l.p.Rate {
		rec.Warn(fmt.Sprintf("open model: %.0f requests/s finished of the %.0f asked for: the target (or this machine) could not keep up, and the latencies include the time requests waited", sent, l.p.Rate))
	}
	if clamped > 0 {
		rec.Warn(fmt.Sprintf("%d latencies were above an hour and were recorded as an hour", clamped))
	}
	rec.Logf("http: %d responses, %d transport errors, %d non-2xx/3xx in %.2fs", responses, transport, non2xx3xx, windowS)
	return nil
}

func protocolOf(p *plan) string {
	if p.HTTP2 {
		return "HTTP/2"
	}
	return "HTTP/1.1"
}
