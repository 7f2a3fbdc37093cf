package result

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// run.warnings is written when there are some, read back (a buffered report), and capped.
func TestRunWarningsRoundTripAndAreCapped(t *testing.T) {
	run := Run{StartedAt: time.Unix(0, 0).UTC(), FinishedAt: time.Unix(1, 0).UTC(), Metrics: []Metric{{Key: "a", Value: F(1)}}}
	doc, err := json.Marshal(run)
	if err != nil || strings.Contains(string(doc), "warnings") {
		t.Errorf("a run without warnings: %s %v", doc, err)
	}
	var warnings []string
	for i := 0; i < 25; i++ {
		warnings = append(warnings, fmt.Sprintf("w%d", i))
	}
	run.SetWarnings(warnings)
	if len(run.Warnings) != MaxWarnings || run.Warnings[18] != "w18" || run.Warnings[19] != "6 more warnings (in the agent's log)" {
		t.Errorf("capped warnings %q", run.Warnings)
	}
	doc, err = json.Marshal(run)
	if err != nil {
		t.Fatal(err)
	}
	var back Run
	if err := json.Unmarshal(doc, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Warnings) != MaxWarnings || back.Metrics[0].Key != "a" || !back.FinishedAt.Equal(run.FinishedAt) {
		t.Errorf("read back %+v from %s", back, doc)
	}
}
