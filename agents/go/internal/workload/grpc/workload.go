// Package grpc is the "grpc" workload: gRPC load against a server (unary, server-streaming,
// client-streaming and bidirectional methods, described by a .proto file on the agent's machine
// or by the server's reflection), in the closed or the open model of the http workload, with the
// same metric family (internal/workload/loadgen).
package grpc

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/versus/agents/go/internal/workload"
	"github.com/versus/agents/go/internal/workload/loadgen"
	"github.com/versus/agents/go/internal/workload/targets"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Name is the workload's name in jobs and capabilities.
const Name = "grpc"

// Workload is the gRPC load workload.
type Workload struct{}

var (
	_ workload.Workload      = Workload{}
	_ workload.Runner        = (*runner)(nil)
	_ workload.TargetStarter = (*runner)(nil)
)

func (Workload) Info() workload.Info {
	return workload.Info{
		Name:           Name,
		Description:    "gRPC load (unary and streaming calls, a .proto file or server reflection): closed model (N concurrent callers, like ghz) or open model (a constant call rate, latency counted from when each call was due)",
		SettingsSchema: schemaJSON,
		Metrics: loadgen.Metrics(loadgen.MetricWords{
			// req/s as http's, so an experiment mixing http and grpc variants compares one metric.
			ThroughputUnit: "req/s",
			Operations:     "calls",
			Latency:        "Duration of every call, whatever its status, to the last message of the answer (HdrHistogram; open model: from the time it was due)",
			Throughput:     "Calls finished per second (any status; a call counts as one request, as ghz counts them, however many messages it streams): the run's value is calls ÷ the measured seconds; the series counts each whole second",
			Errors:         "Calls that ended with a status other than OK (UNAVAILABLE, DEADLINE_EXCEEDED, …): the run's value is the total; the series counts each whole second",
		}),
	}
}

// Prepare checks the settings; with a protoFile it also finds the method and encodes the
// requests, so a wrong method or message fails before any call.
// Capabilities: jobs with bundled targets started for them can require it.
// shards: the agent runs a job group's share of the load, starting at the group's start time.
func (Workload) Capabilities() []string { return []string{targets.Capability, "shards"} }

func (Workload) Prepare(settings json.RawMessage) (workload.Runner, error) {
	p, err := parseSettings(settings)
	if err != nil {
		return nil, err
	}
	r := &runner{p: p}
	if p.ProtoFile != "" {
		if r.method, err = methodFromProto(p); err != nil {
			return nil, err
		}
		if r.requests, err = requests(p, r.method); err != nil {
			return nil, err
		}
	}
	return r, nil
}

type runner struct {
	p        *plan
	method   protoreflect.MethodDescriptor // nil until the server's reflection describes it
	requests [][]byte
}

// StartTargets starts the targets setting's processes (none without it).
func (r *runner) StartTargets(ctx context.Context, rec workload.Recorder) (workload.RunningTargets, error) {
	return targets.StartRecorded(ctx, r.p.Targets, rec)
}

func (r *runner) Run(ctx context.Context, rec workload.Recorder) error {
	p := r.p
	wire := &loadgen.Wire{}
	conns, err := dial(p, wire)
	if err != nil {
		return fmt.Errorf("connecting to %s: %w", p.Target, err)
	}
	defer closeAll(conns)
	describedBy := "protoFile " + p.ProtoFile
	if r.method == nil {
		describedBy = "server reflection"
		rctx, cancel := context.WithTimeout(ctx, p.timeout)
		r.method, err = methodFromReflection(rctx, conns[0], p)
		cancel()
		if err != nil {
			return err
		}
		if r.requests, err = requests(p, r.method); err != nil {
			return err
		}
	}
	c := newCaller(ctx, p, conns, r.method, r.requests)
	l := loadgen.New(p.loadPlan(), c.newSender, wire)
	if p.warmup > 0 {
		l.OnMeasuring = func() { workload.MeasuringStarts(rec) }
	}
	rec.Logf("grpc: %s %s (%s, described by %s), %s model, %s", p.Target, c.path, kindOf(r.method), describedBy, p.Model, describeLength(p))

	// Cancellation: every call takes the run's context, so calls in flight end at once.
	l.Run(ctx)
	if err := ctx.Err(); err != nil {
		return err
	}
	t, err := l.Report(rec)
	if err != nil {
		return err
	}
	requestBytes := 0
	for _, b := range r.requests {
		requestBytes += len(b)
	}
	facts := Facts{
		Target: p.Target, Method: strings.TrimPrefix(c.path, "/"), Kind: kindOf(r.method), DescribedBy: describedBy, TLS: p.TLS,
		Model: p.Model, Connections: p.Connections, WarmupSeconds: p.WarmupSeconds, DurationSeconds: t.Seconds,
		Calls: t.Responses + t.NoResponse, StatusCodes: statusNames(t.Statuses), Errors: t.FailedResponses + t.NoResponse,
		MessagesSent: len(r.requests), RequestBytes: requestBytes, MessagesReceived: c.received.Load(),
		BytesIn: t.BytesIn, BytesOut: t.BytesOut,
	}
	if p.Model == loadgen.ModelOpen {
		facts.Rate, facts.MaxInFlight = p.Rate, p.MaxInFlight
	} else {
		facts.Callers = p.Callers
	}
	rec.Environment("grpc", facts)
	l.Warn(rec, t, loadgen.Nouns{Workers: "callers", Operations: "calls"})
	rec.Logf("grpc: %d calls, %d not OK in %.2fs", facts.Calls, facts.Errors, t.Seconds)
	return nil
}

// statusNames counts the calls by status name as gRPC spells them (OK, UNAVAILABLE, …).
func statusNames(statuses map[int]int64) map[string]int64 {
	out := map[string]int64{}
	for code, n := range statuses {
		name := "UNKNOWN_CODE"
		if code >= 0 && code <= int(codes.Unauthenticated) {
			name = codeNames[code]
		}
		out[name] += n
	}
	return out
}

// codeNames are the status codes as the gRPC spec names them (codes.Code's String is CamelCase).
var codeNames = [...]string{"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
	"PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL",
	"UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"}

func describeLength(p *plan) string {
	if p.duration > 0 {
		return fmt.Sprintf("%s measured after %s of warm-up", p.duration, p.warmup)
	}
	return fmt.Sprintf("%d measured calls after %s of warm-up", p.Calls, p.warmup)
}
