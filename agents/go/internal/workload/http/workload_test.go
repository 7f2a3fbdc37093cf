package http

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	nethttp "net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/versus/agents/go/internal/execute"
	"github.com/versus/agents/go/internal/result"
	"github.com/versus/agents/go/internal/workload/loadgen"
	"github.com/versus/agents/go/internal/workload/workloadtest"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/h2c"
)

// runHTTP runs the workload through the agent's one execute path and returns the run document.
func runHTTP(t *testing.T, settings string) result.Run {
	t.Helper()
	return workloadtest.Run(t, Workload{}, settings)
}

func metric(t *testing.T, run result.Run, key string) result.Metric {
	t.Helper()
	return workloadtest.Metric(t, run, key)
}

func factsOf(t *testing.T, run result.Run) Facts {
	t.Helper()
	var f Facts
	workloadtest.Environment(t, run, "http", &f)
	return f
}

func decodedLatency(t *testing.T, run result.Run) *hdrhistogram.Histogram {
	t.Helper()
	m := metric(t, run, "latency")
	if m.HistogramScale != loadgen.LatencyScale || m.Unit != "ms" {
		t.Fatalf("latency scale %v unit %q", m.HistogramScale, m.Unit)
	}
	h, err := hdrhistogram.Decode([]byte(m.Histogram))
	if err != nil {
		t.Fatalf("decoding the latency histogram: %v", err)
	}
	return h
}

func countingServer(t *testing.T, handler nethttp.HandlerFunc) (*httptest.Server, *atomic.Int64) {
	var hits atomic.Int64
	srv := httptest.NewServer(nethttp.HandlerFunc(func(w nethttp.ResponseWriter, r *nethttp.Request) {
		hits.Add(1)
		if handler != nil {
			handler(w, r)
			return
		}
		_, _ = w.Write([]byte("ok"))
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func TestClosedModelSendsTheRequestsAndTheHistogramHoldsThem(t *testing.T) {
	srv, hits := countingServer(t, nil)
	run := runHTTP(t, fmt.Sprintf(`{"url": %q, "connections": 4, "requests": 200}`, srv.URL))
	if h := decodedLatency(t, run); h.TotalCount() != 200 {
		t.Fatalf("histogram count %d, want 200", h.TotalCount())
	}
	if hits.Load() != 200 {
		t.Fatalf("server saw %d requests", hits.Load())
	}
	f := factsOf(t, run)
	if f.StatusCodes["200"] != 200 || f.Protocol != "HTTP/1.1" {
		t.Fatalf("facts %+v", f)
	}
	if s := metric(t, run, "latency").Summary; s == nil || s.N != 200 || s.P99 == nil {
		t.Fatalf("latency summary %+v", s)
	}
	// 200 requests take less than a second here: no whole second, so no series; the run's rate
	// is its value (TestEveryMetricOfARealRunDescribesItsValues runs whole seconds).
	tp := metric(t, run, "throughput")
	if tp.Value == nil || *tp.Value != 200/f.DurationSeconds || tp.Direction != result.HigherIsBetter {
		t.Fatalf("throughput %+v", tp)
	}
	if ts := metric(t, run, "latency_p99").TimeSeries; ts != nil && len(ts.OffsetsMs) != len(ts.Values) {
		t.Fatalf("latency_p99 series %+v", ts)
	}
	warnings, _ := run.Environment["warnings"].([]string)
	if len(warnings) != 1 || !strings.Contains(warnings[0], "coordinated omission") || !strings.Contains(warnings[0], "open model") {
		t.Fatalf("warnings %q", warnings)
	}
}

// With one connection and a server slower than the arrival interval, request i cannot finish
// before (i+1) × delay, but was due at i × interval: its latency, counted from when it was due,
// is at least (i+1) × delay − i × interval — whatever the machine's speed.
func TestOpenModelCountsLatencyFromTheScheduledTime(t *testing.T) {
	const delay, interval, n = 50 * time.Millisecond, 10 * time.Millisecond, 10
	srv, _ := countingServer(t, func(w nethttp.ResponseWriter, r *nethttp.Request) { time.Sleep(delay) })
	run := runHTTP(t, fmt.Sprintf(`{"url": %q, "rate": %d, "maxConnections": 1, "requests": %d}`, srv.URL, time.Second/interval, n))
	h := decodedLatency(t, run)
	if h.TotalCount() != n {
		t.Fatalf("count %d", h.TotalCount())
	}
	floor := n*delay - (n-1)*interval // the last request's lower bound: 410 ms
	if got := time.Duration(h.Max()) * time.Microsecond; got < floor*999/1000 {
		t.Fatalf("max latency %v: the wait behind the busy connection was not counted (want ≥ %v)", got, floor)
	}
	for _, w := range run.Environment["warnings"].([]string) {
		if strings.Contains(w, "coordinated omission") {
			t.Fatalf("the open model warned about the closed model: %q", w)
		}
	}
}

func TestOpenModelSendsTheRequestedCount(t *testing.T) {
	srv, hits := countingServer(t, nil)
	run := runHTTP(t, fmt.Sprintf(`{"url": %q, "rate": 2000, "requests": 100}`, srv.URL))
	if h := decodedLatency(t, run); h.TotalCount() != 100 || hits.Load() != 100 {
		t.Fatalf("recorded %d, server saw %d", h.TotalCount(), hits.Load())
	}
}

func TestWarmupTrafficIsSentButNotRecorded(t *testing.T) {
	srv, hits := countingServer(t, nil)
	run := runHTTP(t, fmt.Sprintf(`{"url": %q, "connections": 1, "requests": 20, "warmupSeconds": 0.2}`, srv.URL))
	if h := decodedLatency(t, run); h.TotalCount() != 20 {
		t.Fatalf("recorded %d, want the 20 measured requests", h.TotalCount())
	}
	if hits.Load() <= 20 {
		t.Fatalf("server saw %d requests: no warm-up traffic", hits.Load())
	}
}

func TestStatusCodesAndNon2xx3xxAreCounted(t *testing.T) {
	var i atomic.Int64
	srv, _ := countingServer(t, func(w nethttp.ResponseWriter, r *nethttp.Request) {
		if i.Add(1)%4 == 0 {
			w.WriteHeader(nethttp.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(nethttp.StatusNoContent)
	})
	run := runHTTP(t, fmt.Sprintf(`{"url": %q, "connections": 1, "requests": 40}`, srv.URL))
	f := factsOf(t, run)
	if f.StatusCodes["503"] != 10 || f.StatusCodes["204"] != 30 || f.Non2xx3xx != 10 {
		t.Fatalf("facts %+v", f)
	}
	if e := metric(t, run, "errors").Value; e == nil || *e != 10 {
		t.Fatalf("errors %v", e)
	}
	// Non-2xx/3xx answers are responses: their latency is recorded.
	if h := decodedLatency(t, run); h.TotalCount() != 40 {
		t.Fatalf("count %d", h.TotalCount())
	}
}

func TestAClosedPortIsConnectionRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	run := runHTTP(t, fmt.Sprintf(`{"url": "http://%s/", "connections": 1, "requests": 5}`, addr))
	f := factsOf(t, run)
	if f.TransportErrors["connectionRefused"] != 5 || f.Responses != 0 {
		t.Fatalf("facts %+v", f)
	}
	if e := metric(t, run, "errors").Value; e == nil || *e != 5 {
		t.Fatalf("errors %v", e)
	}
}

func TestAHangingServerIsATimeout(t *testing.T) {
	release := make(chan struct{})
	srv, _ := countingServer(t, func(w nethttp.ResponseWriter, r *nethttp.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	defer close(release)
	for _, h2 := range []bool{false, true} {
		url := srv.URL
		if h2 {
			url = h2cServer(t, func(w nethttp.ResponseWriter, r *nethttp.Request) { <-r.Context().Done() }, nil)
		}
		run := runHTTP(t, fmt.Sprintf(`{"url": %q, "connections": 2, "requests": 2, "timeoutMs": 50, "http2": %v}`, url, h2))
		if f := factsOf(t, run); f.TransportErrors["timeout"] != 2 {
			t.Fatalf("http2=%v: facts %+v", h2, f)
		}
	}
}

func TestBadSettingsNameTheField(t *testing.T) {
	cases := map[string]string{
		`{"url": "ftp://example.com"}`:                       "settings.url:",
		`{"rate": 10, "connections": 5}`:                     "settings.connections:",
		`{"model": "open"}`:                                  "settings.rate:",
		`{"model": "closed", "rate": 5}`:                     "settings.rate:",
		`{"body": "x", "bodySizeBytes": 3}`:                  "settings.bodySizeBytes:",
		`{"bodyFile": "/no/such/file"}`:                      "settings.bodyFile:",
		`{"duration": 1, "requests": 2}`:                     "settings.requests:",
		`{"timeoutMs": 0}`:                                   "settings.timeoutMs:",
		`{"model": "sideways"}`:                              "settings.model:",
		`{"http2": true, "keepAlive": false}`:                "settings.keepAlive:",
		`{"url": "http://x/", "selfTarget": {}}`:             "settings.selfTarget:",
		`{"selfTarget": {"responseBytes": -1}}`:              "settings.selfTarget.responseBytes:",
		`{"colour": "red"}`:                                  "colour",
		`{"headers": {"X-A": 1}}`:                            "settings.headers.X-A:",
		`{"requests": 0}`:                                    "settings.requests:",
		`{"rate": 10, "maxConnections": 0, "model": "open"}`: "settings.maxConnections:",
	}
	for settings, want := range cases {
		_, err := Workload{}.Prepare(json.RawMessage(settings))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want it to name %q", settings, err, want)
		}
	}
	if _, err := (Workload{}).Prepare(nil); err != nil {
		t.Fatalf("the defaults must be valid: %v", err)
	}
}

func TestCancellationStopsRequestsInFlight(t *testing.T) {
	for _, settings := range []string{
		`{"url": %q, "connections": 3, "duration": 600, "timeoutMs": 600000}`,
		`{"url": %q, "rate": 100, "duration": 600, "timeoutMs": 600000}`,
		`{"url": %q, "connections": 3, "duration": 600, "timeoutMs": 600000, "http2": true}`,
	} {
		arrived := make(chan struct{}, 100)
		hang := func(w nethttp.ResponseWriter, r *nethttp.Request) {
			arrived <- struct{}{}
			<-r.Context().Done()
		}
		url := ""
		if strings.Contains(settings, "http2") {
			url = h2cServer(t, hang, nil)
		} else {
			srv, _ := countingServer(t, hang)
			url = srv.URL
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan execute.Outcome, 1)
		go func() { done <- execute.Run(ctx, Workload{}, json.RawMessage(fmt.Sprintf(settings, url)), nil, nil) }()
		<-arrived
		cancel()
		// Without the cancellation closing the connections, this would wait for the 10-minute
		// timeout; the bound here only keeps a broken build from hanging the suite.
		select {
		case outcome := <-done:
			if !errors.Is(outcome.Err, execute.ErrStopped) {
				t.Fatalf("%s: outcome %v, want stopped", settings, outcome.Err)
			}
		case <-time.After(time.Minute):
			t.Fatalf("%s: the run did not stop when cancelled", settings)
		}
	}
}

// h2cServer serves HTTP/2 without TLS (prior knowledge) and reports each request's protocol.
func h2cServer(t *testing.T, handler nethttp.HandlerFunc, protoMajor *atomic.Int64) string {
	srv := httptest.NewServer(h2c.NewHandler(nethttp.HandlerFunc(func(w nethttp.ResponseWriter, r *nethttp.Request) {
		if protoMajor != nil && r.ProtoMajor != 2 {
			protoMajor.Add(1)
		}
		handler(w, r)
	}), &http2.Server{}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestHTTP2WithPriorKnowledgeOverPlainHTTP(t *testing.T) {
	var notH2 atomic.Int64
	var hits atomic.Int64
	url := h2cServer(t, func(w nethttp.ResponseWriter, r *nethttp.Request) { hits.Add(1); _, _ = w.Write([]byte("ok")) }, &notH2)
	run := runHTTP(t, fmt.Sprintf(`{"url": %q, "http2": true, "connections": 4, "requests": 50, "method": "POST", "body": "hello"}`, url))
	if h := decodedLatency(t, run); h.TotalCount() != 50 || hits.Load() != 50 || notH2.Load() != 0 {
		t.Fatalf("recorded %d, server saw %d, %d not over HTTP/2", h.TotalCount(), hits.Load(), notH2.Load())
	}
	if f := factsOf(t, run); f.Protocol != "HTTP/2" || f.StatusCodes["200"] != 50 {
		t.Fatalf("facts %+v", f)
	}
}

func TestHTTP2OverTLSUsesALPN(t *testing.T) {
	var notH2 atomic.Int64
	srv := httptest.NewUnstartedServer(nethttp.HandlerFunc(func(w nethttp.ResponseWriter, r *nethttp.Request) {
		if r.ProtoMajor != 2 {
			notH2.Add(1)
		}
	}))
	srv.EnableHTTP2 = true
	srv.StartTLS()
	t.Cleanup(srv.Close)
	run := runHTTP(t, fmt.Sprintf(`{"url": %q, "http2": true, "insecureSkipVerify": true, "requests": 20}`, srv.URL))
	if h := decodedLatency(t, run); h.TotalCount() != 20 || notH2.Load() != 0 {
		t.Fatalf("recorded %d, %d not over HTTP/2", h.TotalCount(), notH2.Load())
	}
	// And HTTP/1.1 over TLS without http2.
	run = runHTTP(t, fmt.Sprintf(`{"url": %q, "insecureSkipVerify": true, "requests": 20}`, srv.URL))
	if f := factsOf(t, run); f.StatusCodes["200"] != 20 {
		t.Fatalf("https HTTP/1.1: %+v", f)
	}
}

func TestKeepAliveFalseOpensAConnectionPerRequest(t *testing.T) {
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(nethttp.HandlerFunc(func(w nethttp.ResponseWriter, r *nethttp.Request) {}))
	srv.Config.ConnState = func(_ net.Conn, state nethttp.ConnState) {
		if state == nethttp.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	runHTTP(t, fmt.Sprintf(`{"url": %q, "connections": 2, "requests": 30, "keepAlive": false}`, srv.URL))
	if conns.Load() != 30 {
		t.Fatalf("%d connections for 30 requests", conns.Load())
	}
}

func TestSelfTargetNeedsNoURL(t *testing.T) {
	run := runHTTP(t, `{"selfTarget": {"responseBytes": 100}, "requests": 20, "connections": 2}`)
	f := factsOf(t, run)
	if f.StatusCodes["200"] != 20 || f.BytesIn < 20*100 {
		t.Fatalf("facts %+v", f)
	}
	if v := metric(t, run, "bytes_in").Value; v == nil || *v != float64(f.BytesIn)/f.DurationSeconds {
		t.Fatalf("bytes_in %v, facts %d B in %v s", v, f.BytesIn, f.DurationSeconds)
	}
	warned := false
	for _, w := range run.Environment["warnings"].([]string) {
		warned = warned || strings.Contains(w, "selfTarget")
	}
	if !warned {
		t.Fatal("no warning that the target shares the CPU")
	}
	// With http2: the loopback server speaks h2c.
	run = runHTTP(t, `{"selfTarget": {"responseBytes": 10}, "requests": 5, "http2": true}`)
	if f := factsOf(t, run); f.StatusCodes["200"] != 5 || f.Protocol != "HTTP/2" {
		t.Fatalf("facts %+v", f)
	}
}
