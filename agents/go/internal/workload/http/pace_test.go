package http

import (
	"fmt"
	"strings"
	"testing"

	"github.com/versus/agents/go/internal/workload/loadgen"
	"github.com/versus/agents/go/internal/workload/workloadtest"
)

// 100,000 requests a second over one connection: no generator keeps that on loopback (one round
// trip through the kernel alone takes longer than the 10 µs between slots), so the run must say
// that the generator, not the target, set its pace.
func TestAGeneratorThatCannotKeepTheRateSaysSo(t *testing.T) {
	srv, _ := countingServer(t, nil)
	run := runHTTP(t, fmt.Sprintf(`{"url": %q, "rate": 100000, "maxConnections": 1, "requests": 2000}`, srv.URL))
	var p loadgen.Pace
	workloadtest.Environment(t, run, "generator", &p)
	if p.KeptRate || p.Slots != 2000 || p.Late == 0 || p.AtLimit == 0 || p.Cores < 1 {
		t.Fatalf("generator facts %+v: want keptRate false with late slots that waited for the one connection", p)
	}
	var said bool
	for _, w := range run.Environment["warnings"].([]string) {
		said = said || strings.HasPrefix(w, "the load generator, not the target, limited this run: ")
	}
	if !said {
		t.Fatalf("no warning that the generator limited the run: %q", run.Environment["warnings"])
	}
}

// Every open-model run says how its generator kept the rate; the closed model asks no rate.
func TestTheOpenModelRecordsItsPace(t *testing.T) {
	srv, _ := countingServer(t, nil)
	run := runHTTP(t, fmt.Sprintf(`{"url": %q, "rate": 200, "requests": 40}`, srv.URL))
	var p loadgen.Pace
	workloadtest.Environment(t, run, "generator", &p)
	if p.Slots != 40 || p.LateAfterMs != 10 || p.Cores < 1 || p.CPUPercent < 0 {
		t.Fatalf("generator facts %+v", p)
	}
	closed := runHTTP(t, fmt.Sprintf(`{"url": %q, "connections": 1, "requests": 10}`, srv.URL))
	if _, ok := closed.Environment["generator"]; ok {
		t.Fatalf("the closed model recorded a pace: %v", closed.Environment["generator"])
	}
}
