package agent

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/versus/agents/go/internal/api"
)

// delivery is how sending a report ended.
type delivery int

const (
	delivered delivery = iota // the server took it
	dropped                   // the job is not ours any more (409/404), or the server cannot read the report
	kept                      // still on disk: the agent is stopping, or its credential was refused
)

// uploader delivers reports from the on-disk buffer, retried (by the client's policy for
// complete and fail: until accepted) through server outages, and removed from disk once the
// server has answered. A refused run (400/413/422) becomes a failure report carrying the
// server's message, so the job does not sit leased until its lease runs out.
type uploader struct {
	client         *api.Client
	buffer         buffer
	log            *slog.Logger
	onUnauthorized func(error)
}

// submit saves the report, then sends it.
func (u *uploader) submit(ctx context.Context, r Report) delivery {
	if err := u.buffer.save(r); err != nil {
		// Still worth sending: the server may take it now, and only a restart would lose it.
		u.log.Error("buffer.save_failed", "job", r.JobID, "dir", u.buffer.dir, "error", err.Error())
	}
	return u.deliver(ctx, r)
}

// drain sends reports left on disk by an earlier process, oldest first.
func (u *uploader) drain(ctx context.Context, reports []Report) {
	if len(reports) > 0 {
		u.log.Info("buffer.resend", "reports", len(reports), "dir", u.buffer.dir)
	}
	for _, r := range reports {
		if ctx.Err() != nil || u.deliver(ctx, r) == kept {
			return
		}
	}
}

func (u *uploader) deliver(ctx context.Context, r Report) delivery {
	err := u.send(ctx, r)
	var apiErr *api.Error
	switch {
	case err == nil:
		u.forget(r.JobID)
		return delivered
	case errors.Is(err, api.ErrConflict), errors.Is(err, api.ErrNotFound):
		u.log.Warn("job.result_dropped", "job", r.JobID, "reason", err.Error())
		u.forget(r.JobID)
		return dropped
	case errors.Is(err, api.ErrRejected) && r.Kind == kindComplete:
		refusal := err.Error()
		if errors.As(err, &apiErr) && apiErr.Message != "" {
			refusal = apiErr.Message
		}
		u.log.Warn("job.run_refused", "job", r.JobID, "reason", err.Error())
		return u.submit(ctx, Report{JobID: r.JobID, LeaseToken: r.LeaseToken, SavedAt: time.Now().UTC(), Kind: kindFail,
			Fail: &FailReport{Error: truncate("the server refused the run: "+refusal, maxErrorChars), Retryable: false}})
	case errors.Is(err, api.ErrRejected):
		// A failure report the server cannot read: nothing the agent could change would help.
		u.log.Error("job.failure_refused", "job", r.JobID, "reason", err.Error())
		u.forget(r.JobID)
		return dropped
	case errors.Is(err, api.ErrUnauthorized):
		u.onUnauthorized(err)
		return kept
	default:
		// The agent is stopping (the calls retry outages until then), or an answer it cannot
		// read: keep the report for the next start.
		u.log.Warn("job.result_kept", "job", r.JobID, "dir", u.buffer.dir, "reason", err.Error())
		return kept
	}
}

func (u *uploader) send(ctx context.Context, r Report) error {
	if r.Kind == kindComplete {
		answer, err := u.client.Complete(ctx, r.JobID, r.LeaseToken, *r.Run)
		if err != nil {
			return err
		}
		run := "none (warm-up)"
		if answer.Run != nil {
			run = answer.Run.ID
		}
		u.log.Info("job.completed", "job", r.JobID, "run", run, "replayed", answer.Replayed)
		return nil
	}
	f := r.Fail
	answer, err := u.client.Fail(ctx, r.JobID, api.FailRequest{LeaseToken: r.LeaseToken, Error: f.Error, LogTail: f.LogTail, Retryable: f.Retryable, Cancelled: f.Cancelled})
	if err != nil {
		return err
	}
	event := "job.failure_reported"
	if f.Cancelled {
		event = "job.cancel_acknowledged"
	}
	u.log.Info(event, "job", r.JobID, "status", answer.Status, "error", f.Error)
	return nil
}

func (u *uploader) forget(jobID string) {
	if err := u.buffer.remove(jobID); err != nil {
		u.log.Error("buffer.remove_failed", "job", jobID, "error", err.Error(), "effect", "sent again at the next start; the server answers it as a repeat")
	}
}

// maxErrorChars is what the server keeps of a failure's message.
const maxErrorChars = 2000

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	// Cut on a rune boundary.
	for n > 0 && (s[n]&0xC0) == 0x80 {
		n--
	}
	return s[:n]
}
