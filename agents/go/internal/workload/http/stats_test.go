package http

import (
	"testing"
)

// BenchmarkRecordLatency is the hot path: one response recorded into a worker's stats (the run's
// histogram, the second's bucket, the status count). Budget: ≤ 50 ns/op.
//
//	cd agents/go && go test -run '^$' -bench RecordLatency -benchmem ./internal/workload/http/
func BenchmarkRecordLatency(b *testing.B) {
	s := newStats()
	const perSecond = 50_000 // a new second (bucket rotation) every 50,000 samples, as at 50k req/s
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.record(int64(i/perSecond), int64(100+i%5000), 200, int64(i))
		if i%perSecond == perSecond-1 {
			// What the per-second sweep does, so finished buckets go back to the pool.
			b.StopTimer()
			for _, bk := range s.takeBefore(int64(i/perSecond)+1, nil) {
				releaseBucket(bk)
			}
			b.StartTimer()
		}
	}
}

func TestSweepClosesSecondsAndClampsLateSamples(t *testing.T) {
	a, b := newStats(), newStats()
	a.record(0, 1000, 200, 1)
	b.record(0, 3000, 200, 1)
	a.record(1, 5000, 503, 2)
	log := newSecondLog()
	log.sweep([]*stats{a, b}, 1)
	if len(log.closed) != 1 || log.closed[0].requests != 2 || log.closed[0].failures != 0 {
		t.Fatalf("second 0 = %+v", log.closed)
	}
	// b's sample of second 0 arriving after the sweep closed it goes into second 1.
	b.record(0, 7000, 200, 3)
	log.sweep([]*stats{a, b}, 2)
	if len(log.closed) != 2 || log.closed[1].requests != 2 || log.closed[1].failures != 1 {
		t.Fatalf("second 1 = %+v", log.closed[1])
	}
	if got := log.closed[1].p99Us; got < 6900 || got > 7100 {
		t.Fatalf("second 1 p99 = %d µs, want ~7000", got)
	}
	if a.run.TotalCount()+b.run.TotalCount() != 4 {
		t.Fatalf("run histograms hold %d", a.run.TotalCount()+b.run.TotalCount())
	}
}
