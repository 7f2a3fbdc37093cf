package api

import "context"

// Register enrolls the agent with an enrollment token (venr_…) and returns its credential.
func (c *Client) Register(ctx context.Context, enrollmentToken string, body RegisterRequest) (*RegisterResponse, error) {
	var out RegisterResponse
	if _, err := c.do(ctx, request{call: CallRegister, path: "/api/v1/agents/register", bearer: enrollmentToken, body: body, out: &out}); err != nil {
		return nil, err
	}
	if out.Credential == "" {
		return nil, &Error{Call: string(CallRegister), Status: 201, Message: "the server answered without a credential", kind: ErrRejected}
	}
	if out.HeartbeatIntervalSeconds <= 0 {
		out.HeartbeatIntervalSeconds = 10
	}
	if out.ClaimWaitSeconds < 0 {
		out.ClaimWaitSeconds = 30
	}
	if out.LeaseSeconds <= 0 {
		out.LeaseSeconds = 60
	}
	return &out, nil
}

// Heartbeat says the agent is alive, what it runs and which jobs it is running.
func (c *Client) Heartbeat(ctx context.Context, body HeartbeatRequest) (*HeartbeatResponse, error) {
	if body.RunningJobIDs == nil {
		body.RunningJobIDs = []string{}
	}
	var out HeartbeatResponse
	if _, err := c.do(ctx, request{call: CallHeartbeat, path: "/api/v1/agents/heartbeat", body: body, out: &out}); err != nil {
		return nil, err
	}
	return &out, nil
}
