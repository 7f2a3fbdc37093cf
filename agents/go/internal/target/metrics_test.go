package target

import (
	"bytes"
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// The families the probes' process and go presets read, and the rest of what a probe of the
// target reports (docs: agents/go/README.md, Probes).
var probedFamilies = []string{
	"process_cpu_seconds_total", "process_resident_memory_bytes",
	"go_memstats_heap_inuse_bytes", "go_gc_duration_seconds", "go_goroutines", "go_threads",
}

func TestMetricsServeTheProcessAndGoCollectors(t *testing.T) {
	server := start(t)
	a := get(t, server.URL+"/metrics")
	if a.status != http.StatusOK {
		t.Fatalf("GET /metrics = %d", a.status)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(bytes.NewReader(a.body))
	if err != nil {
		t.Fatalf("/metrics is not the Prometheus text format: %v", err)
	}
	for _, name := range probedFamilies {
		if _, ok := families[name]; !ok {
			t.Errorf("/metrics has no %s", name)
		}
	}
	if heap := metricValue(t, a.body, "go_memstats_heap_inuse_bytes"); heap <= 0 {
		t.Errorf("go_memstats_heap_inuse_bytes = %v, want the heap in use", heap)
	}

	off := start(t, "--metrics=false")
	if a := get(t, off.URL+"/metrics"); a.status != http.StatusNotFound {
		t.Fatalf("--metrics=false: GET /metrics = %d, want 404", a.status)
	}
}

func TestMetricsAnswerDuringAStall(t *testing.T) {
	// A stall covering almost all of every 3 s: a request to / waits for its end, /metrics not.
	server := start(t, "--stall-every", "3s", "--stall-for", "2900ms")
	time.Sleep(150 * time.Millisecond) // into the stall window
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, server.URL+"/", nil)
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
		t.Fatal("GET / answered inside the stall window")
	}
	if a := get(t, server.URL+"/metrics"); a.status != http.StatusOK {
		t.Fatalf("GET /metrics during the stall = %d", a.status)
	}
}

// metricValue is the value of an unlabelled sample on a text exposition page (NaN: absent).
func metricValue(t *testing.T, page []byte, name string) float64 {
	t.Helper()
	for _, line := range strings.Split(string(page), "\n") {
		if value, ok := strings.CutPrefix(line, name+" "); ok {
			v, err := strconv.ParseFloat(value, 64)
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			return v
		}
	}
	t.Fatalf("no %s on the page", name)
	return 0
}

func contains(s, part string) bool { return strings.Contains(s, part) }
