package http

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	nethttp "net/http"
	"net/url"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/valyala/fasthttp"
	"github.com/versus/agents/go/internal/workload/loadgen"
	"golang.org/x/net/http2"
)

// transport is the connection pool the workers' senders share. Each worker goroutine has its own
// sender (request and response buffers are reused, never shared).
type transport interface {
	newSender() loadgen.Sender
	// closeAll closes every connection, so that requests in flight return at once (cancellation).
	closeAll()
}

// Why two clients. HTTP/1.1 goes through valyala/fasthttp: on this 2-core loopback test (load
// generator and target on the same CPUs), net/http's client reached 0.6–0.7 of wrk's req/s and
// fasthttp 0.8–0.95 (bench/http-load.ts prints the figures), because net/http allocates a request,
// a response, header maps and a body reader per request and fasthttp reuses its buffers. HTTP/2
// goes through net/http with golang.org/x/net/http2 (fasthttp has no HTTP/2 client).
var (
	_ transport      = (*fastTransport)(nil)
	_ transport      = (*h2Transport)(nil)
	_ loadgen.Sender = (*fastSender)(nil)
	_ loadgen.Sender = (*h2Sender)(nil)
)

func newTransport(p *plan, target *url.URL, maxConns int, wire *loadgen.Wire) transport {
	tlsConfig := &tls.Config{InsecureSkipVerify: p.InsecureSkipVerify, ServerName: target.Hostname()} //nolint:gosec // the user asked for it (self-signed targets)
	if p.HTTP2 {
		return newH2Transport(p, target, tlsConfig, wire)
	}
	return newFastTransport(p, target, maxConns, tlsConfig, wire)
}

// ---- HTTP/1.1: fasthttp

type fastTransport struct {
	client *fasthttp.HostClient
	plan   *plan
	target string
	conns  *connSet
}

func newFastTransport(p *plan, target *url.URL, maxConns int, tlsConfig *tls.Config, wire *loadgen.Wire) *fastTransport {
	conns := &connSet{conns: map[net.Conn]struct{}{}}
	dialer := &net.Dialer{Timeout: p.timeout}
	addr := hostPort(target)
	client := &fasthttp.HostClient{
		Addr:      addr,
		IsTLS:     target.Scheme == "https",
		TLSConfig: tlsConfig,
		MaxConns:  maxConns,
		Dial: func(string) (net.Conn, error) {
			c, err := dialer.Dial("tcp", addr)
			if err != nil {
				return nil, err
			}
			return conns.add(wire.Count(c)), nil
		},
		// A failed request is an error to count, never something to hide behind a retry.
		MaxIdemponentCallAttempts: 1,
		RetryIfErr:                func(*fasthttp.Request, int, error) (bool, bool) { return false, false },
		NoDefaultUserAgentHeader:  true,
		DisablePathNormalizing:    true,
		MaxIdleConnDuration:       time.Minute,
	}
	return &fastTransport{client: client, plan: p, target: target.String(), conns: conns}
}

func (t *fastTransport) newSender() loadgen.Sender {
	req := fasthttp.AcquireRequest()
	req.SetRequestURI(t.target)
	req.Header.SetMethod(t.plan.Method)
	req.Header.Set("User-Agent", userAgent)
	if t.plan.contentType != "" {
		req.Header.SetContentType(t.plan.contentType)
	}
	for name, value := range t.plan.Headers {
		req.Header.Set(name, value)
	}
	if t.plan.body != nil {
		req.SetBodyRaw(t.plan.body)
	}
	if !t.plan.KeepAlive {
		req.SetConnectionClose()
	}
	return &fastSender{t: t, req: req, resp: fasthttp.AcquireResponse()}
}

func (t *fastTransport) closeAll() { t.conns.closeAll() }

type fastSender struct {
	t    *fastTransport
	req  *fasthttp.Request
	resp *fasthttp.Response
}

func (s *fastSender) Send() (int, error) {
	if err := s.t.client.DoTimeout(s.req, s.resp, s.t.plan.timeout); err != nil {
		return 0, err
	}
	return s.resp.StatusCode(), nil
}

// ---- HTTP/2: net/http + x/net/http2 (ALPN over TLS, or h2c with prior knowledge)

type h2Transport struct {
	client *nethttp.Client
	h2     *http2.Transport
	plan   *plan
	target string
	conns  *connSet
	ctx    context.Context
	cancel context.CancelFunc
}

func newH2Transport(p *plan, target *url.URL, tlsConfig *tls.Config, wire *loadgen.Wire) *h2Transport {
	conns := &connSet{conns: map[net.Conn]struct{}{}}
	dialer := &net.Dialer{Timeout: p.timeout}
	tlsConfig.NextProtos = []string{http2.NextProtoTLS}
	h2 := &http2.Transport{
		AllowHTTP:          target.Scheme == "http",
		DisableCompression: true,
		DialTLSContext: func(ctx context.Context, network, addr string, _ *tls.Config) (net.Conn, error) {
			raw, err := dialer.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			// Counted below TLS: bytes on the wire.
			c := wire.Count(raw)
			if target.Scheme == "https" {
				tc := tls.Client(c, tlsConfig)
				if err := tc.HandshakeContext(ctx); err != nil {
					_ = c.Close()
					return nil, err
				}
				if proto := tc.ConnectionState().NegotiatedProtocol; proto != http2.NextProtoTLS {
					_ = tc.Close()
					return nil, fmt.Errorf("the server did not agree to HTTP/2 in ALPN (negotiated %q)", proto)
				}
				c = tc
			}
			return conns.add(c), nil
		},
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &h2Transport{client: &nethttp.Client{Transport: h2, Timeout: p.timeout}, h2: h2, plan: p, target: target.String(), conns: conns, ctx: ctx, cancel: cancel}
}

func (t *h2Transport) newSender() loadgen.Sender {
	header := nethttp.Header{"User-Agent": {userAgent}}
	if t.plan.contentType != "" {
		header.Set("Content-Type", t.plan.contentType)
	}
	for name, value := range t.plan.Headers {
		header.Set(name, value)
	}
	return &h2Sender{t: t, header: header, buf: make([]byte, 32*1024)}
}

func (t *h2Transport) closeAll() {
	t.cancel()
	t.conns.closeAll()
	t.h2.CloseIdleConnections()
}

type h2Sender struct {
	t      *h2Transport
	header nethttp.Header
	buf    []byte
}

func (s *h2Sender) Send() (int, error) {
	var body io.Reader
	if s.t.plan.body != nil {
		body = bytes.NewReader(s.t.plan.body)
	}
	req, err := nethttp.NewRequestWithContext(s.t.ctx, s.t.plan.Method, s.t.target, body)
	if err != nil {
		return 0, err
	}
	req.Header = s.header
	resp, err := s.t.client.Do(req)
	if err != nil {
		return 0, err
	}
	_, err = io.CopyBuffer(io.Discard, resp.Body, s.buf)
	_ = resp.Body.Close()
	if err != nil {
		return 0, err
	}
	return resp.StatusCode, nil
}

// ---- shared: wire bytes, the connection set, error kinds

const userAgent = "versus-agent"

// connSet knows the open connections so cancellation can close them under requests in flight
// (fasthttp takes no context).
type connSet struct {
	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	closed bool
}

func (s *connSet) add(c net.Conn) net.Conn {
	tracked := &trackedConn{Conn: c, set: s}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		_ = c.Close()
		return tracked
	}
	s.conns[tracked] = struct{}{}
	return tracked
}

func (s *connSet) remove(c net.Conn) {
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
}

func (s *connSet) closeAll() {
	s.mu.Lock()
	s.closed = true
	conns := s.conns
	s.conns = map[net.Conn]struct{}{}
	s.mu.Unlock()
	for c := range conns {
		_ = c.(*trackedConn).Conn.Close()
	}
}

type trackedConn struct {
	net.Conn
	set  *connSet
	once sync.Once
}

func (c *trackedConn) Close() error {
	c.once.Do(func() { c.set.remove(c) })
	return c.Conn.Close()
}

// The kinds of transport error the run reports (indexes into errorKindNames).
const (
	errTimeout = iota
	errRefused
	errReset
	errOther
)

var errorKindNames = []string{"timeout", "connectionRefused", "reset", "other"}

// classify sorts a transport error into one of errorKindNames.
func classify(err error) int {
	var netErr net.Error
	switch {
	case errors.Is(err, fasthttp.ErrTimeout), errors.Is(err, fasthttp.ErrDialTimeout), errors.Is(err, context.DeadlineExceeded),
		errors.Is(err, os.ErrDeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return errTimeout
	case errors.Is(err, syscall.ECONNREFUSED):
		return errRefused
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, fasthttp.ErrConnectionClosed):
		return errReset
	default:
		return errOther
	}
}

func hostPort(u *url.URL) string {
	if u.Port() != "" {
		return u.Host
	}
	if u.Scheme == "https" {
		return net.JoinHostPort(u.Hostname(), "443")
	}
	return net.JoinHostPort(u.Hostname(), "80")
}
