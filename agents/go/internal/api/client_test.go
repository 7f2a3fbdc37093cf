package api

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/versus/agents/go/internal/result"
)

func fast() map[Call]RetryPolicy {
	out := map[Call]RetryPolicy{}
	for c, p := range DefaultPolicies {
		out[c] = RetryPolicy{Attempts: p.Attempts, BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond}
	}
	return out
}

// server answers each request with the next of answers (status, body); the last one repeats.
func server(t *testing.T, answers ...[2]any) (*Client, *atomic.Int32) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		if i >= len(answers) {
			i = len(answers) - 1
		}
		w.WriteHeader(answers[i][0].(int))
		_, _ = w.Write([]byte(answers[i][1].(string)))
	}))
	t.Cleanup(srv.Close)
	return New(Options{BaseURL: srv.URL, Version: "t", Policies: fast()}), &n
}

func TestEachStatusIsItsKind(t *testing.T) {
	for status, kind := range map[int]error{401: ErrUnauthorized, 404: ErrNotFound, 409: ErrConflict, 400: ErrRejected, 413: ErrRejected, 422: ErrRejected} {
		c, calls := server(t, [2]any{status, `{"error":{"code":"X","message":"server says no","details":{"fields":{"run.metrics.0.unit":"bad"}}}}`})
		_, err := c.Complete(context.Background(), "j1", "vlease_1", result.Run{})
		if !errors.Is(err, kind) {
			t.Errorf("%d: got %v, want %v", status, err, kind)
		}
		var apiErr *Error
		if !errors.As(err, &apiErr) || apiErr.Message != "server says no" || apiErr.Details["fields"] == nil || !strings.Contains(err.Error(), "HTTP") {
			t.Errorf("%d: error %#v", status, err)
		}
		if calls.Load() != 1 {
			t.Errorf("%d: %d calls, want 1 (never retried as is)", status, calls.Load())
		}
	}
}

func TestOutagesAreRetriedUntilAcknowledged(t *testing.T) {
	c, calls := server(t, [2]any{503, `{"error":{"message":"db down"}}`}, [2]any{502, "Bad Gateway"}, [2]any{201, `{"run":{"id":"r1"},"replayed":false}`})
	answer, err := c.Complete(context.Background(), "j1", "vlease_1", result.Run{})
	if err != nil || answer.Run.ID != "r1" || calls.Load() != 3 {
		t.Fatalf("answer %+v, err %v, calls %d", answer, err, calls.Load())
	}
}

func TestAModestPolicyGivesUp(t *testing.T) {
	c, calls := server(t, [2]any{503, ""})
	_, err := c.Heartbeat(context.Background(), HeartbeatRequest{})
	if !errors.Is(err, ErrUnavailable) || !Retryable(err) || calls.Load() != int32(DefaultPolicies[CallHeartbeat].Attempts) {
		t.Fatalf("err %v after %d calls", err, calls.Load())
	}
}

func TestAnEmptyClaimIsNoJobAndAnUnreadableOneNamesTheJob(t *testing.T) {
	c, _ := server(t, [2]any{204, ""}, [2]any{200, `{"job":{"id":"j9","leaseToken":"vlease_9","workload":{}}}`})
	job, err := c.Claim(context.Background(), time.Second)
	if job != nil || err != nil {
		t.Fatalf("204: job %v err %v", job, err)
	}
	_, err = c.Claim(context.Background(), time.Second)
	var unreadable *UnreadableJobError
	if !errors.As(err, &unreadable) || unreadable.JobID != "j9" || !strings.Contains(unreadable.Problem, "job.workload.name") {
		t.Fatalf("got %v", err)
	}
}

func TestNetworkErrorsAreRetryableAndCancellationIsNot(t *testing.T) {
	c := New(Options{BaseURL: "http://127.0.0.1:1", Version: "t", Policies: fast()})
	_, err := c.RenewLease(context.Background(), "j", "l")
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("got %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Claim(ctx, time.Second); !errors.Is(err, context.Canceled) || Retryable(err) {
		t.Fatalf("a cancelled claim: got %v, want context.Canceled and not retryable", err)
	}
}

func TestBackoffGrowsWithinItsBounds(t *testing.T) {
	p := RetryPolicy{BaseDelay: 100 * time.Millisecond, MaxDelay: time.Second}
	for retry, ceiling := range []time.Duration{100, 200, 400, 800, 1000, 1000} {
		ceiling *= time.Millisecond
		for i := 0; i < 20; i++ {
			if d := p.Backoff(retry); d < ceiling/2 || d > ceiling {
				t.Fatalf("retry %d: %v outside [%v, %v]", retry, d, ceiling/2, ceiling)
			}
		}
	}
	if d := p.Backoff(1000); d > time.Second {
		t.Fatalf("a late retry waits %v", d)
	}
}

func TestA503WaitsTheServersRetryAfter(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(503)
			_, _ = w.Write([]byte(`{"error":{"code":"UNAVAILABLE","message":"The database is unavailable right now"}}`))
			return
		}
		w.WriteHeader(201)
		_, _ = w.Write([]byte(`{"run":{"id":"r1"},"replayed":false}`))
	}))
	t.Cleanup(srv.Close)
	var logged strings.Builder
	c := New(Options{BaseURL: srv.URL, Version: "t", Policies: fast(), Log: slog.New(slog.NewTextHandler(&logged, nil))})
	answer, err := c.Complete(context.Background(), "j1", "vlease_1", result.Run{})
	if err != nil || answer.Run.ID != "r1" || calls.Load() != 2 {
		t.Fatalf("answer %+v, err %v, calls %d", answer, err, calls.Load())
	}
	// The policy's backoff is a few milliseconds; the server asked for a second.
	if !strings.Contains(logged.String(), "msg=api.retry call=complete attempt=1 delay_ms=1000 ") {
		t.Fatalf("log: %s", logged.String())
	}
}

func TestRetryAfterIsReadAndBounded(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for header, want := range map[string]time.Duration{
		"5":                             5 * time.Second,
		" 0 ":                           0,
		"Thu, 01 Jan 2026 00:00:07 GMT": 7 * time.Second,
		"Wed, 31 Dec 2025 23:59:00 GMT": 0, // already past
		"86400":                         MaxRetryAfter,
		"":                              0,
		"soon":                          0,
		"-5":                            0,
		"1.5":                           0,
	} {
		if got := parseRetryAfter(header, now); got != want {
			t.Errorf("Retry-After %q: got %v, want %v", header, got, want)
		}
	}
}

func TestRetryDelayIsTheLongerOfBackoffAndRetryAfter(t *testing.T) {
	p := RetryPolicy{BaseDelay: time.Millisecond, MaxDelay: 2 * time.Millisecond}
	asked := &Error{Call: "claim", Status: 503, RetryAfter: 3 * time.Second, kind: ErrUnavailable}
	if d := retryDelay(p, 0, asked); d != 3*time.Second {
		t.Fatalf("got %v, want the server's 3s", d)
	}
	if d := retryDelay(RetryPolicy{BaseDelay: time.Minute, MaxDelay: time.Minute}, 0, asked); d < 30*time.Second {
		t.Fatalf("got %v, want the longer backoff", d)
	}
	if d := retryDelay(p, 0, &Error{Call: "claim", kind: ErrUnavailable}); d > 2*time.Millisecond {
		t.Fatalf("got %v without Retry-After", d)
	}
}
