package target

import (
	"context"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
)

// workerPool is --workers: at most that many requests (HTTP requests and gRPC calls alike) are
// answered at once, as a server's fixed pool of request threads would (Tomcat's maxThreads); the
// rest wait for a free worker, and the wait is part of their latency. It makes one instance
// saturate at a constant arrival rate, so two instances behind --upstream show the scale-out.
// Its gauges are on /metrics whatever the size (busy then counts the requests in flight).
type workerPool struct {
	slots   chan struct{} // nil: no limit
	busy    prometheus.Gauge
	waiting prometheus.Gauge
}

func newWorkerPool(size int, registry prometheus.Registerer) *workerPool {
	p := &workerPool{
		busy:    prometheus.NewGauge(prometheus.GaugeOpts{Name: "versus_target_workers_busy", Help: "Requests and gRPC calls being answered now (at most --workers when it is set)."}),
		waiting: prometheus.NewGauge(prometheus.GaugeOpts{Name: "versus_target_requests_waiting", Help: "Requests and gRPC calls waiting for a free worker (--workers)."}),
	}
	if size > 0 {
		p.slots = make(chan struct{}, size)
	}
	registry.MustRegister(p.busy, p.waiting)
	return p
}

// acquire waits for a free worker; false when ctx ended first (the client went away).
func (p *workerPool) acquire(ctx context.Context) bool {
	if p.slots != nil {
		select {
		case p.slots <- struct{}{}:
		default:
			p.waiting.Inc()
			select {
			case p.slots <- struct{}{}:
				p.waiting.Dec()
			case <-ctx.Done():
				p.waiting.Dec()
				return false
			}
		}
	}
	p.busy.Inc()
	return true
}

func (p *workerPool) release() {
	p.busy.Dec()
	if p.slots != nil {
		<-p.slots
	}
}

// limit answers each request on a worker of the pool.
func (p *workerPool) limit(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !p.acquire(r.Context()) {
			return
		}
		defer p.release()
		next.ServeHTTP(w, r)
	})
}
