// Package http is the "http" workload: HTTP load against a URL (or the agent's own loopback
// server), in a closed model (N virtual users, like wrk) or an open model (a constant arrival
// rate with latency counted from each request's scheduled time, like wrk2 and vegeta), recording
// an HdrHistogram of latency and per-second series of throughput, latency percentiles, errors and
// bytes.
package http

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"sync"

	"github.com/versus/agents/go/internal/workload"
	"github.com/versus/agents/go/internal/workload/loadgen"
	"github.com/versus/agents/go/internal/workload/targets"
)

// Name is the workload's name in jobs and capabilities.
const Name = "http"

// Workload is the http load workload.
type Workload struct{}

var (
	_ workload.Workload      = Workload{}
	_ workload.Capabilities  = Workload{}
	_ workload.Runner        = (*runner)(nil)
	_ workload.TargetStarter = (*runner)(nil)
)

func (Workload) Info() workload.Info {
	return workload.Info{
		Name:           Name,
		Description:    "HTTP load: closed model (N virtual users, like wrk) or open model (a constant request rate, latency counted from when each request was due, like wrk2)",
		SettingsSchema: schemaJSON,
		Metrics: loadgen.Metrics(loadgen.MetricWords{
			ThroughputUnit: "req/s",
			Operations:     "requests",
			Latency:        "Response time of every request (HdrHistogram; open model: from the time it was due)",
			Throughput:     "Responses per second (any status): the run's value is responses ÷ the measured seconds; the series counts each whole second",
			Errors:         "Transport errors (timeout, refused, reset, other) plus non-2xx/3xx responses: the run's value is the total; the series counts each whole second",
		}),
	}
}

// Capabilities: jobs needing HTTP/2, or bundled targets started for them, can require it.
// shards: the agent runs a job group's share of the load, starting at the group's start time.
func (Workload) Capabilities() []string { return []string{"http2", targets.Capability, "shards"} }

func (Workload) Prepare(settings json.RawMessage) (workload.Runner, error) {
	p, err := parseSettings(settings)
	if err != nil {
		return nil, err
	}
	return &runner{p: p}, nil
}

type runner struct{ p *plan }

// StartTargets starts the targets setting's processes (none without it).
func (r *runner) StartTargets(ctx context.Context, rec workload.Recorder) (workload.RunningTargets, error) {
	return targets.StartRecorded(ctx, r.p.Targets, rec)
}

func (r *runner) Run(ctx context.Context, rec workload.Recorder) error {
	p := r.p
	target := p.URL
	if p.self != nil {
		srv, err := startSelfTarget(p.self, p.HTTP2)
		if err != nil {
			return fmt.Errorf("starting the loopback target: %w", err)
		}
		defer srv.close()
		target = srv.url
		rec.Warn("the target is the agent's own loopback server (selfTarget): it shares this machine's CPU with the load generator, so these figures describe the agent's machine, not a real server")
	}
	u, err := url.Parse(target)
	if err != nil {
		return err
	}
	maxConns := p.Connections
	if p.Model == modelOpen {
		maxConns = p.MaxConnections
	}
	wire := &loadgen.Wire{}
	tr := newTransport(p, u, maxConns, wire)
	l := loadgen.New(p.loadPlan(), tr.newSender, wire)
	if p.warmup > 0 {
		l.OnMeasuring = func() { workload.MeasuringStarts(rec) }
	}
	rec.Logf("http: %s %s, %s model, %s", p.Method, target, p.Model, describeLength(p))

	// Cancellation closes every connection so requests in flight return at once.
	finished := make(chan struct{})
	var watcher sync.WaitGroup
	watcher.Add(1)
	go func() {
		defer watcher.Done()
		select {
		case <-ctx.Done():
			tr.closeAll()
		case <-finished:
		}
	}()
	l.Run(ctx)
	close(finished)
	watcher.Wait()
	tr.closeAll()
	if err := ctx.Err(); err != nil {
		return err
	}
	return report(l, p, u, rec)
}

func describeLength(p *plan) string {
	if p.duration > 0 {
		return fmt.Sprintf("%s measured after %s of warm-up", p.duration, p.warmup)
	}
	return fmt.Sprintf("%d measured requests after %s of warm-up", p.Requests, p.warmup)
}
