package grpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/versus/agents/go/internal/execute"
	"github.com/versus/agents/go/internal/result"
	"github.com/versus/agents/go/internal/workload"
	"github.com/versus/agents/go/internal/workload/loadgen"
	"github.com/versus/agents/go/internal/workload/workloadtest"
)

const protoPath = "testdata/payload.proto"

func runGRPC(t *testing.T, settings string) result.Run {
	t.Helper()
	return workloadtest.Run(t, Workload{}, settings)
}

// runErr runs settings that must fail and returns the failure.
func runErr(t *testing.T, settings string) error {
	t.Helper()
	outcome := execute.Run(context.Background(), Workload{}, json.RawMessage(settings), nil, nil)
	if outcome.Err == nil {
		t.Fatalf("run %s succeeded; want a failure", settings)
	}
	return outcome.Err
}

func metric(t *testing.T, run result.Run, key string) result.Metric {
	t.Helper()
	return workloadtest.Metric(t, run, key)
}

func factsOf(t *testing.T, run result.Run) Facts {
	t.Helper()
	var f Facts
	workloadtest.Environment(t, run, "grpc", &f)
	return f
}

func warningsOf(run result.Run) string {
	raw, _ := json.Marshal(run.Environment["warnings"])
	return string(raw) + strings.Join(run.Warnings, " ")
}

// Unary from a .proto file, with a generated payload: every call is counted, the server gets
// the payload, and the metric family is the http workload's.
func TestUnaryCallsFromAProtoFile(t *testing.T) {
	srv := startServer(t, serverOptions{})
	run := runGRPC(t, fmt.Sprintf(`{"target": %q, "method": "versus.test.Payloads/Unary", "protoFile": %q, "calls": 20, "callers": 2,
		"payloadField": "payload", "payloadBytes": 1000, "data": "{\"options\": {\"responseBytes\": 2000}}"}`, srv.addr, protoPath))
	f := factsOf(t, run)
	if f.Calls != 20 || f.StatusCodes["OK"] != 20 || len(f.StatusCodes) != 1 || f.Errors != 0 || f.Kind != "unary" || f.DescribedBy != "protoFile "+protoPath {
		t.Fatalf("facts %+v", f)
	}
	if got := srv.received.Load(); got != 20*1000 {
		t.Errorf("the server received %d payload bytes, want 20 × 1000", got)
	}
	if f.BytesOut < 20*1000 || f.BytesIn < 20*2000 {
		t.Errorf("wire bytes in %d out %d: less than the payloads", f.BytesIn, f.BytesOut)
	}
	m := metric(t, run, "latency")
	h, err := hdrhistogram.Decode([]byte(m.Histogram))
	if err != nil || h.TotalCount() != 20 || m.HistogramScale != loadgen.LatencyScale || m.Unit != "ms" {
		t.Fatalf("latency histogram %v (%v), scale %v", h, err, m.HistogramScale)
	}
	if tp := metric(t, run, "throughput"); tp.Value == nil || *tp.Value <= 0 || tp.Unit != "req/s" {
		t.Errorf("throughput %+v", tp)
	}
	for _, key := range []string{"latency_p50", "latency_p95", "latency_p99", "throughput_peak", "requests", "errors", "bytes_in", "bytes_out", "bytes_total"} {
		if v := metric(t, run, key).Value; v == nil {
			t.Errorf("%s has no value", key)
		}
	}
	if w := warningsOf(run); !strings.Contains(w, "coordinated omission") || !strings.Contains(w, "2 callers") {
		t.Errorf("closed model without the coordinated-omission warning: %s", w)
	}
}

// Server streaming, described by the server's reflection: each call's answer is every chunk.
func TestServerStreamingFromReflection(t *testing.T) {
	srv := startServer(t, serverOptions{reflection: true})
	run := runGRPC(t, fmt.Sprintf(`{"target": %q, "method": "versus.test.Payloads.Download", "calls": 5, "callers": 1,
		"data": "{\"options\": {\"responseBytes\": 10000, \"chunkBytes\": 1000}}"}`, srv.addr))
	f := factsOf(t, run)
	if f.Calls != 5 || f.StatusCodes["OK"] != 5 || f.Kind != "serverStreaming" || f.DescribedBy != "server reflection" {
		t.Fatalf("facts %+v", f)
	}
	if f.MessagesReceived != 5*10 {
		t.Errorf("received %d messages, want 5 calls × 10 chunks", f.MessagesReceived)
	}
	if f.BytesIn < 5*10000 {
		t.Errorf("bytes in %d < the 50,000 streamed", f.BytesIn)
	}
}

// Client streaming: the payload goes in chunks of chunkBytes, one message each.
func TestClientStreamingSendsThePayloadInChunks(t *testing.T) {
	srv := startServer(t, serverOptions{})
	run := runGRPC(t, fmt.Sprintf(`{"target": %q, "method": "versus.test.Payloads/Upload", "protoFile": %q, "calls": 3, "callers": 1,
		"payloadField": "payload", "payloadBytes": 10000, "chunkBytes": 3000}`, srv.addr, protoPath))
	f := factsOf(t, run)
	if f.Calls != 3 || f.StatusCodes["OK"] != 3 || f.Kind != "clientStreaming" || f.MessagesSent != 4 || f.MessagesReceived != 3 {
		t.Fatalf("facts %+v", f)
	}
	if srv.calls.Load() != 3*4 || srv.received.Load() != 3*10000 {
		t.Errorf("the server got %d messages, %d bytes; want 12 and 30,000", srv.calls.Load(), srv.received.Load())
	}
}

// Bidirectional: messagesPerCall messages each way; a list in data is the messages of one call.
func TestBidiStreamingEchoesEveryMessage(t *testing.T) {
	srv := startServer(t, serverOptions{reflection: true})
	run := runGRPC(t, fmt.Sprintf(`{"target": %q, "method": "versus.test.Payloads/Echo", "calls": 4, "callers": 2, "messagesPerCall": 3,
		"data": "[{\"name\": \"a\"}, {\"name\": \"b\"}]", "payloadField": "payload", "payloadBytes": 100}`, srv.addr))
	f := factsOf(t, run)
	if f.Calls != 4 || f.StatusCodes["OK"] != 4 || f.Kind != "bidi" || f.MessagesSent != 6 || f.MessagesReceived != 4*6 {
		t.Fatalf("facts %+v", f)
	}
	if srv.received.Load() != 4*6*100 {
		t.Errorf("the server got %d payload bytes, want 2,400", srv.received.Load())
	}
}

// A call over its deadline ends DEADLINE_EXCEEDED and is an error; its latency is counted.
func TestDeadlineExceededIsCountedByName(t *testing.T) {
	srv := startServer(t, serverOptions{})
	run := runGRPC(t, fmt.Sprintf(`{"target": %q, "method": "versus.test.Payloads/Unary", "protoFile": %q, "calls": 3, "callers": 1,
		"timeoutMs": 50, "data": "{\"options\": {\"delayMs\": 2000}}"}`, srv.addr, protoPath))
	f := factsOf(t, run)
	if f.StatusCodes["DEADLINE_EXCEEDED"] != 3 || f.Errors != 3 {
		t.Fatalf("facts %+v", f)
	}
	if e := metric(t, run, "errors"); e.Value == nil || *e.Value != 3 {
		t.Errorf("errors value %v, want 3", e.Value)
	}
	// A call cut at its deadline took at least the deadline: its latency is counted.
	if p50 := metric(t, run, "latency_p50").Value; p50 == nil || *p50 < 50 {
		t.Errorf("latency p50 %v ms: want at least the 50 ms deadline", p50)
	}
}

// A server status other than OK is counted by its name.
func TestServerStatusesAreCountedByName(t *testing.T) {
	srv := startServer(t, serverOptions{})
	run := runGRPC(t, fmt.Sprintf(`{"target": %q, "method": "versus.test.Payloads/Download", "protoFile": %q, "calls": 2, "callers": 1,
		"data": "{\"options\": {\"failCode\": 8}}"}`, srv.addr, protoPath))
	if f := factsOf(t, run); f.StatusCodes["RESOURCE_EXHAUSTED"] != 2 || f.Errors != 2 {
		t.Fatalf("facts %+v", f)
	}
}

// Nothing listening: every call is UNAVAILABLE (with a .proto, nothing needs the server first).
func TestNoServerIsUnavailable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	run := runGRPC(t, fmt.Sprintf(`{"target": %q, "method": "versus.test.Payloads/Unary", "protoFile": %q, "calls": 3, "callers": 1}`, addr, protoPath))
	if f := factsOf(t, run); f.StatusCodes["UNAVAILABLE"] != 3 || f.Errors != 3 {
		t.Fatalf("facts %+v", f)
	}
}

func TestMetadataAndTLS(t *testing.T) {
	srv := startServer(t, serverOptions{tls: true, reflection: true})
	run := runGRPC(t, fmt.Sprintf(`{"target": %q, "method": "versus.test.Payloads/Unary", "calls": 2, "callers": 1, "tls": true, "insecureSkipVerify": true,
		"metadata": {"x-test": "hello"}}`, srv.addr))
	if f := factsOf(t, run); f.StatusCodes["OK"] != 2 || !f.TLS {
		t.Fatalf("facts %+v", f)
	}
	if got := srv.metadata.Load(); got != "hello" {
		t.Errorf("the server saw metadata %q", got)
	}
	// Plaintext against a TLS server fails every call; it is not OK.
	run = runGRPC(t, fmt.Sprintf(`{"target": %q, "method": "versus.test.Payloads/Unary", "protoFile": %q, "calls": 2, "callers": 1}`, srv.addr, protoPath))
	if f := factsOf(t, run); f.StatusCodes["OK"] != 0 || f.Errors != 2 {
		t.Fatalf("plaintext to TLS: facts %+v", f)
	}
}

// The open model: calls at a rate, no coordinated-omission warning; the warm-up is not counted.
func TestOpenModelAndWarmup(t *testing.T) {
	srv := startServer(t, serverOptions{})
	run := runGRPC(t, fmt.Sprintf(`{"target": %q, "method": "versus.test.Payloads/Unary", "protoFile": %q, "rate": 40, "calls": 10, "warmupSeconds": 0.25}`, srv.addr, protoPath))
	f := factsOf(t, run)
	if f.Model != "open" || f.Rate != 40 || f.Calls != 10 || f.StatusCodes["OK"] != 10 {
		t.Fatalf("facts %+v", f)
	}
	if srv.calls.Load() <= 10 {
		t.Errorf("the server got %d calls: the warm-up sent none", srv.calls.Load())
	}
	if w := warningsOf(run); strings.Contains(w, "coordinated omission") {
		t.Errorf("open model warned: %s", w)
	}
}

// Bad JSON for the message names the setting and the message's field; so do the other
// settings the method and the message decide.
func TestBadMessagesNameTheField(t *testing.T) {
	srv := startServer(t, serverOptions{reflection: true})
	base := func(extra string) string {
		return fmt.Sprintf(`{"target": %q, "method": "versus.test.Payloads/Unary", "protoFile": %q, %s}`, srv.addr, protoPath, extra)
	}
	workloadtest.RequireRefused(t, Workload{}, []workloadtest.SettingsCase{
		{base(`"data": "{\"nmae\": \"x\"}"`), "settings.data:", `unknown field "nmae"`},
		{base(`"data": "{\"name\": 5}"`), "settings.data:", "name"},
		{base(`"data": "{\"options\": {\"delayMs\": \"soon\"}}"`), "settings.data:", "delayMs"},
		{base(`"payloadField": "name", "payloadBytes": 3`), "settings.payloadField:", "not bytes"},
		{base(`"payloadField": "options.nothing", "payloadBytes": 3`), "settings.payloadField:", "no field nothing"},
		{base(`"chunkBytes": 3, "payloadField": "payload", "payloadBytes": 9`), "settings.chunkBytes:", "unary"},
		{base(`"data": "[{}, {}]"`), "settings.data:", "stream"},
		{base(`"data": "{\"name\": "`), "settings.data:", "not JSON"},
		{base(`"data": "[]"`), "settings.data:", "at least one message"},
		{fmt.Sprintf(`{"target": %q, "method": "versus.test.Payloads/Nope", "protoFile": %q}`, srv.addr, protoPath), "settings.method:", "Download, Echo, Unary, Upload"},
		{fmt.Sprintf(`{"target": %q, "method": "versus.test.Nothing/Unary", "protoFile": %q}`, srv.addr, protoPath), "settings.method:", "versus.test.Payloads"},
		{`{"target": "x:1", "method": "a.B/C", "protoFile": "/no/such.proto"}`, "settings.protoFile:", "cannot be read"},
		{`{"target": "x:1"}`, "settings:", "missing property 'method'"},
		{`{"target": "x", "method": "a.B/C"}`, "settings.target:", ""},
		{`{"target": "x:1", "method": "a.B/C", "payloadBytes": 3}`, "settings.payloadField:", "required"},
		{`{"target": "x:1", "method": "a.B/C", "rate": 5, "callers": 2}`, "settings.callers:", "closed model"},
		{`{"target": "x:1", "method": "a.B/C", "duration": 1, "calls": 2}`, "settings.calls:", "not both"},
		{`{"target": "x:1", "method": "a.B/C", "insecureSkipVerify": true}`, "settings.insecureSkipVerify:", "tls"},
		{`{"target": "x:1", "method": "a.B/C", "importPaths": ["."]}`, "settings.importPaths:", "protoFile"},
	})
	// Through reflection the message is known only at run time: the failure still names it.
	err := runErr(t, fmt.Sprintf(`{"target": %q, "method": "versus.test.Payloads/Unary", "data": "{\"nmae\": \"x\"}"}`, srv.addr))
	var se workload.SettingsErrors
	if !errors.As(err, &se) || se[0].Field != "data" || !strings.Contains(err.Error(), "nmae") {
		t.Fatalf("reflection, bad data: %v", err)
	}
	err = runErr(t, fmt.Sprintf(`{"target": %q, "method": "versus.test.Nothing/Unary"}`, srv.addr))
	if !errors.As(err, &se) || se[0].Field != "method" || !strings.Contains(err.Error(), "versus.test.Payloads") {
		t.Fatalf("reflection, unknown service: %v", err)
	}
}

// Without reflection on the server, the failure says to give protoFile.
func TestNoReflectionAsksForAProtoFile(t *testing.T) {
	srv := startServer(t, serverOptions{})
	err := runErr(t, fmt.Sprintf(`{"target": %q, "method": "versus.test.Payloads/Unary", "calls": 1}`, srv.addr))
	var se workload.SettingsErrors
	if !errors.As(err, &se) || se[0].Field != "protoFile" {
		t.Fatalf("error %v, want it to name protoFile", err)
	}
}

// Cancelling the run ends the calls in flight (each takes the run's context) in both models and
// for both kinds of call.
func TestCancellationStopsCallsInFlight(t *testing.T) {
	srv := startServer(t, serverOptions{})
	for _, settings := range []string{
		`{"target": %q, "method": "versus.test.Payloads/Unary", "protoFile": %q, "callers": 3, "duration": 600, "timeoutMs": 600000, "data": "{\"options\": {\"delayMs\": 600000}}"}`,
		`{"target": %q, "method": "versus.test.Payloads/Download", "protoFile": %q, "rate": 100, "duration": 600, "timeoutMs": 600000, "data": "{\"options\": {\"delayMs\": 600000}}"}`,
	} {
		before := srv.calls.Load()
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan execute.Outcome, 1)
		go func() {
			done <- execute.Run(ctx, Workload{}, json.RawMessage(fmt.Sprintf(settings, srv.addr, protoPath)), nil, nil)
		}()
		for srv.calls.Load() == before {
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
		// Without the cancellation reaching the calls this would wait for the 10-minute server
		// delay; the bound only keeps a broken build from hanging the suite.
		select {
		case outcome := <-done:
			if !errors.Is(outcome.Err, execute.ErrStopped) {
				t.Fatalf("%s: outcome %v, want stopped", settings, outcome.Err)
			}
		case <-time.After(time.Minute):
			t.Fatalf("%s: the run did not stop when cancelled", settings)
		}
	}
}

// importPaths: the .proto's imports are found in those folders (and protobuf's own well-known
// types need none); a file that does not compile names protoFile.
func TestImportPathsFindTheImports(t *testing.T) {
	srv := startServer(t, serverOptions{})
	// The wrapper's method has the test service's messages, so the test server answers it at
	// its own path only when the names agree: here the call's UNIMPLEMENTED shows the method
	// and its messages were resolved from the two files.
	run := runGRPC(t, fmt.Sprintf(`{"target": %q, "method": "versus.wrapper.Wrapped/Unary", "protoFile": "testdata/importing/wrapper.proto",
		"importPaths": ["testdata", "testdata/importing"], "payloadField": "payload", "payloadBytes": 10, "calls": 1, "callers": 1}`, srv.addr))
	if f := factsOf(t, run); f.StatusCodes["UNIMPLEMENTED"] != 1 || f.Method != "versus.wrapper.Wrapped/Unary" {
		t.Fatalf("facts %+v", f)
	}
	workloadtest.RequireRefused(t, Workload{}, []workloadtest.SettingsCase{
		{`{"target": "x:1", "method": "versus.wrapper.Wrapped/Unary", "protoFile": "testdata/importing/wrapper.proto"}`, "settings.protoFile:", "payload.proto"},
	})
}

// A run of 2.5 s: every series holds the 2 whole seconds, each summary describes one set of
// values, and the run's throughput is its calls ÷ its measured seconds.
func TestPerSecondSeriesHoldWholeSeconds(t *testing.T) {
	srv := startServer(t, serverOptions{})
	run := runGRPC(t, fmt.Sprintf(`{"target": %q, "method": "versus.test.Payloads/Unary", "protoFile": %q, "callers": 2, "duration": 2.5,
		"data": "{\"options\": {\"delayMs\": 2}}"}`, srv.addr, protoPath))
	f := factsOf(t, run)
	workloadtest.RequireConsistentMetrics(t, run, f.DurationSeconds)
	tp := metric(t, run, "throughput")
	if want := float64(f.Calls) / f.DurationSeconds; tp.Value == nil || *tp.Value != want || tp.TimeSeries == nil || len(tp.TimeSeries.Values) != 2 {
		t.Fatalf("throughput %+v, want value %v and 2 whole seconds", tp, want)
	}
}
