package sleep

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/versus/agents/go/internal/result"
)

func TestSleepReportsSleptMs(t *testing.T) {
	r, err := New().Prepare(json.RawMessage(`{"ms": 5}`))
	if err != nil {
		t.Fatal(err)
	}
	b := result.NewBuilder(nil, nil)
	if err := r.Run(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	if got := b.Keys(); len(got) != 1 || got[0] != "slept_ms" {
		t.Fatalf("keys %v", got)
	}
}

func TestSleepStopsWithItsContext(t *testing.T) {
	r, err := New().Prepare(json.RawMessage(`{"ms": 86400000}`))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := r.Run(ctx, result.NewBuilder(nil, nil)); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}

func TestSleepFailsWhenAsked(t *testing.T) {
	r, err := New().Prepare(json.RawMessage(`{"ms": 0, "fail": true}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Run(context.Background(), result.NewBuilder(nil, nil)); !errors.Is(err, ErrAsked) {
		t.Fatalf("got %v", err)
	}
}

func TestSleepRefusesBadSettingsNamingTheField(t *testing.T) {
	for raw, field := range map[string]string{`{"ms": -1}`: "settings.ms", `{"ms": "long"}`: "settings.ms", `{"fail": 1}`: "settings.fail", `{"seconds": 1}`: "seconds"} {
		_, err := New().Prepare(json.RawMessage(raw))
		if err == nil || !strings.Contains(err.Error(), field) {
			t.Errorf("%s: got %v, want an error naming %s", raw, err, field)
		}
	}
}
