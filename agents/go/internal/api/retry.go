package api

import (
	"context"
	"math/rand/v2"
	"time"
)

// RetryPolicy is how one kind of call is retried on ErrUnavailable, sized to what is lost if it
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

// withRetry runs fn until it succeeds, fails with an error that is not retryable, runs out of
// attempts, or ctx ends (then the last error is returned).
func withRetry[T any](ctx context.Context, p RetryPolicy, fn func() (T, error), onRetry func(err error, attempt int, delay time.Duration)) (T, error) {
	for attempt := 1; ; attempt++ {
		v, err := fn()
		if err == nil || !Retryable(err) || (p.Attempts > 0 && attempt >= p.Attempts) || ctx.Err() != nil {
			return v, err
		}
		delay := p.Backoff(attempt - 1)
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
