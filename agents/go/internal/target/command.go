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
	"syscall"
	"time"
)

// Main runs the target until SIGINT or SIGTERM and returns the exit code: 0 stopped, 2 a bad
// flag, 1 it could not listen or serve. The first line on stdout is "listening on http://ADDR/",
// which the scripts that start a target read to learn its port.
func Main(name string, args []string, stdout, stderr io.Writer) int {
	o, err := ParseOptions(name, args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 2
	}
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 1
	}
	fmt.Fprintf(stdout, "listening on http://%s/\n", ln.Addr())

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if o.Burn > 0 {
		go burnCPU(o.Burn, ctx.Done())
	}
	if err := Serve(ctx, ln, o); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 1
	}
	return 0
}

// Serve answers on ln until ctx ends, then lets the requests in flight finish (for up to 5 s).
func Serve(ctx context.Context, ln net.Listener, o Options) error {
	server := &http.Server{Handler: NewHandler(o), ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- server.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := server.Shutdown(shutdown); err != nil {
		_ = server.Close()
	}
	return nil
}
