package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/versus/agents/go/internal/api"
	"github.com/versus/agents/go/internal/fakeapi"
	"github.com/versus/agents/go/internal/workload"
	httpworkload "github.com/versus/agents/go/internal/workload/http"
	"github.com/versus/agents/go/internal/workload/sleep"
)

// metricsServer is a client_golang endpoint with the process collector (this test process).
func metricsServer(t *testing.T) *httptest.Server {
	registry := prometheus.NewRegistry()
	registry.MustRegister(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	srv := httptest.NewServer(promhttp.HandlerFor(registry, promhttp.HandlerOpts{}))
	t.Cleanup(srv.Close)
	return srv
}

func withHTTP(cfg Config) Config {
	cfg.Registry = workload.NewRegistry(sleep.New(), httpworkload.Workload{})
	return cfg
}

// A probe that does not answer when the job starts fails the job, not retryably, with the probe's
// name and error, before the workload sends a single request to its target.
func TestAProbeUnreachableAtStartFailsTheJobBeforeAnyLoad(t *testing.T) {
	var requests atomic.Int64
	app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { requests.Add(1) }))
	defer app.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() + "/metrics"
	ln.Close()
	fake := fakeapi.Start(t)
	a := start(t, withHTTP(testConfig(t, fake, t.TempDir())))
	id := fake.Enqueue("http", map[string]any{"url": app.URL, "requests": 50, "connections": 2}, fakeapi.JobOptions{
		Probes: []map[string]any{{"name": "app-1", "kind": "prometheus", "url": closed, "presets": []string{"process"}}},
	})
	fake.Await(t, "the job failed", func() bool { return fake.Failure(id) != nil })
	f := fake.Failure(id)
	if want := fmt.Sprintf(`probe "app-1": GET %s: connection refused`, closed); f["error"] != want || f["retryable"] != false {
		t.Errorf("fail body %v, want the error %q, not retryable", f, want)
	}
	if n := requests.Load(); n != 0 {
		t.Errorf("the target got %d requests from a job whose probe failed at start", n)
	}
	a.stop(t)
}

// A job with a probe completes with the probe's metrics among the run's, one value per interval;
// with a list of metrics, the job gets the probe metrics the experiment asks for.
func TestAProbedJobCompletesWithTheProbesMetrics(t *testing.T) {
	metrics := metricsServer(t)
	fake := fakeapi.Start(t)
	a := start(t, testConfig(t, fake, t.TempDir()))
	probes := []map[string]any{{"name": "app-1", "kind": "prometheus", "url": metrics.URL + "/metrics", "intervalSeconds": 0.2}}
	enqueued := time.Now()
	all := fake.Enqueue("sleep", map[string]any{"ms": 1000}, fakeapi.JobOptions{Probes: probes})
	asked := fake.Enqueue("sleep", map[string]any{"ms": 350}, fakeapi.JobOptions{Probes: probes, Metrics: []map[string]any{
		{"key": "slept_ms", "unit": "ms"}, {"key": "app-1.rss_peak", "unit": "MiB", "direction": "lower_is_better", "aggregation": "max"}}})
	fake.Await(t, "both jobs done", func() bool { return fake.Job(all).Status == "succeeded" && fake.Job(asked).Status == "succeeded" })
	done := time.Since(enqueued)
	byKey := map[string]map[string]any{}
	for _, m := range fake.Run(all)["metrics"].([]any) {
		byKey[m.(map[string]any)["key"].(string)] = m.(map[string]any)
	}
	for _, key := range []string{"slept_ms", "app-1.cpu_percent", "app-1.cpu_percent_max", "app-1.rss", "app-1.rss_peak"} {
		if byKey[key] == nil {
			t.Fatalf("no %s in %v", key, byKey)
		}
	}
	cpu := byKey["app-1.cpu_percent"]
	series := cpu["timeSeries"].(map[string]any)
	// One value per whole interval of the window (intervalMs: none missed). The window holds the
	// run (its startedAt to finishedAt: the 1 s sleep) and lies inside what the test waited from
	// enqueueing to both jobs done, so the count lies between those spans' whole intervals. A
	// count, not a time: on a loaded machine the window is longer and has more intervals.
	run := fake.Run(all)
	ran := timeOf(t, run["finishedAt"]).Sub(timeOf(t, run["startedAt"]))
	if n := len(cpu["samples"].([]any)); n < int(ran/(200*time.Millisecond)) || n < 5 || n > int(done/(200*time.Millisecond)) {
		t.Errorf("%d cpu_percent values for a run of %s at 0.2 s, all done in %s", n, ran, done)
	}
	if n := len(cpu["samples"].([]any)); cpu["unit"] != "%" || cpu["aggregation"] != "mean" || series["intervalMs"] != 200.0 || len(series["values"].([]any)) != n {
		t.Errorf("cpu_percent %v", cpu)
	}
	var keys []string
	for _, m := range fake.Run(asked)["metrics"].([]any) {
		m := m.(map[string]any)
		keys = append(keys, m["key"].(string))
		if m["key"] == "app-1.rss_peak" && (m["unit"] != "MiB" || m["samples"].([]any)[0].(float64) > 1<<14) {
			t.Errorf("rss_peak in the experiment's MiB: %v", m)
		}
	}
	if !slices.Equal(keys, []string{"slept_ms", "app-1.rss_peak"}) {
		t.Errorf("the job asked for slept_ms and app-1.rss_peak, got %v", keys)
	}
	a.stop(t)
}

// A required probe whose endpoint goes away mid-run fails the job with the gap's warning.
func TestARequiredProbeThatStopsAnsweringFailsTheJob(t *testing.T) {
	metrics := metricsServer(t)
	fake := fakeapi.Start(t)
	a := start(t, testConfig(t, fake, t.TempDir()))
	id := fake.Enqueue("sleep", map[string]any{"ms": 900}, fakeapi.JobOptions{Probes: []map[string]any{
		{"name": "app-1", "kind": "prometheus", "url": metrics.URL + "/metrics", "intervalSeconds": 0.1, "required": true}}})
	fake.AwaitRunning(t, id)
	time.Sleep(300 * time.Millisecond)
	metrics.CloseClientConnections()
	metrics.Close()
	fake.Await(t, "the job failed", func() bool { return fake.Failure(id) != nil })
	f := fake.Failure(id)
	if !regexp.MustCompile(`^probe "app-1" did not answer for \d+ of \d+ intervals \(.+ s – .+ s\): GET .+: connection refused$`).MatchString(f["error"].(string)) {
		t.Errorf("fail body %v", f)
	}
	// The probe answered at the start, so the target can answer: another attempt may get a whole
	// window (docs/agent-protocol.md, Probes). The JVM agent says the same.
	if f["retryable"] != true {
		t.Errorf("a required probe's gap should fail the job retryable: %v", f)
	}
	a.stop(t)
}

// Without required, the same gap is a warning on the run (run.warnings) and the job completes.
// (Through executeJob: the fake checks bodies against docs/openapi.json, whose run has no
// warnings until the server's side of probes lands.)
func TestAProbeThatStopsAnsweringIsAWarningOnTheRun(t *testing.T) {
	metrics := metricsServer(t)
	job := &api.Job{}
	claim := fmt.Sprintf(`{"id": "j1", "workload": {"name": "sleep", "settings": {"ms": 900}}, "metrics": [],
		"probes": [{"name": "app-1", "kind": "prometheus", "url": %q, "intervalSeconds": 0.1}]}`, metrics.URL+"/metrics")
	if err := json.Unmarshal([]byte(claim), job); err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(400 * time.Millisecond)
		metrics.CloseClientConnections()
		metrics.Close()
	}()
	out := executeJob(context.Background(), job, workload.NewRegistry(sleep.New()), identity{Name: "t"}, nil)
	if out.kind != outcomeComplete {
		t.Fatalf("outcome %+v", out)
	}
	if len(out.run.Warnings) != 1 || !strings.HasPrefix(out.run.Warnings[0], `probe "app-1" did not answer for `) {
		t.Errorf("warnings %q", out.run.Warnings)
	}
	doc, err := json.Marshal(out.run)
	if err != nil || !strings.Contains(string(doc), `"warnings":["probe \"app-1\" did not answer for `) {
		t.Errorf("the run document carries run.warnings: %s", doc)
	}
	bad := &api.Job{}
	if err := json.Unmarshal([]byte(`{"id": "j2", "workload": {"name": "sleep"}, "probes": [{"name": "App", "kind": "prometheus", "url": "http://x/"}]}`), bad); err != nil {
		t.Fatal(err)
	}
	out = executeJob(context.Background(), bad, workload.NewRegistry(sleep.New()), identity{Name: "t"}, nil)
	if out.kind != outcomeFail || out.retryable || !strings.HasPrefix(out.err, `bad probes: probes[0].name: "App" is not a probe name`) {
		t.Errorf("a bad probe: %+v", out)
	}
}

func timeOf(t *testing.T, v any) time.Time {
	t.Helper()
	s, _ := v.(string)
	at, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatalf("a run's time %v: %v", v, err)
	}
	return at
}
