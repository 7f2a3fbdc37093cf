package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/versus/agents/go/internal/api"
	"github.com/versus/agents/go/internal/env"
	"github.com/versus/agents/go/internal/execute"
	"github.com/versus/agents/go/internal/probe"
	"github.com/versus/agents/go/internal/result"
	"github.com/versus/agents/go/internal/workload"
)

// Why a job was stopped from outside: the cause of its context.
var (
	errCancelled    = errors.New("cancelled by a user")
	errLeaseLost    = errors.New("the lease is not ours any more")
	errShutdown     = errors.New("the agent is shutting down")
	errUnauthorized = errors.New("the agent's credential was refused")
)

// outcomeKind is what to tell the server about a job.
type outcomeKind int

const (
	outcomeComplete outcomeKind = iota
	outcomeFail
	outcomeStopped
)

// jobOutcome is a run, a failure, or nothing because the job was stopped from outside.
type jobOutcome struct {
	kind      outcomeKind
	run       result.Run
	missing   []string // metrics the job asked for that the workload did not record
	err       string
	retryable bool
	logTail   string
	reason    error // for outcomeStopped: errCancelled, errLeaseLost, errShutdown or errUnauthorized
}

// identity is the agent as a run's environment names it.
type identity struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
}

// executeJob runs one claimed job's workload through internal/execute and decides what to
// report. It knows nothing of HTTP; the caller reports the outcome.
func executeJob(ctx context.Context, job *api.Job, registry *workload.Registry, who identity, onLog func(string)) jobOutcome {
	w, ok := registry.Get(job.Workload.Name)
	if !ok {
		return jobOutcome{kind: outcomeFail, retryable: false,
			err: fmt.Sprintf("this agent has no workload %q (it has %s)", job.Workload.Name, strings.Join(registryNames(registry), ", "))}
	}
	probes, err := probe.Decode(job.Probes)
	if err != nil {
		// The server checks probes as it stores them; one it sent that this agent cannot read
		// would be refused on every agent like it.
		return jobOutcome{kind: outcomeFail, retryable: false, err: truncate(fmt.Sprintf("bad probes: %v", err), maxErrorChars)}
	}
	environment := env.Capture()
	environment["agent"] = who
	environment["workload"] = map[string]any{"name": job.Workload.Name, "settings": settingsForEnv(job.Workload.Settings)}
	outcome := execute.RunProbed(ctx, w, job.Workload.Settings, probes, environment, onLog)
	if errors.Is(outcome.Err, execute.ErrStopped) {
		return jobOutcome{kind: outcomeStopped, reason: context.Cause(ctx)}
	}
	if outcome.Err != nil {
		var bad workload.SettingsErrors
		if errors.As(outcome.Err, &bad) {
			// A setting the workload refuses is refused on every agent: no point retrying.
			return jobOutcome{kind: outcomeFail, retryable: false, logTail: outcome.Recorder.LogTail(),
				err: truncate(fmt.Sprintf("bad settings for workload %q: %v", job.Workload.Name, outcome.Err), maxErrorChars)}
		}
		var started *probe.StartError
		var gap *probe.GapError
		if errors.As(outcome.Err, &started) || errors.As(outcome.Err, &gap) {
			// The probe's own words: `probe "app-1": …`.
			return jobOutcome{kind: outcomeFail, retryable: outcome.Retryable(), logTail: outcome.Recorder.LogTail(),
				err: truncate(outcome.Err.Error(), maxErrorChars)}
		}
		return jobOutcome{kind: outcomeFail, retryable: outcome.Retryable(), logTail: outcome.Recorder.LogTail(),
			err: truncate(fmt.Sprintf("workload %s failed: %v", job.Workload.Name, outcome.Err), maxErrorChars)}
	}
	metrics, missing, problem := jobMetrics(job.Metrics, w.Info().Metrics, outcome.Run.Metrics)
	if problem != "" {
		return jobOutcome{kind: outcomeFail, retryable: false, err: truncate(problem, maxErrorChars), logTail: outcome.Recorder.LogTail()}
	}
	run := outcome.Run
	run.Metrics = metrics
	return jobOutcome{kind: outcomeComplete, run: run, missing: missing}
}

func registryNames(r *workload.Registry) []string {
	var names []string
	for _, w := range r.All() {
		names = append(names, w.Info().Name)
	}
	return names
}

// settingsForEnv keeps the settings a run ran with in its environment, as JSON.
func settingsForEnv(raw json.RawMessage) any {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil || v == nil {
		return map[string]any{}
	}
	return v
}
