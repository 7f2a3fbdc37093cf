// Package gzip is the gzip workload: the CPU cost of compressing a text payload and the bytes it
// saves, the same workload (settings, defaults, bounds, metrics and generated payload) as the
// TypeScript reference agent's (agents/reference/workloads/gzip.ts), so an experiment such as the
// bundled "Gzip payloads (runnable)" runs on either agent. The two sides of "plain vs gzip" are
// this one workload: `compress: false` is Plain (the payload copied as any send would copy it),
// `compress: true` with a level is Gzip. Level 0 is not Plain: it still wraps the payload in
// gzip's header, stored blocks and trailer.
package gzip

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/versus/agents/go/internal/result"
	"github.com/versus/agents/go/internal/workload"
)

// maxPayloadBytes bounds sizeBytes and a file's size (the reference agent's 64 MiB).
const maxPayloadBytes = 64 * 1024 * 1024

const settingsSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "additionalProperties": false,
  "properties": {
    "sizeBytes": {"type": "integer", "x-unit": "B", "minimum": 1, "maximum": 67108864, "default": 51200, "description": "Size of the generated text payload, in bytes"},
    "compress": {"type": "boolean", "default": true, "description": "false: the payload is sent as it is (the Plain variant)"},
    "level": {"type": "integer", "minimum": 0, "maximum": 9, "default": 6, "description": "gzip level: 1 fastest … 9 smallest; 0 stores without compressing"},
    "iterations": {"type": "integer", "minimum": 1, "maximum": 100000, "default": 100, "description": "Measured operations"},
    "warmupIterations": {"type": "integer", "minimum": 0, "maximum": 100000, "default": 10, "description": "Operations run first and not measured"},
    "seed": {"type": "integer", "minimum": 0, "maximum": 9007199254740991, "default": 1, "description": "Seed of the generated payload: the same seed, the same bytes"},
    "file": {"type": "string", "minLength": 1, "description": "A file on the agent's machine whose bytes are the payload, instead of generated text (not with sizeBytes or seed; at most 64 MiB)"}
  },
  "dependentSchemas": {"file": {"properties": {"sizeBytes": false, "seed": false}}}
}`

var schema = workload.MustCompileSchema("gzip", []byte(settingsSchema))

// Settings are the gzip workload's settings; New's defaults are the schema's.
type Settings struct {
	SizeBytes        int    `json:"sizeBytes"`
	Compress         bool   `json:"compress"`
	Level            int    `json:"level"`
	Iterations       int    `json:"iterations"`
	WarmupIterations int    `json:"warmupIterations"`
	Seed             int64  `json:"seed"`
	File             string `json:"file"`
}

func defaults() Settings {
	return Settings{SizeBytes: 51_200, Compress: true, Level: 6, Iterations: 100, WarmupIterations: 10, Seed: 1}
}

// Workload is the gzip workload.
type Workload struct{}

// New returns the gzip workload.
func New() Workload { return Workload{} }

func (Workload) Info() workload.Info {
	return workload.Info{
		Name:           "gzip",
		Description:    "Compress a generated text payload with gzip (or not, for the Plain side): time per operation and bytes",
		SettingsSchema: schema.Raw(),
		Metrics: []workload.MetricSpec{
			{Key: "compress_time", Unit: "us", Direction: result.LowerIsBetter, Aggregation: "median", Description: "Time to prepare the payload for sending, per operation"},
			{Key: "payload_bytes", Unit: "B", Direction: result.LowerIsBetter, Aggregation: "mean", Description: "Bytes sent: the payload after compression"},
			{Key: "input_bytes", Unit: "B", Direction: result.LowerIsBetter, Aggregation: "mean", Description: "Bytes of the payload before compression"},
		},
	}
}

func (Workload) Prepare(raw json.RawMessage) (workload.Runner, error) {
	present := workload.PresentSettings(raw)
	if present["file"] {
		var clash workload.SettingsErrors
		for _, other := range []string{"sizeBytes", "seed"} {
			if present[other] {
				clash = append(clash, &workload.SettingsError{Field: other, Message: "not with file: the file's bytes are the payload"})
			}
		}
		if clash != nil {
			return nil, clash
		}
	}
	s := defaults()
	if err := schema.Decode(raw, &s); err != nil {
		return nil, err
	}
	var payload []byte
	if s.File != "" {
		data, err := ReadPayloadFile(s.File)
		if err != nil {
			return nil, workload.SettingsErrors{{Field: "file", Message: err.Error()}}
		}
		payload = data
	} else {
		payload = TextPayload(s.SizeBytes, s.Seed)
	}
	return &runner{settings: s, payload: payload}, nil
}

// ReadPayloadFile reads a payload file of the agent's machine: a regular file, not empty, at most
// 64 MiB (the s3 workload's file payload too).
func ReadPayloadFile(path string) ([]byte, error) {
	info, err := os.Stat(path)
	switch {
	case err != nil:
		return nil, fmt.Errorf("cannot read the payload file: %w", err)
	case !info.Mode().IsRegular():
		return nil, fmt.Errorf("%s is not a regular file", path)
	case info.Size() == 0:
		return nil, fmt.Errorf("%s is empty", path)
	case info.Size() > maxPayloadBytes:
		return nil, fmt.Errorf("%s is %d bytes; at most %d (64 MiB)", path, info.Size(), maxPayloadBytes)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read the payload file: %w", err)
	}
	return data, nil
}

type runner struct {
	settings Settings
	payload  []byte
}

// prepare is one operation: the payload made ready to send, in a new buffer on both sides so
// both pay for an allocation and a copy. Gzip makes a new gzip.Writer every time rather than
// reusing one through Reset: the reference agent's zlib.gzipSync sets up a fresh deflate state
// per call too, so the two agents time the same operation (a tuned Go sender would pool writers;
// that is a different variant, and would hide the set-up of several hundred KiB of compressor
// state per payload).
func (r *runner) prepare() ([]byte, error) {
	if !r.settings.Compress {
		return bytes.Clone(r.payload), nil
	}
	var out bytes.Buffer
	zw, err := gzip.NewWriterLevel(&out, r.settings.Level)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(r.payload); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

func (r *runner) Run(ctx context.Context, rec workload.Recorder) error {
	s := r.settings
	mode := "plain"
	if s.Compress {
		mode = fmt.Sprintf("gzip level %d", s.Level)
	}
	source := fmt.Sprintf("generated (seed %d)", s.Seed)
	if s.File != "" {
		source = s.File
	}
	rec.Logf("payload %d B %s, %s, %d + %d operations", len(r.payload), source, mode, s.WarmupIterations, s.Iterations)
	// Go's compress/gzip and zlib make slightly different streams at the same level, so the
	// compressor is part of what a run measured.
	rec.Environment("compressor", "Go "+runtime.Version()+" compress/gzip")
	for i := 0; i < s.WarmupIterations; i++ {
		if _, err := r.prepare(); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	if s.WarmupIterations > 0 {
		workload.MeasuringStarts(rec)
	}
	output := r.payload
	for i := 0; i < s.Iterations; i++ {
		start := time.Now()
		out, err := r.prepare()
		elapsed := time.Since(start)
		if err != nil {
			return err
		}
		output = out
		rec.Sample("compress_time", float64(elapsed.Nanoseconds())/1000)
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	n := int64(s.Iterations)
	sent, input := float64(len(output)), float64(len(r.payload))
	rec.Summary("payload_bytes", result.Summary{N: n, Mean: sent, SD: result.F(0), Min: result.F(sent), Max: result.F(sent)})
	rec.Summary("input_bytes", result.Summary{N: n, Mean: input, SD: result.F(0), Min: result.F(input), Max: result.F(input)})
	return nil
}
