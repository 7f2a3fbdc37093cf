package probe

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

// Micrometer 1.17 (Spring Boot Actuator) exports the JVM's CPU as process_cpu_time_ns_total and
// no resident memory. testdata/micrometer-1.17-scrape-{1,2}.txt are two pages written by a real
// PrometheusMeterRegistry (the JVM agent's MicrometerTarget test app: JvmGcMetrics,
// JvmMemoryMetrics, JvmThreadMetrics, ProcessorMetrics), the second after 300 requests of work.
func micrometerPages(t *testing.T) (first, second []byte) {
	t.Helper()
	first, err := os.ReadFile("testdata/micrometer-1.17-scrape-1.txt")
	if err != nil {
		t.Fatal(err)
	}
	second, err = os.ReadFile("testdata/micrometer-1.17-scrape-2.txt")
	if err != nil {
		t.Fatal(err)
	}
	return first, second
}

// serveMicrometer answers first to the first `firstCount` scrapes, then second.
func serveMicrometer(t *testing.T, firstCount int32) *httptest.Server {
	t.Helper()
	first, second := micrometerPages(t)
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		// What Micrometer's scrape endpoint sends.
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		page := second
		if n.Add(1) <= firstCount {
			page = first
		}
		_, _ = w.Write(page)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// The process preset reads Micrometer's CPU time in ns as CPU seconds; without a resident-memory
// series its rss metrics are left out and the run says why (the probe does not fail).
func TestTheProcessPresetReadsMicrometersCPUTimeAndLeavesOutRSS(t *testing.T) {
	srv := serveMicrometer(t, 1)
	src := newPromSource(Spec{Name: "app-1", Kind: KindPrometheus, URL: srv.URL, Presets: []string{"process", "jvm"}, IntervalSeconds: 1})
	defer src.close()
	notes, err := src.settle(context.Background())
	if err != nil {
		t.Fatalf("a Micrometer target with the process preset: %v", err)
	}
	want := `preset process: the target has no process_resident_memory_bytes series, so rss and rss_peak are not reported; a process probe reads its RSS from /proc on the target's host`
	if !slices.Equal(notes, []string{want}) {
		t.Errorf("notes %q, want %q", notes, want)
	}
	var suffixes []string
	for _, d := range src.metrics() {
		suffixes = append(suffixes, d.suffix)
	}
	if !slices.Equal(suffixes, []string{"cpu_percent", "cpu_percent_max", "heap_used", "heap_used_peak", "gc_count", "gc_time", "threads_live"}) {
		t.Errorf("metrics %v", suffixes)
	}
	// The pages say process_cpu_time_ns_total 1.19E9, then 2.31E9: CPU seconds.
	r, err := src.read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := r["process_cpu_time_ns_total"]; got != 2.31 {
		t.Errorf("CPU seconds from process_cpu_time_ns_total 2.31E9: %v (reading %v)", got, r)
	}
	if !slices.Equal(src.counters(), []string{"process_cpu_time_ns_total", "jvm_gc_pause_seconds_count", "jvm_gc_pause_seconds_sum"}) {
		t.Errorf("counters %v: a reset warning names the series the target exports", src.counters())
	}
}

// Through Open and the sampler: the note is a warning on the run, and CPU % comes from the
// increase of process_cpu_time_ns_total (1.12 CPU seconds between the pages, all in the first
// interval; none after).
func TestAMicrometerTargetsCPUPercentAndItsWarning(t *testing.T) {
	srv := serveMicrometer(t, 2) // Open's reading and the baseline
	probes, err := Open(context.Background(), []Spec{{Name: "app-1", Kind: KindPrometheus, URL: srv.URL, Presets: []string{"process"}, IntervalSeconds: 0.1}})
	if err != nil {
		t.Fatal(err)
	}
	defer Close(probes)
	s := StartSampler(probes)
	time.Sleep(350 * time.Millisecond)
	r := s.Stop()
	if len(r.Warnings) != 1 || r.Warnings[0] != `probe "app-1": preset process: the target has no process_resident_memory_bytes series, so rss and rss_peak are not reported; a process probe reads its RSS from /proc on the target's host` {
		t.Errorf("warnings %q", r.Warnings)
	}
	var keys []string
	for _, m := range r.Metrics {
		keys = append(keys, m.Key)
	}
	if !slices.Equal(keys, []string{"app-1.cpu_percent", "app-1.cpu_percent_max"}) {
		t.Fatalf("metrics %v", keys)
	}
	values := r.Metrics[0].Samples
	if len(values) == 0 || values[0] <= 0 || slices.ContainsFunc(values[1:], func(v float64) bool { return v != 0 }) {
		t.Errorf("cpu_percent %v: the first interval holds the pages' 1.12 CPU s, the others none", values)
	}
}

// A target with neither CPU series fails the probe naming both.
func TestAProcessPresetWithNoCPUSeriesNamesBoth(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4")
		_, _ = w.Write([]byte("# TYPE up gauge\nup 1\n"))
	}))
	defer srv.Close()
	_, err := Open(context.Background(), []Spec{{Name: "app-1", Kind: KindPrometheus, URL: srv.URL, Presets: []string{"process"}}})
	if err == nil || err.Error() != `probe "app-1": preset process: no process_cpu_seconds_total or process_cpu_time_ns_total series` {
		t.Errorf("error %v", err)
	}
}
