// Package fakeapi is an in-memory Versus job API on net/http/httptest, for the agent's tests: it
// speaks the protocol of docs/agent-protocol.md closely enough to exercise every path of the
// agent, and lets a test script the hard cases (an outage, a lost lease, a cancel, a revoked
// agent). It is the Go twin of agents/reference/test/fake-api.ts.
package fakeapi

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/versus/agents/go/internal/protocoltest"
)

// EnrollmentToken is the one token register accepts.
const EnrollmentToken = "venr_test_token"

// Mode is how the server answers: normally, 503 to everything, or by closing the connection.
type Mode int

const (
	Up Mode = iota
	Unavailable
	HangUp
)

// Job is a job as the fake keeps it.
type Job struct {
	ID              string
	Status          string // queued, leased, succeeded, failed, cancelled
	AgentID         string
	LeaseToken      string
	LeaseSeconds    float64
	Attempt         int
	Warmup          bool
	Workload        map[string]any
	Metrics         []map[string]any
	Probes          []map[string]any
	CancelRequested bool
}

// Agent is an enrolled agent.
type Agent struct {
	ID, Name, Credential string
	Revoked              bool
	Register             map[string]any
	LastHeartbeat        map[string]any
}

// Call is one request the fake answered.
type Call struct {
	Path, UserAgent string
	// Query is the request's query string (e.g. "wait=30" on a claim).
	Query  string
	Status int
	Body   map[string]any
}

// JobOptions change an enqueued job.
type JobOptions struct {
	LeaseSeconds float64
	Metrics      []map[string]any
	// Probes are the job's probes (job.probes), sent as [] when none.
	Probes []map[string]any
	Warmup bool
}

// Server is the fake; make it with Start.
type Server struct {
	URL string
	srv *httptest.Server

	mu     sync.Mutex
	mode   Mode
	agents []*Agent
	jobs   []*Job
	// Runs stored by complete (one per job however often complete is called) and fail bodies.
	runs     map[string]map[string]any
	failures map[string]map[string]any
	releases map[string]int
	calls    []Call
	stolen   map[string]bool
	stop     bool
	// pathModes override mode for paths with the given suffix (e.g. only "/complete" is down).
	pathModes map[string]Mode
	// heartbeatCancels: heartbeats name cancelled jobs (off: only lease renewals tell).
	heartbeatCancels bool
	// HeartbeatIntervalSeconds and ClaimWaitSeconds are what register and heartbeat hand out.
	heartbeatIntervalSeconds float64
	claimWaitSeconds         float64
	changed                  chan struct{}
	nextID                   int
}

// Start starts a fake on a free port; it is closed when the test ends.
func Start(t testing.TB) *Server {
	s := &Server{
		runs: map[string]map[string]any{}, failures: map[string]map[string]any{}, releases: map[string]int{},
		stolen: map[string]bool{}, pathModes: map[string]Mode{}, heartbeatCancels: true, heartbeatIntervalSeconds: 0.05, claimWaitSeconds: 1, changed: make(chan struct{}),
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.handle))
	s.URL = s.srv.URL
	// Cleanups run last-registered first: the bodies are checked once the fake has closed.
	doc := protocoltest.Load(t)
	t.Cleanup(func() { s.checkRequests(t, doc) })
	t.Cleanup(s.Close)
	return s
}

// checkRequests checks every body the agent sent against the server's request schemas
// (docs/openapi.json, closed to unknown properties): the fake answers what the agent's tests
// need, the document says what the real server takes. Each problem is reported once, with how
// many calls had it.
func (s *Server) checkRequests(t testing.TB, doc *protocoltest.Document) {
	t.Helper()
	s.mu.Lock()
	calls := append([]Call(nil), s.calls...)
	s.mu.Unlock()
	var problems []string
	count := map[string]int{}
	for _, c := range calls {
		if err := doc.ValidateRequest(c.Path, c.Body); err != nil {
			if count[err.Error()] == 0 {
				problems = append(problems, err.Error())
			}
			count[err.Error()]++
		}
	}
	for _, p := range problems {
		t.Errorf("the agent sent what the server's schema refuses (%d calls):\n%s", count[p], p)
	}
}

// Close stops the server, ending waiting claims.
func (s *Server) Close() {
	s.mu.Lock()
	s.notifyLocked()
	s.mu.Unlock()
	s.srv.CloseClientConnections()
	s.srv.Close()
}

// notifyLocked wakes everyone waiting for a change (waiting claims and Await).
func (s *Server) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// SetMode switches between answering, 503 and hanging up.
func (s *Server) SetMode(m Mode) {
	s.mu.Lock()
	s.mode = m
	s.notifyLocked()
	s.mu.Unlock()
}

// SetPathMode sets how calls to paths ending with suffix are answered, whatever SetMode says.
func (s *Server) SetPathMode(suffix string, m Mode) {
	s.mu.Lock()
	s.pathModes[suffix] = m
	s.notifyLocked()
	s.mu.Unlock()
}

// SetHeartbeatCancels says whether heartbeats name cancelled jobs (on by default).
func (s *Server) SetHeartbeatCancels(on bool) {
	s.mu.Lock()
	s.heartbeatCancels = on
	s.mu.Unlock()
}

// Enqueue adds a queued job and returns its id.
func (s *Server) Enqueue(workload string, settings map[string]any, opts JobOptions) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	if opts.LeaseSeconds == 0 {
		opts.LeaseSeconds = 30
	}
	if settings == nil {
		settings = map[string]any{}
	}
	job := &Job{ID: fmt.Sprintf("job%d", s.nextID), Status: "queued", LeaseSeconds: opts.LeaseSeconds, Warmup: opts.Warmup,
		Workload: map[string]any{"name": workload, "settings": settings}, Metrics: opts.Metrics, Probes: opts.Probes}
	s.jobs = append(s.jobs, job)
	s.notifyLocked()
	return job.ID
}

// Cancel marks a job cancelled by a user: lease and heartbeat answers tell the agent.
func (s *Server) Cancel(jobID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if j := s.jobLocked(jobID); j != nil {
		j.CancelRequested = true
	}
	s.notifyLocked()
}

// StealLease makes lease renewals of a job answer 409, as if it expired and moved on.
func (s *Server) StealLease(jobID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stolen[jobID] = true
	s.notifyLocked()
}

// RevokeAll makes every agent's credential answer 401.
func (s *Server) RevokeAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, a := range s.agents {
		a.Revoked = true
	}
	s.notifyLocked()
}

// AskToStop makes heartbeats answer stop: true.
func (s *Server) AskToStop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stop = true
	s.notifyLocked()
}

// Job returns a copy of a job.
func (s *Server) Job(id string) Job {
	s.mu.Lock()
	defer s.mu.Unlock()
	if j := s.jobLocked(id); j != nil {
		return *j
	}
	return Job{}
}

// Run returns the run stored for a job (nil when none).
func (s *Server) Run(jobID string) map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.runs[jobID]
}

// Failure returns the fail body a job ended with (nil when none).
func (s *Server) Failure(jobID string) map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.failures[jobID]
}

// Releases counts the accepted releases of a job.
func (s *Server) Releases(jobID string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.releases[jobID]
}

// Agents returns copies of the enrolled agents.
func (s *Server) Agents() []Agent {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Agent, len(s.agents))
	for i, a := range s.agents {
		out[i] = *a
	}
	return out
}

// Calls returns the answered calls whose path ends with suffix.
func (s *Server) Calls(suffix string) []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Call
	for _, c := range s.calls {
		if strings.HasSuffix(c.Path, suffix) {
			out = append(out, c)
		}
	}
	return out
}

// Await waits until cond (run under no lock) holds, re-checking after every change the fake
// sees. The deadline only keeps a broken test from hanging; nothing is asserted about time.
func (s *Server) Await(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		s.mu.Lock()
		changed := s.changed
		s.mu.Unlock()
		if cond() {
			return
		}
		select {
		case <-changed:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			t.Fatalf("gave up waiting for %s", what)
		}
	}
}

// AwaitRunning waits until a heartbeat lists the job as running: the agent has it (a job the fake
// leased may still be on its way to the agent).
func (s *Server) AwaitRunning(t testing.TB, jobID string) {
	t.Helper()
	s.Await(t, "a heartbeat listing "+jobID, func() bool {
		for _, c := range s.Calls("/agents/heartbeat") {
			ids, _ := c.Body["runningJobIds"].([]any)
			for _, running := range ids {
				if running == jobID {
					return true
				}
			}
		}
		return false
	})
}

func (s *Server) jobLocked(id string) *Job {
	for _, j := range s.jobs {
		if j.ID == id {
			return j
		}
	}
	return nil
}

var jobPath = regexp.MustCompile(`^/api/v1/jobs/([^/]+)/(lease|complete|fail|release)$`)

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	data, _ := io.ReadAll(r.Body)
	body := map[string]any{}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(data) > 0 {
		if err := json.Unmarshal(data, &body); err != nil {
			s.fail(w, r, body, 400, "BAD_REQUEST", "body is not JSON")
			return
		}
	}
	mode := s.mode
	for suffix, m := range s.pathModes {
		if strings.HasSuffix(r.URL.Path, suffix) {
			mode = m
		}
	}
	switch mode {
	case Unavailable:
		s.fail(w, r, body, 503, "UNAVAILABLE", "database unavailable")
		return
	case HangUp:
		s.calls = append(s.calls, Call{Path: r.URL.Path, Query: r.URL.RawQuery, UserAgent: r.UserAgent(), Status: 0, Body: body})
		if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
			conn.Close()
		}
		s.notifyLocked()
		return
	}
	bearer := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	if r.URL.Path == "/api/v1/agents/register" {
		if bearer != EnrollmentToken {
			s.fail(w, r, body, 401, "UNAUTHORIZED", "Unknown enrollment token")
			return
		}
		name, _ := body["name"].(string)
		a := &Agent{ID: fmt.Sprintf("agent%d", len(s.agents)+1), Name: name, Credential: fmt.Sprintf("vsag_secret_%d", len(s.agents)+1), Register: body}
		s.agents = append(s.agents, a)
		s.send(w, r, body, 201, map[string]any{
			"agent": map[string]any{"id": a.ID, "name": a.Name, "project": "examples"}, "credential": a.Credential,
			"heartbeatIntervalSeconds": s.heartbeatIntervalSeconds, "claimWaitSeconds": s.claimWaitSeconds, "leaseSeconds": 30,
		})
		return
	}
	var agent *Agent
	for _, a := range s.agents {
		if a.Credential == bearer {
			agent = a
		}
	}
	if agent == nil || agent.Revoked {
		s.fail(w, r, body, 401, "UNAUTHORIZED", "Unknown or revoked agent credential")
		return
	}
	switch r.URL.Path {
	case "/api/v1/agents/heartbeat":
		agent.LastHeartbeat = body
		cancel := []string{}
		if ids, ok := body["runningJobIds"].([]any); ok {
			for _, id := range ids {
				if j := s.jobLocked(fmt.Sprint(id)); j != nil && j.CancelRequested && s.heartbeatCancels {
					cancel = append(cancel, j.ID)
				}
			}
		}
		s.send(w, r, body, 200, map[string]any{"cancelJobIds": cancel, "stop": s.stop, "heartbeatIntervalSeconds": s.heartbeatIntervalSeconds})
		return
	case "/api/v1/jobs/claim":
		s.claim(w, r, body, agent)
		return
	}
	m := jobPath.FindStringSubmatch(r.URL.Path)
	var job *Job
	if m != nil {
		job = s.jobLocked(m[1])
	}
	if job == nil {
		s.fail(w, r, body, 404, "NOT_FOUND", "No such job in this project")
		return
	}
	action := m[2]
	ours := job.LeaseToken == body["leaseToken"] && job.AgentID == agent.ID
	if action == "complete" && ours && job.Status == "succeeded" {
		s.send(w, r, body, 200, map[string]any{"run": s.runAnswer(job), "replayed": true})
		return
	}
	if !ours || job.Status != "leased" {
		s.fail(w, r, body, 409, "CONFLICT", "The lease is not yours any more")
		return
	}
	switch action {
	case "lease":
		if s.stolen[job.ID] {
			s.fail(w, r, body, 409, "CONFLICT", "The lease expired and another agent took the job")
			return
		}
		s.send(w, r, body, 200, map[string]any{"leaseExpiresAt": time.Now().Add(time.Duration(job.LeaseSeconds * float64(time.Second))).UTC().Format(time.RFC3339Nano), "cancelRequested": job.CancelRequested})
	case "complete":
		run, ok := body["run"].(map[string]any)
		if !ok {
			s.fail(w, r, body, 400, "BAD_REQUEST", "run is required")
			return
		}
		job.Status = "succeeded"
		s.runs[job.ID] = run
		s.send(w, r, body, 201, map[string]any{"run": s.runAnswer(job), "replayed": false})
	case "fail":
		if body["cancelled"] == true || job.CancelRequested {
			job.Status = "cancelled"
		} else {
			job.Status = "failed"
		}
		s.failures[job.ID] = body
		s.send(w, r, body, 200, map[string]any{"status": job.Status})
	case "release":
		job.Status, job.AgentID = "queued", ""
		s.releases[job.ID]++
		s.send(w, r, body, 200, map[string]any{"status": "queued"})
	}
}

func (s *Server) runAnswer(job *Job) any {
	if job.Warmup {
		return nil
	}
	return map[string]any{"id": "run_" + job.ID, "repetition": 1, "url": "/p/examples/e/exp"}
}

// claim long-polls (with s.mu held on entry and exit) until a queued job exists or the wait ends.
func (s *Server) claim(w http.ResponseWriter, r *http.Request, body map[string]any, agent *Agent) {
	wait, err := strconv.ParseFloat(r.URL.Query().Get("wait"), 64)
	if err != nil {
		wait = 30
	}
	deadline := time.After(time.Duration(wait * float64(time.Second)))
	for {
		if s.mode != Up || s.stop {
			s.send(w, r, body, 204, nil)
			return
		}
		for _, j := range s.jobs {
			if j.Status == "queued" {
				j.Status, j.AgentID = "leased", agent.ID
				j.Attempt++
				j.LeaseToken = fmt.Sprintf("vlease_%s_%d", j.ID, j.Attempt)
				job := map[string]any{
					"id": j.ID, "leaseToken": j.LeaseToken, "leaseExpiresAt": time.Now().Add(time.Minute).UTC().Format(time.RFC3339Nano),
					"leaseSeconds": j.LeaseSeconds, "attempt": j.Attempt, "maxAttempts": 3, "batchId": "batch1",
					"experiment": map[string]any{"slug": "exp", "title": "Experiment"}, "variant": map[string]any{"name": "A"},
					"repetition": 1, "warmup": j.Warmup, "workload": j.Workload, "metrics": j.Metrics,
				}
				if j.Metrics == nil {
					job["metrics"] = []any{}
				}
				job["probes"] = j.Probes
				if j.Probes == nil {
					job["probes"] = []any{}
				}
				s.send(w, r, body, 200, map[string]any{"job": job})
				return
			}
		}
		changed := s.changed
		s.mu.Unlock()
		select {
		case <-changed:
			s.mu.Lock()
		case <-deadline:
			s.mu.Lock()
			s.send(w, r, body, 204, nil)
			return
		case <-r.Context().Done():
			s.mu.Lock()
			return
		}
	}
}

func (s *Server) fail(w http.ResponseWriter, r *http.Request, body map[string]any, status int, code, message string) {
	s.send(w, r, body, status, map[string]any{"error": map[string]any{"code": code, "message": message}})
}

// send answers (with s.mu held) and records the call.
func (s *Server) send(w http.ResponseWriter, r *http.Request, body map[string]any, status int, payload any) {
	s.calls = append(s.calls, Call{Path: r.URL.Path, Query: r.URL.RawQuery, UserAgent: r.UserAgent(), Status: status, Body: body})
	s.notifyLocked()
	if payload == nil {
		w.WriteHeader(status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(payload)
}
