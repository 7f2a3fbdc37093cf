package agent

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/versus/agents/go/internal/api"
)

// A shard whose clock runs 500 ms ahead of the server's: it reports ready until the group's
// start time comes, sends the offset it measured on each round trip, and starts when its own
// clock reads the server's start time plus that offset.
func TestAwaitGroupStartWaitsForTheStartTimeAndMeasuresTheClockOffset(t *testing.T) {
	const skew = 500 * time.Millisecond
	agentClock := func() time.Time { return time.Now().Add(skew) }
	var sent []*float64
	var halfTrip time.Duration
	startAt := time.Now().Add(300 * time.Millisecond)
	ready := func(_ context.Context, body api.ReadyRequest) (*api.ReadyResponse, error) {
		if body.LeaseToken != "vlease_x" {
			t.Fatalf("lease token %q", body.LeaseToken)
		}
		sent = append(sent, body.ClockOffsetMs)
		received := time.Now()
		answer := &api.ReadyResponse{ReceivedAt: received, ServerTime: time.Now(), RetryAfterMs: 20, Shards: 2, Ready: 1}
		if len(sent) >= 3 {
			answer.StartAt = &startAt
		}
		return answer, nil
	}
	before := time.Now()
	start, err := awaitGroupStart(context.Background(), ready, "vlease_x", agentClock)
	halfTrip = time.Since(before) // a bound far above any one round trip's half
	if err != nil {
		t.Fatal(err)
	}
	if len(sent) != 3 || sent[0] != nil || sent[1] == nil || sent[2] == nil {
		t.Fatalf("offsets sent: %v (want none on the first call, then the measured one)", sent)
	}
	if math.Abs(start.offsetMs-500) > float64(halfTrip.Milliseconds()) {
		t.Errorf("offset %.3f ms, want 500 ms ± %v", start.offsetMs, halfTrip)
	}
	if want := startAt.Add(time.Duration(start.offsetMs * float64(time.Millisecond))); !start.at.Equal(want) {
		t.Errorf("start %v, want the server's start time plus the offset, %v", start.at, want)
	}
	if agentClock().Before(start.at) {
		t.Errorf("returned before its start time")
	}
}

func TestAwaitGroupStartStopsOnAConflict(t *testing.T) {
	given := &api.Error{}
	ready := func(context.Context, api.ReadyRequest) (*api.ReadyResponse, error) { return nil, given }
	if _, err := awaitGroupStart(context.Background(), ready, "vlease_x", time.Now); !errors.Is(err, given) {
		t.Fatalf("err %v, want the ready call's", err)
	}
}
