package probe

import (
	"regexp"
	"strconv"
	"testing"
	"time"
)

// span is what a test knows of a sampler's window from outside: the window opens inside
// StartSampler and closes inside Stop, so it is at least inner (StartSampler's return to Stop's
// call) and at most outer (StartSampler's call to Stop's return).
type span struct{ inner, outer time.Duration }

// sampleSpan samples for about d and says what the window was at least and at most.
func sampleSpan(probes []*Probe, d time.Duration) (Report, span) {
	t0 := time.Now()
	s := StartSampler(probes)
	t1 := time.Now()
	time.Sleep(d)
	t2 := time.Now()
	r := s.Stop()
	return r, span{inner: t2.Sub(t1), outer: time.Now().Sub(t0)}
}

var gapCounts = regexp.MustCompile(`^probe "([^"]+)" did not answer for (\d+) of (\d+) intervals`)

// checkIntervals holds a probe's values to the sampling principle, whatever the machine's load:
// a window of k whole intervals has k intervals, each a value or a missed reading (a gap, counted
// in the gap warning), so values + missed = k; and k is the whole intervals in the window, so
// ⌊inner ÷ interval⌋ ≤ k ≤ ⌊outer ÷ interval⌋. It bounds a count, never a time.
func checkIntervals(t *testing.T, r Report, probe, key string, values int, interval time.Duration, w span) {
	t.Helper()
	k, missed := values, 0
	for _, warning := range r.Warnings {
		if m := gapCounts.FindStringSubmatch(warning); m != nil && m[1] == probe {
			missed, _ = strconv.Atoi(m[2])
			k, _ = strconv.Atoi(m[3])
		}
	}
	if values+missed != k {
		t.Errorf("%s: %d values and %d missed for %d intervals", key, values, missed, k)
	}
	if least, most := int(w.inner/interval), int(w.outer/interval); k < least || k > most {
		t.Errorf("%s: %d intervals of %s in a window of %s to %s (%d to %d intervals)", key, k, interval, w.inner, w.outer, least, most)
	}
}
