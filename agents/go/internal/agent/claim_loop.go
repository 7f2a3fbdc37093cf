package agent

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/versus/agents/go/internal/api"
)

// claimErrorPause is how long the claim loop waits after a claim that failed for good (its
// retries spent, or a request the server refused) before it asks again.
const claimErrorPause = 5 * time.Second

// runClaimLoop asks for work with a long poll, runs what comes, and asks again after a short
// random pause (so a fleet of agents does not call in step). One job at a time: two measurements
// sharing a machine would disturb each other's numbers. It returns when ctx ends (the agent is
// stopping) once the running job is finished and reported; a waiting claim is abandoned at once,
// and the server puts a job it was answering with back in the queue without counting an attempt.
//
// With a machine lock (Config.MachineLock), each claim and the job it brings happen while this
// agent holds the lock, with a short long-poll, so agents sharing a machine take turns; a shard
// of a job group lets the lock go once claimed, for its group's other shards.
func (a *Agent) runClaimLoop(ctx context.Context) {
	var machine *machineLock
	if a.cfg.MachineLock != "" {
		machine = &machineLock{path: a.cfg.MachineLock}
	}
	for ctx.Err() == nil {
		wait := a.claimWait
		if machine != nil {
			if err := machine.acquire(ctx); err != nil {
				if ctx.Err() != nil {
					return
				}
				a.log.Error("machine_lock.failed", "error", err.Error())
				if !pause(ctx, claimErrorPause) {
					return
				}
				continue
			}
			wait = min(wait, machineClaimWait)
		}
		job, err := a.client.Claim(ctx, wait)
		if err == nil && job != nil {
			if machine != nil && job.Group != nil {
				// A group's shards run together by design, and the others may be this machine's
				// agents' to claim: held, the lock would keep them from their shards until the
				// group's readiness timeout gave it back.
				machine.release()
			}
			a.runJob(job)
		}
		if machine != nil {
			machine.release()
		}
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			var unreadable *api.UnreadableJobError
			switch {
			case errors.Is(err, api.ErrUnauthorized):
				a.unauthorized(err)
				return
			case errors.As(err, &unreadable):
				a.log.Error("job.unreadable", "job", unreadable.JobID, "error", unreadable.Problem)
				a.uploader.submit(a.halt, Report{JobID: unreadable.JobID, LeaseToken: unreadable.LeaseToken, SavedAt: time.Now().UTC(), Kind: kindFail,
					Fail: &FailReport{Error: truncate(unreadable.Error(), maxErrorChars), Retryable: false}})
				continue
			default:
				a.log.Error("claim.failed", "error", err.Error())
				if !pause(ctx, claimErrorPause+a.randomJitter()) {
					return
				}
				continue
			}
		}
		if !pause(ctx, a.randomJitter()) {
			return
		}
	}
}

// randomJitter is a random pause of up to the configured claim jitter.
func (a *Agent) randomJitter() time.Duration {
	if a.cfg.ClaimJitter <= 0 {
		return 0
	}
	return rand.N(a.cfg.ClaimJitter + 1)
}

// pause waits d; false when ctx ended first.
func pause(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-timer.C:
		return true
	}
}

// jitter moves d by up to ±fraction of itself, at random.
func jitter(d time.Duration, fraction float64) time.Duration {
	return time.Duration(float64(d) * (1 - fraction + 2*fraction*rand.Float64()))
}
