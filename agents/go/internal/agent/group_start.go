package agent

import (
	"context"
	"time"

	"github.com/versus/agents/go/internal/api"
)

// readyCall is Client.Ready bound to one job.
type readyCall func(ctx context.Context, body api.ReadyRequest) (*api.ReadyResponse, error)

// groupStart is when a job group's shard starts its load, on this agent's clock, and the clock
// offset (this agent's minus the server's, ms) it was computed with.
type groupStart struct {
	at       time.Time
	offsetMs float64
}

// awaitGroupStart reports a group's shard ready until the server answers the group's start
// time, then waits for that instant on this agent's clock. Each ready round trip measures the
// clock offset NTP-style (((t0 − receivedAt) + (t3 − serverTime)) / 2) and sends it on the next
// call, so the server records it with the run (once more after the start time came, if that was
// the first call); the start instant is the server's corrected by the latest offset, so agents
// whose clocks disagree still start together.
func awaitGroupStart(ctx context.Context, ready readyCall, leaseToken string, now func() time.Time) (groupStart, error) {
	var offset *float64
	for {
		t0 := now()
		answer, err := ready(ctx, api.ReadyRequest{LeaseToken: leaseToken, ClockOffsetMs: offset})
		t3 := now()
		if err != nil {
			return groupStart{}, err
		}
		measured := float64(t0.Sub(answer.ReceivedAt)+t3.Sub(answer.ServerTime)) / 2 / float64(time.Millisecond)
		first := offset == nil
		offset = &measured
		if answer.StartAt != nil {
			if first {
				// Recorded with the run: the same start time comes back.
				if _, err := ready(ctx, api.ReadyRequest{LeaseToken: leaseToken, ClockOffsetMs: offset}); err != nil {
					return groupStart{}, err
				}
			}
			at := answer.StartAt.Add(time.Duration(measured * float64(time.Millisecond)))
			if err := sleepUntil(ctx, at, now); err != nil {
				return groupStart{}, err
			}
			return groupStart{at: at, offsetMs: measured}, nil
		}
		pause := time.Duration(answer.RetryAfterMs) * time.Millisecond
		if pause < 50*time.Millisecond {
			pause = 250 * time.Millisecond
		}
		if err := sleepUntil(ctx, now().Add(pause), now); err != nil {
			return groupStart{}, err
		}
	}
}

func sleepUntil(ctx context.Context, at time.Time, now func() time.Time) error {
	wait := at.Sub(now())
	if wait <= 0 {
		return nil
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-timer.C:
		return nil
	}
}
