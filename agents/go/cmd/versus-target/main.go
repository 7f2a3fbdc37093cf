// versus-target is the loopback HTTP server the http-load benchmarks (bench/http-load.ts and
// bench/http-stall.ts) aim wrk and versus-agent at: a fixed small body, as little work per request
// as net/http allows, so the load generators (not the target) are what the benchmark compares.
// With -stall-every and -stall-for it holds every response during a window (a server stall, e.g. a
// GC pause or a lock), which a closed-model load generator hides and an open-model one sees.
// With -metrics it also serves client_golang's process and Go metrics at /metrics, and -burn keeps
// a known share of one core busy: the target the probe tests measure (internal/probe).
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on (port 0: any free port)")
	size := flag.Int("body", 13, "response body size in bytes")
	stallEvery := flag.Duration("stall-every", 0, "hold all responses for -stall-for once per this period (0: never)")
	stallFor := flag.Duration("stall-for", time.Second, "how long each stall lasts")
	metrics := flag.Bool("metrics", false, "serve the process's and Go's metrics at /metrics (Prometheus text or OpenMetrics)")
	burn := flag.Float64("burn", 0, "keep this share of one core busy (0 – 1), in 10 ms slices")
	flag.Parse()
	if *burn < 0 || *burn > 1 {
		fmt.Fprintln(os.Stderr, "versus-target: -burn must be from 0 to 1")
		os.Exit(2)
	}

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "versus-target:", err)
		os.Exit(1)
	}
	// The bench script reads the address from the first line.
	fmt.Printf("listening on http://%s/\n", ln.Addr())
	body := make([]byte, *size)
	for i := range body {
		body[i] = 'x'
	}
	length := strconv.Itoa(len(body))
	started := time.Now()
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if *stallEvery > 0 {
			// Inside a stall window every request waits for its end, as behind a stopped world.
			since := time.Since(started) % *stallEvery
			if wait := *stallEvery - *stallFor; since >= wait {
				time.Sleep(*stallEvery - since)
			}
		}
		h := w.Header()
		h["Content-Type"] = []string{"text/plain"}
		h["Content-Length"] = []string{length}
		_, _ = w.Write(body)
	})
	var root http.Handler = handler
	if *metrics {
		registry := prometheus.NewRegistry()
		registry.MustRegister(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), collectors.NewGoCollector())
		mux := http.NewServeMux()
		mux.Handle("/metrics", promhttp.HandlerFor(registry, promhttp.HandlerOpts{EnableOpenMetrics: true}))
		mux.Handle("/", handler)
		root = mux
	}
	if *burn > 0 {
		go burnCPU(*burn)
	}
	server := &http.Server{Handler: root, ReadHeaderTimeout: 10 * time.Second}
	if err := server.Serve(ln); err != nil {
		fmt.Fprintln(os.Stderr, "versus-target:", err)
		os.Exit(1)
	}
}

// burnCPU spins for share × 10 ms of every 10 ms, forever.
func burnCPU(share float64) {
	const slice = 10 * time.Millisecond
	busy := time.Duration(share * float64(slice))
	next := time.Now()
	for {
		next = next.Add(slice)
		for time.Until(next) > slice-busy {
		}
		time.Sleep(time.Until(next))
	}
}
