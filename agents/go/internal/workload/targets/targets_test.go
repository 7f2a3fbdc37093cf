//go:build unix

package targets_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/versus/agents/go/internal/execute"
	"github.com/versus/agents/go/internal/probe"
	"github.com/versus/agents/go/internal/result"
	"github.com/versus/agents/go/internal/workload"
	grpcworkload "github.com/versus/agents/go/internal/workload/grpc"
	httpworkload "github.com/versus/agents/go/internal/workload/http"
	s3workload "github.com/versus/agents/go/internal/workload/s3"
	"github.com/versus/agents/go/internal/workload/targets"
	"github.com/versus/agents/go/internal/workload/targets/targetstest"
	"github.com/versus/agents/go/internal/workload/workloadtest"
)

func TestMain(m *testing.M) { targetstest.Main(m) }

// run is one run through the agent's execute path, with the pids of the targets it started
// (read from its log, as a person would) and its log.
type run struct {
	outcome execute.Outcome
	pids    map[string]int
	log     []string
}

var startedLine = regexp.MustCompile(`^target "([^"]+)": pid (\d+), listening`)

// runWith runs w with the settings and probes; onStarted sees each target's pid as it starts.
func runWith(ctx context.Context, t *testing.T, w workload.Workload, settings string, probes string, onStarted func(name string, pid int)) run {
	t.Helper()
	specs, err := probe.Decode(json.RawMessage(probes))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	r := run{pids: map[string]int{}}
	r.outcome = execute.RunProbed(ctx, w, json.RawMessage(settings), specs, nil, func(line string) {
		mu.Lock()
		r.log = append(r.log, line)
		m := startedLine.FindStringSubmatch(line)
		if m != nil {
			pid, _ := strconv.Atoi(m[2])
			r.pids[m[1]] = pid
		}
		mu.Unlock()
		if m != nil && onStarted != nil {
			pid, _ := strconv.Atoi(m[2])
			onStarted(m[1], pid)
		}
	})
	return r
}

// requireGone checks that the process has been waited for (no such process) and its address
// can be listened on again.
func requireGone(t *testing.T, name string, pid int, addr string) {
	t.Helper()
	if pid == 0 {
		t.Fatalf("target %q: no pid in the run's log", name)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("target %q (pid %d) is still there after the run (kill -0: %v)", name, pid, err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Errorf("target %q: %s is still taken after the run: %v", name, addr, err)
		return
	}
	ln.Close()
}

// An http run against a target the agent started with --cache: the load reaches it (cache hits
// counted by a probe of the target's /metrics, with its CPU), the run's environment and warnings
// name the target, and after the run the process is gone.
func TestHTTPRunAgainstAStartedTargetWithAProbe(t *testing.T) {
	addr := targetstest.FreeAddr(t)
	settings := fmt.Sprintf(`{"url": "http://%s/products", "connections": 2, "duration": 1.5,
		"targets": [{"name": "app-1", "addr": %q, "args": ["--cache", "--products-delay", "20ms"]}]}`, addr, addr)
	probes := fmt.Sprintf(`[{"name": "app-1", "kind": "prometheus", "url": "http://%s/metrics", "presets": ["process"], "intervalSeconds": 0.25,
		"series": [{"key": "cache_hits", "metric": "versus_target_products_cache_hits_total", "aggregation": "delta", "unit": "count", "direction": "higher_is_better"}]}]`, addr)
	r := runWith(context.Background(), t, httpworkload.Workload{}, settings, probes, nil)
	if r.outcome.Err != nil {
		t.Fatalf("run: %v\n%s", r.outcome.Err, strings.Join(r.log, "\n"))
	}
	got := r.outcome.Run
	var facts httpworkload.Facts
	workloadtest.Environment(t, got, "http", &facts)
	if facts.StatusCodes["200"] == 0 || facts.Requests != facts.StatusCodes["200"] {
		t.Fatalf("http facts %+v: want every request answered 200 by the target", facts)
	}
	if hits := sum(workloadtest.Metric(t, got, "app-1.cache_hits")); hits < float64(facts.Requests)/2 {
		t.Errorf("the target counted %v cache hits of %d requests under --cache", hits, facts.Requests)
	}
	if cpu := workloadtest.Metric(t, got, "app-1.cpu_percent"); len(cpu.Samples) == 0 {
		t.Errorf("no CPU figures of the started target: %+v", cpu)
	}
	var recorded []targets.Spec
	workloadtest.Environment(t, got, "targets", &recorded)
	if len(recorded) != 1 || recorded[0].Name != "app-1" || recorded[0].Addr != addr || !slices.Equal(recorded[0].Args, []string{"--cache", "--products-delay", "20ms"}) {
		t.Errorf("environment targets %+v", recorded)
	}
	var warnings []string
	workloadtest.Environment(t, got, "warnings", &warnings)
	if !slices.ContainsFunc(warnings, func(w string) bool { return strings.Contains(w, "(app-1)") && strings.Contains(w, "share its CPU") }) {
		t.Errorf("warnings %q do not say the target shares the agent's machine", warnings)
	}
	requireGone(t, "app-1", r.pids["app-1"], addr)
}

func sum(m result.Metric) float64 {
	total := 0.0
	for _, v := range m.Samples {
		total += v
	}
	return total
}

// A started target answers /products from its cache after the first request (X-Cache: hit),
// and a gRPC address serves the payload service the grpc workload calls.
func TestStartedTargetsServeHTTPAndGRPC(t *testing.T) {
	addrs := targetstest.FreeAddrs(t, 2)
	addr, grpcAddr := addrs[0], addrs[1]
	running, err := targets.Start(context.Background(), []targets.Spec{{Name: "app-1", Addr: addr, GRPCAddr: grpcAddr, Args: []string{"--cache", "--products-delay", "1ms"}}}, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer running.Stop()
	var cache []string
	for range 2 {
		resp, err := http.Get("http://" + addr + "/products?page=2")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		cache = append(cache, resp.Header.Get("X-Cache"))
	}
	if !slices.Equal(cache, []string{"miss", "hit"}) {
		t.Errorf("X-Cache %v, want miss then hit under --cache", cache)
	}
	settings := fmt.Sprintf(`{"target": %q, "method": "versus.target.Payloads/Unary", "data": "{\"size\": 1000}", "calls": 3, "callers": 1}`, grpcAddr)
	run := workloadtest.Run(t, grpcworkload.Workload{}, settings)
	var facts grpcworkload.Facts
	workloadtest.Environment(t, run, "grpc", &facts)
	if facts.StatusCodes["OK"] != 3 {
		t.Errorf("grpc facts %+v", facts)
	}
}

// A grpc run with its own targets: the target setting names the started target's grpcAddr.
func TestGRPCRunStartsItsTargets(t *testing.T) {
	addrs := targetstest.FreeAddrs(t, 2)
	addr, grpcAddr := addrs[0], addrs[1]
	settings := fmt.Sprintf(`{"target": %q, "method": "versus.target.Payloads/Stream", "data": "{\"size\": 100000}", "calls": 5, "callers": 1,
		"targets": [{"name": "grpc-1", "addr": %q, "grpcAddr": %q}]}`, grpcAddr, addr, grpcAddr)
	r := runWith(context.Background(), t, grpcworkload.Workload{}, settings, "", nil)
	if r.outcome.Err != nil {
		t.Fatalf("run: %v\n%s", r.outcome.Err, strings.Join(r.log, "\n"))
	}
	var facts grpcworkload.Facts
	workloadtest.Environment(t, r.outcome.Run, "grpc", &facts)
	if facts.StatusCodes["OK"] != 5 {
		t.Errorf("grpc facts %+v", facts)
	}
	requireGone(t, "grpc-1", r.pids["grpc-1"], grpcAddr)
}

// A target killed during the run fails it, naming the target and how it ended; the other
// target is stopped too.
func TestATargetThatDiesFailsTheRun(t *testing.T) {
	addrs := targetstest.FreeAddrs(t, 2)
	addr1, addr2 := addrs[0], addrs[1]
	settings := fmt.Sprintf(`{"url": "http://%s/", "rate": 50, "duration": 60,
		"targets": [{"name": "app-1", "addr": %q}, {"name": "app-2", "addr": %q}]}`, addr1, addr1, addr2)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second) // a guard: the kill ends the run long before
	defer cancel()
	var app1 int
	r := runWith(ctx, t, httpworkload.Workload{}, settings, "", func(name string, pid int) {
		switch name {
		case "app-1":
			app1 = pid
		case "app-2": // both are up and the load is about to begin: kill app-1 once it has
			go func() {
				time.Sleep(300 * time.Millisecond)
				_ = syscall.Kill(app1, syscall.SIGKILL)
			}()
		}
	})
	if ctx.Err() != nil {
		t.Fatal("the run went on after its target was killed")
	}
	want := `target "app-1" exited during the run (signal: killed)`
	if r.outcome.Err == nil || r.outcome.Err.Error() != want || errors.Is(r.outcome.Err, execute.ErrStopped) {
		t.Fatalf("run error %v, want %q", r.outcome.Err, want)
	}
	requireGone(t, "app-1", r.pids["app-1"], addr1)
	requireGone(t, "app-2", r.pids["app-2"], addr2)
}

// A cancelled run (the job cancelled, the agent stopping) stops its targets too.
func TestACancelledRunStopsItsTargets(t *testing.T) {
	addr := targetstest.FreeAddr(t)
	settings := fmt.Sprintf(`{"url": "http://%s/", "rate": 50, "duration": 60, "targets": [{"name": "app-1", "addr": %q}]}`, addr, addr)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := runWith(ctx, t, httpworkload.Workload{}, settings, "", func(string, int) {
		go func() {
			time.Sleep(300 * time.Millisecond)
			cancel()
		}()
	})
	if !errors.Is(r.outcome.Err, execute.ErrStopped) {
		t.Fatalf("run error %v, want stopped", r.outcome.Err)
	}
	requireGone(t, "app-1", r.pids["app-1"], addr)
}

// A port already taken fails the run before any load, naming the target and the address; the
// targets started before it are stopped.
func TestAPortInUseNamesTheTargetAndTheAddress(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	first := targetstest.FreeAddr(t)
	settings := fmt.Sprintf(`{"url": "http://%s/", "requests": 1,
		"targets": [{"name": "app-1", "addr": %q}, {"name": "app-2", "addr": %q}]}`, first, first, taken.Addr())
	r := runWith(context.Background(), t, httpworkload.Workload{}, settings, "", nil)
	want := fmt.Sprintf(`target "app-2": %s is already in use`, taken.Addr())
	if r.outcome.Err == nil || !strings.Contains(r.outcome.Err.Error(), want) {
		t.Fatalf("run error %v, want %q", r.outcome.Err, want)
	}
	requireGone(t, "app-1", r.pids["app-1"], first)
}

// A target that exits before it listens fails the start with what it said (here a flag that
// Prepare would have refused).
func TestATargetThatExitsBeforeListeningSaysWhy(t *testing.T) {
	addr := targetstest.FreeAddr(t)
	_, err := targets.Start(context.Background(), []targets.Spec{{Name: "app-1", Addr: addr, Args: []string{"--nope"}}}, t.Logf)
	want := fmt.Sprintf(`target "app-1" (http://%s/) exited before it listened (exit status 2): `, addr)
	if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "flag provided but not defined: -nope") {
		t.Fatalf("error %v, want %q and the target's stderr", err, want)
	}
}

// Bad targets are settings errors naming the field, before anything starts.
func TestBadTargetsAreSettingsErrors(t *testing.T) {
	one := func(target string) string {
		return `{"url": "http://127.0.0.1:47811/", "targets": [` + target + `]}`
	}
	workloadtest.RequireRefused(t, httpworkload.Workload{}, []workloadtest.SettingsCase{
		{one(`{"name": "app-1", "addr": "127.0.0.1:47811", "args": ["--nope"]}`), "settings.targets.0.args:", "the target refused them: flag provided but not defined: -nope"},
		{one(`{"name": "app-1", "addr": "127.0.0.1:47811", "args": ["--products-delay", "-1s"]}`), "settings.targets.0.args:", "must not be negative"},
		{one(`{"name": "app-1", "addr": "127.0.0.1:47811", "args": ["--addr", "127.0.0.1:1"]}`), "settings.targets.0.args:", "--addr is not for args: give the address as addr"},
		{one(`{"name": "app-1", "addr": "127.0.0.1:47811", "args": ["--grpc-addr=127.0.0.1:1"]}`), "settings.targets.0.args:", "give the address as grpcAddr"},
		{one(`{"name": "app-1", "addr": "127.0.0.1:47811", "args": ["-print-proto"]}`), "settings.targets.0.args:", "prints the .proto"},
		{one(`{"name": "app-1", "addr": "0.0.0.0:47811"}`), "settings.targets.0.addr:", "on loopback"},
		{one(`{"name": "app-1", "addr": "127.0.0.1:0"}`), "settings.targets.0.addr:", "cannot be 0"},
		{one(`{"name": "app-1", "addr": "127.0.0.1"}`), "settings.targets.0.addr:", "must be host:port"},
		{one(`{"name": "app-1", "addr": "127.0.0.1:47811", "grpcAddr": "localhost:47811"}`), "settings.targets.0.grpcAddr:", "is also targets.0.addr"},
		{one(`{"name": "app-1", "addr": "127.0.0.1:47811"}, {"name": "app-1", "addr": "127.0.0.1:47812"}`), "settings.targets.1.name:", "also the name of targets.0"},
		{one(`{"name": "App", "addr": "127.0.0.1:47811"}`), "settings.targets.0.name:", "does not match pattern"},
		{one(`{"addr": "127.0.0.1:47811"}`), "settings.targets.0:", "missing property 'name'"},
		{`{"targets": [{"name": "app-1", "addr": "127.0.0.1:47811"}]}`, "settings.url:", "is required with targets"},
		{`{"selfTarget": {}, "targets": [{"name": "app-1", "addr": "127.0.0.1:47811"}]}`, "settings.selfTarget:", "cannot be given with targets"},
	})
	workloadtest.RequireRefused(t, grpcworkload.Workload{}, []workloadtest.SettingsCase{
		{`{"target": "127.0.0.1:47812", "method": "a.B/C", "targets": [{"name": "app-1", "addr": "127.0.0.1:47811", "args": ["--cache-ttl", "soon"]}]}`, "settings.targets.0.args:", "the target refused them"},
		{`{"method": "a.B/C", "targets": [{"name": "app-1", "addr": "127.0.0.1:47811"}]}`, "settings:", "missing property 'target'"},
	})
}

// The two workloads take the same shape of target (one package checks and starts them both).
func TestHTTPAndGRPCDescribeTargetsAlike(t *testing.T) {
	shape := func(w workload.Workload) string {
		var schema struct {
			Properties struct {
				Targets struct {
					MaxItems int             `json:"maxItems"`
					Items    json.RawMessage `json:"items"`
				} `json:"targets"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(w.Info().SettingsSchema, &schema); err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("%d %s", schema.Properties.Targets.MaxItems, compact(t, schema.Properties.Targets.Items))
	}
	if h, g := shape(httpworkload.Workload{}), shape(grpcworkload.Workload{}); h != g || !strings.HasPrefix(h, "8 {") {
		t.Fatalf("http's targets %s\ngrpc's targets %s", h, g)
	}
	if h, s := shape(httpworkload.Workload{}), shape(s3workload.Workload{}); h != s {
		t.Fatalf("http's targets %s\ns3's targets %s", h, s)
	}
}

func compact(t *testing.T, raw json.RawMessage) string {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(v)
	return string(out)
}

// An agent with the http, grpc or s3 workload advertises that it starts targets, so the server
// can give a job with targets only to such an agent (another agent's http may not take the setting).
func TestLoadWorkloadsAdvertiseTargets(t *testing.T) {
	for _, w := range []workload.Workload{httpworkload.Workload{}, grpcworkload.Workload{}, s3workload.Workload{}} {
		if caps := workload.NewRegistry(w).Capabilities(); !slices.Contains(caps, targets.Capability) {
			t.Errorf("%s: capabilities %v lack %q", w.Info().Name, caps, targets.Capability)
		}
	}
}
