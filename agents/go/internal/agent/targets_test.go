//go:build unix

package agent

import (
	"fmt"
	"net"
	"testing"

	"github.com/versus/agents/go/internal/fakeapi"
	"github.com/versus/agents/go/internal/workload/targets/targetstest"
)

func TestMain(m *testing.M) {
	holdMachineLockIfAsked()
	targetstest.Main(m)
}

// A job whose http settings name targets starts them as `versus-agent run` does: the load and a
// probe reach the started target, the run says so, and the target is gone when the job is done.
func TestAJobStartsItsTargetsAndStopsThem(t *testing.T) {
	addr := targetstest.FreeAddr(t)
	fake := fakeapi.Start(t)
	a := start(t, withHTTP(testConfig(t, fake, t.TempDir())))
	id := fake.Enqueue("http", map[string]any{
		"url": "http://" + addr + "/products", "duration": 1, "connections": 2,
		"targets": []map[string]any{{"name": "app-1", "addr": addr, "args": []string{"--products-delay", "1ms"}}},
	}, fakeapi.JobOptions{Probes: []map[string]any{{"name": "app-1", "kind": "prometheus", "url": "http://" + addr + "/metrics", "presets": []string{"process"}, "intervalSeconds": 0.2}}})
	fake.Await(t, "the job done", func() bool { return fake.Job(id).Status == "succeeded" || fake.Failure(id) != nil })
	if f := fake.Failure(id); f != nil {
		t.Fatalf("the job failed: %v", f)
	}
	run := fake.Run(id)
	env := run["environment"].(map[string]any)
	if got := fmt.Sprint(env["targets"]); got != fmt.Sprintf("[map[addr:%s args:[--products-delay 1ms] name:app-1]]", addr) {
		t.Errorf("environment targets %s", got)
	}
	if codes := env["http"].(map[string]any)["statusCodes"].(map[string]any); len(codes) != 1 || codes["200"].(float64) == 0 {
		t.Errorf("status codes %v, want the target's answers, all 200", codes)
	}
	found := false
	for _, m := range run["metrics"].([]any) {
		found = found || m.(map[string]any)["key"] == "app-1.cpu_percent"
	}
	if !found {
		t.Errorf("no probe figures of the started target in %v", run["metrics"])
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("the target still holds %s after the job: %v", addr, err)
	}
	ln.Close()
	a.stop(t)
}
