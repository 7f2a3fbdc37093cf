package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Call names one kind of request; policies and timeouts are per call.
type Call string

const (
	CallRegister  Call = "register"
	CallHeartbeat Call = "heartbeat"
	CallClaim     Call = "claim"
	CallLease     Call = "lease"
	CallReady     Call = "ready"
	CallComplete  Call = "complete"
	CallFail      Call = "fail"
	CallRelease   Call = "release"
)

// DefaultPolicies are sized to what giving up costs.
var DefaultPolicies = map[Call]RetryPolicy{
	// Nothing works without a credential; keep trying while the server is down.
	CallRegister: {Attempts: 0, BaseDelay: time.Second, MaxDelay: time.Minute},
	// The next tick sends another one.
	CallHeartbeat: {Attempts: 3, BaseDelay: 500 * time.Millisecond, MaxDelay: 5 * time.Second},
	// The claim loop asks again after a pause anyway; a few tries ride out a restart.
	CallClaim: {Attempts: 5, BaseDelay: time.Second, MaxDelay: 30 * time.Second},
	// Must land before the lease ends; the next renewal comes a third of a lease later.
	CallLease: {Attempts: 4, BaseDelay: 500 * time.Millisecond, MaxDelay: 5 * time.Second},
	// The group waits for every shard; the next ready call comes a moment later anyway.
	CallReady: {Attempts: 4, BaseDelay: 250 * time.Millisecond, MaxDelay: 2 * time.Second},
	// A measured result (on disk meanwhile): retried until the server takes it.
	CallComplete: {Attempts: 0, BaseDelay: time.Second, MaxDelay: time.Minute},
	CallFail:     {Attempts: 0, BaseDelay: time.Second, MaxDelay: time.Minute},
	// Shutting down: if the server cannot be reached the lease simply expires.
	CallRelease: {Attempts: 3, BaseDelay: 500 * time.Millisecond, MaxDelay: 2 * time.Second},
}

// requestTimeout is how long one request may take before it counts as a network error; a claim
// adds its wait, a complete carries a whole run document and may take longer to store.
var requestTimeout = map[Call]time.Duration{
	CallRegister:  30 * time.Second,
	CallHeartbeat: 15 * time.Second,
	CallClaim:     15 * time.Second, // + the long-poll's wait
	CallLease:     15 * time.Second,
	CallReady:     15 * time.Second,
	CallComplete:  2 * time.Minute,
	CallFail:      30 * time.Second,
	CallRelease:   10 * time.Second,
}

// maxErrorBody bounds how much of an error response is read.
const maxErrorBody = 64 << 10

// Client speaks the agent protocol to one server. It is safe for concurrent use.
type Client struct {
	baseURL   string
	userAgent string
	http      *http.Client
	log       *slog.Logger
	policies  map[Call]RetryPolicy

	mu         sync.RWMutex
	credential string
}

// Options configure a Client; zero fields take defaults.
type Options struct {
	BaseURL string // e.g. http://localhost:3000 (no trailing slash needed)
	Version string // the agent's version, sent as User-Agent "versus-agent/<version> (go)"
	HTTP    *http.Client
	Log     *slog.Logger
	// Policies replaces the default policy of the calls it names (tests use short delays).
	Policies map[Call]RetryPolicy
}

// New returns a client for the server at opts.BaseURL.
func New(opts Options) *Client {
	c := &Client{
		baseURL:   strings.TrimRight(opts.BaseURL, "/"),
		userAgent: fmt.Sprintf("versus-agent/%s (go)", opts.Version),
		http:      opts.HTTP,
		log:       opts.Log,
		policies:  map[Call]RetryPolicy{},
	}
	if c.http == nil {
		// No overall timeout here: each call sets its own through its context.
		c.http = &http.Client{Transport: http.DefaultTransport}
	}
	if c.log == nil {
		c.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	for call, p := range DefaultPolicies {
		c.policies[call] = p
	}
	for call, p := range opts.Policies {
		c.policies[call] = p
	}
	return c
}

// SetCredential sets the vsag_… credential sent on every call but register.
func (c *Client) SetCredential(credential string) {
	c.mu.Lock()
	c.credential = credential
	c.mu.Unlock()
}

func (c *Client) bearer() string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.credential
}

// request is one call: what to send and where its answer goes.
type request struct {
	call    Call
	path    string
	bearer  string // overrides the credential (register sends the enrollment token)
	body    any
	out     any // decoded from a 2xx body; untouched on 204
	timeout time.Duration
}

// do sends the request under its call's retry policy; it reports whether a body came (false on
// 204).
func (c *Client) do(ctx context.Context, r request) (bool, error) {
	payload, err := json.Marshal(r.body)
	if err != nil {
		return false, fmt.Errorf("%s: encoding the request: %w", r.call, err)
	}
	if r.timeout == 0 {
		r.timeout = requestTimeout[r.call]
	}
	return withRetry(ctx, c.policies[r.call], func() (bool, error) { return c.send(ctx, r, payload) },
		func(err error, attempt int, delay time.Duration) {
			c.log.Warn("api.retry", "call", string(r.call), "attempt", attempt, "delay_ms", delay.Milliseconds(), "error", err.Error())
		})
}

func (c *Client) send(ctx context.Context, r request, payload []byte) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.baseURL+r.path, bytes.NewReader(payload))
	if err != nil {
		return false, fmt.Errorf("%s: %w", r.call, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	bearer := r.bearer
	if bearer == "" {
		bearer = c.bearer()
	}
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return false, networkError(r.call, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return false, errorForResponse(r.call, resp)
	}
	if resp.StatusCode == http.StatusNoContent {
		return false, nil
	}
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return false, &Error{Call: string(r.call), Message: "the response broke off: " + describe(err), kind: ErrUnavailable}
	}
	if r.out != nil && len(bytes.TrimSpace(data)) > 0 {
		if err := json.Unmarshal(data, r.out); err != nil {
			return false, fmt.Errorf("%s: unexpected response from the server: %w", r.call, err)
		}
	}
	return true, nil
}

// errorForResponse reads the {"error": {code, message, details}} body of a failed call.
func errorForResponse(call Call, resp *http.Response) *Error {
	e := &Error{Call: string(call), Status: resp.StatusCode, RetryAfter: parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()), kind: kindOf(resp.StatusCode)}
	data, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	var body ErrorBody
	if json.Unmarshal(data, &body) == nil && body.Error != nil {
		e.Code, e.Message, e.Details = body.Error.Code, body.Error.Message, body.Error.Details
	} else if text := strings.TrimSpace(string(data)); text != "" {
		if len(text) > 200 {
			text = text[:200]
		}
		e.Message = text
	}
	return e
}

// networkError is a request that got no answer. The caller's own cancellation (shutdown) is
// passed through as it is: it is not an outage and must not be retried.
func networkError(call Call, err error) error {
	if errors.Is(err, context.Canceled) {
		return err
	}
	return &Error{Call: string(call), Message: describe(err), kind: ErrUnavailable}
}

func describe(err error) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return "no answer in time"
	}
	return err.Error()
}
