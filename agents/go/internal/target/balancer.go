package target

import (
	"fmt"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
)

// newBalancer passes each request to the next upstream in turn (round robin), as the load
// balancer in front of the scale-out test's instances. Requests passed and failures are counted
// per upstream on /metrics (versus_target_upstream_requests_total, …_errors_total).
func newBalancer(upstreams []*url.URL, registry prometheus.Registerer) http.Handler {
	requests := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "versus_target_upstream_requests_total", Help: "Requests passed to each upstream."}, []string{"upstream"})
	failures := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "versus_target_upstream_errors_total", Help: "Requests an upstream did not answer (the client got 502)."}, []string{"upstream"})
	registry.MustRegister(requests, failures)

	transport := http.DefaultTransport.(*http.Transport).Clone()
	// The default keeps 2 idle connections per host: under load the balancer would open and
	// close connections all the time and measure that instead of the instances.
	transport.MaxIdleConns = 0
	transport.MaxIdleConnsPerHost = 1024

	var next atomic.Uint64
	return &httputil.ReverseProxy{
		Transport: transport,
		Rewrite: func(r *httputil.ProxyRequest) {
			upstream := upstreams[(next.Add(1)-1)%uint64(len(upstreams))]
			r.SetURL(upstream)
			r.SetXForwarded()
			requests.WithLabelValues(upstream.String()).Inc()
		},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			upstream := r.URL.Scheme + "://" + r.URL.Host
			for _, u := range upstreams {
				if u.Host == r.URL.Host && u.Scheme == r.URL.Scheme {
					upstream = u.String()
				}
			}
			failures.WithLabelValues(upstream).Inc()
			problem(w, http.StatusBadGateway, fmt.Sprintf("upstream %s did not answer: %v", upstream, err))
		},
	}
}
