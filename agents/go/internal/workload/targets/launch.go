package targets

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/versus/agents/go/internal/tail"
	"github.com/versus/agents/go/internal/workload"
)

// How long a target has to say it listens, and to stop after SIGTERM before it is killed.
const (
	readyTimeout = 15 * time.Second
	stopTimeout  = 5 * time.Second
	// stderrLines of a target's stderr go into the error when it fails.
	stderrLines = 10
)

// command is how a target process is started: the agent's own executable with `target` and the
// target's flags (in a test, the test binary: see targetstest).
func command(flags []string) (*exec.Cmd, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding the agent's own executable to start the target: %w", err)
	}
	return exec.Command(self, append([]string{"target"}, flags...)...), nil
}

// Running are the targets of one job, started in list order.
type Running struct {
	procs    []*process
	exited   chan error // the first target that exits before Stop
	stopping chan struct{}
	stopOnce sync.Once
}

var _ workload.RunningTargets = (*Running)(nil)

type process struct {
	spec   Spec
	cmd    *exec.Cmd
	stderr *tail.Buffer
	done   chan struct{} // closed when the process has been waited for
	status string        // how it ended (exit status 1, signal: killed), set before done closes
}

// Start starts each target in order and waits until it says it listens (at most 15 s each). On
// an error, the ones already started are stopped. The targets are killed with the agent on Linux
// (the parent-death signal), so a crashed agent leaves none behind.
func Start(ctx context.Context, list []Spec, logf func(format string, args ...any)) (*Running, error) {
	r := &Running{exited: make(chan error, 1), stopping: make(chan struct{})}
	for _, s := range list {
		p, err := r.start(ctx, s)
		if err != nil {
			r.Stop()
			return nil, err
		}
		logf("target %q: pid %d, listening on %s", s.Name, p.cmd.Process.Pid, strings.Join(p.addrs(), " and "))
	}
	return r, nil
}

func (p *process) addrs() []string {
	out := []string{"http://" + p.spec.Addr + "/"}
	if p.spec.GRPCAddr != "" {
		out = append(out, "gRPC "+p.spec.GRPCAddr)
	}
	return out
}

func (r *Running) start(ctx context.Context, s Spec) (*process, error) {
	for _, addr := range []string{s.Addr, s.GRPCAddr} {
		if err := free(addr); err != nil {
			return nil, fmt.Errorf("target %q: %w", s.Name, err)
		}
	}
	flags := []string{"--addr", s.Addr}
	if s.GRPCAddr != "" {
		flags = append(flags, "--grpc-addr", s.GRPCAddr)
	}
	cmd, err := command(append(flags, s.Args...))
	if err != nil {
		return nil, err
	}
	cmd.SysProcAttr = sysProcAttr()
	p := &process{spec: s, cmd: cmd, stderr: &tail.Buffer{}, done: make(chan struct{})}
	// The target's first lines say where it listens: one, or two with gRPC.
	want := 1
	if s.GRPCAddr != "" {
		want = 2
	}
	listening := &listeningLines{want: want, ready: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = listening, p.stderr
	cmd.WaitDelay = time.Second // a target starts no processes of its own that could hold its output open
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("target %q: starting %s: %w", s.Name, cmd.Path, err)
	}
	r.procs = append(r.procs, p)
	ready := listening.ready

	go func() {
		err := cmd.Wait()
		p.status = statusOf(err)
		close(p.done)
		select {
		case <-r.stopping:
		default:
			select {
			case r.exited <- fmt.Errorf("target %q exited during the run (%s)%s", s.Name, p.status, p.stderrTail()):
			default:
			}
		}
	}()

	timer := time.NewTimer(readyTimeout)
	defer timer.Stop()
	select {
	case <-ready:
		return p, nil
	case <-p.done:
		return nil, fmt.Errorf("target %q (%s) exited before it listened (%s)%s", s.Name, strings.Join(p.addrs(), ", "), p.status, p.stderrTail())
	case <-timer.C:
		return nil, fmt.Errorf("target %q did not say it listens on %s within %s%s", s.Name, strings.Join(p.addrs(), " and "), readyTimeout, p.stderrTail())
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// listeningLines reads a target's stdout (written to by one goroutine, exec's copier) and closes
// ready when it has seen want lines that start with "listening "; the rest is dropped.
type listeningLines struct {
	want, seen int
	line       []byte // the line so far
	ready      chan struct{}
}

// maxLine bounds a line kept while looking for the listening lines.
const maxLine = 4096

func (l *listeningLines) Write(p []byte) (int, error) {
	for _, b := range p {
		if l.seen == l.want {
			break
		}
		if b != '\n' {
			if len(l.line) < maxLine {
				l.line = append(l.line, b)
			}
			continue
		}
		if bytes.HasPrefix(l.line, []byte("listening ")) {
			if l.seen++; l.seen == l.want {
				close(l.ready)
			}
		}
		l.line = l.line[:0]
	}
	return len(p), nil
}

// free says whether the address can be listened on now, so a port in use is named as such
// before a process is started for it.
func free(addr string) error {
	if addr == "" {
		return nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return fmt.Errorf("%s is already in use: another process listens there (stop it, or give the target another port)", addr)
		}
		return fmt.Errorf("cannot listen on %s: %w", addr, err)
	}
	return ln.Close()
}

func (p *process) stderrTail() string {
	lines := p.stderr.LastLines(stderrLines)
	if len(lines) == 0 {
		return ""
	}
	return ": " + strings.Join(lines, " | ")
}

func statusOf(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

// Exited delivers the error of the first target that exits before Stop.
func (r *Running) Exited() <-chan error { return r.exited }

// Stop ends every target: SIGTERM, up to 5 s to finish, then a kill; it returns when all have
// been waited for. Later calls do nothing.
func (r *Running) Stop() {
	r.stopOnce.Do(func() {
		close(r.stopping)
		var wg sync.WaitGroup
		for _, p := range r.procs {
			wg.Go(p.stop)
		}
		wg.Wait()
	})
}

func (p *process) stop() {
	select {
	case <-p.done:
		return
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	timer := time.NewTimer(stopTimeout)
	defer timer.Stop()
	select {
	case <-p.done:
	case <-timer.C:
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}
