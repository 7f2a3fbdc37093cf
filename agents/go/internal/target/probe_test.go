package target

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/versus/agents/go/internal/probe"
)

// What the F15 probes make of the target's /metrics: the process and go presets read every
// series they need, with no warning but the gaps of a loaded machine, while a payload load
// makes the target allocate.
func TestProbesReadTheTargetWithTheProcessAndGoPresets(t *testing.T) {
	server := start(t)
	specs, err := probe.Decode(json.RawMessage(`[{"name": "app", "kind": "prometheus", "url": "` + server.URL + `/metrics", "presets": ["process", "go"], "intervalSeconds": 0.25}]`))
	if err != nil {
		t.Fatal(err)
	}
	probes, err := probe.Open(context.Background(), specs)
	if err != nil {
		t.Fatalf("the probe could not read the target: %v", err)
	}
	defer probe.Close(probes)
	sampler := probe.StartSampler(probes)
	for end := time.Now().Add(time.Second); time.Now().Before(end); {
		get(t, server.URL+"/payload/json?size=1048576")
	}
	report := sampler.Stop()
	// An interval the probe could not read in time on a loaded machine is a gap, not what this
	// test is about; a series a preset needs and the target lacks would be any other warning.
	var warnings []string
	for _, warning := range report.Warnings {
		if !strings.HasPrefix(warning, `probe "app" did not answer for `) {
			warnings = append(warnings, warning)
		}
	}
	if len(warnings) > 0 || report.Failure != nil {
		t.Fatalf("warnings %v, failure %v", warnings, report.Failure)
	}
	var keys []string
	for _, m := range report.Metrics {
		keys = append(keys, m.Key)
		// A megabyte and a third allocated per request: the collector ran during the window.
		if m.Key == "app.gc_count" && slices.Max(append([]float64{0}, m.Samples...)) < 1 {
			data, _ := json.Marshal(m)
			t.Errorf("no collection counted under load: %s", data)
		}
	}
	for _, want := range []string{"app.cpu_percent", "app.rss", "app.heap_inuse", "app.heap_inuse_peak", "app.gc_count", "app.gc_time"} {
		if !slices.Contains(keys, want) {
			t.Errorf("the probe reported %v, without %s", keys, want)
		}
	}
}
