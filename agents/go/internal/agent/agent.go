// Package agent is versus-agent's worker: it enrolls (or loads its saved credential), runs the
// heartbeat, claim and per-job lease loops, runs each job through internal/execute and delivers
// its result through an on-disk buffer, and stops in order. It speaks the protocol only through
// internal/api. See docs/agent-protocol.md.
//
// Stopping (Run's context ends, Stop is called, or the server says stop) has two steps. First
// no new claims, and the running job gets the shutdown grace to finish and deliver its result.
// When the grace runs out the job is stopped and released (given back without counting an
// attempt), and results the server has not acknowledged stay on disk for the next start. A 401
// stops everything at once.
package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/versus/agents/go/internal/api"
	"github.com/versus/agents/go/internal/env"
	"github.com/versus/agents/go/internal/probe"
	"github.com/versus/agents/go/internal/workload"
)

// Exit codes of the agent process. 78 (EX_CONFIG) says restarting will not help until someone
// changes something (a revoked agent, a bad token, a bad flag).
const (
	ExitOK     = 0
	ExitCrash  = 1
	ExitConfig = 78
)

// Config is what the agent needs; cmd/versus-agent fills it from flags and the environment.
type Config struct {
	URL             string
	EnrollmentToken string // venr_…, needed only to enroll
	Name            string
	Labels          map[string]string
	CredentialFile  string
	BufferDir       string
	// ShutdownGrace is how long a running job may take to finish once the agent is stopping.
	ShutdownGrace time.Duration
	// ClaimJitter is the longest random pause between two claims.
	ClaimJitter time.Duration
	Version     string
	Registry    *workload.Registry
	Log         *slog.Logger
	// Policies and HTTP override the client's retry policies and transport (tests).
	Policies map[api.Call]api.RetryPolicy
	HTTP     *http.Client
	// Git is where each run's commit comes from (env.ReadGitSource); the zero value: none.
	Git env.GitSource
	// RunGit runs git for Git (env.RunGit when nil).
	RunGit env.GitRunner
	// MachineLock is a file the agents of one machine lock while they claim and run a job, so
	// that only one of them measures at a time (empty: none).
	MachineLock string
}

// ConfigError is a configuration the agent cannot start with.
type ConfigError struct{ Reason string }

func (e *ConfigError) Error() string { return e.Reason }

// Agent takes jobs from one Versus server. Make it with New, run it once with Run.
type Agent struct {
	cfg      Config
	log      *slog.Logger
	client   *api.Client
	uploader *uploader

	// stopping ends the claim loop; halt ends everything else (and stops a running job).
	stopping   context.Context
	stopClaims context.CancelFunc
	halt       context.Context
	haltAll    context.CancelCauseFunc
	stopOnce   sync.Once
	graceTimer *time.Timer

	heartbeatInterval time.Duration
	claimWait         time.Duration

	mu       sync.Mutex
	running  map[string]*runningJob
	exitCode int
}

// runningJob is a job being run: its lease and the switch that stops its workload.
type runningJob struct {
	job  *api.Job
	stop context.CancelCauseFunc // the first reason wins (a cancel then a shutdown is a cancel)
}

// New makes an agent; nothing happens until Run.
func New(cfg Config) *Agent {
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	cfg.URL = strings.TrimRight(cfg.URL, "/")
	a := &Agent{cfg: cfg, log: cfg.Log, running: map[string]*runningJob{}, heartbeatInterval: 10 * time.Second, claimWait: 30 * time.Second}
	a.client = api.New(api.Options{BaseURL: cfg.URL, Version: cfg.Version, HTTP: cfg.HTTP, Log: cfg.Log, Policies: cfg.Policies})
	a.uploader = &uploader{client: a.client, buffer: buffer{dir: cfg.BufferDir}, log: cfg.Log, onUnauthorized: a.unauthorized}
	a.stopping, a.stopClaims = context.WithCancel(context.Background())
	a.halt, a.haltAll = context.WithCancelCause(context.Background())
	return a
}

// Stop asks the agent to stop (see the package comment); safe to call more than once and from
// any goroutine.
func (a *Agent) Stop(reason string) {
	a.stopOnce.Do(func() {
		a.log.Info("agent.stopping", "reason", reason, "running", len(a.runningIDs()), "grace_s", a.cfg.ShutdownGrace.Seconds())
		a.stopClaims()
		a.mu.Lock()
		a.graceTimer = time.AfterFunc(a.cfg.ShutdownGrace, func() { a.haltAll(errShutdown) })
		a.mu.Unlock()
	})
}

// Run runs until the agent stops and returns the process's exit code. Ending ctx is the same as
// calling Stop (SIGTERM).
func (a *Agent) Run(ctx context.Context) int {
	defer a.haltAll(errShutdown)
	go func() {
		select {
		case <-ctx.Done():
			a.Stop("signal")
		case <-a.halt.Done():
		}
	}()
	if err := a.authenticate(); err != nil {
		if a.stopping.Err() != nil && !isRefusal(err) {
			return a.code()
		}
		var configErr *ConfigError
		if errors.As(err, &configErr) || isRefusal(err) {
			a.log.Error("agent.cannot_start", "reason", err.Error())
			return ExitConfig
		}
		a.log.Error("agent.crashed", "error", err.Error())
		return ExitCrash
	}
	leftovers, corrupt, err := a.uploader.buffer.list()
	if err != nil {
		a.log.Error("buffer.unreadable", "dir", a.cfg.BufferDir, "error", err.Error())
	}
	for _, name := range corrupt {
		a.log.Error("buffer.corrupt_report", "file", name, "action", "renamed to .corrupt")
	}

	var loops sync.WaitGroup
	loops.Add(1)
	go func() {
		defer loops.Done()
		a.runHeartbeatLoop(a.halt)
	}()
	a.log.Info("agent.ready", "name", a.cfg.Name, "workloads", strings.Join(registryNames(a.cfg.Registry), ","), "url", a.cfg.URL)
	// Results an earlier process could not deliver go first.
	a.uploader.drain(a.halt, leftovers)
	a.runClaimLoop(a.stopping)
	a.haltAll(errShutdown)
	loops.Wait()
	a.mu.Lock()
	if a.graceTimer != nil {
		a.graceTimer.Stop()
	}
	a.mu.Unlock()
	code := a.code()
	a.log.Info("agent.stopped", "exit_code", code)
	return code
}

// isRefusal: the server refused the agent itself (bad token, revoked name, bad request).
func isRefusal(err error) bool {
	return errors.Is(err, api.ErrUnauthorized) || errors.Is(err, api.ErrConflict) || errors.Is(err, api.ErrRejected) || errors.Is(err, api.ErrNotFound)
}

func (a *Agent) code() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.exitCode
}

// unauthorized stops everything at once: the credential was refused (revoked on the Agents page).
func (a *Agent) unauthorized(err error) {
	a.mu.Lock()
	first := a.exitCode != ExitConfig
	a.exitCode = ExitConfig
	a.mu.Unlock()
	if !first {
		return
	}
	a.log.Error("agent.unauthorized", "reason", err.Error(),
		"hint", "the credential in "+a.cfg.CredentialFile+" was refused (revoked on the Agents page?); enroll again with a new token")
	a.stopClaims()
	a.haltAll(errUnauthorized)
}

// announcement is what register and heartbeat say about the agent.
func (a *Agent) announcement() api.HeartbeatRequest {
	var adverts []api.WorkloadAdvert
	for _, w := range a.cfg.Registry.All() {
		info := w.Info()
		metrics := []api.AdvertMetric{}
		for _, m := range info.AdvertisedMetrics() {
			metrics = append(metrics, api.AdvertMetric{Key: m.Key, Unit: m.Unit, Direction: string(m.Direction), Aggregation: m.Aggregation, Description: m.Description})
		}
		adverts = append(adverts, api.WorkloadAdvert{Name: info.Name, Description: info.Description, SettingsSchema: info.SettingsSchema, Metrics: metrics})
	}
	// Probes come with every workload: a job that uses a kind of probe requires its capability.
	capabilities := append(a.cfg.Registry.Capabilities(), probe.Capabilities()...)
	return api.HeartbeatRequest{Version: a.cfg.Version, Capabilities: capabilities, Labels: a.cfg.Labels, Workloads: adverts}
}

// authenticate loads the saved credential, or registers with the enrollment token and saves it.
func (a *Agent) authenticate() error {
	saved, err := LoadCredential(a.cfg.CredentialFile)
	if err != nil {
		return &ConfigError{Reason: err.Error()}
	}
	if saved != nil && strings.TrimRight(saved.URL, "/") == a.cfg.URL {
		a.useCredential(saved.Credential, saved.HeartbeatIntervalSeconds, saved.ClaimWaitSeconds)
		a.log.Info("agent.credential_loaded", "agent", saved.AgentID, "project", saved.Project, "file", a.cfg.CredentialFile)
		return nil
	}
	if saved != nil {
		a.log.Warn("agent.credential_for_other_server", "file", a.cfg.CredentialFile, "saved_url", saved.URL)
	}
	if a.cfg.EnrollmentToken == "" {
		return &ConfigError{Reason: fmt.Sprintf("no credential for %s in %s and no enrollment token: set VERSUS_ENROLLMENT_TOKEN (or --enrollment-token) to a venr_… token from the project's Agents page", a.cfg.URL, a.cfg.CredentialFile)}
	}
	ann := a.announcement()
	answer, err := a.client.Register(a.stopping, a.cfg.EnrollmentToken, api.RegisterRequest{
		Name: a.cfg.Name, Kind: "go", Version: ann.Version, Capabilities: ann.Capabilities, Labels: ann.Labels, Workloads: ann.Workloads, Environment: env.Capture(),
	})
	if err != nil {
		return err
	}
	if err := SaveCredential(a.cfg.CredentialFile, Credential{
		URL: a.cfg.URL, AgentID: answer.Agent.ID, Name: answer.Agent.Name, Project: answer.Agent.Project, Credential: answer.Credential,
		HeartbeatIntervalSeconds: answer.HeartbeatIntervalSeconds, ClaimWaitSeconds: answer.ClaimWaitSeconds,
	}); err != nil {
		return fmt.Errorf("saving the credential to %s: %w", a.cfg.CredentialFile, err)
	}
	a.useCredential(answer.Credential, answer.HeartbeatIntervalSeconds, answer.ClaimWaitSeconds)
	a.log.Info("agent.registered", "agent", answer.Agent.ID, "project", answer.Agent.Project, "name", answer.Agent.Name, "file", a.cfg.CredentialFile)
	return nil
}

func (a *Agent) useCredential(credential string, heartbeatSeconds, claimWaitSeconds float64) {
	a.client.SetCredential(credential)
	if heartbeatSeconds > 0 {
		a.heartbeatInterval = seconds(heartbeatSeconds)
	}
	if claimWaitSeconds >= 0 {
		a.claimWait = seconds(claimWaitSeconds)
	}
}

func (a *Agent) runningIDs() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	ids := make([]string, 0, len(a.running))
	for id := range a.running {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

func (a *Agent) runningJob(id string) *runningJob {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.running[id]
}

// runJob runs one claimed job with its lease renewed meanwhile, and reports how it ended.
func (a *Agent) runJob(job *api.Job) {
	jobCtx, stop := context.WithCancelCause(a.halt)
	defer stop(nil)
	running := &runningJob{job: job, stop: stop}
	a.mu.Lock()
	a.running[job.ID] = running
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		delete(a.running, job.ID)
		a.mu.Unlock()
	}()

	leaseCtx, leaseDone := context.WithCancel(a.halt)
	var lease sync.WaitGroup
	lease.Add(1)
	go func() {
		defer lease.Done()
		a.runLeaseLoop(leaseCtx, running)
	}()
	defer func() {
		leaseDone()
		lease.Wait()
	}()

	a.log.Info("job.started", "job", job.ID, "experiment", job.Experiment.Slug, "variant", job.Variant.Name,
		"repetition", job.Repetition, "warmup", job.Warmup, "attempt", job.Attempt, "workload", job.Workload.Name)
	// The commit as it is when the run starts (a checkout may move between jobs).
	runGit := a.cfg.RunGit
	if runGit == nil {
		runGit = env.RunGit
	}
	commit, problem := a.cfg.Git.Capture(runGit)
	if problem != "" {
		a.log.Warn("git.unreadable", "job", job.ID, "reason", problem)
	}
	if job.Group != nil {
		// A shard of a job group: every shard starts its load at the group's start time.
		start, err := awaitGroupStart(jobCtx, func(ctx context.Context, body api.ReadyRequest) (*api.ReadyResponse, error) {
			return a.client.Ready(ctx, job.ID, body)
		}, job.LeaseToken, time.Now)
		if err != nil {
			a.report(running, a.groupStartFailed(jobCtx, job, err))
			return
		}
		a.log.Info("job.group_start", "job", job.ID, "group", job.Group.ID, "shard", job.Group.Shard, "shards", job.Group.Shards,
			"start", start.at.UTC().Format(time.RFC3339Nano), "clock_offset_ms", start.offsetMs)
	}
	outcome := executeJob(jobCtx, job, a.cfg.Registry, identity{Name: a.cfg.Name, Version: a.cfg.Version, Kind: "go"},
		func(line string) { a.log.Debug("workload.log", "job", job.ID, "line", line) })
	if outcome.kind == outcomeComplete {
		outcome.run = outcome.run.WithCommit(commit.Hash, commit.Branch, commit.Message, commit.Time)
	}
	// The lease is still renewed while the result is delivered.
	a.report(running, outcome)
}

// groupStartFailed is what to report when a shard could not get its group's start time: the
// group was given back (409: the lease is not ours), the job was stopped meanwhile, or the
// server could not be reached (a failed attempt, retried).
func (a *Agent) groupStartFailed(ctx context.Context, job *api.Job, err error) jobOutcome {
	switch {
	case ctx.Err() != nil:
		return jobOutcome{kind: outcomeStopped, reason: context.Cause(ctx)}
	case errors.Is(err, api.ErrConflict), errors.Is(err, api.ErrNotFound):
		a.log.Warn("job.group_given_back", "job", job.ID, "reason", err.Error())
		return jobOutcome{kind: outcomeStopped, reason: errLeaseLost}
	case errors.Is(err, api.ErrUnauthorized):
		a.unauthorized(err)
		return jobOutcome{kind: outcomeStopped, reason: errUnauthorized}
	default:
		return jobOutcome{kind: outcomeFail, retryable: true, err: truncate("waiting for the job group's start time: "+err.Error(), maxErrorChars)}
	}
}

// report tells the server how a job ended.
func (a *Agent) report(running *runningJob, outcome jobOutcome) {
	job := running.job
	base := Report{JobID: job.ID, LeaseToken: job.LeaseToken, SavedAt: time.Now().UTC()}
	switch outcome.kind {
	case outcomeComplete:
		if len(outcome.missing) > 0 {
			a.log.Warn("job.metrics_not_reported", "job", job.ID, "metrics", strings.Join(outcome.missing, ","))
		}
		base.Kind, base.Run = kindComplete, &outcome.run
		a.uploader.submit(a.halt, base)
	case outcomeFail:
		a.log.Warn("job.failed", "job", job.ID, "error", outcome.err, "retryable", outcome.retryable)
		base.Kind, base.Fail = kindFail, &FailReport{Error: outcome.err, LogTail: outcome.logTail, Retryable: outcome.retryable}
		a.uploader.submit(a.halt, base)
	case outcomeStopped:
		a.reportStopped(running, outcome.reason, base)
	}
}

func (a *Agent) reportStopped(running *runningJob, reason error, base Report) {
	job := running.job
	switch {
	case errors.Is(reason, errCancelled):
		base.Kind, base.Fail = kindFail, &FailReport{Error: "cancelled by a user", Retryable: false, Cancelled: true}
		a.uploader.submit(a.halt, base)
	case errors.Is(reason, errShutdown):
		// The agent is halting, so its own context is over: the release gets a short one of its
		// own (and its policy's few retries). If it cannot land, the lease expires instead.
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		if answer, err := a.client.Release(ctx, job.ID, job.LeaseToken); err != nil {
			a.log.Warn("job.release_failed", "job", job.ID, "error", err.Error(), "effect", "the job runs elsewhere once its lease expires")
		} else {
			a.log.Info("job.released", "job", job.ID, "status", answer.Status)
		}
	case errors.Is(reason, errLeaseLost):
		a.log.Warn("job.dropped", "job", job.ID, "reason", "its lease is not ours any more; the result is not sent")
	default:
		a.log.Warn("job.abandoned", "job", job.ID, "reason", fmt.Sprint(reason))
	}
}
