// Package s3 is the "s3" workload: PutObject (or GetObject) of a payload to any S3-compatible
// endpoint, plain or gzipped with Content-Encoding: gzip, timed end to end (compress + PUT) with
// the compression and the request also on their own, and the bytes before and after gzip. The
// credentials come from the agent's machine only (the AWS SDK's default chain), never from the
// settings, the run or the log.
package s3

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/versus/agents/go/internal/result"
	"github.com/versus/agents/go/internal/workload"
	"github.com/versus/agents/go/internal/workload/targets"
)

// Name is the workload's name in jobs and capabilities.
const Name = "s3"

// Workload is the s3 workload.
type Workload struct{}

var (
	_ workload.Workload      = Workload{}
	_ workload.Capabilities  = Workload{}
	_ workload.TargetStarter = (*runner)(nil)
)

func (Workload) Info() workload.Info {
	ms := func(key, description string) workload.MetricSpec {
		return workload.MetricSpec{Key: key, Unit: "ms", Direction: result.LowerIsBetter, Description: description}
	}
	return workload.Info{
		Name:           Name,
		Description:    "S3 PutObject (or GetObject) of a generated or file payload to any S3-compatible endpoint, plain or gzipped (Content-Encoding: gzip): time per operation end to end and its parts, bytes before and after gzip",
		SettingsSchema: schemaJSON,
		Metrics: []workload.MetricSpec{
			ms("upload_time", "operation put: time of one upload end to end, gzip (if on) + PutObject, per operation"),
			ms("compress_time", "operation put: time of the gzip compression of one upload, per operation (0 without gzip)"),
			ms("put_time", "operation put: time of the PutObject request alone (signing, sending, S3's answer), per operation"),
			ms("download_time", "operation get: time of one download end to end, GetObject + reading the body + gunzip (if on), per operation"),
			ms("decompress_time", "operation get: time of the gunzip of one download, per operation (0 without gzip)"),
			ms("get_time", "operation get: time of the GetObject request and reading its body, per operation"),
			{Key: "payload_bytes", Unit: "B", Direction: result.LowerIsBetter, Description: "Bytes of the payload before gzip"},
			{Key: "sent_bytes", Unit: "B", Direction: result.LowerIsBetter, Description: "Bytes of the object as stored and sent over the wire: the payload after gzip (put: the body sent; get: the body received)"},
			{Key: "throughput", Unit: "ops/s", Direction: result.HigherIsBetter, Description: "Operations that succeeded ÷ the measured seconds"},
			{Key: "errors", Unit: "count", Direction: result.LowerIsBetter, Description: "Measured operations that failed (timeout, refused, S3 error other than a credentials or bucket error, which fails the run)"},
		},
	}
}

// Capabilities: jobs whose settings list bundled targets can require them.
func (Workload) Capabilities() []string { return []string{targets.Capability} }

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

// Facts are the run's s3 environment entry: what was sent where, and where the credentials came
// from (the SDK's name of the provider, never a key).
type Facts struct {
	Endpoint          string  `json:"endpoint"`
	Region            string  `json:"region"`
	Bucket            string  `json:"bucket"`
	KeyPrefix         string  `json:"keyPrefix"`
	PathStyle         bool    `json:"pathStyle"`
	Operation         string  `json:"operation"`
	Payload           string  `json:"payload"`
	ContentType       string  `json:"contentType"`
	Gzip              bool    `json:"gzip"`
	GzipLevel         int     `json:"gzipLevel,omitempty"`
	PayloadBytes      int     `json:"payloadBytes"`
	SentBytes         int     `json:"sentBytes"`
	Concurrency       int     `json:"concurrency"`
	WarmupOperations  int     `json:"warmupOperations"`
	Operations        int     `json:"operations"`
	Errors            int     `json:"errors"`
	MeasuredSeconds   float64 `json:"measuredSeconds"`
	CredentialsSource string  `json:"credentialsSource"`
}

func (r *runner) Run(ctx context.Context, rec workload.Recorder) error {
	p := r.p
	client, source, err := newClient(ctx, p)
	if err != nil {
		return err
	}
	id := make([]byte, 6)
	_, _ = rand.Read(id)
	o := &operator{client: client, p: p, runID: hex.EncodeToString(id)}
	endpoint := p.Endpoint
	if endpoint == "" {
		endpoint = "AWS S3 (" + p.Region + ")"
	}
	rec.Logf("s3: %s of %d B (%s, %s) to s3://%s/%s… at %s, %d + %d operations, %d at once",
		p.Operation, len(p.payload), p.Payload, gzipWords(p), p.Bucket, o.key(""), endpoint, p.WarmupOperations, p.Operations, p.Concurrency)

	do := func(ctx context.Context, name string) (timing, error) { return o.put(ctx, o.key(name)) }
	if p.Operation == opGet {
		object := o.key("object")
		if _, err := o.put(ctx, object); err != nil {
			return failure(fmt.Sprintf("putting the object the gets read (%s)", object), err)
		}
		do = func(ctx context.Context, _ string) (timing, error) { return o.get(ctx, object) }
	}
	if _, err := r.phase(ctx, p.WarmupOperations, "warmup-", do, rec); err != nil {
		return err
	}
	if p.WarmupOperations > 0 {
		workload.MeasuringStarts(rec)
	}
	measured, err := r.phase(ctx, p.Operations, "", do, rec)
	if err != nil {
		return err
	}
	if len(measured.done) == 0 {
		return fmt.Errorf("every measured operation failed; the last: %s", measured.lastError)
	}
	r.report(measured, source, rec)
	return nil
}

// phaseResult is what one phase's operations left: the successful ones in the order they ended.
type phaseResult struct {
	done      []timing
	errors    int
	lastError string
	seconds   float64
}

// phase does count operations, p.Concurrency at a time. An S3 error another attempt would meet
// again (credentials, bucket) stops it and fails the run; other failures are counted.
func (r *runner) phase(ctx context.Context, count int, prefix string, do func(context.Context, string) (timing, error), rec workload.Recorder) (phaseResult, error) {
	var (
		mu        sync.Mutex
		res       phaseResult
		permanent error
		next      atomic.Int64
		wg        sync.WaitGroup
	)
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	start := time.Now()
	for range min(r.p.Concurrency, count) {
		wg.Go(func() {
			for {
				n := next.Add(1)
				if n > int64(count) || ctx.Err() != nil {
					return
				}
				name := fmt.Sprintf("%s%06d", prefix, n)
				t, err := do(ctx, name)
				mu.Lock()
				if err == nil {
					res.done = append(res.done, t)
				} else if ctx.Err() == nil {
					msg, isPermanent := s3Error(err)
					if isPermanent && permanent == nil {
						permanent = failure(fmt.Sprintf("%s to bucket %s", r.p.Operation, r.p.Bucket), err)
						stop()
					}
					res.errors++
					if res.errors <= 3 {
						rec.Logf("s3: %s %s failed: %s", r.p.Operation, name, msg)
					}
					res.lastError = msg
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	res.seconds = time.Since(start).Seconds()
	if permanent != nil {
		return res, permanent
	}
	return res, context.Cause(ctx)
}

// failure is a failure that ends the run: what failed, and the S3 error named as S3 gave it;
// permanent (not retried) when it is a credentials, bucket or request error.
func failure(what string, err error) error {
	msg, isPermanent := s3Error(err)
	wrapped := fmt.Errorf("%s: %s", what, msg)
	if isPermanent {
		return &workload.PermanentError{Err: wrapped}
	}
	return wrapped
}

// report records the measured operations' times, bytes, throughput and errors, and the facts.
func (r *runner) report(m phaseResult, source string, rec workload.Recorder) {
	p := r.p
	total, codec, wire := "upload_time", "compress_time", "put_time"
	if p.Operation == opGet {
		total, codec, wire = "download_time", "decompress_time", "get_time"
	}
	minSent, maxSent, sumSent := m.done[0].sent, m.done[0].sent, 0
	for _, t := range m.done {
		rec.Sample(total, millis(t.total))
		rec.Sample(codec, millis(t.codec))
		rec.Sample(wire, millis(t.wire))
		minSent, maxSent, sumSent = min(minSent, t.sent), max(maxSent, t.sent), sumSent+t.sent
	}
	n := int64(len(m.done))
	payload := float64(len(p.payload))
	rec.Summary("payload_bytes", result.Summary{N: n, Mean: payload, SD: result.F(0), Min: result.F(payload), Max: result.F(payload)})
	meanSent := float64(sumSent) / float64(n)
	rec.Summary("sent_bytes", result.Summary{N: n, Mean: meanSent, Min: result.F(float64(minSent)), Max: result.F(float64(maxSent))})
	rec.Value("throughput", float64(n)/m.seconds)
	rec.Value("errors", float64(m.errors))
	facts := Facts{
		Endpoint: p.Endpoint, Region: p.Region, Bucket: p.Bucket, KeyPrefix: p.KeyPrefix, PathStyle: p.PathStyle,
		Operation: p.Operation, Payload: p.Payload, ContentType: p.ContentType, Gzip: p.Gzip,
		PayloadBytes: len(p.payload), SentBytes: maxSent, Concurrency: p.Concurrency,
		WarmupOperations: p.WarmupOperations, Operations: p.Operations, Errors: m.errors,
		MeasuredSeconds: m.seconds, CredentialsSource: source,
	}
	if p.Gzip {
		facts.GzipLevel = p.GzipLevel
	}
	rec.Environment("s3", facts)
	if m.errors > 0 {
		rec.Warn(fmt.Sprintf("%d of %d measured operations failed (the last: %s); the times are of the %d that succeeded", m.errors, p.Operations, m.lastError, n))
	}
	rec.Logf("s3: %d operations in %.2fs, %d errors; %d B payload, %d B sent", n, m.seconds, m.errors, len(p.payload), maxSent)
}

func millis(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

func gzipWords(p *plan) string {
	if p.Gzip {
		return fmt.Sprintf("gzip level %d", p.GzipLevel)
	}
	return "plain"
}
