// Package target is the system under test Versus ships: `versus-agent target` (and
// cmd/versus-target, which the http-load benchmarks and the probe tests start). It answers the
// requests the bundled experiments send (a fixed small answer, payloads as binary or base64 JSON,
// a product list behind a database-like delay and an optional cache), with --grpc-addr the same
// payloads over gRPC (grpc.go, payload.proto), balances over other targets
// with --upstream, with --s3 serves the S3 API instead (s3.go), and serves client_golang's process and Go metrics at /metrics for probes.
package target

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// NewHandler is the target's HTTP handler for the options (already checked by ParseOptions).
func NewHandler(o Options) http.Handler { return newParts(o).handler() }

// parts are what the HTTP handler and the gRPC server of one target share: the registry /metrics
// serves, the stall windows' clock and the payload bytes.
type parts struct {
	o        Options
	registry *prometheus.Registry
	started  time.Time
	payloads *payloads
	workers  *workerPool // --workers, shared by HTTP and gRPC
}

func newParts(o Options) *parts {
	registry := prometheus.NewRegistry()
	registry.MustRegister(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), collectors.NewGoCollector())
	return &parts{o: o, registry: registry, started: time.Now(), payloads: newPayloads(o.PayloadSize), workers: newWorkerPool(o.Workers, registry)}
}

func (p *parts) handler() http.Handler {
	o := p.o
	mux := http.NewServeMux()
	switch {
	case o.S3:
		mux.Handle("/", newS3(o, p.registry))
	case len(o.Upstreams) > 0:
		mux.Handle("/", newBalancer(o.Upstreams, p.registry))
	default:
		mux.Handle("/{$}", fixedAnswer(o.Body))
		mux.HandleFunc("GET /payload/binary", p.payloads.getBinary)
		mux.HandleFunc("POST /payload/binary", p.payloads.postBinary)
		mux.HandleFunc("GET /payload/json", p.payloads.getJSON)
		mux.HandleFunc("POST /payload/json", p.payloads.postJSON)
		mux.Handle("GET /products", newProducts(o, p.registry))
	}
	var root http.Handler = mux
	if o.StallEvery > 0 {
		root = stalling(root, p.stallLeft)
	}
	// A stalled request holds its worker, as a request thread stopped with the world would.
	root = p.workers.limit(root)
	if !o.Metrics {
		return root
	}
	// /metrics answers outside the stall, so a probe reads the target while it holds requests.
	outer := http.NewServeMux()
	outer.Handle("GET /metrics", promhttp.HandlerFor(p.registry, promhttp.HandlerOpts{EnableOpenMetrics: true}))
	outer.Handle("/", root)
	return outer
}

// stallLeft is how long a request arriving now waits: the rest of the stall window it falls in
// (0 outside one, or without --stall-every).
func (p *parts) stallLeft() time.Duration {
	every, hold := p.o.StallEvery, p.o.StallFor
	if every <= 0 {
		return 0
	}
	if since := time.Since(p.started) % every; since >= every-hold {
		return every - since
	}
	return 0
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
func stalling(next http.Handler, left func() time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(left())
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
