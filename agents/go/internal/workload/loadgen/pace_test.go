package loadgen

import (
	"testing"
	"time"
)

// A slot counts as late past LateAfter; the rate is kept while late slots stay within 1 %.
func TestPacingCountsLateSlotsAndKeepsTheRateWithinOnePercent(t *testing.T) {
	var p pacing
	p.start()
	for i := 0; i < 199; i++ {
		p.handed(int64(LateAfter), false) // exactly LateAfter: on time
	}
	p.handed(int64(LateAfter)+1, true)
	got := p.pace()
	if got.Slots != 200 || got.Late != 1 || got.AtLimit != 1 || !got.KeptRate {
		t.Fatalf("%+v: want 1 late slot of 200, rate kept", got)
	}
	p.handed(int64(3*time.Millisecond)+int64(LateAfter), false)
	p.handed(int64(LateAfter)+1, false)
	got = p.pace()
	if got.Late != 3 || got.AtLimit != 1 || got.KeptRate || got.MaxLateMs != 13 {
		t.Fatalf("%+v: want 3 late slots of 202 (one at the limit), the worst 13 ms late, rate not kept", got)
	}
}
