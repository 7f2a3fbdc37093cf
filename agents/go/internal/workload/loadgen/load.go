package loadgen

import (
	"context"
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// Load is one run's machinery: the workers, their stats, the clock and the per-second sweep.
// Times are nanoseconds since base on the monotonic clock.
type Load struct {
	p           Plan
	newSender   func() Sender
	wire        *Wire
	base        time.Time
	measureFrom int64 // end of the warm-up
	end         int64 // duration mode: no request starts at or after this; requests mode: MaxInt64
	counting    bool  // requests mode
	remaining   atomic.Int64

	mu      sync.Mutex
	stats   []*stats
	workers int

	measuring bool // the ticker reached the end of the warm-up
	// OnMeasuring, when set before Run, is told when the warm-up ends (probes begin their window).
	OnMeasuring        func()
	secs               *secondLog
	bytesIn, bytesOut  []int64 // per second of the measured window
	inAtMeasure, outAt int64   // wire counters when the measured window began
	lastIn, lastOut    int64
	pacing             pacing // the open model's pacer: how late its slots went out
	measuredPace       *Pace  // what Report recorded of it, for Warn
}

// New prepares a run of plan p: each worker gets its own sender from newSender; wire counts the
// bytes on every connection the senders use.
func New(p Plan, newSender func() Sender, wire *Wire) *Load {
	l := &Load{p: p, newSender: newSender, wire: wire, base: time.Now(), secs: newSecondLog()}
	// Bytes already on the wire (e.g. a reflection request before the load) are not the run's.
	l.inAtMeasure, l.outAt = wire.in.Load(), wire.out.Load()
	l.lastIn, l.lastOut = l.inAtMeasure, l.outAt
	l.measureFrom = int64(p.Warmup)
	l.end = math.MaxInt64
	if p.Duration > 0 {
		l.end = l.measureFrom + int64(p.Duration)
	} else {
		l.counting = true
		l.remaining.Store(p.Count)
	}
	return l
}

// Run sends the load in the plan's model until its duration or count is reached or ctx ends.
// Afterwards (and only when ctx did not end) Report gives the run's metrics.
func (l *Load) Run(ctx context.Context) {
	stopTick, tickDone := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(tickDone)
		l.tick(stopTick)
	}()
	if l.p.Model == ModelOpen {
		l.runOpen(ctx)
	} else {
		l.runClosed(ctx)
	}
	close(stopTick)
	<-tickDone
}

func (l *Load) now() int64 { return int64(time.Since(l.base)) }

// workerStats gives a new worker its stats (shared round-robin beyond maxStats workers).
func (l *Load) workerStats() *stats {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.workers++
	if len(l.stats) < maxStats {
		s := newStats()
		l.stats = append(l.stats, s)
		return s
	}
	return l.stats[l.workers%maxStats]
}

func (l *Load) allStats() []*stats {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]*stats(nil), l.stats...)
}

// exchange sends one request that was due at `due` and records it (unless it belongs to the
// warm-up). Latency counts from `due`: in the open model that is the time the request should
// have started, so time spent waiting for a free connection behind a stalled server counts.
func (l *Load) exchange(ctx context.Context, st *stats, s Sender, due int64) {
	status, err := s.Send()
	doneAt := l.now()
	if due < l.measureFrom {
		return
	}
	sec := (doneAt - l.measureFrom) / int64(time.Second)
	if err != nil {
		if ctx.Err() != nil {
			return // cancelled under it: not the target's failure
		}
		st.recordError(sec, l.p.Classify(err), doneAt)
		return
	}
	st.record(sec, (doneAt-due)/int64(time.Microsecond), status, l.p.Failed(status), doneAt)
}

// runClosed: each of the plan's workers sends its next request when the previous answered.
func (l *Load) runClosed(ctx context.Context) {
	var wg sync.WaitGroup
	for i := 0; i < l.p.Workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st, s := l.workerStats(), l.newSender()
			for ctx.Err() == nil {
				start := l.now()
				if start >= l.end {
					return
				}
				if l.counting && start >= l.measureFrom && l.remaining.Add(-1) < 0 {
					return
				}
				l.exchange(ctx, st, s, start)
			}
		}()
	}
	wg.Wait()
}

// runOpen: a pacer hands out due times at a constant rate; workers (started as needed, up to
// MaxInFlight, the way vegeta does) send them. When every worker is busy the pacer waits, but
// the due times it hands out later are still the scheduled ones, so the wait counts as latency.
func (l *Load) runOpen(ctx context.Context) {
	due := make(chan int64)
	var wg sync.WaitGroup
	spawned := 0
	spawn := func(first int64) {
		spawned++
		wg.Add(1)
		go func() {
			defer wg.Done()
			st, s := l.workerStats(), l.newSender()
			l.exchange(ctx, st, s, first)
			for t := range due {
				if ctx.Err() != nil {
					return
				}
				l.exchange(ctx, st, s, t)
			}
		}()
	}
	interval := float64(time.Second) / l.p.Rate
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	var counted int64
	l.pacing.start()
	// handed notes a slot of the measured window as it goes to a worker.
	handed := func(t int64, waited bool) {
		if t >= l.measureFrom {
			l.pacing.handed(l.now()-t, waited)
		}
	}
pace:
	for i := int64(0); ctx.Err() == nil; i++ {
		t := int64(float64(i) * interval)
		if t >= l.end {
			break
		}
		if l.counting && t >= l.measureFrom {
			if counted == l.p.Count {
				break
			}
			counted++
		}
		if wait := t - l.now(); wait > 0 {
			timer.Reset(time.Duration(wait))
			select {
			case <-timer.C:
			case <-ctx.Done():
				break pace
			}
		}
		select {
		case due <- t:
			handed(t, false)
			continue
		default:
		}
		if spawned < l.p.MaxInFlight {
			handed(t, false)
			spawn(t)
			continue
		}
		select {
		case due <- t:
			handed(t, true)
		case <-ctx.Done():
			break pace
		}
	}
	close(due)
	wg.Wait()
}

// tick closes each second of the measured window as it ends: the workers' buckets of that
// second are merged (and their memory reused) and the wire bytes of the second are noted.
func (l *Load) tick(stop <-chan struct{}) {
	timer := time.NewTimer(time.Duration(l.measureFrom - l.now()))
	defer timer.Stop()
	select {
	case <-timer.C:
	case <-stop:
		return
	}
	l.measuring = true
	if l.OnMeasuring != nil {
		l.OnMeasuring()
	}
	if l.measureFrom > 0 {
		// Without a warm-up the window's bytes count from New: the ticker may start after the
		// first operations have already sent theirs.
		l.inAtMeasure, l.outAt = l.wire.in.Load(), l.wire.out.Load()
		l.lastIn, l.lastOut = l.inAtMeasure, l.outAt
	}
	for k := int64(1); ; k++ {
		timer.Reset(time.Duration(l.measureFrom + k*int64(time.Second) - l.now()))
		select {
		case <-timer.C:
		case <-stop:
			return
		}
		l.noteBytes()
		l.secs.sweep(l.allStats(), k)
	}
}

func (l *Load) noteBytes() {
	in, out := l.wire.in.Load(), l.wire.out.Load()
	l.bytesIn = append(l.bytesIn, in-l.lastIn)
	l.bytesOut = append(l.bytesOut, out-l.lastOut)
	l.lastIn, l.lastOut = in, out
}

// finish closes the last (partial) second after the workers and the ticker have stopped.
func (l *Load) finish() {
	if !l.measuring {
		// The run ended inside the warm-up (cancelled): nothing was measured.
		return
	}
	l.noteBytes()
	l.secs.sweep(l.allStats(), math.MaxInt64)
}
