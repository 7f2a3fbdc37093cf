package agent

import (
	"context"
	"errors"
	"time"

	"github.com/versus/agents/go/internal/api"
)

// runLeaseLoop renews a running job's lease every leaseSeconds / 3 (±10%), so one lost renewal
// still leaves time for two more. A 409 or 404 means the job is not ours any more (the lease
// expired and another agent took it, or it was finished or cancelled): the job stops and its
// result is dropped. It runs until ctx ends, which is after the job's result was delivered: an
// outage shorter than the lease then does not hand the job to another agent.
func (a *Agent) runLeaseLoop(ctx context.Context, job *runningJob) {
	every := seconds(job.job.LeaseSeconds) / 3
	timer := time.NewTimer(jitter(every, 0.1))
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		}
		answer, err := a.client.RenewLease(ctx, job.job.ID, job.job.LeaseToken)
		switch {
		case err == nil:
			if answer.CancelRequested {
				a.log.Info("job.cancel_requested", "job", job.job.ID, "via", "lease")
				job.stop(errCancelled)
			}
		case ctx.Err() != nil:
			return
		case errors.Is(err, api.ErrConflict), errors.Is(err, api.ErrNotFound):
			a.log.Warn("job.lease_lost", "job", job.job.ID, "reason", err.Error())
			job.stop(errLeaseLost)
			return
		case errors.Is(err, api.ErrUnauthorized):
			a.unauthorized(err)
			return
		default:
			// Still unreachable after the call's retries: keep the job running and try at the
			// next renewal; if the lease runs out meanwhile, the server says 409 then.
			a.log.Warn("job.lease_renewal_failed", "job", job.job.ID, "error", err.Error())
		}
		timer.Reset(jitter(every, 0.1))
	}
}
