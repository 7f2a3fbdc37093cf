package loadgen

import (
	"testing"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/versus/agents/go/internal/result/resulttest"
)

// BenchmarkRecordLatency is the hot path: one response recorded into a worker's stats (the run's
// histogram, the second's bucket, the status count). Budget: ≤ 50 ns/op.
//
//	cd agents/go && go test -run '^$' -bench RecordLatency -benchmem ./internal/workload/loadgen/
func BenchmarkRecordLatency(b *testing.B) {
	s := newStats()
	const perSecond = 50_000 // a new second (bucket rotation) every 50,000 samples, as at 50k req/s
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.record(int64(i/perSecond), int64(100+i%5000), 200, false, int64(i))
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
	a.record(0, 1000, 200, false, 1)
	b.record(0, 3000, 200, false, 1)
	a.record(1, 5000, 503, true, 2)
	log := newSecondLog()
	log.sweep([]*stats{a, b}, 1)
	if len(log.closed) != 1 || log.closed[0].requests != 2 || log.closed[0].failures != 0 {
		t.Fatalf("second 0 = %+v", log.closed)
	}
	// b's sample of second 0 arriving after the sweep closed it goes into second 1.
	b.record(0, 7000, 200, false, 3)
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

// Summaries of histograms holding one value, or a few far apart, are still summaries of values.
func TestLatencySummaryOfFewValues(t *testing.T) {
	for _, values := range [][]int64{{2050}, {1, 3_600_000_000}, {4097, 4097, 9_999_999}} {
		h := hdrhistogram.New(lowestUs, highestUs, runDigits)
		for _, v := range values {
			_ = h.RecordValue(v)
		}
		s := HistogramSummary(h, LatencyScale)
		if problems := resulttest.Contradictions(s); len(problems) > 0 || s.N != int64(len(values)) {
			t.Errorf("%v: %+v: %v", values, s, problems)
		}
	}
}
