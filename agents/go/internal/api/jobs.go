package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/versus/agents/go/internal/result"
)

// Claim long-polls for a job for up to wait; nil (and no error) when none came. The request's
// timeout is the wait plus a margin, so a server holding the poll is not taken for a dead one.
func (c *Client) Claim(ctx context.Context, wait time.Duration) (*Job, error) {
	seconds := int(wait.Round(time.Second) / time.Second)
	var raw json.RawMessage
	got, err := c.do(ctx, request{
		call:    CallClaim,
		path:    fmt.Sprintf("/api/v1/jobs/claim?wait=%d", seconds),
		body:    struct{}{},
		out:     &raw,
		timeout: requestTimeout[CallClaim] + time.Duration(seconds)*time.Second,
	})
	if err != nil || !got {
		return nil, err
	}
	return readJob(raw)
}

// readJob checks a claimed job has what the agent needs. A job it cannot read but whose id and
// lease it can is an *UnreadableJobError, so the agent can fail it instead of sitting on it.
func readJob(raw json.RawMessage) (*Job, error) {
	var body ClaimResponse
	if err := json.Unmarshal(raw, &body); err != nil || body.Job == nil {
		var ids struct {
			Job struct {
				ID         string `json:"id"`
				LeaseToken string `json:"leaseToken"`
			} `json:"job"`
		}
		problem := "no job in the answer"
		if err != nil {
			problem = err.Error()
		}
		if json.Unmarshal(raw, &ids) == nil && ids.Job.ID != "" && ids.Job.LeaseToken != "" {
			return nil, &UnreadableJobError{JobID: ids.Job.ID, LeaseToken: ids.Job.LeaseToken, Problem: problem}
		}
		return nil, fmt.Errorf("claim: unexpected response from the server: %s", problem)
	}
	job := body.Job
	var missing []string
	for field, value := range map[string]string{"job.id": job.ID, "job.leaseToken": job.LeaseToken, "job.workload.name": job.Workload.Name} {
		if value == "" {
			missing = append(missing, field)
		}
	}
	if len(missing) > 0 {
		problem := strings.Join(missing, ", ") + ": missing"
		if job.ID != "" && job.LeaseToken != "" {
			return nil, &UnreadableJobError{JobID: job.ID, LeaseToken: job.LeaseToken, Problem: problem}
		}
		return nil, fmt.Errorf("claim: unexpected response from the server: %s", problem)
	}
	if job.LeaseSeconds <= 0 {
		job.LeaseSeconds = 60
	}
	return job, nil
}

func jobPath(jobID, action string) string {
	return "/api/v1/jobs/" + url.PathEscape(jobID) + "/" + action
}

// RenewLease extends a running job's lease; CancelRequested in the answer means stop the job.
func (c *Client) RenewLease(ctx context.Context, jobID, leaseToken string) (*LeaseResponse, error) {
	var out LeaseResponse
	if _, err := c.do(ctx, request{call: CallLease, path: jobPath(jobID, "lease"), body: LeaseRequest{LeaseToken: leaseToken}, out: &out}); err != nil {
		return nil, err
	}
	return &out, nil
}

// Ready tells the server a group's shard is ready; the answer carries the group's start time
// once every shard is.
func (c *Client) Ready(ctx context.Context, jobID string, body ReadyRequest) (*ReadyResponse, error) {
	var out ReadyResponse
	if _, err := c.do(ctx, request{call: CallReady, path: jobPath(jobID, "ready"), body: body, out: &out}); err != nil {
		return nil, err
	}
	return &out, nil
}

// Complete sends a job's run; the server stores exactly one run however often it is sent.
func (c *Client) Complete(ctx context.Context, jobID, leaseToken string, run result.Run) (*CompleteResponse, error) {
	var out CompleteResponse
	if _, err := c.do(ctx, request{call: CallComplete, path: jobPath(jobID, "complete"), body: CompleteRequest{LeaseToken: leaseToken, Run: run}, out: &out}); err != nil {
		return nil, err
	}
	return &out, nil
}

// Fail reports a job that did not produce a run (or acknowledges a cancel with Cancelled).
func (c *Client) Fail(ctx context.Context, jobID string, body FailRequest) (*FailResponse, error) {
	var out FailResponse
	if _, err := c.do(ctx, request{call: CallFail, path: jobPath(jobID, "fail"), body: body, out: &out}); err != nil {
		return nil, err
	}
	return &out, nil
}

// Release gives a job back without counting an attempt (the agent is shutting down).
func (c *Client) Release(ctx context.Context, jobID, leaseToken string) (*ReleaseResponse, error) {
	var out ReleaseResponse
	if _, err := c.do(ctx, request{call: CallRelease, path: jobPath(jobID, "release"), body: LeaseRequest{LeaseToken: leaseToken}, out: &out}); err != nil {
		return nil, err
	}
	return &out, nil
}
