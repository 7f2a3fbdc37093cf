//go:build linux

package probe

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/common/expfmt"
)

// What one probe costs the agent, as a share of one core at 1 Hz (one reading a second): the
// CPU time this process spends (getrusage: user + system, the HTTP client, the parser and the
// garbage collector included) per reading. The target runs as a process of its own, so its CPU
// is not counted. Run with
//
//	go test -run '^$' -bench ProbeCost -benchtime 200x ./internal/probe/
//
// and read the %core@1Hz column; nothing here asserts a timing.
func BenchmarkProbeCost(b *testing.B) {
	tg := startTarget(b, uniqueName("vtcost"))
	b.Run("prometheus text, client_golang process+go", func(b *testing.B) {
		probes := openAll(b, Spec{Name: "app-1", Kind: KindPrometheus, URL: tg.url + "metrics", Presets: []string{"process", "go"}})
		measureCost(b, probes[0].src)
	})
	b.Run("process by pid, /proc", func(b *testing.B) {
		probes := openAll(b, Spec{Name: "app-1", Kind: KindProcess, Match: &Match{PID: tg.pid}})
		measureCost(b, probes[0].src)
	})
	b.Run("prometheus OpenMetrics (page served from memory in this process)", func(b *testing.B) {
		registry := prometheus.NewRegistry()
		registry.MustRegister(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), collectors.NewGoCollector())
		families, err := registry.Gather()
		if err != nil {
			b.Fatal(err)
		}
		var page bytes.Buffer
		enc := expfmt.NewEncoder(&page, expfmt.FmtOpenMetrics_1_0_0)
		for _, f := range families {
			if f.GetName() == "go_memstats_alloc_bytes_total" {
				// As OpenMetrics its family is go_memstats_alloc_bytes, the gauge's name: a page
				// OpenMetrics parsers refuse (client_golang serves it only when asked for).
				continue
			}
			if err := enc.Encode(f); err != nil {
				b.Fatal(err)
			}
		}
		enc.(expfmt.Closer).Close()
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", string(expfmt.FmtOpenMetrics_1_0_0))
			_, _ = w.Write(page.Bytes())
		}))
		defer srv.Close()
		probes := openAll(b, Spec{Name: "app-1", Kind: KindPrometheus, URL: srv.URL, Presets: []string{"process", "go"}})
		measureCost(b, probes[0].src)
	})
}

func measureCost(b *testing.B, src source) {
	ctx := context.Background()
	before := cpuTime(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := src.read(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	perReading := (cpuTime(b) - before) / time.Duration(b.N)
	b.ReportMetric(float64(perReading.Microseconds()), "cpu-µs/reading")
	b.ReportMetric(perReading.Seconds()*100, "%core@1Hz")
}

// cpuTime is this process's user + system CPU time.
func cpuTime(b *testing.B) time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		b.Fatal(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
