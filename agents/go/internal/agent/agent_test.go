package agent

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/versus/agents/go/internal/api"
	"github.com/versus/agents/go/internal/env"
	"github.com/versus/agents/go/internal/fakeapi"
	"github.com/versus/agents/go/internal/workload"
	"github.com/versus/agents/go/internal/workload/sleep"
)

// fastPolicies keep every call's retry behaviour (how many attempts) with short delays.
func fastPolicies() map[api.Call]api.RetryPolicy {
	out := map[api.Call]api.RetryPolicy{}
	for call, p := range api.DefaultPolicies {
		out[call] = api.RetryPolicy{Attempts: p.Attempts, BaseDelay: 5 * time.Millisecond, MaxDelay: 40 * time.Millisecond}
	}
	return out
}

// testLog writes the agent's log lines to the test's log (seen with -v or on failure).
type testLog struct {
	mu  sync.Mutex
	t   testing.TB
	end bool
}

func (l *testLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.end {
		l.t.Log(strings.TrimRight(string(p), "\n"))
	}
	return len(p), nil
}

func testConfig(t *testing.T, fake *fakeapi.Server, dir string) Config {
	w := &testLog{t: t}
	t.Cleanup(func() { w.mu.Lock(); w.end = true; w.mu.Unlock() })
	return Config{
		URL: fake.URL, EnrollmentToken: fakeapi.EnrollmentToken, Name: "test-agent", Labels: map[string]string{"os": "linux", "pool": "lab"},
		CredentialFile: filepath.Join(dir, "credential.json"), BufferDir: filepath.Join(dir, "buffer"),
		ShutdownGrace: 0, Version: "0.0.1-test", Registry: workload.NewRegistry(sleep.New()),
		Log: slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug})), Policies: fastPolicies(),
	}
}

// running is an agent started in the background.
type running struct {
	agent  *Agent
	cancel context.CancelFunc
	done   chan int
}

func start(t *testing.T, cfg Config) *running {
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{agent: New(cfg), cancel: cancel, done: make(chan int, 1)}
	go func() { r.done <- r.agent.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		r.agent.haltAll(errShutdown)
		<-r.done
	})
	return r
}

// exit waits for the agent to end and returns its exit code.
func (r *running) exit(t *testing.T) int {
	t.Helper()
	select {
	case code := <-r.done:
		r.done <- code
		return code
	case <-time.After(30 * time.Second):
		t.Fatal("the agent did not stop")
		return -1
	}
}

// stop is SIGTERM: cancel Run's context and wait for the exit code.
func (r *running) stop(t *testing.T) int {
	t.Helper()
	r.cancel()
	return r.exit(t)
}

func heartbeats(fake *fakeapi.Server) int { return len(fake.Calls("/agents/heartbeat")) }

func bufferFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dir, "buffer"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestRegistersOnceThenReusesTheCredentialFile(t *testing.T) {
	fake := fakeapi.Start(t)
	dir := t.TempDir()
	cfg := testConfig(t, fake, dir)
	first := start(t, cfg)
	fake.Await(t, "a heartbeat", func() bool { return heartbeats(fake) > 0 })
	if code := first.stop(t); code != ExitOK {
		t.Fatalf("exit code %d, want 0", code)
	}

	info, err := os.Stat(cfg.CredentialFile)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("credential file mode %o, want 600", info.Mode().Perm())
	}
	var saved map[string]any
	data, _ := os.ReadFile(cfg.CredentialFile)
	if err := json.Unmarshal(data, &saved); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range saved {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	// The reference agent's format exactly (agents/reference/agent/credential.ts).
	if got := strings.Join(keys, ","); got != "agentId,claimWaitSeconds,credential,heartbeatIntervalSeconds,name,project,url" {
		t.Errorf("credential keys %s", got)
	}
	if saved["url"] != fake.URL || saved["credential"] != "vsag_secret_1" || saved["project"] != "examples" {
		t.Errorf("credential %v", saved)
	}

	agents := fake.Agents()
	if len(agents) != 1 {
		t.Fatalf("%d agents registered", len(agents))
	}
	reg := agents[0].Register
	if reg["kind"] != "go" || reg["version"] != "0.0.1-test" || reg["name"] != "test-agent" {
		t.Errorf("register body %v", reg)
	}
	// The workload, and the probes every job may use (process probes on Linux, where this runs).
	if caps, _ := json.Marshal(reg["capabilities"]); string(caps) != `["sleep","probe:prometheus","probe:process"]` {
		t.Errorf("capabilities %s", caps)
	}
	workloads, _ := reg["workloads"].([]any)
	if len(workloads) != 1 || workloads[0].(map[string]any)["settingsSchema"].(map[string]any)["type"] != "object" {
		t.Errorf("workloads %v", reg["workloads"])
	}
	// Each workload's metrics, with the aggregation spelled out, so the dashboard can offer them.
	if metrics, _ := json.Marshal(workloads[0].(map[string]any)["metrics"]); string(metrics) != `[{"aggregation":"mean","description":"How long the sleep took","direction":"lower_is_better","key":"slept_ms","unit":"ms"}]` {
		t.Errorf("advertised metrics %s", metrics)
	}
	if ua := fake.Calls("/agents/register")[0].UserAgent; ua != "versus-agent/0.0.1-test (go)" {
		t.Errorf("User-Agent %q", ua)
	}
	hb := fake.Calls("/agents/heartbeat")[0].Body
	if labels, _ := json.Marshal(hb["labels"]); string(labels) != `{"os":"linux","pool":"lab"}` || hb["version"] != "0.0.1-test" {
		t.Errorf("heartbeat %v", hb)
	}

	// A second process on the same files: no token needed, no second registration.
	cfg.EnrollmentToken = ""
	before := heartbeats(fake)
	second := start(t, cfg)
	fake.Await(t, "a heartbeat of the second process", func() bool { return heartbeats(fake) > before })
	if code := second.stop(t); code != ExitOK {
		t.Fatalf("second exit code %d", code)
	}
	if n := len(fake.Agents()); n != 1 {
		t.Fatalf("%d agents registered, want 1", n)
	}
}

func TestACredentialForAnotherServerIsNotSentThere(t *testing.T) {
	fake := fakeapi.Start(t)
	dir := t.TempDir()
	cfg := testConfig(t, fake, dir)
	cfg.EnrollmentToken = ""
	if err := SaveCredential(cfg.CredentialFile, Credential{URL: "http://elsewhere:3000", AgentID: "a1", Name: "x", Project: "p", Credential: "vsag_elsewhere", HeartbeatIntervalSeconds: 10, ClaimWaitSeconds: 30}); err != nil {
		t.Fatal(err)
	}
	if code := start(t, cfg).exit(t); code != ExitConfig {
		t.Fatalf("exit code %d, want 78", code)
	}
	if calls := fake.Calls(""); len(calls) != 0 {
		t.Fatalf("the fake saw %d calls, want none", len(calls))
	}
}

func TestABadEnrollmentTokenExits78(t *testing.T) {
	fake := fakeapi.Start(t)
	cfg := testConfig(t, fake, t.TempDir())
	cfg.EnrollmentToken = "venr_wrong"
	if code := start(t, cfg).exit(t); code != ExitConfig {
		t.Fatalf("exit code %d, want 78", code)
	}
	if _, err := os.Stat(cfg.CredentialFile); !os.IsNotExist(err) {
		t.Fatalf("a credential file was written: %v", err)
	}
}

func TestClaimRunCompleteInTheJobsUnits(t *testing.T) {
	fake := fakeapi.Start(t)
	dir := t.TempDir()
	a := start(t, testConfig(t, fake, dir))
	id := fake.Enqueue("sleep", map[string]any{"ms": 2}, fakeapi.JobOptions{Metrics: []map[string]any{{"key": "slept_ms", "unit": "us", "direction": "lower_is_better"}}})
	warm := fake.Enqueue("sleep", map[string]any{"ms": 1}, fakeapi.JobOptions{Warmup: true})
	fake.Await(t, "both jobs done", func() bool { return fake.Job(id).Status == "succeeded" && fake.Job(warm).Status == "succeeded" })
	run := fake.Run(id)
	metrics := run["metrics"].([]any)
	if len(metrics) != 1 {
		t.Fatalf("metrics %v", metrics)
	}
	m := metrics[0].(map[string]any)
	samples := m["samples"].([]any)
	// Slept 2 ms, sent in the experiment's µs.
	if m["key"] != "slept_ms" || m["unit"] != "us" || len(samples) != 1 || samples[0].(float64) < 2000 {
		t.Errorf("metric %v", m)
	}
	env := run["environment"].(map[string]any)
	if env["agent"].(map[string]any)["kind"] != "go" || env["workload"].(map[string]any)["name"] != "sleep" {
		t.Errorf("environment %v", env)
	}
	fake.Await(t, "the buffer emptied", func() bool { return len(bufferFiles(t, dir)) == 0 })
	if code := a.stop(t); code != ExitOK {
		t.Fatalf("exit code %d", code)
	}
}

func TestRunsCarryTheCommitReadBeforeEachRun(t *testing.T) {
	fake := fakeapi.Start(t)
	dir := t.TempDir()
	cfg := testConfig(t, fake, dir)
	// A checkout that moves between the two jobs (git stands in for a real one: env's tests run git).
	heads := []string{"1111111111111111111111111111111111111111\n2026-11-24T15:00:00+01:00\nFirst change\n", "2222222222222222222222222222222222222222\n2026-11-25T09:30:00Z\nSecond change\n"}
	var calls atomic.Int32
	cfg.RunGit = func(dir string, args ...string) (string, error) {
		if args[0] == "rev-parse" {
			return "main\n", nil
		}
		return heads[min(int(calls.Add(1))-1, len(heads)-1)], nil
	}
	git, err := env.ReadGitSource(func(name string) string { return map[string]string{"VERSUS_GIT_DIR": "/checkout"}[name] }, cfg.RunGit)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Git = git
	calls.Store(0) // reading the source at start read HEAD once
	a := start(t, cfg)
	first := fake.Enqueue("sleep", map[string]any{"ms": 1}, fakeapi.JobOptions{})
	fake.Await(t, "the first job done", func() bool { return fake.Job(first).Status == "succeeded" })
	second := fake.Enqueue("sleep", map[string]any{"ms": 1}, fakeapi.JobOptions{})
	fake.Await(t, "the second job done", func() bool { return fake.Job(second).Status == "succeeded" })
	for id, want := range map[string][4]string{
		first:  {"1111111111111111111111111111111111111111", "main", "First change", "2026-11-24T15:00:00+01:00"},
		second: {"2222222222222222222222222222222222222222", "main", "Second change", "2026-11-25T09:30:00Z"},
	} {
		run := fake.Run(id)
		got := [4]string{}
		for i, key := range []string{"gitCommit", "gitBranch", "gitCommitMessage", "gitCommitTime"} {
			got[i], _ = run[key].(string)
		}
		if got != want {
			t.Errorf("job %s: commit fields %q, want %q", id, got, want)
		}
	}
	if code := a.stop(t); code != ExitOK {
		t.Fatalf("exit code %d", code)
	}
}

func TestALostLeaseStopsTheJobAndDropsItsResult(t *testing.T) {
	fake := fakeapi.Start(t)
	dir := t.TempDir()
	a := start(t, testConfig(t, fake, dir))
	lost := fake.Enqueue("sleep", map[string]any{"ms": 86400000}, fakeapi.JobOptions{LeaseSeconds: 0.15})
	fake.Await(t, "a lease renewal", func() bool { return len(fake.Calls("/jobs/"+lost+"/lease")) > 0 })
	fake.StealLease(lost)
	// The agent gives up the job and takes the next one.
	next := fake.Enqueue("sleep", map[string]any{"ms": 1}, fakeapi.JobOptions{})
	fake.Await(t, "the next job done", func() bool { return fake.Job(next).Status == "succeeded" })
	if n := len(fake.Calls("/jobs/"+lost+"/complete")) + len(fake.Calls("/jobs/"+lost+"/fail")) + len(fake.Calls("/jobs/"+lost+"/release")); n != 0 {
		t.Errorf("%d reports about the lost job, want none", n)
	}
	fake.Await(t, "the buffer emptied", func() bool { return len(bufferFiles(t, dir)) == 0 })
	a.stop(t)
}

func TestCancelThroughTheHeartbeatAcknowledgesWithCancelled(t *testing.T) {
	fake := fakeapi.Start(t)
	a := start(t, testConfig(t, fake, t.TempDir()))
	id := fake.Enqueue("sleep", map[string]any{"ms": 86400000}, fakeapi.JobOptions{LeaseSeconds: 3600})
	fake.Await(t, "the job leased", func() bool { return fake.Job(id).Status == "leased" })
	fake.Cancel(id)
	fake.Await(t, "the cancel acknowledged", func() bool { return fake.Failure(id) != nil })
	if f := fake.Failure(id); f["cancelled"] != true || f["retryable"] != false {
		t.Errorf("fail body %v", f)
	}
	if n := len(fake.Calls("/jobs/" + id + "/lease")); n != 0 {
		t.Errorf("%d lease renewals: the cancel should have come through the heartbeat", n)
	}
	a.stop(t)
}

func TestCancelThroughTheLeaseAcknowledgesWithCancelled(t *testing.T) {
	fake := fakeapi.Start(t)
	fake.SetHeartbeatCancels(false)
	a := start(t, testConfig(t, fake, t.TempDir()))
	id := fake.Enqueue("sleep", map[string]any{"ms": 86400000}, fakeapi.JobOptions{LeaseSeconds: 0.15})
	fake.Await(t, "the job leased", func() bool { return fake.Job(id).Status == "leased" })
	fake.Cancel(id)
	fake.Await(t, "the cancel acknowledged", func() bool { return fake.Failure(id) != nil })
	if f := fake.Failure(id); f["cancelled"] != true {
		t.Errorf("fail body %v", f)
	}
	a.stop(t)
}

func TestAResultSurvivesAnOutageAndARestart(t *testing.T) {
	for name, mode := range map[string]fakeapi.Mode{"503": fakeapi.Unavailable, "hang-up": fakeapi.HangUp} {
		t.Run(name, func(t *testing.T) {
			fake := fakeapi.Start(t)
			dir := t.TempDir()
			cfg := testConfig(t, fake, dir)
			fake.SetPathMode("/complete", mode)
			first := start(t, cfg)
			id := fake.Enqueue("sleep", map[string]any{"ms": 1}, fakeapi.JobOptions{})
			fake.Await(t, "complete tried three times", func() bool { return len(fake.Calls("/jobs/"+id+"/complete")) >= 3 })
			if files := bufferFiles(t, dir); len(files) != 1 || files[0] != id+".json" {
				t.Fatalf("buffer holds %v, want the job's report", files)
			}
			if code := first.stop(t); code != ExitOK {
				t.Fatalf("exit code %d", code)
			}
			if files := bufferFiles(t, dir); len(files) != 1 {
				t.Fatalf("after the stop the buffer holds %v", files)
			}

			// The server is back; a new process on the same files delivers the result once.
			fake.SetPathMode("/complete", fakeapi.Up)
			cfg.EnrollmentToken = ""
			second := start(t, cfg)
			fake.Await(t, "the buffered result delivered", func() bool { return fake.Job(id).Status == "succeeded" })
			fake.Await(t, "the buffer emptied", func() bool { return len(bufferFiles(t, dir)) == 0 })
			accepted := 0
			for _, c := range fake.Calls("/jobs/" + id + "/complete") {
				if c.Status == 201 || c.Status == 200 {
					accepted++
				}
			}
			if accepted != 1 {
				t.Errorf("complete accepted %d times, want 1", accepted)
			}
			if fake.Run(id) == nil {
				t.Error("no run stored")
			}
			second.stop(t)
		})
	}
}

func TestUnauthorizedStopsTheAgentWith78(t *testing.T) {
	fake := fakeapi.Start(t)
	a := start(t, testConfig(t, fake, t.TempDir()))
	fake.Await(t, "a heartbeat", func() bool { return heartbeats(fake) > 0 })
	fake.RevokeAll()
	if code := a.exit(t); code != ExitConfig {
		t.Fatalf("exit code %d, want 78", code)
	}
}

func TestBadSettingsFailTheJobForGoodNamingTheField(t *testing.T) {
	fake := fakeapi.Start(t)
	a := start(t, testConfig(t, fake, t.TempDir()))
	id := fake.Enqueue("sleep", map[string]any{"ms": "long"}, fakeapi.JobOptions{})
	fake.Await(t, "the job failed", func() bool { return fake.Failure(id) != nil })
	f := fake.Failure(id)
	if f["retryable"] != false || f["cancelled"] != false || !strings.Contains(f["error"].(string), "settings.ms") || !strings.Contains(f["error"].(string), `workload "sleep"`) {
		t.Errorf("fail body %v", f)
	}
	a.stop(t)
}

func TestAFailingWorkloadFailsRetryablyWithItsLogTail(t *testing.T) {
	fake := fakeapi.Start(t)
	a := start(t, testConfig(t, fake, t.TempDir()))
	id := fake.Enqueue("sleep", map[string]any{"ms": 0, "fail": true}, fakeapi.JobOptions{})
	unknown := fake.Enqueue("gzip-nope", nil, fakeapi.JobOptions{})
	fake.Await(t, "both jobs failed", func() bool { return fake.Failure(id) != nil && fake.Failure(unknown) != nil })
	if f := fake.Failure(id); f["retryable"] != true || !strings.Contains(f["logTail"].(string), "sleeping 0 ms") || !strings.Contains(f["error"].(string), "fail: true") {
		t.Errorf("fail body %v", f)
	}
	if f := fake.Failure(unknown); f["retryable"] != false || !strings.Contains(f["error"].(string), `no workload "gzip-nope"`) {
		t.Errorf("fail body of the unknown workload %v", f)
	}
	a.stop(t)
}

func TestAJobAskingForNoneOfTheRecordedMetricsFails(t *testing.T) {
	fake := fakeapi.Start(t)
	a := start(t, testConfig(t, fake, t.TempDir()))
	id := fake.Enqueue("sleep", map[string]any{"ms": 0}, fakeapi.JobOptions{Metrics: []map[string]any{{"key": "compress_time", "unit": "us"}}})
	fake.Await(t, "the job failed", func() bool { return fake.Failure(id) != nil })
	if f := fake.Failure(id); f["retryable"] != false || !strings.Contains(f["error"].(string), "none of the experiment's metrics (compress_time); it reports slept_ms (ms)") {
		t.Errorf("fail body %v", f)
	}
	a.stop(t)
}

func TestStoppingMidJobReleasesIt(t *testing.T) {
	fake := fakeapi.Start(t)
	dir := t.TempDir()
	a := start(t, testConfig(t, fake, dir))
	id := fake.Enqueue("sleep", map[string]any{"ms": 86400000}, fakeapi.JobOptions{})
	fake.AwaitRunning(t, id)
	if code := a.stop(t); code != ExitOK {
		t.Fatalf("exit code %d", code)
	}
	if n := fake.Releases(id); n != 1 {
		t.Errorf("%d releases, want 1", n)
	}
	if fake.Failure(id) != nil || fake.Run(id) != nil {
		t.Error("a stopped job was reported as failed or completed")
	}
	if files := bufferFiles(t, dir); len(files) != 0 {
		t.Errorf("buffer holds %v", files)
	}
}

func TestStoppingLetsAJobThatEndsWithinTheGraceComplete(t *testing.T) {
	fake := fakeapi.Start(t)
	cfg := testConfig(t, fake, t.TempDir())
	cfg.ShutdownGrace = time.Minute
	a := start(t, cfg)
	id := fake.Enqueue("sleep", map[string]any{"ms": 800}, fakeapi.JobOptions{})
	fake.AwaitRunning(t, id)
	if code := a.stop(t); code != ExitOK {
		t.Fatalf("exit code %d", code)
	}
	if fake.Job(id).Status != "succeeded" || fake.Releases(id) != 0 {
		t.Errorf("job %+v, releases %d", fake.Job(id), fake.Releases(id))
	}
}

func TestTheServersStopEndsTheAgent(t *testing.T) {
	fake := fakeapi.Start(t)
	a := start(t, testConfig(t, fake, t.TempDir()))
	fake.AskToStop()
	if code := a.exit(t); code != ExitOK {
		t.Fatalf("exit code %d, want 0", code)
	}
}
