package exec

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	osexec "os/exec"
	"sort"
	"strings"
	"time"

	"github.com/versus/agents/go/internal/tail"
	"github.com/versus/agents/go/internal/workload"
)

// outputLines is how many of the last lines of output the log (and a failure) shows.
const outputLines = 10

// drainGrace bounds how long a run waits, after its command exited, for the rest of its output:
// a background child that keeps the output open must not hold the job.
const drainGrace = time.Second

type usage struct{ userMs, systemMs, maxRSSKiB float64 }

type measured struct {
	wall     time.Duration
	usage    usage
	hasUsage bool
	exitCode int
	state    string
	stdout   *tail.Buffer
	stderr   *tail.Buffer
}

type runner struct {
	settings Settings
	argv     []string
	okCodes  map[int]bool
	timeout  time.Duration
}

func (r *runner) Run(ctx context.Context, rec workload.Recorder) error {
	s := r.settings
	rec.Logf("exec %s: %d warm-up + %d measured runs", s.describe(), s.WarmupRuns, s.Runs)
	if !hasRusage {
		rec.Warn("no CPU times or peak memory on this OS: only wall_time is measured")
	}
	if hasRusage {
		releaseAgentPeak()
		resetAgentPeak()
		if floor := agentPeakKiB(); floor > 0 {
			rec.Environment("maxRssFloorKiB", floor)
		}
	}
	failed := map[int]int{}
	var last measured
	for i := 0; i < s.WarmupRuns+s.Runs; i++ {
		warmup := i < s.WarmupRuns
		if i == s.WarmupRuns && i > 0 {
			workload.MeasuringStarts(rec)
		}
		m, err := r.once(ctx)
		if err != nil {
			return fmt.Errorf("%s: %w", runName(i, s.WarmupRuns), err)
		}
		last = m
		if !r.okCodes[m.exitCode] {
			if !s.IgnoreFailures {
				return r.failure(rec, runName(i, s.WarmupRuns), m)
			}
			failed[m.exitCode]++
		}
		if warmup {
			continue
		}
		rec.Sample("wall_time", float64(m.wall.Nanoseconds())/1e6)
		if m.hasUsage {
			rec.Sample("cpu_user", m.usage.userMs)
			rec.Sample("cpu_system", m.usage.systemMs)
			rec.Sample("cpu_total", m.usage.userMs+m.usage.systemMs)
			rec.Sample("max_rss", m.usage.maxRSSKiB)
		}
	}
	logOutput(rec, "stdout", last.stdout)
	logOutput(rec, "stderr", last.stderr)
	if len(failed) > 0 {
		total := 0
		var codes []string
		for code, n := range failed {
			total += n
			codes = append(codes, fmt.Sprintf("%d×%d", n, code))
		}
		sort.Strings(codes)
		rec.Warn(fmt.Sprintf("%d of %d runs ended outside okExitCodes %v (%s) and were measured anyway (ignoreFailures)",
			total, s.WarmupRuns+s.Runs, s.OkExitCodes, strings.Join(codes, ", ")))
	}
	return nil
}

func runName(i, warmups int) string {
	if i < warmups {
		return fmt.Sprintf("warm-up run %d", i+1)
	}
	return fmt.Sprintf("run %d", i-warmups+1)
}

// failure is the error of a run that ended outside okExitCodes, with the last lines of stderr.
func (r *runner) failure(rec workload.Recorder, name string, m measured) error {
	logOutput(rec, "stdout", m.stdout)
	lines := m.stderr.LastLines(outputLines)
	logOutput(rec, "stderr", m.stderr)
	msg := fmt.Sprintf("%s %s, not one of okExitCodes %v", name, m.state, r.settings.OkExitCodes)
	if len(lines) == 0 {
		return errors.New(msg + "; it wrote nothing to stderr")
	}
	return fmt.Errorf("%s; the last lines of stderr:\n%s", msg, strings.Join(lines, "\n"))
}

func logOutput(rec workload.Recorder, stream string, t *tail.Buffer) {
	if t == nil {
		return
	}
	for _, line := range t.LastLines(outputLines) {
		rec.Logf("%s | %s", stream, line)
	}
}

// once runs the command one time. The error is for what is not the command's own exit: it could
// not start, it ran out of time, or ctx ended (then the error is ctx's).
func (r *runner) once(ctx context.Context) (measured, error) {
	s := r.settings
	runCtx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	cmd := osexec.CommandContext(runCtx, r.argv[0], r.argv[1:]...)
	cmd.Dir = s.Dir
	if len(s.Env) > 0 {
		// Later entries win, so the settings' variables override the agent's.
		cmd.Env = append(os.Environ(), s.Env...)
	}
	if s.Stdin != nil {
		cmd.Stdin = strings.NewReader(*s.Stdin)
	}
	// A safety net for stdin's copy: a killed command's background children may hold it open.
	cmd.WaitDelay = drainGrace
	ownGroup(cmd)
	resetAgentPeak()
	m := measured{stdout: &tail.Buffer{}, stderr: &tail.Buffer{}}
	outR, outW, err := os.Pipe()
	if err != nil {
		return m, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return m, err
	}
	// The command writes to pipes of ours (files, not writers), so Wait returns when the command
	// exits, not when every process holding its output lets go: the wall time ends at the exit.
	cmd.Stdout, cmd.Stderr = outW, errW
	drained := make(chan struct{}, 2)
	drain := func(dst io.Writer, src *os.File) {
		_, _ = io.Copy(dst, src)
		drained <- struct{}{}
	}
	started := time.Now()
	err = cmd.Start()
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return m, fmt.Errorf("cannot start %s: %w", r.argv[0], err)
	}
	go drain(m.stdout, outR)
	go drain(m.stderr, errR)
	waitErr := cmd.Wait()
	m.wall = time.Since(started)
	waitDrained(drained, outR, errR)
	if ctx.Err() != nil {
		return m, ctx.Err()
	}
	if runCtx.Err() != nil {
		return m, fmt.Errorf("took longer than timeoutSeconds (%gs): killed", s.TimeoutSeconds)
	}
	var exitErr *osexec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exitErr) && !errors.Is(waitErr, osexec.ErrWaitDelay) {
		return m, waitErr
	}
	m.exitCode = cmd.ProcessState.ExitCode()
	m.state = describeExit(cmd.ProcessState)
	m.usage, m.hasUsage = usageOf(cmd)
	return m, nil
}

// waitDrained waits a little for the output still in the pipes, then closes them, which ends the
// copies even when a background child still holds the other end.
func waitDrained(drained chan struct{}, pipes ...*os.File) {
	timer := time.NewTimer(drainGrace)
	defer timer.Stop()
wait:
	for range pipes {
		select {
		case <-drained:
		case <-timer.C:
			break wait
		}
	}
	for _, p := range pipes {
		p.Close()
	}
}

func describeExit(state *os.ProcessState) string {
	if code := state.ExitCode(); code >= 0 {
		return fmt.Sprintf("exited with code %d", code)
	}
	return "ended: " + state.String()
}
