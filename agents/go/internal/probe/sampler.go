package probe

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync"
	"time"

	"github.com/versus/agents/go/internal/result"
)

// maxWarningChars bounds one warning (the run document takes 500 characters).
const maxWarningChars = 500

// stopGrace is how long the end of the window waits for readings under way: each ends an
// interval that lies inside the window. Past it they are abandoned (a target that hangs).
const stopGrace = 2 * time.Second

// endSlack is how long after the end of the window an interval may end and still count: 5 % of
// the interval, at most 50 ms (idle time after the workload, a small share of that interval).
func endSlack(interval time.Duration) time.Duration {
	return min(interval/20, 50*time.Millisecond)
}

// Sampler reads every probe at its interval over the measured window: a first reading at the
// window's start (the baseline for counters), then one per interval until Stop. A window of k
// whole intervals gives k values per metric; a last, partial interval is left out.
// An interval that ends at most endSlack after Stop still counts: the workload times its
// measured part on its own clock, so a part of k whole intervals may end a millisecond before
// the probes' k-th interval does, and that interval would otherwise be lost.
type Sampler struct {
	probes []*Probe

	mu       sync.Mutex
	start    time.Time
	stopping chan struct{} // closed at the end of the window: no new readings
	stopAt   time.Time     // when; set before stopping is closed
	cancel   context.CancelFunc
	wg       sync.WaitGroup
	loops    []*loop
}

// Report is what the probes measured: metrics to append to the run, warnings for the run, and
// Failure (a *GapError) when a required probe missed intervals.
type Report struct {
	Metrics  []result.Metric
	Warnings []string
	Failure  error
}

// StartSampler starts the window now.
func StartSampler(probes []*Probe) *Sampler {
	s := &Sampler{probes: probes}
	s.mu.Lock()
	s.beginLocked(time.Now())
	s.mu.Unlock()
	return s
}

// Restart begins the window again now, forgetting what was read: the workload's warm-up is over
// and its measured part begins. The window begins when Restart is called: readings under way are
// abandoned, not waited for, since waiting would start the window late and lose its last interval.
func (s *Sampler) Restart() {
	at := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cancel()
	s.haltLocked()
	s.beginLocked(at)
}

// Stop ends the window and turns the readings into metrics and warnings.
func (s *Sampler) Stop() Report {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.haltLocked()
	var r Report
	for _, l := range s.loops {
		metrics, warnings, gap := l.report(s.start, s.stopAt)
		r.Metrics = append(r.Metrics, metrics...)
		r.Warnings = append(r.Warnings, l.p.notes...)
		r.Warnings = append(r.Warnings, warnings...)
		if gap != "" && l.p.spec.Required && r.Failure == nil {
			r.Failure = &GapError{Message: gap}
		}
	}
	return r
}

func (s *Sampler) beginLocked(start time.Time) {
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	s.start = start
	s.stopping = make(chan struct{})
	s.loops = s.loops[:0]
	for _, p := range s.probes {
		l := &loop{p: p}
		s.loops = append(s.loops, l)
		s.wg.Add(1)
		go func(stopping <-chan struct{}, stopAt *time.Time) {
			defer s.wg.Done()
			l.run(ctx, s.start, stopping, stopAt)
		}(s.stopping, &s.stopAt)
	}
}

// haltLocked ends the window: no new readings; those under way may finish within stopGrace.
func (s *Sampler) haltLocked() {
	s.stopAt = time.Now()
	close(s.stopping)
	done := make(chan struct{})
	go func() {
		s.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(stopGrace):
		s.cancel()
		<-done
	}
	s.cancel()
}

// scrape is one reading, or why there is none, and when it was taken.
type scrape struct {
	at  time.Time
	r   reading
	err error
}

// loop samples one probe; scrapes[0] is the baseline, scrapes[i] ends interval i.
type loop struct {
	p       *Probe
	scrapes []scrape
}

// run takes the baseline at start, then a reading as each interval ends, until stopping is
// closed: every interval that ends by stopAt (set before stopping was closed) plus endSlack gets its reading,
// and one under way then is kept. A reading that would start more than an interval late (the one
// before took that long) is not taken: its interval is missed, and the next one is on time. What
// ctx abandoned is not kept.
func (l *loop) run(ctx context.Context, start time.Time, stopping <-chan struct{}, stopAt *time.Time) {
	interval := l.p.spec.Interval()
	first := l.take(ctx)
	if ctx.Err() != nil {
		return
	}
	l.scrapes = append(l.scrapes, first)
	timer := time.NewTimer(time.Until(start.Add(interval)))
	defer timer.Stop()
	for i := 1; ; i++ {
		due := start.Add(time.Duration(i) * interval)
		if i > 1 {
			timer.Reset(time.Until(due))
		}
		select {
		case <-stopping:
			if due.After(stopAt.Add(endSlack(interval))) {
				return // its interval ends after the window
			}
			// Its interval ends with the window (within endSlack): read it when it does.
			if time.Until(due) > 0 {
				select {
				case <-timer.C:
				case <-ctx.Done():
					return
				}
			}
		case <-timer.C:
		}
		if late := time.Since(due); late > interval {
			prev := l.scrapes[len(l.scrapes)-1]
			err := prev.err
			if err == nil {
				err = fmt.Errorf("too slow: the reading before ended %s after this one was due", seconds(late))
			}
			l.scrapes = append(l.scrapes, scrape{at: due, err: err})
			continue
		}
		sc := l.take(ctx)
		if ctx.Err() != nil {
			return
		}
		l.scrapes = append(l.scrapes, sc)
	}
}

func (l *loop) take(ctx context.Context) scrape {
	at := time.Now()
	r, err := l.p.src.read(ctx)
	return scrape{at: at, r: r, err: err}
}

// report turns the readings into one metric per definition (values of the intervals that have
// one), the warnings, and the gap's message if intervals were missed.
func (l *loop) report(start, end time.Time) (metrics []result.Metric, warnings []string, gap string) {
	name := l.p.spec.Name
	interval := l.p.spec.Interval()
	k := int(end.Add(endSlack(interval)).Sub(start) / interval)
	if k < 1 {
		return nil, []string{fmt.Sprintf("probe %q: the measured window (%s) was shorter than one interval (%s): it has no values",
			name, seconds(end.Sub(start)), seconds(interval))}, ""
	}
	defs := l.p.src.metrics()
	counters := l.p.src.counters()
	values := make([][]float64, len(defs))
	at := make([][]int, len(defs))
	// Readings abandoned at the end (a target that hangs) are missed intervals too.
	abandoned := errors.New("no answer before the window ended")
	for len(l.scrapes) < k+1 {
		l.scrapes = append(l.scrapes, scrape{err: abandoned})
	}
	var prev *scrape
	if l.scrapes[0].err == nil {
		prev = &l.scrapes[0]
	}
	missed, firstMissed, lastMissed := 0, 0, 0
	var lastErr error
	for i := 1; i <= k; i++ {
		cur := &l.scrapes[i]
		if cur.err != nil || (i == 1 && prev == nil) {
			// A gap: no reading ends this interval (or none began it).
			missed++
			if firstMissed == 0 {
				firstMissed = i
			}
			lastMissed = i
			if cur.err != nil {
				lastErr = cur.err
			} else {
				lastErr = l.scrapes[0].err
				prev = cur
			}
			continue
		}
		went := map[string]bool{}
		if prev != nil {
			for _, c := range counters {
				if cur.r[c] < prev.r[c] {
					went[c] = true
					warnings = append(warnings, clip(fmt.Sprintf("probe %q: %s went down at %s (target restarted?); the interval was skipped",
						name, c, seconds(time.Duration(i)*interval))))
				}
			}
		}
		for d, def := range defs {
			if v, ok := intervalValue(def, prev, cur, went); ok {
				values[d] = append(values[d], v)
				at[d] = append(at[d], i)
			}
		}
		prev = cur
	}
	if missed > 0 {
		gap = clip(fmt.Sprintf("probe %q did not answer for %d of %d intervals (%s – %s): %v",
			name, missed, k, seconds(time.Duration(firstMissed-1)*interval), seconds(time.Duration(lastMissed)*interval), lastErr))
		warnings = append(warnings, gap)
	}
	startedAt := start.UTC()
	for d, def := range defs {
		if len(values[d]) == 0 {
			continue
		}
		ts := &result.TimeSeries{StartedAt: &startedAt, Values: values[d]}
		if len(values[d]) == k {
			ts.IntervalMs = ms(interval)
		} else {
			// Gaps: each value at the start of its own interval.
			ts.OffsetsMs = make([]float64, len(at[d]))
			for j, i := range at[d] {
				ts.OffsetsMs[j] = ms(time.Duration(i-1) * interval)
			}
		}
		metrics = append(metrics, result.Metric{
			Key: name + "." + def.suffix, Unit: def.unit, Direction: def.direction, Aggregation: def.aggregation,
			Samples: append([]float64(nil), values[d]...), TimeSeries: ts,
		})
	}
	return metrics, warnings, gap
}

// intervalValue is what one interval contributes to a metric, from the readings at its ends
// (prev: the last good reading before cur, nil if none). After a gap the counters' increase
// spans the missed intervals too: a sum over the run keeps every increase, and a rate is the
// mean over that span.
func intervalValue(def metricDef, prev, cur *scrape, went map[string]bool) (float64, bool) {
	if def.kind == gauge {
		return cur.r[def.q] * def.scale, true
	}
	if prev == nil || went[def.q] || (def.all != "" && went[def.all]) {
		return 0, false
	}
	delta := cur.r[def.q] - prev.r[def.q]
	switch def.kind {
	case perSecond:
		dt := cur.at.Sub(prev.at).Seconds()
		if dt <= 0 {
			return 0, false
		}
		return delta / dt * def.scale, true
	case increase:
		return delta * def.scale, true
	case busyShare:
		all := cur.r[def.all] - prev.r[def.all]
		if all <= 0 {
			return 0, false
		}
		return 100 * (1 - delta/all), true
	}
	return 0, false
}

// seconds writes a duration as "4 s", "0.3 s".
func seconds(d time.Duration) string {
	return strconv.FormatFloat(math.Round(d.Seconds()*1000)/1000, 'f', -1, 64) + " s"
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func clip(s string) string {
	if len(s) <= maxWarningChars {
		return s
	}
	cut := maxWarningChars - len("…")
	for cut > 0 && (s[cut]&0xC0) == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}
