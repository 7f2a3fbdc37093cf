package result

import (
	"encoding/base64"
	"encoding/binary"
	"math"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

func TestBuildKeepsOrderSpecsAndEnvironment(t *testing.T) {
	b := NewBuilder(map[string]Spec{"t": {Unit: "us", Direction: LowerIsBetter, Aggregation: "median"}}, nil)
	b.Sample("t", 1.5)
	b.Summary("bytes", Summary{N: 1, Mean: 10})
	b.Sample("t", 2.5)
	b.Environment("target", "x")
	b.Warn("closed model")
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	run := b.Build(start, start.Add(time.Second), map[string]any{"os": "linux"})
	if len(run.Metrics) != 2 || run.Metrics[0].Key != "t" || run.Metrics[1].Key != "bytes" {
		t.Fatalf("metrics %+v", run.Metrics)
	}
	if m := run.Metrics[0]; m.Unit != "us" || m.Direction != LowerIsBetter || len(m.Samples) != 2 || m.Samples[1] != 2.5 {
		t.Fatalf("metric t %+v", m)
	}
	if run.Environment["os"] != "linux" || run.Environment["target"] != "x" {
		t.Fatalf("environment %+v", run.Environment)
	}
	if w, _ := run.Environment["warnings"].([]string); len(w) != 1 {
		t.Fatalf("warnings %+v", run.Environment["warnings"])
	}
}

func TestManySamplesGoAsBase64LittleEndianFloat64(t *testing.T) {
	b := NewBuilder(nil, nil)
	for i := 0; i <= samplesInlineMax; i++ {
		b.Sample("t", float64(i)+0.25)
	}
	m := b.Build(time.Now(), time.Now(), nil).Metrics[0]
	if m.Samples != nil || m.SamplesBase64 == "" {
		t.Fatalf("want samplesBase64 only")
	}
	raw, err := base64.StdEncoding.DecodeString(m.SamplesBase64)
	if err != nil || len(raw) != 8*(samplesInlineMax+1) {
		t.Fatalf("decoded %d bytes, %v", len(raw), err)
	}
	if v := math.Float64frombits(binary.LittleEndian.Uint64(raw[8*7:])); v != 7.25 {
		t.Fatalf("sample 7 = %v", v)
	}
}

func TestHistogramIsV2CompressedAndDecodes(t *testing.T) {
	h := hdrhistogram.New(1, 60_000_000, 3)
	for i := int64(1); i <= 1000; i++ {
		_ = h.RecordValue(i * 10)
	}
	b := NewBuilder(nil, nil)
	b.Histogram("latency", h, 1000)
	m := b.Build(time.Now(), time.Now(), nil).Metrics[0]
	if m.HistogramScale != 1000 {
		t.Fatalf("scale %v", m.HistogramScale)
	}
	back, err := hdrhistogram.Decode([]byte(m.Histogram))
	if err != nil {
		t.Fatal(err)
	}
	if back.TotalCount() != 1000 || back.ValueAtQuantile(50) != h.ValueAtQuantile(50) {
		t.Fatalf("decoded count %d p50 %d", back.TotalCount(), back.ValueAtQuantile(50))
	}
}

func TestLogTailKeepsTheLastLines(t *testing.T) {
	var seen int
	b := NewBuilder(nil, func(string) { seen++ })
	for i := 0; i < logTailLines+50; i++ {
		b.Logf("line %d", i)
	}
	if seen != logTailLines+50 {
		t.Fatalf("onLog saw %d", seen)
	}
	tail := b.LogTail()
	if want := "line 50\n"; tail[:len(want)] != want {
		t.Fatalf("tail starts %q", tail[:20])
	}
}
