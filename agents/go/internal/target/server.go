// Package target is the system under test Versus ships: `versus-agent target` (and
// cmd/versus-target, which the http-load benchmarks and the probe tests start). It answers the
// requests the bundled experiments send (a fixed small answer, payloads as binary or base64 JSON,
// a product list behind a database-like delay and an optional cache), balances over other targets
// with --upstream, and serves client_golang's process and Go metrics at /metrics for probes.
package target

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// NewHandler is the target's HTTP handler for the options (already checked by ParseOptions).
func NewHandler(o Options) http.Handler {
	registry := prometheus.NewRegistry()
	registry.MustRegister(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), collectors.NewGoCollector())

	mux := http.NewServeMux()
	if len(o.Upstreams) > 0 {
		mux.Handle("/", newBalancer(o.Upstreams, registry))
	} else {
		mux.Handle("/{$}", fixedAnswer(o.Body))
		payloads := newPayloads(o.PayloadSize)
		mux.HandleFunc("GET /payload/binary", payloads.getBinary)
		mux.HandleFunc("POST /payload/binary", payloads.postBinary)
		mux.HandleFunc("GET /payload/json", payloads.getJSON)
		mux.HandleFunc("POST /payload/json", payloads.postJSON)
		mux.Handle("GET /products", newProducts(o, registry))
	}
	var root http.Handler = mux
	if o.StallEvery > 0 {
		root = stalling(root, time.Now(), o.StallEvery, o.StallFor)
	}
	if !o.Metrics {
		return root
	}
	// /metrics answers outside the stall, so a probe reads the target while it holds requests.
	outer := http.NewServeMux()
	outer.Handle("GET /metrics", promhttp.HandlerFor(registry, promhttp.HandlerOpts{EnableOpenMetrics: true}))
	outer.Handle("/", root)
	return outer
}

// fixedAnswer is the cheapest answer net/http gives: the http-load benchmarks compare load
// generators against it, so the target should cost as little as it can.
func fixedAnswer(size int) http.Handler {
	body := make([]byte, size)
	for i := range body {
		body[i] = 'x'
	}
	contentType, length := []string{"text/plain"}, []string{itoa(len(body))}
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		h := w.Header()
		h["Content-Type"] = contentType
		h["Content-Length"] = length
		_, _ = w.Write(body)
	})
}

// stalling holds every request that arrives inside a stall window until the window ends, as a
// stopped world would: a closed-model load generator hides it, an open-model one sees it.
func stalling(next http.Handler, started time.Time, every, hold time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		since := time.Since(started) % every
		if since >= every-hold {
			time.Sleep(every - since)
		}
		next.ServeHTTP(w, r)
	})
}

// burnCPU spins for share × 10 ms of every 10 ms until stop is closed.
func burnCPU(share float64, stop <-chan struct{}) {
	const slice = 10 * time.Millisecond
	busy := time.Duration(share * float64(slice))
	next := time.Now()
	for {
		select {
		case <-stop:
			return
		default:
		}
		next = next.Add(slice)
		for time.Until(next) > slice-busy {
		}
		time.Sleep(time.Until(next))
	}
}
