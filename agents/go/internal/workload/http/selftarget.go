package http

import (
	"errors"
	"net"
	nethttp "net/http"
	"strconv"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/h2c"
)

// selfServer is the loopback target started when url is left out. It runs in the agent's own
// process, so it takes CPU from the load generator: its figures describe this machine, not a
// real server (the run's environment and warnings say so).
type selfServer struct {
	url    string
	server *nethttp.Server
	done   chan struct{}
}

func startSelfTarget(t *SelfTarget, withH2C bool) (*selfServer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	body := generatedBody(t.ResponseBytes)
	length := strconv.Itoa(len(body))
	delay := time.Duration(t.DelayMs * float64(time.Millisecond))
	var handler nethttp.Handler = nethttp.HandlerFunc(func(w nethttp.ResponseWriter, r *nethttp.Request) {
		if delay > 0 {
			timer := time.NewTimer(delay)
			select {
			case <-timer.C:
			case <-r.Context().Done():
				timer.Stop()
				return
			}
		}
		h := w.Header()
		h["Content-Type"] = []string{"application/octet-stream"}
		h["Content-Length"] = []string{length}
		_, _ = w.Write(body)
	})
	if withH2C {
		handler = h2c.NewHandler(handler, &http2.Server{})
	}
	s := &selfServer{url: "http://" + ln.Addr().String() + "/", server: &nethttp.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		if err := s.server.Serve(ln); err != nil && !errors.Is(err, nethttp.ErrServerClosed) {
			_ = ln.Close()
		}
	}()
	return s, nil
}

func (s *selfServer) close() {
	_ = s.server.Close()
	<-s.done
}
