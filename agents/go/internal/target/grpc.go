package target

import (
	"context"
	_ "embed"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bufbuild/protocompile"
	"github.com/prometheus/client_golang/prometheus"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/reflection"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"
)

// PayloadProto is the gRPC service's definition, shipped for clients that prefer a .proto file
// to the server's reflection (`versus-agent target --print-proto`).
//
//go:embed payload.proto
var PayloadProto string

// payloadProtoPath is the file's name in the descriptors reflection hands out.
const payloadProtoPath = "versus/target/payload.proto"

// DefaultChunk is the server stream's message size when the request gives none: the 64 KB
// chunks of the HTTP-vs-gRPC write-up's gRPC/Stream.
const DefaultChunk = 64 << 10

// payloadFile is payload.proto compiled when the gRPC service first starts. No protoc is needed
// here or anywhere in the build: generated code would need protoc (or buf) with protoc-gen-go and
// protoc-gen-go-grpc plus a step to keep it in step with the file, while three methods over three
// small messages are served as easily with dynamic messages through gRPC's standard proto codec
// (marshalled as generated code would be: the payload is copied into the frame). The .proto is
// the one source: reflection answers from exactly what was compiled. It is registered in
// protoregistry.GlobalFiles, where the reflection service looks by default (and where it finds
// its own descriptors too), once per process.
var payloadFile = sync.OnceValues(func() (protoreflect.FileDescriptor, error) {
	compiler := protocompile.Compiler{Resolver: &protocompile.SourceResolver{
		Accessor: protocompile.SourceAccessorFromMap(map[string]string{payloadProtoPath: PayloadProto}),
	}}
	files, err := compiler.Compile(context.Background(), payloadProtoPath)
	if err != nil {
		return nil, fmt.Errorf("compiling the embedded payload.proto: %w", err)
	}
	if err := protoregistry.GlobalFiles.RegisterFile(files[0]); err != nil {
		return nil, fmt.Errorf("registering payload.proto for reflection: %w", err)
	}
	return files[0], nil
})

// grpcPayloads serves versus.target.Payloads: Unary answers a payload of the asked size in one
// message, Stream the same bytes in chunks, Upload the size of the payload it was sent.
type grpcPayloads struct {
	defaultSize int
	source      *sharedPayload
	stall       func() time.Duration
	workers     *workerPool
	calls       *prometheus.CounterVec

	request, payload, received protoreflect.MessageDescriptor
}

// newGRPCServer is the target's gRPC server: the payload service and server reflection (v1 and
// v1alpha, which older clients such as grpcurl and ghz ask), its calls counted on registry.
func newGRPCServer(p *parts) (*grpc.Server, error) {
	fd, err := payloadFile()
	if err != nil {
		return nil, err
	}
	svc := &grpcPayloads{
		defaultSize: p.o.PayloadSize,
		source:      &sharedPayload{block: p.payloads.block},
		stall:       p.stallLeft,
		workers:     p.workers,
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "versus_target_grpc_calls_total",
			Help: "gRPC calls of versus.target.Payloads answered, by method and status code.",
		}, []string{"method", "code"}),
		request:  fd.Messages().ByName("PayloadRequest"),
		payload:  fd.Messages().ByName("Payload"),
		received: fd.Messages().ByName("Received"),
	}
	p.registry.MustRegister(svc.calls)

	// A 64 MiB upload (the largest payload) fits; gRPC's default would refuse over 4 MiB.
	server := grpc.NewServer(grpc.MaxRecvMsgSize(MaxPayload + 1024))
	server.RegisterService(svc.desc(fd), svc)
	reflection.Register(server)
	return server, nil
}

func (s *grpcPayloads) desc(fd protoreflect.FileDescriptor) *grpc.ServiceDesc {
	return &grpc.ServiceDesc{
		ServiceName: string(fd.Services().ByName("Payloads").FullName()),
		HandlerType: (*any)(nil),
		Methods: []grpc.MethodDesc{
			{MethodName: "Unary", Handler: s.unary("Unary", s.request, s.answerUnary)},
			{MethodName: "Upload", Handler: s.unary("Upload", s.payload, s.answerUpload)},
		},
		Streams:  []grpc.StreamDesc{{StreamName: "Stream", ServerStreams: true, Handler: s.handleStream}},
		Metadata: payloadProtoPath,
	}
}

// unary is the handler of a unary method: the request decoded as in, the reply what answer
// makes of it, the call observed.
func (s *grpcPayloads) unary(method string, in protoreflect.MessageDescriptor, answer func(req *dynamicpb.Message) (*dynamicpb.Message, error)) grpc.MethodHandler {
	return func(_ any, ctx context.Context, dec func(any) error, _ grpc.UnaryServerInterceptor) (any, error) {
		var reply *dynamicpb.Message
		err := s.observe(ctx, method, func() error {
			req := dynamicpb.NewMessage(in)
			err := dec(req)
			if err == nil {
				reply, err = answer(req)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		return reply, nil
	}
}

func (s *grpcPayloads) answerUnary(req *dynamicpb.Message) (*dynamicpb.Message, error) {
	size, err := s.size(req)
	if err != nil {
		return nil, err
	}
	if chunk := s.field(req, "chunk_size").Int(); chunk != 0 {
		return nil, status.Errorf(codes.InvalidArgument, "chunk_size: is for Stream; Unary answers the payload in one message (got %d)", chunk)
	}
	return s.payloadOf(s.source.first(size)), nil
}

func (s *grpcPayloads) answerUpload(req *dynamicpb.Message) (*dynamicpb.Message, error) {
	reply := dynamicpb.NewMessage(s.received)
	reply.Set(s.received.Fields().ByName("received_bytes"), protoreflect.ValueOfInt64(int64(len(s.field(req, "data").Bytes()))))
	return reply, nil
}

func (s *grpcPayloads) handleStream(_ any, stream grpc.ServerStream) error {
	return s.observe(stream.Context(), "Stream", func() error {
		req := dynamicpb.NewMessage(s.request)
		if err := stream.RecvMsg(req); err != nil {
			return err
		}
		size, err := s.size(req)
		if err != nil {
			return err
		}
		chunk := int(s.field(req, "chunk_size").Int())
		switch {
		case chunk == 0:
			chunk = DefaultChunk
		case chunk < 0 || chunk > MaxPayload:
			return status.Errorf(codes.InvalidArgument, "chunk_size: must be from 1 to %d bytes per message, or 0 for %d (got %d)", MaxPayload, DefaultChunk, chunk)
		}
		payload := s.source.first(size)
		for off := 0; off < size; off += chunk {
			if err := stream.SendMsg(s.payloadOf(payload[off:min(off+chunk, size)])); err != nil {
				return err
			}
		}
		return nil
	})
}

// observe runs one call on a worker (--workers) and inside the --stall-every window's hold (as
// the HTTP endpoints are) and counts it by its status.
func (s *grpcPayloads) observe(ctx context.Context, method string, call func() error) error {
	if !s.workers.acquire(ctx) {
		err := status.FromContextError(ctx.Err()).Err()
		s.calls.WithLabelValues(method, status.Code(err).String()).Inc()
		return err
	}
	defer s.workers.release()
	err := holdFor(ctx, s.stall())
	if err == nil {
		err = call()
	}
	s.calls.WithLabelValues(method, status.Code(err).String()).Inc()
	return err
}

func holdFor(ctx context.Context, wait time.Duration) error {
	if wait <= 0 {
		return nil
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return status.FromContextError(ctx.Err()).Err()
	}
}

// size is the request's size, or --payload-size when it gives none.
func (s *grpcPayloads) size(req *dynamicpb.Message) (int, error) {
	fd := s.request.Fields().ByName("size")
	if !req.Has(fd) {
		return s.defaultSize, nil
	}
	n := req.Get(fd).Int()
	if n < 0 || n > MaxPayload {
		return 0, status.Errorf(codes.InvalidArgument, "size: must be from 0 to %d bytes (got %d)", MaxPayload, n)
	}
	return int(n), nil
}

func (s *grpcPayloads) field(m *dynamicpb.Message, name protoreflect.Name) protoreflect.Value {
	return m.Get(m.Descriptor().Fields().ByName(name))
}

func (s *grpcPayloads) payloadOf(data []byte) *dynamicpb.Message {
	m := dynamicpb.NewMessage(s.payload)
	m.Set(s.payload.Fields().ByName("data"), protoreflect.ValueOfBytes(data))
	return m
}

// sharedPayload holds the longest payload asked for so far, the HTTP endpoints' random block
// repeated, and hands out its first N bytes: every call reads the same bytes (never written once
// built), so a call costs the marshalling into its frame, not a payload of its own.
type sharedPayload struct {
	block []byte
	mu    sync.Mutex
	bytes atomic.Pointer[[]byte]
}

func (p *sharedPayload) first(n int) []byte {
	if b := p.bytes.Load(); b != nil && len(*b) >= n {
		return (*b)[:n]
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if b := p.bytes.Load(); b != nil && len(*b) >= n {
		return (*b)[:n]
	}
	b := make([]byte, n)
	for off := 0; off < n; off += len(p.block) {
		copy(b[off:], p.block)
	}
	p.bytes.Store(&b)
	return b
}
