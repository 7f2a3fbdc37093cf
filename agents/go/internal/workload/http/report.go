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

	// Latency: the whole run's histogram and its summary.
	ms := func(us int64) float64 { return float64(us) / latencyScale }
	if responses > 0 {
		rec.Histogram("latency", run, latencyScale)
		rec.Summary("latency", result.Summary{
			N: responses, Mean: run.Mean() / latencyScale, SD: result.F(run.StdDev() / latencyScale),
			Min: result.F(ms(run.Min())), Max: result.F(ms(run.Max())),
			P50: result.F(ms(run.ValueAtQuantile(50))), P90: result.F(ms(run.ValueAtQuantile(90))), P95: result.F(ms(run.ValueAtQuantile(95))),
			P99: result.F(ms(run.ValueAtQuantile(99))), P999: result.F(ms(run.ValueAtQuantile(99.9))),
		})
	}

	// Per-second series. Each point is one second of the window; the last, partial second is
	// scaled to a per-second rate.
	secs := l.secs.closed
	points := int(math.Ceil(windowS - 1e-3))
	points = max(points, 1)
	perSecond := func(i int, v float64) float64 {
		if tail := windowS - float64(i); tail < 1 && tail > 1e-3 {
			return v / tail
		}
		return v
	}
	at := func(i int) secondFigures {
		if i < len(secs) {
			return secs[i]
		}
		return secondFigures{}
	}
	seriesOf := func(value func(i int) float64) result.TimeSeries {
		values := make([]float64, points)
		for i := range values {
			values[i] = perSecond(i, value(i))
		}
		return result.TimeSeries{StartedAt: &startedAt, IntervalMs: 1000, Values: values}
	}
	throughput := seriesOf(func(i int) float64 { return float64(at(i).requests) })
	rec.Summary("throughput", withSpread(float64(responses)/windowS, throughput.Values))
	rec.Series("throughput", throughput)

	if responses > 0 {
		for _, q := range []struct {
			key      string
			quantile float64
			of       func(f secondFigures) int64
		}{{"latency_p50", 50, func(f secondFigures) int64 { return f.p50Us }}, {"latency_p99", 99, func(f secondFigures) int64 { return f.p99Us }}} {
			// Seconds without an answer (a full stall) have no percentile: they are left out.
			ts := result.TimeSeries{StartedAt: &startedAt}
			for i := 0; i < points && i < len(secs); i++ {
				if secs[i].hasLatency {
					ts.OffsetsMs = append(ts.OffsetsMs, float64(i)*1000)
					ts.Values = append(ts.Values, ms(q.of(secs[i])))
				}
			}
			s := withSpread(ms(run.ValueAtQuantile(q.quantile)), ts.Values)
			s.N = responses
			rec.Summary(q.key, s)
			if len(ts.Values) > 0 {
				rec.Series(q.key, ts)
			}
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
	failures := float64(transport + non2xx3xx)
	rec.Summary("errors", result.Summary{N: 1, Mean: failures, Sum: result.F(failures)})
	rec.Series("errors", seriesOf(func(i int) float64 { return float64(at(i).failures) }))

	for _, b := range []struct {
		key   string
		total int64
		per   []int64
	}{{"bytes_in", l.lastIn - l.inAtMeasure, l.bytesIn}, {"bytes_out", l.lastOut - l.outAt, l.bytesOut}} {
		per := b.per
		series := seriesOf(func(i int) float64 {
			if i < len(per) {
				return float64(per[i])
			}
			return 0
		})
		s := withSpread(float64(b.total)/windowS, series.Values)
		s.Sum = result.F(float64(b.total))
		rec.Summary(b.key, s)
		rec.Series(b.key, series)
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

// withSpread is a summary whose mean is the run's figure and whose spread (sd, min, max) is that
// of the per-second values (no percentiles: those of per-second values would read like the
// requests' own).
func withSpread(mean float64, perSecond []float64) result.Summary {
	s := result.Summary{N: int64(len(perSecond)), Mean: mean}
	if len(perSecond) == 0 {
		s.N = 1
		return s
	}
	values := perSecond
	lo, hi := math.Inf(1), math.Inf(-1)
	var sum float64
	for _, v := range values {
		sum += v
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	avg := sum / float64(len(values))
	var sq float64
	for _, v := range values {
		sq += (v - avg) * (v - avg)
	}
	if len(values) > 1 {
		s.SD = result.F(math.Sqrt(sq / float64(len(values)-1)))
	}
	// The run's figure can sit outside the per-second range (e.g. the last partial second), and
	// the server refuses min > max only, but a mean outside [min, max] would mislead: widen them.
	s.Min, s.Max = result.F(math.Min(lo, mean)), result.F(math.Max(hi, mean))
	return s
}
