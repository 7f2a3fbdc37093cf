package grpc

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bufbuild/protocompile"
	ggrpc "google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/reflection"
	reflectionv1 "google.golang.org/grpc/reflection/grpc_reflection_v1"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"
)

// testProto is testdata/payload.proto compiled at test time (the service the tests call).
func testProto(t *testing.T) protoreflect.FileDescriptor {
	t.Helper()
	files, err := (&protocompile.Compiler{Resolver: &protocompile.SourceResolver{ImportPaths: []string{"testdata"}}}).Compile(context.Background(), "payload.proto")
	if err != nil {
		t.Fatalf("compiling testdata/payload.proto: %v", err)
	}
	return files[0]
}

// testServer is an in-process gRPC server of versus.test.Payloads, written against the compiled
// descriptors (dynamic messages, no generated code). The request's options make it slow or fail.
type testServer struct {
	addr     string
	calls    atomic.Int64
	received atomic.Int64 // payload bytes received
	metadata atomic.Value // the last call's "x-test" metadata value
}

type serverOptions struct {
	reflection bool
	tls        bool
}

func startServer(t *testing.T, o serverOptions) *testServer {
	t.Helper()
	fd := testProto(t)
	svc := fd.Services().ByName("Payloads")
	in, out := fd.Messages().ByName("PayloadRequest"), fd.Messages().ByName("PayloadReply")
	ts := &testServer{}
	ts.metadata.Store("")

	var opts []ggrpc.ServerOption
	if o.tls {
		cert := httptest.NewTLSServer(nil)
		cfg := cert.TLS.Clone()
		cert.Close()
		opts = append(opts, ggrpc.Creds(credentials.NewTLS(&tls.Config{Certificates: cfg.Certificates})))
	}
	s := ggrpc.NewServer(opts...)
	field := func(m protoreflect.Message, name string) protoreflect.Value {
		return m.Get(m.Descriptor().Fields().ByName(protoreflect.Name(name)))
	}
	option := func(req *dynamicpb.Message, name string) int {
		return int(field(field(req, "options").Message(), name).Int())
	}
	reply := func(payload []byte, received int64, messages int) *dynamicpb.Message {
		m := dynamicpb.NewMessage(out)
		m.Set(out.Fields().ByName("payload"), protoreflect.ValueOfBytes(payload))
		m.Set(out.Fields().ByName("received_bytes"), protoreflect.ValueOfInt64(received))
		m.Set(out.Fields().ByName("received_messages"), protoreflect.ValueOfInt32(int32(messages)))
		return m
	}
	// behave applies the request's options: the metadata seen, a delay, a failure.
	behave := func(ctx context.Context, req *dynamicpb.Message) error {
		ts.calls.Add(1)
		ts.received.Add(int64(len(field(req, "payload").Bytes())))
		if md, ok := metadata.FromIncomingContext(ctx); ok && len(md.Get("x-test")) > 0 {
			ts.metadata.Store(md.Get("x-test")[0])
		}
		if d := option(req, "delay_ms"); d > 0 {
			select {
			case <-time.After(time.Duration(d) * time.Millisecond):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		if code := option(req, "fail_code"); code != 0 {
			return status.Error(codes.Code(code), "failing as asked")
		}
		return nil
	}
	desc := ggrpc.ServiceDesc{
		ServiceName: string(svc.FullName()),
		HandlerType: (*any)(nil),
		Methods: []ggrpc.MethodDesc{{MethodName: "Unary", Handler: func(_ any, ctx context.Context, dec func(any) error, _ ggrpc.UnaryServerInterceptor) (any, error) {
			req := dynamicpb.NewMessage(in)
			if err := dec(req); err != nil {
				return nil, err
			}
			if err := behave(ctx, req); err != nil {
				return nil, err
			}
			return reply(make([]byte, option(req, "response_bytes")), int64(len(field(req, "payload").Bytes())), 1), nil
		}}},
		Streams: []ggrpc.StreamDesc{
			{StreamName: "Download", ServerStreams: true, Handler: func(_ any, stream ggrpc.ServerStream) error {
				req := dynamicpb.NewMessage(in)
				if err := stream.RecvMsg(req); err != nil {
					return err
				}
				if err := behave(stream.Context(), req); err != nil {
					return err
				}
				total, chunk := option(req, "response_bytes"), option(req, "chunk_bytes")
				if chunk <= 0 {
					chunk = max(total, 1)
				}
				payload := make([]byte, total)
				for off := 0; off < total; off += chunk {
					if err := stream.SendMsg(reply(payload[off:min(off+chunk, total)], 0, 1)); err != nil {
						return err
					}
				}
				return nil
			}},
			{StreamName: "Upload", ClientStreams: true, Handler: func(_ any, stream ggrpc.ServerStream) error {
				var bytes int64
				var n int
				for {
					req := dynamicpb.NewMessage(in)
					err := stream.RecvMsg(req)
					if errors.Is(err, io.EOF) {
						break
					}
					if err != nil {
						return err
					}
					if err := behave(stream.Context(), req); err != nil {
						return err
					}
					bytes += int64(len(field(req, "payload").Bytes()))
					n++
				}
				return stream.SendMsg(reply(nil, bytes, n))
			}},
			{StreamName: "Echo", ClientStreams: true, ServerStreams: true, Handler: func(_ any, stream ggrpc.ServerStream) error {
				for {
					req := dynamicpb.NewMessage(in)
					err := stream.RecvMsg(req)
					if errors.Is(err, io.EOF) {
						return nil
					}
					if err != nil {
						return err
					}
					if err := behave(stream.Context(), req); err != nil {
						return err
					}
					payload := field(req, "payload").Bytes()
					if err := stream.SendMsg(reply(payload, int64(len(payload)), 1)); err != nil {
						return err
					}
				}
			}},
		},
		Metadata: fd.Path(),
	}
	s.RegisterService(&desc, struct{}{})
	if o.reflection {
		files := &protoregistry.Files{}
		if err := files.RegisterFile(fd); err != nil {
			t.Fatal(err)
		}
		reflectionv1.RegisterServerReflectionServer(s, reflection.NewServerV1(reflection.ServerOptions{Services: s, DescriptorResolver: files}))
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ts.addr = ln.Addr().String()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = s.Serve(ln)
	}()
	t.Cleanup(func() {
		s.Stop()
		<-done
	})
	return ts
}
