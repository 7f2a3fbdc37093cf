package api

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// RetryPolicy is how one kind of call is retried on ErrUnavailable (never sooner than the
// server's Retry-After: see retryDelay), sized to what is lost if it
// gives up: a heartbeat is sent again at the next tick anyway, a result is never given up on.
// Anything else (401, 404, 409, other 4xx) is an answer, not an outage, and is not retried.
type RetryPolicy struct {
	// Attempts in all, the first included; 0 retries until the context ends.
	Attempts int
	// BaseDelay is the delay before the first retry; it doubles on each retry up to MaxDelay.
	BaseDelay time.Duration
	MaxDelay  time.Duration
}

// Backoff is the delay before retry number `retry` (0-based): half fixed, half random ("equal
// jitter"), so a fleet of agents coming back from an outage does not call in step.
func (p RetryPolicy) Backoff(retry int) time.Duration {
	ceiling := p.MaxDelay
	if retry < 30 {
		if d := p.BaseDelay << retry; d > 0 && d < ceiling {
			ceiling = d
		}
	}
	half := ceiling / 2
	if half <= 0 {
		return ceiling
	}
	return half + rand.N(half+1)
}

// MaxRetryAfter is the longest Retry-After honoured: a wrong header must not park a call for hours.
const MaxRetryAfter = 5 * time.Minute

var wholeSeconds = regexp.MustCompile(`^[0-9]+$`)

// parseRetryAfter reads a Retry-After header (whole seconds, or an HTTP date) as a wait from
// now, at most MaxRetryAfter; 0 when it is absent or unreadable.
func parseRetryAfter(header string, now time.Time) time.Duration {
	text := strings.TrimSpace(header)
	var d time.Duration
	switch {
	case text == "":
		return 0
	case wholeSeconds.MatchString(text):
		seconds, err := strconv.ParseInt(text, 10, 64)
		if err != nil || seconds > int64(MaxRetryAfter/time.Second) {
			return MaxRetryAfter
		}
		d = time.Duration(seconds) * time.Second
	default:
		at, err := http.ParseTime(text)
		if err != nil {
			return 0
		}
		d = at.Sub(now)
	}
	return min(max(d, 0), MaxRetryAfter)
}

// retryDelay is the wait before retry number `retry` (0-based) after err: the policy's backoff,
// or the server's Retry-After when that is longer.
func retryDelay(p RetryPolicy, retry int, err error) time.Duration {
	delay := p.Backoff(retry)
	var apiErr *Error
	if errors.As(err, &apiErr) && apiErr.RetryAfter > delay {
		delay = apiErr.RetryAfter
	}
	return delay
}

// withRetry runs fn until it succeeds, fails with an error that is not retryable, runs out of
// attempts, or ctx ends (then the last error is returned).
func withRetry[T any](ctx context.Context, p RetryPolicy, fn func() (T, error), onRetry func(err error, attempt int, delay time.Duration)) (T, error) {
	for attempt := 1; ; attempt++ {
		v, err := fn()
		if err == nil || !Retryable(err) || (p.Attempts > 0 && attempt >= p.Attempts) || ctx.Err() != nil {
			return v, err
		}
		delay := retryDelay(p, attempt-1, err)
		if onRetry != nil {
			onRetry(err, attempt, delay)
		}
		timer := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			timer.Stop()
			return v, err
		case <-timer.C:
		}
	}
}
