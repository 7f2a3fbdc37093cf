package probe

import (
	"fmt"
	"sort"
	"strings"

	"github.com/versus/agents/go/internal/result"
)

// valueKind is how one interval's value comes from the readings at its two ends.
type valueKind int

const (
	gauge     valueKind = iota // the reading at the end of the interval × scale
	perSecond                  // the counter's increase ÷ the interval's seconds × scale
	increase                   // the counter's increase × scale
	busyShare                  // 100 × (1 − Δidle ÷ Δall): the share of time not idle
)

// metricDef is one metric a probe reports, `<probe>.<suffix>`.
type metricDef struct {
	suffix      string
	unit        string
	direction   result.Direction
	aggregation string
	kind        valueKind
	q           string // the quantity it is read from (busyShare: the idle counter)
	all         string // busyShare: the counter of all modes
	scale       float64
}

// quantity is one number read from a target at every scrape. Its name is the series as a warning
// names it, and its key in a reading.
type quantity struct {
	name    string
	counter bool
	// A Prometheus series: the sum of the samples named sample whose labels include labels;
	// minus (if set) is subtracted (host memory = total − available).
	sample string
	labels map[string]string
	minus  string
	// optional: absent is 0, not an error (GC series appear with the first collection).
	optional bool
	// fallback: the series read instead, times fallbackScale, when the first reading has no
	// sample: Micrometer exports process_cpu_time_ns_total, not process_cpu_seconds_total.
	fallback      string
	fallbackScale float64
	// scale multiplies what is read (1 when 0): set when the fallback is taken.
	scale float64
	// droppable: a target without this series at the first reading still has a probe: the
	// quantity's metrics are left out of the run, which carries a warning naming the series and
	// dropHint (what reads it instead). Micrometer exports no resident memory.
	droppable bool
	dropHint  string
}

// preset is a set of well-known series and the metrics they give.
type preset struct {
	quantities []quantity
	metrics    []metricDef
}

const lower = result.LowerIsBetter

// cpuMetrics, rssMetrics: the same figures from the process preset and the process probe.
func cpuMetrics(q string) []metricDef {
	return []metricDef{
		{suffix: "cpu_percent", unit: "%", direction: lower, aggregation: "mean", kind: perSecond, q: q, scale: 100},
		{suffix: "cpu_percent_max", unit: "%", direction: lower, aggregation: "max", kind: perSecond, q: q, scale: 100},
	}
}

func gaugePair(suffix, unit, q string) []metricDef {
	return []metricDef{
		{suffix: suffix, unit: unit, direction: lower, aggregation: "mean", kind: gauge, q: q, scale: 1},
		{suffix: suffix + "_peak", unit: unit, direction: lower, aggregation: "max", kind: gauge, q: q, scale: 1},
	}
}

func gcMetrics(count, seconds string) []metricDef {
	return []metricDef{
		{suffix: "gc_count", unit: "count", direction: lower, aggregation: "sum", kind: increase, q: count, scale: 1},
		{suffix: "gc_time", unit: "ms", direction: lower, aggregation: "sum", kind: increase, q: seconds, scale: 1000},
	}
}

func join(lists ...[]metricDef) []metricDef {
	var out []metricDef
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

var presets = map[string]preset{
	"process": {
		quantities: []quantity{
			{name: "process_cpu_seconds_total", counter: true, sample: "process_cpu_seconds_total",
				fallback: "process_cpu_time_ns_total", fallbackScale: 1e-9},
			{name: "process_resident_memory_bytes", sample: "process_resident_memory_bytes",
				droppable: true, dropHint: "a process probe reads its RSS from /proc on the target's host"},
		},
		metrics: join(cpuMetrics("process_cpu_seconds_total"), gaugePair("rss", "B", "process_resident_memory_bytes")),
	},
	"jvm": {
		quantities: []quantity{
			{name: `jvm_memory_used_bytes{area="heap"}`, sample: "jvm_memory_used_bytes", labels: map[string]string{"area": "heap"}},
			{name: "jvm_gc_pause_seconds_count", counter: true, sample: "jvm_gc_pause_seconds_count", optional: true},
			{name: "jvm_gc_pause_seconds_sum", counter: true, sample: "jvm_gc_pause_seconds_sum", optional: true},
			{name: "jvm_threads_live_threads", sample: "jvm_threads_live_threads"},
		},
		metrics: join(gaugePair("heap_used", "B", `jvm_memory_used_bytes{area="heap"}`),
			gcMetrics("jvm_gc_pause_seconds_count", "jvm_gc_pause_seconds_sum"),
			[]metricDef{{suffix: "threads_live", unit: "count", direction: lower, aggregation: "mean", kind: gauge, q: "jvm_threads_live_threads", scale: 1}}),
	},
	"go": {
		quantities: []quantity{
			{name: "go_memstats_heap_inuse_bytes", sample: "go_memstats_heap_inuse_bytes"},
			{name: "go_gc_duration_seconds_count", counter: true, sample: "go_gc_duration_seconds_count", optional: true},
			{name: "go_gc_duration_seconds_sum", counter: true, sample: "go_gc_duration_seconds_sum", optional: true},
		},
		metrics: join(gaugePair("heap_inuse", "B", "go_memstats_heap_inuse_bytes"), gcMetrics("go_gc_duration_seconds_count", "go_gc_duration_seconds_sum")),
	},
	"node": {
		quantities: []quantity{
			{name: `node_cpu_seconds_total{mode="idle"}`, counter: true, sample: "node_cpu_seconds_total", labels: map[string]string{"mode": "idle"}},
			{name: "node_cpu_seconds_total", counter: true, sample: "node_cpu_seconds_total"},
			{name: "node_memory_MemTotal_bytes − node_memory_MemAvailable_bytes", sample: "node_memory_MemTotal_bytes", minus: "node_memory_MemAvailable_bytes"},
		},
		metrics: join([]metricDef{
			{suffix: "host_cpu_percent", unit: "%", direction: lower, aggregation: "mean", kind: busyShare, q: `node_cpu_seconds_total{mode="idle"}`, all: "node_cpu_seconds_total"},
			{suffix: "host_cpu_percent_max", unit: "%", direction: lower, aggregation: "max", kind: busyShare, q: `node_cpu_seconds_total{mode="idle"}`, all: "node_cpu_seconds_total"},
		}, gaugePair("host_memory_used", "B", "node_memory_MemTotal_bytes − node_memory_MemAvailable_bytes")),
	},
}

// presetMetrics lists the metrics of the given presets, in the presets' order.
func presetMetrics(names []string) []metricDef {
	var out []metricDef
	for _, n := range names {
		out = append(out, presets[n].metrics...)
	}
	return out
}

// customSeries turns a custom series into its quantity and metric. A counter's rate is a mean of
// per-second rates; its delta is a sum of increases (the increase over the run).
func customSeries(c Series) (quantity, metricDef) {
	q := quantity{name: seriesName(c.Metric, c.Labels), sample: c.Metric, labels: c.Labels}
	m := metricDef{suffix: c.Key, unit: c.Unit, direction: result.Direction(c.Direction), q: q.name, scale: 1}
	switch c.Aggregation {
	case "rate":
		q.counter, m.kind, m.aggregation = true, perSecond, "mean"
	case "delta":
		q.counter, m.kind, m.aggregation = true, increase, "sum"
	default:
		m.kind, m.aggregation = gauge, c.Aggregation
	}
	return q, m
}

// seriesName writes a series as Prometheus does: name{label="value",…}, labels sorted.
func seriesName(name string, labels map[string]string) string {
	if len(labels) == 0 {
		return name
	}
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%q", k, labels[k])
	}
	return name + "{" + strings.Join(parts, ",") + "}"
}
