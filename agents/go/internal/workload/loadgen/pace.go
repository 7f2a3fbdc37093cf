package loadgen

import (
	"fmt"
	"runtime"
	"time"

	"github.com/versus/agents/go/internal/workload"
)

// LateAfter is how long after its due time a send slot may be handed to a worker and still count
// as on time: the pacer's timer and the scheduler jitter by tens of microseconds, a generator
// that cannot keep up falls behind by far more.
const LateAfter = 10 * time.Millisecond

// KeptRateShare: a run whose late slots stay within this share of its slots kept its rate.
const KeptRateShare = 0.01

// Pace is whether the open model's generator kept the asked rate, recorded in the run's
// environment under "generator": a job group's merge reads keptRate from each shard (the
// server's "the load generators, not the target, limited this run"). A slot is late when it was
// handed to a worker more than LateAfter after it was due: because every one of MaxInFlight
// workers was busy (AtLimit: the in-flight limit, with the target's latency, caps the rate) or
// because the pacer itself ran behind (this machine's CPU). Either way the generator, not the
// target, set the pace: latency still counts from the due time.
type Pace struct {
	Slots       int64   `json:"slots"`
	Late        int64   `json:"late"`
	AtLimit     int64   `json:"atLimit"`
	MaxLateMs   float64 `json:"maxLateMs"`
	LateAfterMs float64 `json:"lateAfterMs"`
	// CPUPercent is this process's CPU time over the run's wall time (100 is one core busy);
	// -1 where the platform does not say.
	CPUPercent float64 `json:"cpuPercent"`
	Cores      int     `json:"cores"`
	KeptRate   bool    `json:"keptRate"`
}

// pacing counts the pacer's slots as it hands them out (the pacer's goroutine only).
type pacing struct {
	slots, late, atLimit int64
	maxLate              int64
	cpuStart             time.Duration
	cpuKnown             bool
	wallStart            time.Time
}

func (p *pacing) start() {
	p.cpuStart, p.cpuKnown = processCPU()
	p.wallStart = time.Now()
}

// handed notes a measured slot handed out `late` ns after it was due, after waiting for a busy worker or not.
func (p *pacing) handed(late int64, waited bool) {
	p.slots++
	if late > int64(LateAfter) {
		p.late++
		if waited {
			p.atLimit++
		}
	}
	p.maxLate = max(p.maxLate, late)
}

func (p *pacing) pace() Pace {
	cpu := -1.0
	if end, ok := processCPU(); ok && p.cpuKnown {
		if wall := time.Since(p.wallStart); wall > 0 {
			cpu = 100 * float64(end-p.cpuStart) / float64(wall)
		}
	}
	return Pace{
		Slots:       p.slots,
		Late:        p.late,
		AtLimit:     p.atLimit,
		MaxLateMs:   float64(p.maxLate) / float64(time.Millisecond),
		LateAfterMs: float64(LateAfter) / float64(time.Millisecond),
		CPUPercent:  cpu,
		Cores:       runtime.NumCPU(),
		KeptRate:    float64(p.late) <= KeptRateShare*float64(p.slots),
	}
}

// Pace is how the open model's run kept its rate (nil for the closed model, which asks none).
func (l *Load) Pace() *Pace {
	if l.p.Model != ModelOpen {
		return nil
	}
	p := l.pacing.pace()
	return &p
}

// warnPace records, when the generator fell behind, the warning that says so with its figures.
func warnPace(rec workload.Recorder, p *Pace, maxInFlight int, n Nouns) {
	if p == nil || p.KeptRate {
		return
	}
	cpu := "its CPU use is unknown here"
	if p.CPUPercent >= 0 {
		cpu = fmt.Sprintf("this agent's process used %.0f%% CPU of %d cores", p.CPUPercent, p.Cores)
	}
	rec.Warn(fmt.Sprintf("the load generator, not the target, limited this run: %d of %d %s went out more than %.0f ms late (up to %.0f ms; %d of them waited for one of the %d in-flight %s to free up), and %s; raise the in-flight limit, or split the load over more agents",
		p.Late, p.Slots, n.Operations, p.LateAfterMs, p.MaxLateMs, p.AtLimit, maxInFlight, n.Operations, cpu))
}
