package probe

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/prometheus/procfs"
)

// processSupported: the process probe reads /proc.
const processSupported = true

// Quantities of a process probe, named as its warnings name them.
const (
	procCPU     = "utime+stime"
	procRSS     = "VmRSS"
	procThreads = "Threads"
)

// procSource reads one process of this host from /proc.
type procSource struct {
	proc procfs.Proc
	pid  int
}

// newProcSource finds the one process the match names: by pid, by name (comm) or by a pattern
// over the command line. None, or several (never picked silently), is an error naming them.
func newProcSource(m Match) (*procSource, error) {
	fs, err := procfs.NewDefaultFS()
	if err != nil {
		return nil, fmt.Errorf("cannot read /proc: %v", err)
	}
	if m.PID != 0 {
		p, err := fs.Proc(m.PID)
		if err != nil {
			return nil, fmt.Errorf("no process with pid %d", m.PID)
		}
		if _, err := p.Stat(); err != nil {
			return nil, fmt.Errorf("no process with pid %d", m.PID)
		}
		return &procSource{proc: p, pid: m.PID}, nil
	}
	var pattern *regexp.Regexp
	what := fmt.Sprintf("named %q", m.Name)
	if m.Pattern != "" {
		pattern = regexp.MustCompile(m.Pattern) // checked by Decode
		what = fmt.Sprintf("whose command line matches %q", m.Pattern)
	}
	all, err := fs.AllProcs()
	if err != nil {
		return nil, fmt.Errorf("cannot list processes: %v", err)
	}
	self := os.Getpid() // the agent's own command line may hold the pattern
	var found []procfs.Proc
	for _, p := range all {
		if p.PID == self {
			continue
		}
		if pattern != nil {
			cmd, err := p.CmdLine()
			if err == nil && len(cmd) > 0 && pattern.MatchString(strings.Join(cmd, " ")) {
				found = append(found, p)
			}
			continue
		}
		if comm, err := p.Comm(); err == nil && comm == m.Name {
			found = append(found, p)
		}
	}
	switch len(found) {
	case 0:
		return nil, fmt.Errorf("no process %s", what)
	case 1:
		return &procSource{proc: found[0], pid: found[0].PID}, nil
	}
	names := make([]string, 0, len(found))
	for i, p := range found {
		if i == 5 {
			names = append(names, fmt.Sprintf("and %d more", len(found)-5))
			break
		}
		cmd, _ := p.CmdLine()
		names = append(names, fmt.Sprintf("%d (%s)", p.PID, strings.Join(cmd, " ")))
	}
	return nil, fmt.Errorf("%d processes %s: %s; match one by pid or by a narrower pattern", len(found), what, strings.Join(names, ", "))
}

func (p *procSource) metrics() []metricDef {
	return join(cpuMetrics(procCPU), gaugePair("rss", "B", procRSS),
		[]metricDef{{suffix: "threads", unit: "count", direction: lower, aggregation: "mean", kind: gauge, q: procThreads, scale: 1}})
}

func (p *procSource) counters() []string { return []string{procCPU} }

func (p *procSource) close() {}

// read takes /proc/PID/stat (CPU time, threads) and /proc/PID/status (VmRSS).
func (p *procSource) read(context.Context) (reading, error) {
	stat, err := p.proc.Stat()
	if err != nil {
		return nil, fmt.Errorf("process %d: %v", p.pid, describeProcError(err))
	}
	status, err := p.proc.NewStatus()
	if err != nil {
		return nil, fmt.Errorf("process %d: %v", p.pid, describeProcError(err))
	}
	return reading{procCPU: stat.CPUTime(), procRSS: float64(status.VmRSS), procThreads: float64(stat.NumThreads)}, nil
}

func describeProcError(err error) string {
	if os.IsNotExist(err) {
		return "gone (it exited)"
	}
	return err.Error()
}
