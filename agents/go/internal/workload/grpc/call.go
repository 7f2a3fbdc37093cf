package grpc

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"sync/atomic"

	"github.com/versus/agents/go/internal/workload/loadgen"
	ggrpc "google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// rawCodec sends requests encoded beforehand and reads answers without decoding them: the load
// generator measures the server, and decoding a 1 MB answer into a dynamic message would cost
// this machine's CPU in every call. Its name is "proto", so the wire is plain application/grpc.
type rawCodec struct{}

// frame is one message: the bytes sent, or the size of one received.
type frame struct {
	out []byte
	n   int
}

func (rawCodec) Marshal(v any) (mem.BufferSlice, error) {
	return mem.BufferSlice{mem.SliceBuffer(v.(*frame).out)}, nil
}

func (rawCodec) Unmarshal(data mem.BufferSlice, v any) error {
	v.(*frame).n = data.Len()
	return nil
}

func (rawCodec) Name() string { return "proto" }

// dial opens the connections the calls share, each dialled through the wire counter (below TLS,
// as the http workload counts).
func dial(p *plan, wire *loadgen.Wire) ([]*ggrpc.ClientConn, error) {
	creds := insecure.NewCredentials()
	if p.TLS {
		host, _, _ := net.SplitHostPort(p.Target)
		creds = credentials.NewTLS(&tls.Config{ServerName: host, InsecureSkipVerify: p.InsecureSkipVerify}) //nolint:gosec // the user asked for it (self-signed targets)
	}
	dialer := &net.Dialer{Timeout: p.timeout}
	var conns []*ggrpc.ClientConn
	for range p.Connections {
		conn, err := ggrpc.NewClient("passthrough:///"+p.Target,
			ggrpc.WithTransportCredentials(creds),
			ggrpc.WithContextDialer(func(ctx context.Context, addr string) (net.Conn, error) {
				c, err := dialer.DialContext(ctx, "tcp", addr)
				if err != nil {
					return nil, err
				}
				return wire.Count(c), nil
			}),
			// Large payloads are what the write-ups move: no cap below the settings' own.
			ggrpc.WithDefaultCallOptions(ggrpc.MaxCallRecvMsgSize(1<<30), ggrpc.MaxCallSendMsgSize(1<<30)),
		)
		if err != nil {
			closeAll(conns)
			return nil, err
		}
		conns = append(conns, conn)
	}
	return conns, nil
}

func closeAll(conns []*ggrpc.ClientConn) {
	for _, c := range conns {
		_ = c.Close()
	}
}

// caller makes calls of one method; its senders (one per worker) take the connections in turn.
type caller struct {
	ctx      context.Context // the run's: cancelling it ends calls in flight
	p        *plan
	conns    []*ggrpc.ClientConn
	next     atomic.Uint64
	path     string // /package.Service/Method
	desc     *ggrpc.StreamDesc
	unary    bool
	requests [][]byte
	// received counts the answers' messages (a server stream's count per call varies).
	received atomic.Int64
}

func newCaller(ctx context.Context, p *plan, conns []*ggrpc.ClientConn, md protoreflect.MethodDescriptor, requests [][]byte) *caller {
	c := &caller{ctx: ctx, p: p, conns: conns, requests: requests,
		path:  "/" + string(md.Parent().FullName()) + "/" + string(md.Name()),
		desc:  &ggrpc.StreamDesc{StreamName: string(md.Name()), ClientStreams: md.IsStreamingClient(), ServerStreams: md.IsStreamingServer()},
		unary: !md.IsStreamingClient() && !md.IsStreamingServer(),
	}
	if len(p.Metadata) > 0 {
		c.ctx = metadata.NewOutgoingContext(ctx, metadata.New(p.Metadata))
	}
	return c
}

func (c *caller) newSender() loadgen.Sender {
	conn := c.conns[c.next.Add(1)%uint64(len(c.conns))]
	return &sender{c: c, conn: conn, frames: framesOf(c.requests)}
}

func framesOf(requests [][]byte) []frame {
	out := make([]frame, len(requests))
	for i, b := range requests {
		out[i].out = b
	}
	return out
}

type sender struct {
	c      *caller
	conn   *ggrpc.ClientConn
	frames []frame
	reply  frame
}

var codecOption = ggrpc.ForceCodecV2(rawCodec{})

// Send makes one call and returns its status code. Every call ends with one (a refused
// connection is UNAVAILABLE, a missed deadline DEADLINE_EXCEEDED), so the only error is the run
// being cancelled under it.
func (s *sender) Send() (int, error) {
	ctx, cancel := context.WithTimeout(s.c.ctx, s.c.p.timeout)
	defer cancel()
	var err error
	if s.c.unary {
		err = s.conn.Invoke(ctx, s.c.path, &s.frames[0], &s.reply, codecOption)
		if err == nil {
			s.c.received.Add(1)
		}
	} else {
		err = s.stream(ctx)
	}
	if s.c.ctx.Err() != nil {
		return 0, s.c.ctx.Err()
	}
	return int(status.Code(err)), nil
}

// stream sends the call's messages and reads every answer, concurrently: a server that answers
// each message before reading the next (bidi echo) would otherwise stall on flow control.
func (s *sender) stream(ctx context.Context) error {
	stream, err := s.conn.NewStream(ctx, s.c.desc, s.c.path, codecOption)
	if err != nil {
		return err
	}
	sendDone := make(chan error, 1)
	go func() {
		for i := range s.frames {
			if err := stream.SendMsg(&s.frames[i]); err != nil {
				// io.EOF: the server ended the call; its status comes from RecvMsg.
				sendDone <- nil
				return
			}
		}
		sendDone <- stream.CloseSend()
	}()
	// Until io.EOF (the call's OK) or its status: a client stream answers once, then ends.
	var recvErr error
	for {
		if recvErr = stream.RecvMsg(&s.reply); recvErr != nil {
			break
		}
		s.c.received.Add(1)
	}
	sendErr := <-sendDone
	if errors.Is(recvErr, io.EOF) {
		return sendErr
	}
	return recvErr
}
