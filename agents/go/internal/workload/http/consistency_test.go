package http

import (
	"fmt"
	"math"
	nethttp "net/http"
	"testing"
	"time"

	"github.com/versus/agents/go/internal/workload/loadgen"
	"github.com/versus/agents/go/internal/workload/workloadtest"
)

// A real run against an httptest server, 2.5 s long so that its last second is partial: every
// metric's summary describes one set of values, each run figure that is none of them travels as
// the metric's value and equals what the run's facts say, and every series holds whole seconds.
func TestEveryMetricOfARealRunDescribesItsValues(t *testing.T) {
	srv, _ := countingServer(t, func(w nethttp.ResponseWriter, r *nethttp.Request) {
		time.Sleep(2 * time.Millisecond)
		if r.URL.Query().Get("n") == "" {
			_, _ = w.Write([]byte("ok"))
		}
	})
	run := runHTTP(t, fmt.Sprintf(`{"url": %q, "connections": 2, "duration": 2.5, "warmupSeconds": 0}`, srv.URL))
	f := factsOf(t, run)
	if f.DurationSeconds < 2.5 || f.DurationSeconds >= 3 || f.Responses == 0 {
		t.Fatalf("facts %+v", f)
	}

	workloadtest.RequireConsistentMetrics(t, run, f.DurationSeconds)

	// latency: the histogram's summary, every figure of the same values (the middles of its ranges).
	latency := metric(t, run, "latency")
	h := decodedLatency(t, run)
	s := latency.Summary
	if s == nil || s.N != f.Responses || s.N != h.TotalCount() || math.Abs(s.Mean-h.Mean()/loadgen.LatencyScale) > 1e-9*s.Mean {
		t.Fatalf("latency summary %+v against the histogram's %d values, mean %v", s, h.TotalCount(), h.Mean()/loadgen.LatencyScale)
	}
	if latency.Value != nil {
		t.Errorf("latency has a value %v: its summary's figures are the run's", *latency.Value)
	}

	// throughput: the run's rate is responses ÷ the window; the series counts each whole second.
	tp := metric(t, run, "throughput")
	want := float64(f.Responses) / f.DurationSeconds
	if tp.Value == nil || math.Abs(*tp.Value-want) > 1e-9*want {
		t.Fatalf("throughput value %v, want responses ÷ seconds = %v", tp.Value, want)
	}
	if tp.TimeSeries == nil || len(tp.TimeSeries.Values) != 2 {
		t.Fatalf("throughput series %+v: want the 2 whole seconds of %.3f s", tp.TimeSeries, f.DurationSeconds)
	}
	var counted float64
	for _, v := range tp.TimeSeries.Values {
		if v != math.Trunc(v) || v <= 0 {
			t.Errorf("throughput point %v is not a second's count of responses", v)
		}
		counted += v
	}
	if counted > float64(f.Responses) || counted < float64(f.Responses)*1.5/3 {
		t.Errorf("the whole seconds count %v of the %d responses", counted, f.Responses)
	}
	if tp.Summary != nil && (tp.Summary.N != 2 || math.Abs(tp.Summary.Mean-counted/2) > 1e-9*counted) {
		t.Errorf("throughput summary %+v does not describe its series %v", *tp.Summary, tp.TimeSeries.Values)
	}

	// latency_p50/p95/p99: the run's own percentile is the value, the same as latency's; the series
	// holds each whole second's percentile.
	for _, q := range []struct {
		key string
		of  *float64
	}{{"latency_p50", s.P50}, {"latency_p95", s.P95}, {"latency_p99", s.P99}} {
		m := metric(t, run, q.key)
		if m.Value == nil || q.of == nil || *m.Value != *q.of {
			t.Errorf("%s value %v, want latency's %v", q.key, m.Value, q.of)
		}
		if m.Summary != nil && m.Summary.N > 2 {
			t.Errorf("%s summary %+v: n counts seconds, at most 2", q.key, *m.Summary)
		}
	}

	// errors: the run's count; bytes: the run's rate from the facts' totals.
	failures := f.Non2xx3xx
	for _, n := range f.TransportErrors {
		failures += n
	}
	if e := metric(t, run, "errors"); e.Value == nil || *e.Value != float64(failures) {
		t.Errorf("errors value %v, facts %d", e.Value, failures)
	}
	// requests and bytes_total: the run's counts, as the facts have them.
	if m := metric(t, run, "requests"); m.Value == nil || *m.Value != float64(f.Requests) || m.TimeSeries != nil {
		t.Errorf("requests %+v, facts %d (a value, no series)", m, f.Requests)
	}
	if m := metric(t, run, "bytes_total"); m.Value == nil || *m.Value != float64(f.BytesIn+f.BytesOut) || m.TimeSeries != nil {
		t.Errorf("bytes_total %+v, facts %d in + %d out (a value, no series)", m, f.BytesIn, f.BytesOut)
	}
	if m := metric(t, run, "throughput_peak"); m.TimeSeries != nil || m.Unit != "req/s" {
		t.Errorf("throughput_peak %+v: a value in req/s, no series", m)
	}
	for key, total := range map[string]int64{"bytes_in": f.BytesIn, "bytes_out": f.BytesOut} {
		m := metric(t, run, key)
		want := float64(total) / f.DurationSeconds
		if m.Value == nil || math.Abs(*m.Value-want) > 1e-9*want || want == 0 {
			t.Errorf("%s value %v, want %d B ÷ %v s", key, m.Value, total, f.DurationSeconds)
		}
	}
}
