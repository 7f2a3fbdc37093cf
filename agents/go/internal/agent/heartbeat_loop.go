package agent

import (
	"context"
	"errors"
	"time"

	"github.com/versus/agents/go/internal/api"
)

// runHeartbeatLoop tells the server every heartbeatIntervalSeconds (±10%) that the agent is
// alive, what it can run and which jobs it is running, and hears back which of them users
// cancelled and whether to stop. The first heartbeat goes out at once, so a restarted agent
// announces its current workloads and labels before it claims anything. It runs until ctx ends
// (the agent halts), through the shutdown grace too, so a finishing job is still seen as alive.
func (a *Agent) runHeartbeatLoop(ctx context.Context) {
	interval := a.heartbeatInterval
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		}
		request := a.announcement()
		request.RunningJobIDs = a.runningIDs()
		answer, err := a.client.Heartbeat(ctx, request)
		switch {
		case err == nil:
			if answer.HeartbeatIntervalSeconds > 0 {
				interval = seconds(answer.HeartbeatIntervalSeconds)
			}
			for _, id := range answer.CancelJobIDs {
				if job := a.runningJob(id); job != nil {
					a.log.Info("job.cancel_requested", "job", id, "via", "heartbeat")
					job.stop(errCancelled)
				}
			}
			if answer.Stop {
				a.log.Warn("agent.stop_requested", "hint", "stopped on the Agents page: press Resume there, then start this agent again (its credential in "+a.cfg.CredentialFile+" still works)")
				a.Stop("the server asked this agent to stop")
			}
		case ctx.Err() != nil:
			return
		case errors.Is(err, api.ErrUnauthorized):
			a.unauthorized(err)
			return
		default:
			a.log.Warn("heartbeat.failed", "error", err.Error())
		}
		timer.Reset(jitter(interval, 0.1))
	}
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
