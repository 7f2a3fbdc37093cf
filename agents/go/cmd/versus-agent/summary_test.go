package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/versus/agents/go/internal/execute"
	"github.com/versus/agents/go/internal/result"
	grpcworkload "github.com/versus/agents/go/internal/workload/grpc"
	httpworkload "github.com/versus/agents/go/internal/workload/http"
)

func TestSummaryOfSamplesAndSummaries(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	values := make([]float64, 2000) // more than inline: goes as samplesBase64
	for i := range values {
		values[i] = float64(i + 1)
	}
	run := result.Run{
		StartedAt: start, FinishedAt: start.Add(time.Second),
		Environment: map[string]any{"warnings": []any{"CPU frequency scaling is on"}},
		Metrics: []result.Metric{
			{Key: "time", Unit: "ms", SamplesBase64: result.EncodeSamples(values)},
			{Key: "ratio", Unit: "%", Summary: &result.Summary{N: 3, Mean: 41.5, P99: result.F(43)}},
		},
	}
	var out bytes.Buffer
	printSummary(&out, "gzip", run)
	text := out.String()
	for _, want := range []string{"WARNING: CPU frequency scaling is on", "n=2000 mean=1000", "p50=1000 p90=1800 p99=1980", "n=3 mean=41.5", "p99=43 %"} {
		if !strings.Contains(text, want) {
			t.Errorf("summary lacks %q:\n%s", want, text)
		}
	}
}

func TestSummaryOfAnHTTPRunIsWrkLike(t *testing.T) {
	outcome := execute.Run(context.Background(), httpworkload.Workload{}, json.RawMessage(`{"selfTarget": {"responseBytes": 10}, "requests": 50, "connections": 2}`), nil, nil)
	if outcome.Err != nil {
		t.Fatal(outcome.Err)
	}
	// The summary reads the document as the server would get it (JSON), not the Go values.
	raw, _ := json.Marshal(outcome.Run)
	var run result.Run
	if err := json.Unmarshal(raw, &run); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	printSummary(&out, "http", run)
	text := out.String()
	for _, want := range []string{"closed model, 2 connections", "50 requests in", "Requests/sec:", "Latency  mean", "p99.9", "Status codes: 200: 50", "connection refused 0", "WARNING: closed model", "coordinated omission"} {
		if !strings.Contains(text, want) {
			t.Errorf("summary lacks %q:\n%s", want, text)
		}
	}
}

// The grpc block reads the workload's facts (as JSON, the way the document travels).
func TestSummaryOfAGRPCRunIsGhzLike(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	facts := grpcworkload.Facts{
		Target: "localhost:50051", Method: "payload.Payloads/Download", Kind: "serverStreaming", DescribedBy: "server reflection",
		Model: "closed", Callers: 10, Connections: 1, DurationSeconds: 30, Calls: 900, MessagesSent: 1, RequestBytes: 12,
		StatusCodes: map[string]int64{"OK": 898, "DEADLINE_EXCEEDED": 2}, Errors: 2, BytesIn: 900 << 20, BytesOut: 90_000,
	}
	raw, _ := json.Marshal(result.Run{StartedAt: start, FinishedAt: start.Add(30 * time.Second),
		Environment: map[string]any{"grpc": facts},
		Metrics:     []result.Metric{{Key: "throughput", Unit: "req/s", Value: result.F(30)}}})
	var run result.Run
	if err := json.Unmarshal(raw, &run); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	printSummary(&out, "grpc", run)
	text := out.String()
	for _, want := range []string{"localhost:50051 payload.Payloads/Download (serverStreaming, server reflection) — closed model, 10 callers, 1 connection(s), plaintext",
		"900 calls in 30.00s, 900.00MB read", "Calls/sec: 30.00", "Status codes: DEADLINE_EXCEEDED: 2, OK: 898"} {
		if !strings.Contains(text, want) {
			t.Errorf("summary lacks %q:\n%s", want, text)
		}
	}
}
