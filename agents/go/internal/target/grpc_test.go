package target

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/versus/agents/go/internal/workload/workloadtest"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	grpcload "github.com/versus/agents/go/internal/workload/grpc"
)

const mib = 1 << 20

// grpcTarget is a target serving HTTP and gRPC through Serve, as `versus-agent target
// --grpc-addr` does.
type grpcTarget struct {
	url  string       // http://ADDR
	addr string       // the gRPC host:port
	stop func() error // ends Serve and returns what it returned
}

// startGRPC serves a target with these flags and gRPC on for the test's duration.
func startGRPC(t *testing.T, args ...string) grpcTarget {
	t.Helper()
	target := serveGRPC(t, args...)
	t.Cleanup(func() {
		if err := target.stop(); err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return target
}

func serveGRPC(t *testing.T, args ...string) grpcTarget {
	t.Helper()
	o, err := ParseOptions("target", args, io.Discard)
	if err != nil {
		t.Fatalf("flags %v: %v", args, err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	grpcLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- Serve(ctx, ln, grpcLn, o) }()
	return grpcTarget{url: "http://" + ln.Addr().String(), addr: grpcLn.Addr().String(), stop: sync.OnceValue(func() error {
		cancel()
		return <-served
	})}
}

// load runs the real grpc workload against the target and returns what it recorded.
func load(t *testing.T, settings string) grpcload.Facts {
	t.Helper()
	run := workloadtest.Run(t, grpcload.Workload{}, settings)
	var f grpcload.Facts
	workloadtest.Environment(t, run, "grpc", &f)
	return f
}

// wantAbout checks wire bytes: at least the payloads, and framing (HTTP/2 frames, headers, the
// protobuf tags) under 2 % on top.
func wantAbout(t *testing.T, what string, got, payload int64) {
	t.Helper()
	if got < payload || got > payload+payload/50 {
		t.Errorf("%s: %d bytes on the wire, want the payloads' %d plus a little framing", what, got, payload)
	}
}

// Unary, described by the target's reflection (no .proto on the caller's side): 1 MiB per call.
func TestGRPCUnaryByReflection(t *testing.T) {
	target := startGRPC(t)
	f := load(t, fmt.Sprintf(`{"target": %q, "method": "versus.target.Payloads/Unary", "data": "{\"size\": %d}", "calls": 6, "callers": 2}`, target.addr, mib))
	if f.Calls != 6 || f.StatusCodes["OK"] != 6 || f.Kind != "unary" || f.DescribedBy != "server reflection" || f.MessagesReceived != 6 {
		t.Fatalf("facts %+v", f)
	}
	wantAbout(t, "6 unary calls of 1 MiB", f.BytesIn, 6*mib)
	if n := metricValue(t, get(t, target.url+"/metrics").body, `versus_target_grpc_calls_total{code="OK",method="Unary"}`); n != 6 {
		t.Errorf("/metrics counts %v Unary calls, want 6", n)
	}
}

// Server streaming: 1 MiB in the default 64 KiB chunks is 16 messages per call; a chunk size
// that does not divide the payload leaves a shorter last message.
func TestGRPCStreamSendsThePayloadInChunks(t *testing.T) {
	target := startGRPC(t)
	f := load(t, fmt.Sprintf(`{"target": %q, "method": "versus.target.Payloads/Stream", "data": "{\"size\": %d}", "calls": 4, "callers": 2}`, target.addr, mib))
	if f.Calls != 4 || f.StatusCodes["OK"] != 4 || f.Kind != "serverStreaming" || f.MessagesReceived != 4*16 {
		t.Fatalf("facts %+v; want 4 calls of 16 messages", f)
	}
	wantAbout(t, "4 streams of 1 MiB", f.BytesIn, 4*mib)

	chunks := receiveStream(t, target.addr, `{"size": 250000, "chunkSize": 100000}`)
	if len(chunks) != 3 || len(chunks[0]) != 100000 || len(chunks[2]) != 50000 {
		t.Fatalf("250,000 bytes in chunks of 100,000: %d messages", len(chunks))
	}
	if chunks := receiveStream(t, target.addr, `{"size": 0}`); len(chunks) != 0 {
		t.Fatalf("size 0: %d messages, want none", len(chunks))
	}
}

// The .proto the repository ships (and --print-proto prints) describes the same service: the
// workload called with protoFile uploads 1 MiB per call; a request with no size gets the
// target's --payload-size.
func TestGRPCFromTheShippedProtoFile(t *testing.T) {
	target := startGRPC(t, "--payload-size", "5000")
	f := load(t, fmt.Sprintf(`{"target": %q, "method": "versus.target.Payloads/Upload", "protoFile": "payload.proto",
		"payloadField": "data", "payloadBytes": %d, "calls": 3, "callers": 1}`, target.addr, mib))
	if f.StatusCodes["OK"] != 3 || f.DescribedBy != "protoFile payload.proto" || f.Kind != "unary" {
		t.Fatalf("facts %+v", f)
	}
	wantAbout(t, "3 uploads of 1 MiB", f.BytesOut, 3*mib)
	if n := metricValue(t, get(t, target.url+"/metrics").body, `versus_target_grpc_calls_total{code="OK",method="Upload"}`); n != 3 {
		t.Errorf("/metrics counts %v Upload calls, want 3", n)
	}
	reply, err := call(t, target.addr, "Upload", `{"data": "aGVsbG8="}`)
	if err != nil || reply.Get(reply.Descriptor().Fields().ByName("received_bytes")).Int() != 5 {
		t.Fatalf("Upload of 5 bytes: %v, %v", reply, err)
	}

	f = load(t, fmt.Sprintf(`{"target": %q, "method": "versus.target.Payloads/Unary", "protoFile": "payload.proto", "calls": 2, "callers": 1}`, target.addr))
	if f.StatusCodes["OK"] != 2 || f.BytesIn < 2*5000 || f.BytesIn > 2*5000+2000 {
		t.Fatalf("no size given: facts %+v, want 2 answers of --payload-size 5000", f)
	}
}

// gRPC moves the same incompressible bytes as GET /payload/binary.
func TestGRPCPayloadIsTheHTTPBytes(t *testing.T) {
	target := startGRPC(t)
	binary := get(t, target.url+"/payload/binary?size=200001").body
	reply, err := call(t, target.addr, "Unary", `{"size": 200001}`)
	if err != nil {
		t.Fatal(err)
	}
	if data := reply.Get(reply.Descriptor().Fields().ByName("data")).Bytes(); string(data) != string(binary) {
		t.Fatalf("Unary answered %d bytes that are not /payload/binary's %d", len(data), len(binary))
	}
	var streamed []byte
	for _, chunk := range receiveStream(t, target.addr, `{"size": 200001}`) {
		streamed = append(streamed, chunk...)
	}
	if string(streamed) != string(binary) {
		t.Fatalf("Stream sent %d bytes that are not /payload/binary's", len(streamed))
	}
}

// A bad size is INVALID_ARGUMENT naming the field and what is valid; the workload counts it by
// name, /metrics by code.
func TestGRPCBadSizesAreInvalidArgument(t *testing.T) {
	target := startGRPC(t)
	cases := []struct{ method, request, want string }{
		{"Unary", `{"size": -1}`, "size: must be from 0 to 67108864 bytes (got -1)"},
		{"Unary", `{"size": 67108865}`, "size: must be from 0 to 67108864 bytes (got 67108865)"},
		{"Unary", `{"size": 10, "chunkSize": 5}`, "chunk_size: is for Stream"},
		{"Stream", `{"size": -5}`, "size: must be from 0"},
		{"Stream", `{"size": 10, "chunkSize": -3}`, "chunk_size: must be from 1 to 67108864 bytes per message, or 0 for 65536 (got -3)"},
	}
	for _, c := range cases {
		var err error
		if c.method == "Stream" {
			_, err = stream(target.addr, c.request)
		} else {
			_, err = call(t, target.addr, c.method, c.request)
		}
		if st := status.Convert(err); st.Code() != codes.InvalidArgument || !contains(st.Message(), c.want) {
			t.Errorf("%s %s: %v; want InvalidArgument saying %q", c.method, c.request, err, c.want)
		}
	}
	f := load(t, fmt.Sprintf(`{"target": %q, "method": "versus.target.Payloads/Stream", "data": "{\"size\": -1}", "calls": 2, "callers": 1}`, target.addr))
	if f.StatusCodes["INVALID_ARGUMENT"] != 2 || f.Errors != 2 {
		t.Fatalf("facts %+v", f)
	}
	if n := metricValue(t, get(t, target.url+"/metrics").body, `versus_target_grpc_calls_total{code="InvalidArgument",method="Stream"}`); n != 4 {
		t.Errorf("/metrics counts %v refused Stream calls, want 4 (2 above, 2 by the workload)", n)
	}
}

// --stall-every holds gRPC calls as it holds HTTP requests.
func TestGRPCCallsWaitOutAStall(t *testing.T) {
	target := startGRPC(t, "--stall-every", "3s", "--stall-for", "2900ms")
	time.Sleep(150 * time.Millisecond) // into the stall window
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	conn := dialTarget(t, target.addr)
	err := conn.Invoke(ctx, "/versus.target.Payloads/Unary", request(t, "PayloadRequest", `{"size": 1}`), reply(t, "Payload"))
	if status.Code(err) != codes.DeadlineExceeded {
		t.Fatalf("a call inside the stall window: %v, want DeadlineExceeded", err)
	}
}

// --print-proto prints the service's definition, and it is the file in the repository.
func TestPrintProto(t *testing.T) {
	var out, errOut strings.Builder
	if code := Main("target", []string{"--print-proto"}, &out, &errOut); code != 0 || out.String() != PayloadProto || !contains(PayloadProto, "service Payloads") {
		t.Fatalf("--print-proto: exit %d, %d bytes (stderr %q)", code, len(out.String()), errOut.String())
	}
}

func dialTarget(t *testing.T, addr string) *grpc.ClientConn {
	t.Helper()
	conn, err := grpc.NewClient("passthrough:///"+addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

func messageType(t *testing.T, name protoreflect.Name) protoreflect.MessageDescriptor {
	t.Helper()
	fd, err := payloadFile()
	if err != nil {
		t.Fatal(err)
	}
	return fd.Messages().ByName(name)
}

func request(t *testing.T, name protoreflect.Name, jsonText string) *dynamicpb.Message {
	t.Helper()
	m := dynamicpb.NewMessage(messageType(t, name))
	if err := protojson.Unmarshal([]byte(jsonText), m); err != nil {
		t.Fatalf("%s %s: %v", name, jsonText, err)
	}
	return m
}

func reply(t *testing.T, name protoreflect.Name) *dynamicpb.Message {
	return dynamicpb.NewMessage(messageType(t, name))
}

// call makes one unary call with dynamic messages, as a client with generated code would.
func call(t *testing.T, addr, method, jsonText string) (*dynamicpb.Message, error) {
	t.Helper()
	in, out := protoreflect.Name("PayloadRequest"), protoreflect.Name("Payload")
	if method == "Upload" {
		in, out = "Payload", "Received"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	answer := reply(t, out)
	err := dialTarget(t, addr).Invoke(ctx, "/versus.target.Payloads/"+method, request(t, in, jsonText), answer)
	return answer, err
}

func receiveStream(t *testing.T, addr, jsonText string) [][]byte {
	t.Helper()
	chunks, err := stream(addr, jsonText)
	if err != nil {
		t.Fatalf("Stream %s: %v", jsonText, err)
	}
	return chunks
}

// stream calls Stream and returns each message's payload (or the call's status).
func stream(addr, jsonText string) ([][]byte, error) {
	fd, err := payloadFile()
	if err != nil {
		return nil, err
	}
	req := dynamicpb.NewMessage(fd.Messages().ByName("PayloadRequest"))
	if err := protojson.Unmarshal([]byte(jsonText), req); err != nil {
		return nil, err
	}
	conn, err := grpc.NewClient("passthrough:///"+addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := conn.NewStream(ctx, &grpc.StreamDesc{ServerStreams: true}, "/versus.target.Payloads/Stream")
	if err != nil {
		return nil, err
	}
	if err := s.SendMsg(req); err != nil {
		return nil, err
	}
	if err := s.CloseSend(); err != nil {
		return nil, err
	}
	var chunks [][]byte
	for {
		m := dynamicpb.NewMessage(fd.Messages().ByName("Payload"))
		err := s.RecvMsg(m)
		if errors.Is(err, io.EOF) {
			return chunks, nil
		}
		if err != nil {
			return nil, err
		}
		chunks = append(chunks, m.Get(m.Descriptor().Fields().ByName("data")).Bytes())
	}
}
