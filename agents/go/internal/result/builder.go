package result

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Spec is what the builder needs to know of a metric to describe it to the server.
type Spec struct {
	Unit        string
	Direction   Direction
	Aggregation string
}

// samplesInlineMax: above this many samples a metric goes as samplesBase64 (8 bytes a sample,
// no JSON number parsing on the server).
const samplesInlineMax = 1000

// logTailLines is how many recent log lines a failure report carries.
const logTailLines = 200

// Builder collects what a workload records (it implements workload.Recorder) and builds the Run.
// It is safe for concurrent use.
type Builder struct {
	mu         sync.Mutex
	specs      map[string]Spec
	order      []string
	samples    map[string][]float64
	histograms map[string]Metric
	summaries  map[string]Summary
	series     map[string]TimeSeries
	values     map[string]float64
	env        map[string]any
	warnings   []string
	logs       []string
	onLog      func(line string)
}

// NewBuilder makes a builder for metrics with the given specs; onLog (optional) sees each line.
func NewBuilder(specs map[string]Spec, onLog func(line string)) *Builder {
	return &Builder{
		specs: specs, samples: map[string][]float64{}, histograms: map[string]Metric{},
		summaries: map[string]Summary{}, series: map[string]TimeSeries{}, values: map[string]float64{}, env: map[string]any{}, onLog: onLog,
	}
}

func (b *Builder) touch(key string) {
	if _, ok := b.samples[key]; ok {
		return
	}
	if _, ok := b.histograms[key]; ok {
		return
	}
	if _, ok := b.summaries[key]; ok {
		return
	}
	if _, ok := b.series[key]; ok {
		return
	}
	if _, ok := b.values[key]; ok {
		return
	}
	b.order = append(b.order, key)
}

func (b *Builder) Sample(key string, value float64) {
	b.mu.Lock()
	b.touch(key)
	b.samples[key] = append(b.samples[key], value)
	b.mu.Unlock()
}

func (b *Builder) Histogram(key string, h *hdrhistogram.Histogram, scale float64) {
	encoded, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	b.mu.Lock()
	defer b.mu.Unlock()
	if err != nil {
		b.warnLocked(fmt.Sprintf("histogram of %s could not be encoded: %v", key, err))
		return
	}
	b.touch(key)
	b.histograms[key] = Metric{Histogram: string(encoded), HistogramScale: scale}
}

func (b *Builder) Summary(key string, s Summary) {
	b.mu.Lock()
	b.touch(key)
	b.summaries[key] = s
	b.mu.Unlock()
}

func (b *Builder) Series(key string, s TimeSeries) {
	b.mu.Lock()
	b.touch(key)
	b.series[key] = s
	b.mu.Unlock()
}

func (b *Builder) Value(key string, v float64) {
	b.mu.Lock()
	b.touch(key)
	b.values[key] = v
	b.mu.Unlock()
}

func (b *Builder) Environment(key string, value any) {
	b.mu.Lock()
	b.env[key] = value
	b.mu.Unlock()
}

func (b *Builder) Warn(message string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.warnLocked(message)
}

func (b *Builder) warnLocked(message string) {
	b.warnings = append(b.warnings, message)
	b.logLocked("warning: " + message)
}

func (b *Builder) Logf(format string, args ...any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.logLocked(fmt.Sprintf(format, args...))
}

func (b *Builder) logLocked(line string) {
	b.logs = append(b.logs, line)
	if len(b.logs) > logTailLines {
		b.logs = b.logs[len(b.logs)-logTailLines:]
	}
	if b.onLog != nil {
		b.onLog(line)
	}
}

// Warnings are the caveats recorded so far.
func (b *Builder) Warnings() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.warnings...)
}

// LogTail is the recent log lines, one per line.
func (b *Builder) LogTail() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Join(b.logs, "\n")
}

// Build returns the run: metrics in the order first recorded, environment = base + the
// workload's own facts (+ its warnings).
func (b *Builder) Build(startedAt, finishedAt time.Time, base map[string]any) Run {
	b.mu.Lock()
	defer b.mu.Unlock()
	env := map[string]any{}
	for k, v := range base {
		env[k] = v
	}
	for k, v := range b.env {
		env[k] = v
	}
	if len(b.warnings) > 0 {
		env["warnings"] = append([]string(nil), b.warnings...)
	}
	run := Run{StartedAt: startedAt.UTC(), FinishedAt: finishedAt.UTC(), Environment: env}
	for _, key := range b.order {
		spec := b.specs[key]
		m := Metric{Key: key, Unit: spec.Unit, Direction: spec.Direction, Aggregation: spec.Aggregation}
		if h, ok := b.histograms[key]; ok {
			m.Histogram, m.HistogramScale = h.Histogram, h.HistogramScale
		}
		if s, ok := b.summaries[key]; ok {
			s := s
			m.Summary = &s
		}
		if ts, ok := b.series[key]; ok {
			ts := ts
			m.TimeSeries = &ts
		}
		if v, ok := b.values[key]; ok {
			m.Value = F(v)
		}
		if values := b.samples[key]; len(values) > 0 {
			if len(values) > samplesInlineMax {
				m.SamplesBase64 = EncodeSamples(values)
			} else {
				m.Samples = append([]float64(nil), values...)
			}
		}
		run.Metrics = append(run.Metrics, m)
	}
	return run
}

// EncodeSamples is samplesBase64: little-endian float64 values, base64.
func EncodeSamples(values []float64) string {
	buf := make([]byte, 8*len(values))
	for i, v := range values {
		binary.LittleEndian.PutUint64(buf[8*i:], math.Float64bits(v))
	}
	return base64.StdEncoding.EncodeToString(buf)
}

// Keys returns the recorded metric keys, sorted (for tests and summaries).
func (b *Builder) Keys() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	keys := append([]string(nil), b.order...)
	sort.Strings(keys)
	return keys
}
