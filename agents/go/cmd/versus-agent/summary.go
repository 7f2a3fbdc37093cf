package main

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/versus/agents/go/internal/result"
	grpcworkload "github.com/versus/agents/go/internal/workload/grpc"
	httpworkload "github.com/versus/agents/go/internal/workload/http"
)

// printSummary prints a run for a person, from the run document alone: warnings first (they
// change how to read everything else), then a wrk-like block for http runs, then each metric's
// count, mean and percentiles, then the figures of the named probes. Simple statistics: this is
// a printout, not the server's verdict.
func printSummary(w io.Writer, workload string, run result.Run, probes ...string) {
	fmt.Fprintf(w, "%s: %s\n", workload, run.FinishedAt.Sub(run.StartedAt).Round(1e6))
	warnings := warningsOf(run)
	for _, warning := range warnings {
		fmt.Fprintf(w, "WARNING: %s\n", warning)
	}
	if facts, ok := httpFactsOf(run); ok {
		printHTTP(w, run, facts)
	}
	if facts, ok := grpcFactsOf(run); ok {
		printGRPC(w, run, facts)
	}
	fmt.Fprintln(w, "metrics:")
	var probed []result.Metric
	for _, m := range run.Metrics {
		if isProbeMetric(m.Key, probes) {
			probed = append(probed, m)
			continue
		}
		fmt.Fprintf(w, "  %-15s %s\n", m.Key, describeMetric(m))
	}
	if len(probed) > 0 {
		fmt.Fprintln(w, "probes (the system under test, per interval):")
		for _, m := range probed {
			fmt.Fprintf(w, "  %-24s %s\n", m.Key, describeProbeMetric(m))
		}
	}
	if len(warnings) > 0 {
		fmt.Fprintf(w, "%d warning(s) above.\n", len(warnings))
	}
}

// asJSON decodes an environment value (a Go value in process, or JSON-decoded) into out.
func asJSON(value any, out any) bool {
	raw, err := json.Marshal(value)
	return err == nil && json.Unmarshal(raw, out) == nil
}

// warningsOf is the workload's warnings (in the environment) and the run's own (probes).
func warningsOf(run result.Run) []string {
	var out []string
	asJSON(run.Environment["warnings"], &out)
	return append(out, run.Warnings...)
}

func isProbeMetric(key string, probes []string) bool {
	for _, p := range probes {
		if strings.HasPrefix(key, p+".") {
			return true
		}
	}
	return false
}

// describeProbeMetric is a probe metric's run figure (its aggregation over the intervals) and
// the range of the intervals' values.
func describeProbeMetric(m result.Metric) string {
	values := samplesOf(m)
	if len(values) == 0 {
		return "(no data)"
	}
	lo, hi, sum := values[0], values[0], 0.0
	for _, v := range values {
		lo, hi, sum = math.Min(lo, v), math.Max(hi, v), sum+v
	}
	figure := map[string]float64{"mean": sum / float64(len(values)), "max": hi, "min": lo, "sum": sum, "last": values[len(values)-1]}[m.Aggregation]
	every := ""
	if m.TimeSeries != nil && m.TimeSeries.IntervalMs > 0 {
		every = fmt.Sprintf(" of %g s", m.TimeSeries.IntervalMs/1000)
	}
	return fmt.Sprintf("%s %.4g %s over %d intervals%s (min %.4g, max %.4g)", m.Aggregation, figure, m.Unit, len(values), every, lo, hi)
}

func httpFactsOf(run result.Run) (httpworkload.Facts, bool) {
	var f httpworkload.Facts
	if run.Environment["http"] == nil || !asJSON(run.Environment["http"], &f) {
		return f, false
	}
	return f, true
}

// printHTTP is the wrk-like block.
func printHTTP(w io.Writer, run result.Run, f httpworkload.Facts) {
	load := fmt.Sprintf("%d connections", f.Connections)
	if f.Model == "open" {
		load = fmt.Sprintf("%g req/s asked, at most %d connections", f.Rate, f.MaxConnections)
	}
	fmt.Fprintf(w, "%s %s — %s model, %s, %s\n", f.Method, f.Target, f.Model, load, f.Protocol)
	fmt.Fprintf(w, "  %d requests in %.2fs, %s read, %s written\n", f.Requests, f.DurationSeconds, bytesText(f.BytesIn), bytesText(f.BytesOut))
	if m, ok := find(run, "throughput"); ok && m.Value != nil {
		fmt.Fprintf(w, "  Requests/sec: %.2f\n", *m.Value)
	}
	printLatency(w, run)
	fmt.Fprintf(w, "  Status codes: %s\n", countsText(f.StatusCodes))
	e := f.TransportErrors
	fmt.Fprintf(w, "  Errors: timeout %d, connection refused %d, reset %d, other %d; non-2xx/3xx responses %d\n",
		e["timeout"], e["connectionRefused"], e["reset"], e["other"], f.Non2xx3xx)
}

func grpcFactsOf(run result.Run) (grpcworkload.Facts, bool) {
	var f grpcworkload.Facts
	if run.Environment["grpc"] == nil || !asJSON(run.Environment["grpc"], &f) {
		return f, false
	}
	return f, true
}

// printGRPC is the ghz-like block.
func printGRPC(w io.Writer, run result.Run, f grpcworkload.Facts) {
	load := fmt.Sprintf("%d callers", f.Callers)
	if f.Model == "open" {
		load = fmt.Sprintf("%g calls/s asked, at most %d in flight", f.Rate, f.MaxInFlight)
	}
	security := "plaintext"
	if f.TLS {
		security = "TLS"
	}
	fmt.Fprintf(w, "%s %s (%s, %s) — %s model, %s, %d connection(s), %s\n", f.Target, f.Method, f.Kind, f.DescribedBy, f.Model, load, f.Connections, security)
	fmt.Fprintf(w, "  %d calls in %.2fs, %s read, %s written; %d message(s) of %s sent per call\n", f.Calls, f.DurationSeconds, bytesText(f.BytesIn), bytesText(f.BytesOut), f.MessagesSent, bytesText(int64(f.RequestBytes)))
	if m, ok := find(run, "throughput"); ok && m.Value != nil {
		fmt.Fprintf(w, "  Calls/sec: %.2f\n", *m.Value)
	}
	printLatency(w, run)
	fmt.Fprintf(w, "  Status codes: %s\n", countsText(f.StatusCodes))
}

// printLatency is the latency lines of the wrk- and ghz-like blocks.
func printLatency(w io.Writer, run result.Run) {
	if m, ok := find(run, "latency"); ok {
		if s := statsOf(m); s != nil {
			fmt.Fprintf(w, "  Latency  mean %s  sd %s  max %s\n", msText(s.mean), msText(s.sd), msText(s.max))
			fmt.Fprintf(w, "           p50 %s  p90 %s  p99 %s  p99.9 %s\n", msText(s.p50), msText(s.p90), msText(s.p99), msText(s.p999))
		}
	}
}

// countsText is "a: 1, b: 2" in name order, or "none".
func countsText(counts map[string]int64) string {
	names := make([]string, 0, len(counts))
	for name := range counts {
		names = append(names, name)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, name := range names {
		parts[i] = fmt.Sprintf("%s: %d", name, counts[name])
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

func find(run result.Run, key string) (result.Metric, bool) {
	for _, m := range run.Metrics {
		if m.Key == key {
			return m, true
		}
	}
	return result.Metric{}, false
}

// figures are simple statistics of one metric; NaN where unknown.
type figures struct {
	n                   int64
	mean, sd, min, max  float64
	p50, p90, p99, p999 float64
	from                string
	seriesPoints        int
	seriesMean          float64
	hasSeries           bool
}

func nan() float64 { return math.NaN() }

// statsOf prefers what holds every value: the histogram, then the samples, then the summary.
func statsOf(m result.Metric) *figures {
	f := &figures{mean: nan(), sd: nan(), min: nan(), max: nan(), p50: nan(), p90: nan(), p99: nan(), p999: nan()}
	if m.TimeSeries != nil && len(m.TimeSeries.Values) > 0 {
		f.hasSeries, f.seriesPoints, f.seriesMean = true, len(m.TimeSeries.Values), meanOf(m.TimeSeries.Values)
	}
	switch {
	case m.Histogram != "" && m.HistogramScale > 0:
		h, err := hdrhistogram.Decode([]byte(m.Histogram))
		if err != nil || h.TotalCount() == 0 {
			break
		}
		scale := m.HistogramScale
		q := func(p float64) float64 { return float64(h.ValueAtQuantile(p)) / scale }
		f.n, f.mean, f.sd = h.TotalCount(), h.Mean()/scale, h.StdDev()/scale
		f.min, f.max = float64(h.Min())/scale, float64(h.Max())/scale
		f.p50, f.p90, f.p99, f.p999 = q(50), q(90), q(99), q(99.9)
		f.from = "histogram"
		return f
	}
	if values := samplesOf(m); len(values) > 0 {
		sorted := append([]float64(nil), values...)
		sort.Float64s(sorted)
		f.n, f.mean = int64(len(sorted)), meanOf(sorted)
		if len(sorted) > 1 {
			var sq float64
			for _, v := range sorted {
				sq += (v - f.mean) * (v - f.mean)
			}
			f.sd = math.Sqrt(sq / float64(len(sorted)-1))
		}
		q := func(p float64) float64 { return sorted[max(0, int(math.Ceil(p*float64(len(sorted))))-1)] }
		f.min, f.max = sorted[0], sorted[len(sorted)-1]
		f.p50, f.p90, f.p99, f.p999 = q(0.5), q(0.9), q(0.99), q(0.999)
		f.from = "samples"
		return f
	}
	if s := m.Summary; s != nil {
		opt := func(v *float64) float64 {
			if v == nil {
				return nan()
			}
			return *v
		}
		f.n, f.mean, f.sd, f.min, f.max = s.N, s.Mean, opt(s.SD), opt(s.Min), opt(s.Max)
		f.p50, f.p90, f.p99, f.p999 = opt(s.P50), opt(s.P90), opt(s.P99), opt(s.P999)
		f.from = "summary"
		return f
	}
	if f.hasSeries {
		return f
	}
	return nil
}

func samplesOf(m result.Metric) []float64 {
	if len(m.Samples) > 0 {
		return m.Samples
	}
	raw, err := base64.StdEncoding.DecodeString(m.SamplesBase64)
	if err != nil || len(raw)%8 != 0 {
		return nil
	}
	out := make([]float64, len(raw)/8)
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
	}
	return out
}

func meanOf(values []float64) float64 {
	var sum float64
	for _, v := range values {
		sum += v
	}
	return sum / float64(len(values))
}

// describeMetric is one line: the run's value if it has one, n, mean ± sd, min … max,
// percentiles, and the series if any.
func describeMetric(m result.Metric) string {
	f := statsOf(m)
	num := func(v float64) string { return fmt.Sprintf("%.4g", v) }
	var parts []string
	if m.Value != nil {
		parts = append(parts, fmt.Sprintf("value=%s %s", num(*m.Value), m.Unit))
	}
	if f == nil {
		if len(parts) > 0 {
			return parts[0]
		}
		return "(no data)"
	}
	unit := m.Unit
	if f.from != "" {
		parts = append(parts, fmt.Sprintf("n=%d mean=%s", f.n, num(f.mean)))
		if !math.IsNaN(f.sd) {
			parts = append(parts, "sd="+num(f.sd))
		}
		if !math.IsNaN(f.min) && !math.IsNaN(f.max) {
			parts = append(parts, fmt.Sprintf("min=%s max=%s", num(f.min), num(f.max)))
		}
		for _, p := range []struct {
			name string
			v    float64
		}{{"p50", f.p50}, {"p90", f.p90}, {"p99", f.p99}, {"p99.9", f.p999}} {
			if !math.IsNaN(p.v) {
				parts = append(parts, p.name+"="+num(p.v))
			}
		}
		parts = append(parts, unit)
	}
	if f.hasSeries {
		parts = append(parts, fmt.Sprintf("(series: %d points, mean %s %s)", f.seriesPoints, num(f.seriesMean), unit))
	}
	return strings.Join(parts, " ")
}

func msText(v float64) string {
	switch {
	case math.IsNaN(v):
		return "-"
	case v < 1:
		return fmt.Sprintf("%.0fµs", v*1000)
	case v < 1000:
		return fmt.Sprintf("%.2fms", v)
	default:
		return fmt.Sprintf("%.2fs", v/1000)
	}
}

func bytesText(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%dB", n)
	}
	value, suffix := float64(n), []string{"KB", "MB", "GB", "TB"}
	i := -1
	for value >= unit && i < len(suffix)-1 {
		value /= unit
		i++
	}
	return fmt.Sprintf("%.2f%s", value, suffix[i])
}
