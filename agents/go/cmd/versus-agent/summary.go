package main

import (
	"fmt"
	"io"

	"github.com/versus/agents/go/internal/result"
)

// printSummary prints a run for a person: each metric's count and mean, then any warnings.
func printSummary(w io.Writer, workload string, run result.Run) {
	fmt.Fprintf(w, "%s: %s\n", workload, run.FinishedAt.Sub(run.StartedAt).Round(1e6))
	for _, m := range run.Metrics {
		switch {
		case m.Summary != nil:
			fmt.Fprintf(w, "  %-20s n=%d mean=%g %s\n", m.Key, m.Summary.N, m.Summary.Mean, m.Unit)
		case len(m.Samples) > 0:
			fmt.Fprintf(w, "  %-20s n=%d samples %s\n", m.Key, len(m.Samples), m.Unit)
		default:
			fmt.Fprintf(w, "  %-20s recorded %s\n", m.Key, m.Unit)
		}
	}
	if warnings, ok := run.Environment["warnings"].([]string); ok {
		for _, warning := range warnings {
			fmt.Fprintf(w, "warning: %s\n", warning)
		}
	}
}
