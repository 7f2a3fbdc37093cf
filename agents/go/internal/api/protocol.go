// Package api is the protocol client of docs/agent-protocol.md: one method per call, each with
// its own retry policy and timeout; failures come back as *Error of a kind the loops act on
// (ErrUnauthorized, ErrConflict, ErrNotFound, ErrRejected, ErrUnavailable). Callers never see a
// status code. agents.go holds the agent's own calls, jobs.go the calls about a job.
package api

import (
	"encoding/json"
	"time"

	"github.com/versus/agents/go/internal/result"
)

// WorkloadAdvert is a workload as register and heartbeat advertise it.
type WorkloadAdvert struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// SettingsSchema is the JSON Schema of its settings (the dashboard draws a form from it).
	SettingsSchema json.RawMessage `json:"settingsSchema"`
	// Metrics is every metric a run of the workload can report (the dashboard offers them; the
	// server refuses an agent-run experiment's metric that no advertising agent reports).
	Metrics []AdvertMetric `json:"metrics"`
}

// AdvertMetric is one metric of a WorkloadAdvert.
type AdvertMetric struct {
	Key         string `json:"key"`
	Unit        string `json:"unit"`
	Direction   string `json:"direction"`
	Aggregation string `json:"aggregation"`
	Description string `json:"description"`
}

// RegisterRequest is the body of POST /api/v1/agents/register.
type RegisterRequest struct {
	Name         string            `json:"name"`
	Kind         string            `json:"kind"`
	Version      string            `json:"version"`
	Capabilities []string          `json:"capabilities"`
	Labels       map[string]string `json:"labels"`
	Workloads    []WorkloadAdvert  `json:"workloads"`
	Environment  map[string]any    `json:"environment"`
}

// RegisterResponse is register's 201.
type RegisterResponse struct {
	Agent struct {
		ID      string `json:"id"`
		Name    string `json:"name"`
		Project string `json:"project"`
	} `json:"agent"`
	Credential               string  `json:"credential"`
	HeartbeatIntervalSeconds float64 `json:"heartbeatIntervalSeconds"`
	ClaimWaitSeconds         float64 `json:"claimWaitSeconds"`
	LeaseSeconds             float64 `json:"leaseSeconds"`
}

// HeartbeatRequest is the body of POST /api/v1/agents/heartbeat; the fields given replace what
// the server knows.
type HeartbeatRequest struct {
	Version       string            `json:"version,omitempty"`
	Capabilities  []string          `json:"capabilities,omitempty"`
	Labels        map[string]string `json:"labels,omitempty"`
	Workloads     []WorkloadAdvert  `json:"workloads,omitempty"`
	RunningJobIDs []string          `json:"runningJobIds"`
}

// HeartbeatResponse says which running jobs to stop and whether the agent should stop.
type HeartbeatResponse struct {
	CancelJobIDs             []string `json:"cancelJobIds"`
	Stop                     bool     `json:"stop"`
	HeartbeatIntervalSeconds float64  `json:"heartbeatIntervalSeconds"`
}

// JobMetric is a metric the experiment asks a job for.
type JobMetric struct {
	Key         string `json:"key"`
	Unit        string `json:"unit,omitempty"`
	Direction   string `json:"direction,omitempty"`
	Aggregation string `json:"aggregation,omitempty"`
}

// Job is a claimed job with its lease.
type Job struct {
	ID             string    `json:"id"`
	LeaseToken     string    `json:"leaseToken"`
	LeaseExpiresAt time.Time `json:"leaseExpiresAt"`
	LeaseSeconds   float64   `json:"leaseSeconds"`
	Attempt        int       `json:"attempt"`
	MaxAttempts    int       `json:"maxAttempts"`
	BatchID        string    `json:"batchId"`
	Experiment     struct {
		Slug  string `json:"slug"`
		Title string `json:"title"`
	} `json:"experiment"`
	Variant struct {
		Name string `json:"name"`
	} `json:"variant"`
	Repetition int  `json:"repetition"`
	Warmup     bool `json:"warmup"`
	Workload   struct {
		Name     string          `json:"name"`
		Settings json.RawMessage `json:"settings"`
	} `json:"workload"`
	Metrics []JobMetric `json:"metrics"`
	// Group is set when the job is a shard of a job group: one load test split over several
	// agents, this one running its share (the settings above); see Ready.
	Group *JobGroup `json:"group,omitempty"`
	// Probes is the claim's job.probes as sent (absent: none), for internal/probe to decode and
	// check. Read by UnmarshalJSON beside the fields above, so the claim's other fields decode
	// the same whether or not a server sends probes.
	Probes json.RawMessage `json:"-"`
}

// UnmarshalJSON reads a claimed job with its probes.
func (j *Job) UnmarshalJSON(data []byte) error {
	type plain Job
	var v struct {
		plain
		Probes json.RawMessage `json:"probes"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*j = Job(v.plain)
	j.Probes = v.Probes
	return nil
}

// LeaseRequest is the body of lease and release: the lease the call is made under.
type LeaseRequest struct {
	LeaseToken string `json:"leaseToken"`
}

// JobGroup names a job's group and its place in it.
type JobGroup struct {
	ID     string `json:"id"`
	Shard  int    `json:"shard"`
	Shards int    `json:"shards"`
}

// ReadyRequest is the body of ready: a group's shard is ready to start, and its clock's offset
// against the server's (agent minus server, ms) as measured on its previous ready call.
type ReadyRequest struct {
	LeaseToken    string   `json:"leaseToken"`
	ClockOffsetMs *float64 `json:"clockOffsetMs,omitempty"`
}

// ReadyResponse is ready's 200: the group's start time on the server's clock once every shard
// is ready (nil until then: ask again after RetryAfterMs).
type ReadyResponse struct {
	StartAt      *time.Time `json:"startAt"`
	ReceivedAt   time.Time  `json:"receivedAt"`
	ServerTime   time.Time  `json:"serverTime"`
	Ready        int        `json:"ready"`
	Shards       int        `json:"shards"`
	WaitingFor   []string   `json:"waitingFor"`
	RetryAfterMs int        `json:"retryAfterMs"`
}

// ClaimResponse is claim's 200: the job, leased to this agent.
type ClaimResponse struct {
	Job *Job `json:"job"`
}

// LeaseResponse is a renewed lease; CancelRequested means a user cancelled the job.
type LeaseResponse struct {
	LeaseExpiresAt  time.Time `json:"leaseExpiresAt"`
	CancelRequested bool      `json:"cancelRequested"`
}

// CompleteRequest is the body of complete: the run document under the job's lease.
type CompleteRequest struct {
	LeaseToken string     `json:"leaseToken"`
	Run        result.Run `json:"run"`
}

// CompleteResponse is complete's answer; Run is nil for a warm-up (the server discards it).
type CompleteResponse struct {
	Run *struct {
		ID         string `json:"id"`
		Repetition int    `json:"repetition"`
		URL        string `json:"url"`
	} `json:"run"`
	Replayed bool `json:"replayed"`
}

// FailRequest is the body of fail.
type FailRequest struct {
	LeaseToken string `json:"leaseToken"`
	Error      string `json:"error"`
	LogTail    string `json:"logTail,omitempty"`
	Retryable  bool   `json:"retryable"`
	Cancelled  bool   `json:"cancelled"`
}

// FailResponse says where the job went: queued (retried later), failed or cancelled.
type FailResponse struct {
	Status  string `json:"status"`
	RetryAt string `json:"retryAt,omitempty"`
}

// ErrorBody is the body of every refused call; Details.fields names bad fields, Details.reason
// which case of a 409 it is.
type ErrorBody struct {
	Error *struct {
		Code    string         `json:"code"`
		Message string         `json:"message"`
		Details map[string]any `json:"details"`
	} `json:"error"`
}

// ReleaseResponse is release's answer: queued, or cancelled when a user cancelled it meanwhile.
type ReleaseResponse struct {
	Status string `json:"status"`
}
