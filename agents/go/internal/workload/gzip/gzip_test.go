package gzip

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/versus/agents/go/internal/result"
	"github.com/versus/agents/go/internal/workload/workloadtest"
)

// Golden SHA-256 values of the reference agent's textPayload, computed in the repository root with
//
//	npx tsx -e 'import { createHash } from "node:crypto"; import { textPayload } from "./agents/reference/workloads/text-payload";
//	  for (const [size, seed] of [[1, 1], [12, 1], [100, 0], [51200, 1], [51200, 42], [1000000, 7], [4096, 4294967297], [65536, 2147483648]])
//	    console.log(size, seed, createHash("sha256").update(textPayload(size, seed)).digest("hex"));'
//
// The last two seeds exercise `seed >>> 0` (2^32 + 1 wraps to 1) and the high bit of the state.
func TestTextPayloadIsTheReferenceAgentsByteForByte(t *testing.T) {
	for _, c := range []struct {
		size int
		seed int64
		sha  string
	}{
		{1, 1, "dabd3aff769f07eb2965401eb029974ebba3407afd02b26ddb564ea5f8efae72"},
		{12, 1, "3f7af3768d0a5463f3cfd93c47864c3f654c8cdb65e4ca6b24d5772365e6dee4"},
		{100, 0, "0d33a2aae8052b28265e85ce1df68dba33caa772e2c6b1918099b6beb6d40925"},
		{51200, 1, "7bc0b5cbfe83d0bcca620842bc627712d956b228149c4fac31ba5d40b7a7008d"},
		{51200, 42, "c2d0b2cdc9dfb778f1660ac313529925123c8d71092838c7b61f44b3db96a976"},
		{1000000, 7, "6c5b0d3295eef25c6d03e506b587c6aa0c992bbaf6603078365ef8b399799b42"},
		{4096, 4294967297, "8969216578cd57b6b9507c905d60beadddb6f9ca661d3bfd507ddc1cc268218e"},
		{65536, 2147483648, "b9a62342c40e260d17d4592ddb6c2458d289c517091b74c4767d4618a480caad"},
	} {
		payload := TextPayload(c.size, c.seed)
		sum := sha256.Sum256(payload)
		if len(payload) != c.size || hex.EncodeToString(sum[:]) != c.sha {
			t.Errorf("size %d seed %d: %d bytes, sha256 %x, want %s", c.size, c.seed, len(payload), sum, c.sha)
		}
	}
}

func run(t *testing.T, settings string) (*result.Builder, error) {
	t.Helper()
	w := New()
	runner, err := w.Prepare(json.RawMessage(settings))
	if err != nil {
		return nil, err
	}
	specs := map[string]result.Spec{}
	for _, m := range w.Info().Metrics {
		specs[m.Key] = result.Spec{Unit: m.Unit, Direction: m.Direction}
	}
	rec := result.NewBuilder(specs, nil)
	return rec, runner.Run(context.Background(), rec)
}

func metrics(rec *result.Builder) map[string]result.Metric {
	out := map[string]result.Metric{}
	for _, m := range rec.Build(time.Now(), time.Now(), nil).Metrics {
		out[m.Key] = m
	}
	return out
}

func TestGzipOutputDecompressesToThePayload(t *testing.T) {
	w := New()
	r, err := w.Prepare(json.RawMessage(`{"sizeBytes": 20000, "level": 9, "seed": 3}`))
	if err != nil {
		t.Fatal(err)
	}
	out, err := r.(*runner).prepare()
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	back, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back, TextPayload(20000, 3)) {
		t.Fatal("decompressed output is not the payload")
	}
	if len(out) >= 20000/2 {
		t.Fatalf("text compressed to %d of 20000 bytes", len(out))
	}
}

func TestGzipRecordsTimesAndBytes(t *testing.T) {
	rec, err := run(t, `{"sizeBytes": 5000, "iterations": 7, "warmupIterations": 2}`)
	if err != nil {
		t.Fatal(err)
	}
	m := metrics(rec)
	if got := len(m["compress_time"].Samples); got != 7 {
		t.Fatalf("compress_time has %d samples, want 7", got)
	}
	sent, input := m["payload_bytes"].Summary, m["input_bytes"].Summary
	if input.Mean != 5000 || input.N != 7 || sent.Mean <= 0 || sent.Mean >= 5000 {
		t.Fatalf("payload_bytes %+v input_bytes %+v", sent, input)
	}
	if m["payload_bytes"].Unit != "B" || m["compress_time"].Unit != "us" {
		t.Fatalf("units %q %q", m["payload_bytes"].Unit, m["compress_time"].Unit)
	}
}

func TestPlainSendsThePayloadAsItIs(t *testing.T) {
	rec, err := run(t, `{"sizeBytes": 3000, "compress": false, "iterations": 3}`)
	if err != nil {
		t.Fatal(err)
	}
	m := metrics(rec)
	if m["payload_bytes"].Summary.Mean != 3000 || m["input_bytes"].Summary.Mean != 3000 {
		t.Fatalf("payload_bytes %v input_bytes %v", m["payload_bytes"].Summary.Mean, m["input_bytes"].Summary.Mean)
	}
}

func TestLevelZeroStillFramesThePayload(t *testing.T) {
	rec, err := run(t, `{"sizeBytes": 3000, "level": 0, "iterations": 1, "warmupIterations": 0}`)
	if err != nil {
		t.Fatal(err)
	}
	if got := metrics(rec)["payload_bytes"].Summary.Mean; got <= 3000 {
		t.Fatalf("level 0 sent %v bytes, want more than the 3000 of the payload", got)
	}
}

func TestAFileIsThePayload(t *testing.T) {
	path := filepath.Join(t.TempDir(), "body.json")
	content := []byte(strings.Repeat(`{"name":"versus","ok":true},`, 100))
	if err := os.WriteFile(path, content, 0o600); err != nil {
		t.Fatal(err)
	}
	settings, _ := json.Marshal(map[string]any{"file": path, "iterations": 2, "compress": false})
	rec, err := run(t, string(settings))
	if err != nil {
		t.Fatal(err)
	}
	if got := metrics(rec)["input_bytes"].Summary.Mean; got != float64(len(content)) {
		t.Fatalf("input_bytes %v, want %d", got, len(content))
	}
}

func TestBadSettingsNameTheField(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	quote := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	workloadtest.RequireRefused(t, New(), []workloadtest.SettingsCase{
		{`{"level": 12}`, "settings.level:", "maximum"},
		{`{"level": -1}`, "settings.level:", "minimum"},
		{`{"sizeBytes": 0}`, "settings.sizeBytes:", "minimum"},
		{`{"sizeBytes": 67108865}`, "settings.sizeBytes:", "maximum"},
		{`{"iterations": 0}`, "settings.iterations:", "minimum"},
		{`{"seed": -1}`, "settings.seed:", "minimum"},
		{`{"compress": "yes"}`, "settings.compress:", "boolean"},
		{`{"colour": "red"}`, "'colour'", "valid settings are sizeBytes, compress, level"},
		{`{"file": ""}`, "settings.file:", "minLength"},
		{`{"file": "/x", "sizeBytes": 10}`, "settings.sizeBytes:", "not with file"},
		{`{"file": "/x", "seed": 2}`, "settings.seed:", "not with file"},
		{`{"file": ` + quote(filepath.Join(dir, "missing")) + `}`, "settings.file:", "no such file"},
		{`{"file": ` + quote(dir) + `}`, "settings.file:", "not a regular file"},
		{`{"file": ` + quote(empty) + `}`, "settings.file:", "empty"},
	})
}

func TestSchemaAloneRejectsFileWithSizeBytes(t *testing.T) {
	// The advertised schema says the same as Prepare's clearer check, for anyone validating with it.
	var s Settings
	if err := schema.Decode(json.RawMessage(`{"file": "/x", "sizeBytes": 10}`), &s); err == nil {
		t.Fatal("schema accepted file with sizeBytes")
	}
}

func TestRunStopsWhenTheContextEnds(t *testing.T) {
	r, err := New().Prepare(json.RawMessage(`{"sizeBytes": 1000, "iterations": 100000, "warmupIterations": 0}`))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rec := result.NewBuilder(nil, nil)
	if err := r.Run(ctx, rec); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if n := len(metrics(rec)["compress_time"].Samples); n > 1 {
		t.Fatalf("ran %d operations after the context ended", n)
	}
}
