package loadgen

import (
	"sync"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Latencies are recorded in microseconds, from 1 µs to an hour (above: clamped and counted).
const (
	lowestUs  = 1
	highestUs = 3_600_000_000
	// runDigits: the whole run's histogram keeps 3 significant digits, as the server's do.
	runDigits = 3
	// secondDigits: a second's histogram only gives that second's p50/p99 for a chart; 2 digits
	// (1 %) take 20 KB instead of 190 KB.
	secondDigits = 2
	// maxStats: workers beyond this many share stats objects, so 10,000 connections take
	// ~13 MB of histograms instead of 2 GB (their lock is then sometimes contended).
	maxStats = 64
	// statusSlots: status codes 0–599 are counted in an array; others in one "other" slot.
	statusSlots = 600
	// maxErrorKinds: a workload sorts errors without a response into at most this many kinds.
	maxErrorKinds = 8
)

// bucket is one second of one worker's results (completion time decides the second).
type bucket struct {
	sec      int64
	hist     *hdrhistogram.Histogram
	requests int64 // responses, whatever their status
	failures int64 // errors without a response + responses whose status is a failure
}

var bucketPool = sync.Pool{New: func() any {
	return &bucket{hist: hdrhistogram.New(lowestUs, highestUs, secondDigits)}
}}

func newBucket(sec int64) *bucket {
	b := bucketPool.Get().(*bucket)
	b.sec = sec
	return b
}

func releaseBucket(b *bucket) {
	b.hist.Reset()
	b.requests, b.failures = 0, 0
	bucketPool.Put(b)
}

// stats is what one worker records. Its mutex is taken by that worker on each sample and by the
// per-second sweep once a second, so it is uncontended on the hot path (when workers ≤ maxStats).
type stats struct {
	mu       sync.Mutex
	run      *hdrhistogram.Histogram
	cur      *bucket   // the second being recorded
	done     []*bucket // finished seconds the sweep has not taken yet
	floor    int64     // the sweep has closed every second below this one
	status   [statusSlots]int64
	statusX  int64 // status codes ≥ 600
	errs     [maxErrorKinds]int64
	clamped  int64 // latencies above highestUs, recorded as highestUs
	lastDone int64 // completion time of the last request, ns from the run's base
}

func newStats() *stats {
	return &stats{run: hdrhistogram.New(lowestUs, highestUs, runDigits)}
}

// bucketFor returns the bucket of second sec (clamped to the sweep's floor), rotating when the
// worker has moved on to a later second. Called with mu held.
func (s *stats) bucketFor(sec int64) *bucket {
	if sec < s.floor {
		sec = s.floor
	}
	switch {
	case s.cur == nil:
		s.cur = newBucket(sec)
	case sec > s.cur.sec:
		s.done = append(s.done, s.cur)
		s.cur = newBucket(sec)
	}
	return s.cur
}

// record adds one response: its latency in µs, the second it completed in, its status and
// whether that status is a failure.
func (s *stats) record(sec, latencyUs int64, status int, failed bool, doneAt int64) {
	if latencyUs < lowestUs {
		latencyUs = lowestUs
	}
	s.mu.Lock()
	if latencyUs > highestUs {
		latencyUs = highestUs
		s.clamped++
	}
	b := s.bucketFor(sec)
	_ = b.hist.RecordValue(latencyUs)
	b.requests++
	_ = s.run.RecordValue(latencyUs)
	if uint(status) < statusSlots {
		s.status[status]++
	} else {
		s.statusX++
	}
	if failed {
		b.failures++
	}
	s.lastDone = doneAt
	s.mu.Unlock()
}

// recordError adds one request that got no response.
func (s *stats) recordError(sec int64, kind int, doneAt int64) {
	s.mu.Lock()
	s.bucketFor(sec).failures++
	s.errs[kind]++
	s.lastDone = doneAt
	s.mu.Unlock()
}

// takeBefore hands over the buckets of seconds below sec and closes them: later samples of
// those seconds go into sec.
func (s *stats) takeBefore(sec int64, into []*bucket) []*bucket {
	s.mu.Lock()
	into = append(into, s.done...)
	s.done = s.done[:0]
	if s.cur != nil && s.cur.sec < sec {
		into = append(into, s.cur)
		s.cur = nil
	}
	if sec > s.floor {
		s.floor = sec
	}
	s.mu.Unlock()
	return into
}

// secondFigures is one closed second of the whole run.
type secondFigures struct {
	requests, failures  int64
	p50Us, p95Us, p99Us int64
	hasLatency          bool
	bytesIn, bytesOut   int64
}

// secondLog merges the workers' buckets second by second and keeps only each second's figures.
type secondLog struct {
	open   map[int64]*bucket
	closed []secondFigures // index: second of the measured window
	taken  []*bucket
}

func newSecondLog() *secondLog { return &secondLog{open: map[int64]*bucket{}} }

// sweep takes every worker's buckets below sec, merges them, and closes those seconds.
func (ss *secondLog) sweep(all []*stats, sec int64) {
	ss.taken = ss.taken[:0]
	for _, s := range all {
		ss.taken = s.takeBefore(sec, ss.taken)
	}
	for _, b := range ss.taken {
		agg, ok := ss.open[b.sec]
		if !ok {
			agg = newBucket(b.sec)
			ss.open[b.sec] = agg
		}
		agg.hist.Merge(b.hist)
		agg.requests += b.requests
		agg.failures += b.failures
		releaseBucket(b)
	}
	for s, agg := range ss.open {
		if s >= sec {
			continue
		}
		for int64(len(ss.closed)) <= s {
			ss.closed = append(ss.closed, secondFigures{})
		}
		f := &ss.closed[s]
		f.requests, f.failures = agg.requests, agg.failures
		if agg.hist.TotalCount() > 0 {
			f.hasLatency = true
			f.p50Us, f.p95Us, f.p99Us = agg.hist.ValueAtQuantile(50), agg.hist.ValueAtQuantile(95), agg.hist.ValueAtQuantile(99)
		}
		delete(ss.open, s)
		releaseBucket(agg)
	}
}
