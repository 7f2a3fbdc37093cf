// Package probe measures the system under test while a workload runs: a Prometheus text or
// OpenMetrics endpoint (prometheus.go) or a process of this host read from /proc (process_*.go),
// sampled at an interval over the measured window (sampler.go). What a probe reads becomes
// ordinary metrics of the run, `<probe>.<suffix>` (metrics.go), with one value per interval.
//
// Honesty: a probe that cannot be read when the run starts stops the job before any load is sent
// (Open); a scrape that fails mid-run leaves a gap and a warning; a counter that goes down (a
// restarted target) skips its interval with a warning, never a negative rate.
package probe

import (
	"context"
	"fmt"
	"time"
)

// reading is one scrape's quantities, by quantity name.
type reading map[string]float64

// source is a probe's target.
type source interface {
	read(ctx context.Context) (reading, error)
	metrics() []metricDef
	counters() []string // quantities that only grow (a fall is a reset)
	close()
}

// Probe is a probe whose target answered once.
type Probe struct {
	spec Spec
	src  source
	// notes: what the first reading found that the run should say (a preset's series the target
	// lacks, whose metrics are left out), each `probe "<name>": …`.
	notes []string
}

// Name is the probe's name, the prefix of its metrics.
func (p *Probe) Name() string { return p.spec.Name }

// StartError is a probe that could not be read when the run started: the job fails before any
// load is sent, and retrying will not help until someone fixes the target or the probe.
type StartError struct {
	Probe string
	Err   error
}

func (e *StartError) Error() string { return fmt.Sprintf("probe %q: %v", e.Probe, e.Err) }

// GapError is a required probe that did not answer for some intervals: the job fails with the
// gap's warning as its message.
type GapError struct{ Message string }

func (e *GapError) Error() string { return e.Message }

// Capabilities are what an agent with probes advertises: a job that uses a kind needs its
// capability (process probes read /proc, so only on Linux).
func Capabilities() []string {
	caps := []string{"probe:" + KindPrometheus}
	if processSupported {
		caps = append(caps, "probe:"+KindProcess)
	}
	return caps
}

// checkTimeout bounds the one read each probe gets before the run starts.
const checkTimeout = 10 * time.Second

// Open finds each probe's target and reads it once. The first probe that cannot be read is a
// *StartError; nothing is left open then.
func Open(ctx context.Context, specs []Spec) ([]*Probe, error) {
	var opened []*Probe
	fail := func(name string, err error) ([]*Probe, error) {
		Close(opened)
		return nil, &StartError{Probe: name, Err: err}
	}
	for _, s := range specs {
		var src source
		switch s.Kind {
		case KindPrometheus:
			src = newPromSource(s)
		case KindProcess:
			p, err := newProcSource(*s.Match)
			if err != nil {
				return fail(s.Name, err)
			}
			src = p
		default:
			return fail(s.Name, fmt.Errorf("kind %q is not a probe kind", s.Kind))
		}
		readCtx, cancel := context.WithTimeout(ctx, checkTimeout)
		var notes []string
		var err error
		if prom, ok := src.(*promSource); ok {
			notes, err = prom.settle(readCtx)
		} else {
			_, err = src.read(readCtx)
		}
		cancel()
		if err != nil {
			src.close()
			return fail(s.Name, err)
		}
		for i, n := range notes {
			notes[i] = fmt.Sprintf("probe %q: %s", s.Name, n)
		}
		opened = append(opened, &Probe{spec: s, src: src, notes: notes})
	}
	return opened, nil
}

// Close releases the probes' connections.
func Close(probes []*Probe) {
	for _, p := range probes {
		p.src.close()
	}
}
