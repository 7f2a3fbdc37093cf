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

// refineTrips is how many more ready calls a shard makes once it knows the start time, refineGap
// apart, while the start is more than refineGap + refineMargin away: a shard whose group was
// ready at once has few samples of its clock offset, perhaps only slow ones (a route loaded on
// first use, a busy server), and the start time leaves about two seconds to take better ones.
const (
	refineTrips  = 4
	refineGap    = 100 * time.Millisecond
	refineMargin = 300 * time.Millisecond
)

// awaitGroupStart reports a group's shard ready until the server answers the group's start
// time, then waits for that instant on this agent's clock. Each ready round trip measures the
// clock offset NTP-style (((t0 − receivedAt) + (t3 − serverTime)) / 2); its error is at most half
// the trip's network delay ((t3 − t0) − (serverTime − receivedAt)), all of it when one way is
// slow and the other quick, so the offset kept is the quickest trip's (NTP's clock filter): one
// slow answer does not move the start. Once the start time is known a few more trips refine it
// (refineTrips). Each call sends the offset kept so far, and the last one sent is the one started
// by, so the server records it with the run; the start instant is the server's corrected by it,
// so agents whose clocks disagree still start together.
func awaitGroupStart(ctx context.Context, ready readyCall, leaseToken string, now func() time.Time) (groupStart, error) {
	var offset, sent *float64
	var quickest time.Duration
	var startAt *time.Time
	for refined := 0; ; {
		t0 := now()
		answer, err := ready(ctx, api.ReadyRequest{LeaseToken: leaseToken, ClockOffsetMs: offset})
		t3 := now()
		if err != nil {
			return groupStart{}, err
		}
		sent = offset
		if delay := t3.Sub(t0) - answer.ServerTime.Sub(answer.ReceivedAt); offset == nil || delay < quickest {
			sample := float64(t0.Sub(answer.ReceivedAt)+t3.Sub(answer.ServerTime)) / 2 / float64(time.Millisecond)
			offset, quickest = &sample, delay
		}
		pause := time.Duration(answer.RetryAfterMs) * time.Millisecond
		if pause < 50*time.Millisecond {
			pause = 250 * time.Millisecond
		}
		if answer.StartAt != nil {
			startAt = answer.StartAt
			if refined >= refineTrips || !now().Add(refineGap+refineMargin).Before(startAt.Add(ms(*offset))) {
				break
			}
			refined++
			pause = refineGap
		}
		if err := sleepUntil(ctx, now().Add(pause), now); err != nil {
			return groupStart{}, err
		}
	}
	if sent == nil || *sent != *offset {
		// The server records the last offset sent: the one started by.
		if _, err := ready(ctx, api.ReadyRequest{LeaseToken: leaseToken, ClockOffsetMs: offset}); err != nil {
			return groupStart{}, err
		}
	}
	at := startAt.Add(ms(*offset))
	if err := sleepUntil(ctx, at, now); err != nil {
		return groupStart{}, err
	}
	return groupStart{at: at, offsetMs: *offset}, nil
}

func ms(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }

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
