package builtin

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/versus/agents/go/internal/execute"
	"github.com/versus/agents/go/internal/result/resulttest"
)

// Every built-in workload but http (whose real run is checked in its own package, with the
// facts behind each value) sends summaries that describe their values: a real run of each.
func TestTheBuiltInWorkloadsSummariesDescribeTheirValues(t *testing.T) {
	settings := map[string]string{
		"gzip":  `{"sizeBytes": 4096, "iterations": 20, "warmupIterations": 2}`,
		"exec":  `{"command": ["true"], "runs": 3, "warmupRuns": 0}`,
		"sleep": `{"ms": 5}`,
	}
	registry := Registry()
	for name, raw := range settings {
		w, ok := registry.Get(name)
		if !ok {
			t.Fatalf("no workload %q", name)
		}
		outcome := execute.Run(context.Background(), w, json.RawMessage(raw), nil, nil)
		if outcome.Err != nil {
			t.Fatalf("%s: %v", name, outcome.Err)
		}
		for _, m := range outcome.Run.Metrics {
			if m.Summary != nil {
				if problems := resulttest.Contradictions(*m.Summary); len(problems) > 0 {
					t.Errorf("%s %s: summary %+v: %v", name, m.Key, *m.Summary, problems)
				}
			}
			if m.Summary == nil && m.Value == nil && len(m.Samples) == 0 && m.SamplesBase64 == "" && m.Histogram == "" && m.TimeSeries == nil {
				t.Errorf("%s %s: no data", name, m.Key)
			}
		}
	}
}
