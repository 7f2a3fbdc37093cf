package target

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"google.golang.org/grpc"
)

// Main runs the target until SIGINT or SIGTERM and returns the exit code: 0 stopped, 2 a bad
// flag, 1 it could not listen or serve. The first line on stdout is "listening on http://ADDR/",
// which the scripts that start a target read to learn its port; with --grpc-addr the second is
// "listening for gRPC on ADDR" (host:port, as the grpc workload's target takes it).
func Main(name string, args []string, stdout, stderr io.Writer) int {
	o, err := ParseOptions(name, args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 2
	}
	if o.PrintProto {
		fmt.Fprint(stdout, PayloadProto)
		return 0
	}
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 1
	}
	var grpcLn net.Listener
	if o.GRPCAddr != "" {
		if grpcLn, err = net.Listen("tcp", o.GRPCAddr); err != nil {
			_ = ln.Close()
			fmt.Fprintf(stderr, "%s: --grpc-addr: %v\n", name, err)
			return 1
		}
	}
	fmt.Fprintf(stdout, "listening on http://%s/\n", ln.Addr())
	if grpcLn != nil {
		fmt.Fprintf(stdout, "listening for gRPC on %s\n", grpcLn.Addr())
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if o.Burn > 0 {
		go burnCPU(o.Burn, ctx.Done())
	}
	if err := Serve(ctx, ln, grpcLn, o); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 1
	}
	return 0
}

// Serve answers HTTP on ln and, when grpcLn is not nil, gRPC on grpcLn, until ctx ends; then it
// lets the requests and calls in flight finish (for up to 5 s).
func Serve(ctx context.Context, ln, grpcLn net.Listener, o Options) error {
	p := newParts(o)
	server := &http.Server{Handler: p.handler(), ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 2)
	go func() { served <- server.Serve(ln) }()
	var grpcServer *grpc.Server
	if grpcLn != nil {
		var err error
		if grpcServer, err = newGRPCServer(p); err != nil {
			_ = server.Close()
			_ = grpcLn.Close()
			return err
		}
		go func() { served <- grpcServer.Serve(grpcLn) }()
	}
	var failed error
	select {
	case failed = <-served:
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	if grpcServer != nil {
		wg.Go(func() { stopGRPC(shutdown, grpcServer) })
	}
	if err := server.Shutdown(shutdown); err != nil {
		_ = server.Close()
	}
	wg.Wait()
	return failed
}

// stopGRPC lets the calls in flight finish until ctx ends, then cuts them.
func stopGRPC(ctx context.Context, server *grpc.Server) {
	done := make(chan struct{})
	go func() {
		server.GracefulStop()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		server.Stop()
		<-done
	}
}
