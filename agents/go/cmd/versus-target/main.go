// versus-target is the loopback HTTP server the http-load benchmarks (bench/http-load.ts and
// bench/http-stall.ts) aim wrk and versus-agent at: a fixed small body, as little work per request
// as net/http allows, so the load generators (not the target) are what the benchmark compares.
// With -stall-every and -stall-for it holds every response during a window (a server stall, e.g. a
// GC pause or a lock), which a closed-model load generator hides and an open-model one sees.
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on (port 0: any free port)")
	size := flag.Int("body", 13, "response body size in bytes")
	stallEvery := flag.Duration("stall-every", 0, "hold all responses for -stall-for once per this period (0: never)")
	stallFor := flag.Duration("stall-for", time.Second, "how long each stall lasts")
	flag.Parse()

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
	server := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	if err := server.Serve(ln); err != nil {
		fmt.Fprintln(os.Stderr, "versus-target:", err)
		os.Exit(1)
	}
}
