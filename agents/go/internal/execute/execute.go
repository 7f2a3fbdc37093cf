// Package execute is the one path from a workload and its settings to a run document, used by
// the agent for a job and by `versus-agent run` on its own: prepare (check settings), run with a
// recorder, build the run.
package execute

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/versus/agents/go/internal/probe"
	"github.com/versus/agents/go/internal/result"
	"github.com/versus/agents/go/internal/workload"
)

// ErrStopped is returned when the context ended the run (cancelled, lease lost, shutting down).
var ErrStopped = errors.New("stopped")

// Outcome is a finished (or failed) execution.
type Outcome struct {
	Run      result.Run
	Recorder *result.Builder
	// Err is nil on success; a workload.SettingsErrors for bad settings (never worth retrying);
	// ErrStopped when stopped through ctx; otherwise the workload's own error.
	Err error
}

// Retryable says whether another attempt could succeed: bad settings never will, nor will a
// probe whose target did not answer before the load began, nor a failure the workload calls
// permanent (workload.PermanentError).
func (o Outcome) Retryable() bool {
	var se workload.SettingsErrors
	var pe *probe.StartError
	var permanent *workload.PermanentError
	return !errors.As(o.Err, &se) && !errors.As(o.Err, &pe) && !errors.As(o.Err, &permanent)
}

// Run prepares and runs one workload. env is the base environment (machine facts); onLog sees
// every line the workload logs.
func Run(ctx context.Context, w workload.Workload, settings json.RawMessage, env map[string]any, onLog func(string)) Outcome {
	return RunProbed(ctx, w, settings, nil, env, onLog)
}

// RunProbed is Run with probes of the system under test. The workload's own targets, if its
// settings name any (workload.TargetStarter), start after the settings are checked, stop when the
// workload and the probes are done, and fail the run if one exits before. Each probe is read
// once after the targets started and before the workload starts (a *probe.StartError if one cannot be: no load is
// sent), then sampled over the measured window. Their metrics follow the workload's in the run,
// their warnings go to the run's warnings, and a required probe that missed intervals fails the
// run with a *probe.GapError.
func RunProbed(ctx context.Context, w workload.Workload, settings json.RawMessage, probes []probe.Spec, env map[string]any, onLog func(string)) Outcome {
	info := w.Info()
	specs := make(map[string]result.Spec, len(info.Metrics))
	for _, m := range info.Metrics {
		specs[m.Key] = result.Spec{Unit: m.Unit, Direction: m.Direction, Aggregation: m.Aggregation}
	}
	rec := result.NewBuilder(specs, onLog)
	runner, err := w.Prepare(settings)
	if err != nil {
		rec.Logf("%v", err)
		return Outcome{Recorder: rec, Err: err}
	}
	// runCtx ends with ctx, or when a target the run started exits: the workload stops and the
	// run fails with what the target said.
	runCtx, endRun := context.WithCancelCause(ctx)
	defer endRun(nil)
	stopTargets, err := startTargets(ctx, runCtx, endRun, runner, rec)
	if err != nil {
		if ctx.Err() != nil {
			return Outcome{Recorder: rec, Err: ErrStopped}
		}
		rec.Logf("%v", err)
		return Outcome{Recorder: rec, Err: err}
	}
	// Deferred before probe.Close, so it runs after it: the targets stop once the workload and
	// the probes are done.
	defer stopTargets()
	opened, err := probe.Open(runCtx, probes)
	if err != nil {
		if ctx.Err() != nil {
			return Outcome{Recorder: rec, Err: ErrStopped}
		}
		if targetErr := targetExit(runCtx); targetErr != nil {
			err = targetErr
		}
		rec.Logf("%v", err)
		return Outcome{Recorder: rec, Err: err}
	}
	defer probe.Close(opened)
	var sampler *probe.Sampler
	var workloadRec workload.Recorder = rec
	if len(opened) > 0 {
		sampler = probe.StartSampler(opened)
		workloadRec = probedRecorder{rec, sampler}
	}
	started := time.Now()
	err = runWithRecover(runCtx, runner, workloadRec)
	finished := time.Now()
	var probed probe.Report
	if sampler != nil {
		probed = sampler.Stop()
		for _, warning := range probed.Warnings {
			rec.Logf("warning: %s", warning)
		}
	}
	if ctx.Err() != nil && (err == nil || errors.Is(err, ctx.Err())) {
		return Outcome{Recorder: rec, Err: ErrStopped}
	}
	if targetErr := targetExit(runCtx); targetErr != nil {
		rec.Logf("%s failed: %v", info.Name, targetErr)
		return Outcome{Recorder: rec, Err: targetErr}
	}
	if err != nil {
		rec.Logf("%s failed: %v", info.Name, err)
		return Outcome{Recorder: rec, Err: err}
	}
	if probed.Failure != nil {
		return Outcome{Recorder: rec, Err: probed.Failure}
	}
	run := rec.Build(started, finished, env)
	if len(run.Metrics) == 0 {
		return Outcome{Recorder: rec, Err: fmt.Errorf("%s recorded no metrics", info.Name)}
	}
	run.Metrics = append(run.Metrics, probed.Metrics...)
	run.SetWarnings(probed.Warnings)
	return Outcome{Run: run, Recorder: rec}
}

// startTargets starts the targets of a runner that has them (workload.TargetStarter); one that
// exits during the run ends runCtx with a targetExited. stop stops them (a no-op without any).
func startTargets(ctx, runCtx context.Context, endRun context.CancelCauseFunc, runner workload.Runner, rec workload.Recorder) (stop func(), err error) {
	starter, ok := runner.(workload.TargetStarter)
	if !ok {
		return func() {}, nil
	}
	started, err := starter.StartTargets(ctx, rec)
	if err != nil || started == nil {
		return func() {}, err
	}
	go func() {
		select {
		case err := <-started.Exited():
			endRun(targetExited{err})
		case <-runCtx.Done():
		}
	}()
	return started.Stop, nil
}

// targetExited ends a run whose target exited (told apart from ctx's own end and its cause).
type targetExited struct{ err error }

func (e targetExited) Error() string { return e.err.Error() }

// targetExit is the error of a target that exited during the run, or nil.
func targetExit(runCtx context.Context) error {
	var exited targetExited
	if runCtx.Err() != nil && errors.As(context.Cause(runCtx), &exited) {
		return exited.err
	}
	return nil
}

// probedRecorder is the run's recorder that also restarts the probes' window when the workload's
// warm-up ends.
type probedRecorder struct {
	*result.Builder
	sampler *probe.Sampler
}

func (r probedRecorder) MeasuringStarts() { r.sampler.Restart() }

// runWithRecover turns a workload's panic into a failed job instead of a dead agent.
func runWithRecover(ctx context.Context, runner workload.Runner, rec workload.Recorder) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("workload panicked: %v", p)
		}
	}()
	return runner.Run(ctx, rec)
}
