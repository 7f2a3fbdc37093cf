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
	if len(sent) < 3 || sent[0] != nil || sent[1] == nil || sent[2] == nil || *sent[len(sent)-1] != start.offsetMs {
		t.Fatalf("offsets sent: %v (want none on the first call, then the measured one, the last the one started by, %.3f)", sent, start.offsetMs)
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

// A first answer slow on its way in (the server was busy) would put the clock 145 ms behind; a
// later, quicker round trip says 0. The quickest trip's offset is the one sent and started by,
// however the later, slower trips skew.
func TestAwaitGroupStartKeepsTheOffsetOfTheQuickestRoundTrip(t *testing.T) {
	clock := time.Unix(1_000_000, 0) // the agent's clock and the server's agree: the true offset is 0
	now := func() time.Time { return clock }
	trips := []struct{ in, out time.Duration }{{300 * time.Millisecond, 10 * time.Millisecond}, {5 * time.Millisecond, 5 * time.Millisecond}, {50 * time.Millisecond, time.Millisecond}}
	var sent []*float64
	ready := func(_ context.Context, body api.ReadyRequest) (*api.ReadyResponse, error) {
		trip := trips[min(len(sent), len(trips)-1)]
		sent = append(sent, body.ClockOffsetMs)
		clock = clock.Add(trip.in)
		received := clock
		clock = clock.Add(trip.out)
		answer := &api.ReadyResponse{ReceivedAt: received, ServerTime: received, RetryAfterMs: 50, Shards: 2, Ready: 1}
		if len(sent) >= 3 {
			startAt := clock.Add(20 * time.Millisecond)
			answer.StartAt = &startAt
		}
		return answer, nil
	}
	start, err := awaitGroupStart(context.Background(), ready, "vlease_x", now)
	if err != nil {
		t.Fatal(err)
	}
	if start.offsetMs != 0 {
		t.Errorf("offset %.3f ms, want 0 (the quickest trip's, not the first's −145 or the last's −24.5)", start.offsetMs)
	}
	if len(sent) != 3 || sent[1] == nil || *sent[1] != -145 || sent[2] == nil || *sent[2] != 0 {
		t.Errorf("offsets sent %v: want none, then the first trip's −145, then the quickest's 0", sent)
	}
}

// A group ready at once: the first answer brings the start time a second ahead, after a slow
// trip. The shard takes a few more round trips before the start and starts by the quickest's
// offset, which it sends last, so the server records that one.
func TestAwaitGroupStartRefinesTheOffsetBeforeTheStart(t *testing.T) {
	clock := time.Unix(1_000_000, 0)
	now := func() time.Time { return clock }
	var sent []*float64
	var startAt time.Time
	ready := func(_ context.Context, body api.ReadyRequest) (*api.ReadyResponse, error) {
		in, out := 5*time.Millisecond, 5*time.Millisecond
		if len(sent) == 0 {
			in, out = 300*time.Millisecond, 10*time.Millisecond
			startAt = clock.Add(time.Second)
		}
		sent = append(sent, body.ClockOffsetMs)
		clock = clock.Add(in)
		received := clock
		clock = clock.Add(out)
		return &api.ReadyResponse{ReceivedAt: received, ServerTime: received, RetryAfterMs: 250, Shards: 2, Ready: 2, StartAt: &startAt}, nil
	}
	start, err := awaitGroupStart(context.Background(), ready, "vlease_x", now)
	if err != nil {
		t.Fatal(err)
	}
	if start.offsetMs != 0 || !start.at.Equal(startAt) {
		t.Errorf("started at %v with offset %.3f ms, want %v and 0 (the refined offset, not the first trip's −145)", start.at, start.offsetMs, startAt)
	}
	if len(sent) < 3 || sent[0] != nil || *sent[1] != -145 || *sent[len(sent)-1] != 0 {
		t.Errorf("offsets sent %v: want none, the first trip's −145, …, and the refined 0 last", sent)
	}
}
