//go:build linux

package probe

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/prometheus/common/expfmt"
)

// A target burning half a core: the prometheus probe's CPU % (process_cpu_seconds_total from
// client_golang) and the process probe's (from /proc) both agree with what the test reads from
// /proc/<pid>/stat itself over the same window.
func TestCPUPercentIsWhatProcSaysForTheSameWindow(t *testing.T) {
	name := uniqueName("vtcpu")
	tg := startTarget(t, name, "-burn", "0.5")
	probes := openAll(t,
		Spec{Name: "app-1", Kind: KindPrometheus, URL: tg.url + "metrics", Presets: []string{"process", "go"}, IntervalSeconds: 0.2},
		Spec{Name: "proc", Kind: KindProcess, Match: &Match{Name: name}, IntervalSeconds: 0.2},
	)
	time.Sleep(300 * time.Millisecond) // the burner's first slices
	before, t0 := cpuSeconds(t, tg.pid), time.Now()
	r, window := sampleSpan(probes, 2*time.Second)
	after, t1 := cpuSeconds(t, tg.pid), time.Now()
	truth := (after - before) / t1.Sub(t0).Seconds() * 100
	if len(r.Warnings) > 0 {
		t.Errorf("warnings: %v", r.Warnings)
	}
	for _, key := range []string{"app-1.cpu_percent", "proc.cpu_percent"} {
		values := metricNamed(t, r, key)
		got := mean(values)
		t.Logf("%s: mean %.1f %% over %d intervals; /proc/%d/stat says %.1f %%", key, got, len(values), tg.pid, truth)
		// A 2 s window at 0.2 s: 10 intervals, more if Stop came late; none missed (no warnings).
		checkIntervals(t, r, strings.Split(key, ".")[0], key, len(values), 200*time.Millisecond, window)
		if math.Abs(got-truth) > 5 {
			t.Errorf("%s: mean %.1f %%, /proc says %.1f %% for the same window", key, got, truth)
		}
		for _, v := range values {
			if v < 0 {
				t.Errorf("%s: a negative CPU %% %v", key, v)
			}
		}
	}
	for _, key := range []string{"app-1.rss", "app-1.rss_peak", "app-1.heap_inuse", "app-1.heap_inuse_peak", "proc.rss", "proc.threads"} {
		for _, v := range metricNamed(t, r, key) {
			if v <= 0 {
				t.Errorf("%s: %v", key, v)
			}
		}
	}
	// GC count and time are increases: never negative, summed over the run.
	for _, v := range metricNamed(t, r, "app-1.gc_count") {
		if v < 0 || v != math.Trunc(v) {
			t.Errorf("app-1.gc_count: %v", v)
		}
	}
	// The metrics carry the contract's units, directions and aggregations, and a series per interval.
	want := map[string]string{"app-1.cpu_percent": "% mean", "app-1.cpu_percent_max": "% max", "app-1.rss": "B mean", "app-1.rss_peak": "B max",
		"app-1.heap_inuse": "B mean", "app-1.gc_count": "count sum", "app-1.gc_time": "ms sum", "proc.threads": "count mean"}
	for _, m := range r.Metrics {
		if w, ok := want[m.Key]; ok && m.Unit+" "+m.Aggregation != w {
			t.Errorf("%s: %s %s, want %s", m.Key, m.Unit, m.Aggregation, w)
		}
		if m.Direction != "lower_is_better" || m.TimeSeries == nil || m.TimeSeries.IntervalMs != 200 || len(m.TimeSeries.Values) != len(m.Samples) {
			t.Errorf("%s: direction %s, series %+v", m.Key, m.Direction, m.TimeSeries)
		}
	}
}

// A process probe by name: none or several matching processes fail at start naming them.
func TestAProcessProbeByNameFindsExactlyOneProcess(t *testing.T) {
	name := uniqueName("vtname")
	_, err := Open(context.Background(), []Spec{{Name: "db", Kind: KindProcess, Match: &Match{Name: name}}})
	if err == nil || err.Error() != fmt.Sprintf(`probe "db": no process named %q`, name) {
		t.Fatalf("no such process: %v", err)
	}
	first := startTarget(t, name)
	probes := openAll(t, Spec{Name: "db", Kind: KindProcess, Match: &Match{Name: name}, IntervalSeconds: 0.1})
	r, window := sampleSpan(probes, 550*time.Millisecond)
	// 0.55 s at 0.1 s: 5 whole intervals, more if Stop came late, each a value or a counted gap.
	checkIntervals(t, r, "db", "db.cpu_percent", len(metricNamed(t, r, "db.cpu_percent")), 100*time.Millisecond, window)
	if rss := metricNamed(t, r, "db.rss"); rss[0] < 1<<20 {
		t.Errorf("rss %v B for a Go program", rss[0])
	}
	second := startTarget(t, name)
	var start *StartError
	_, err = Open(context.Background(), []Spec{{Name: "db", Kind: KindProcess, Match: &Match{Name: name}}})
	if !errors.As(err, &start) || !strings.Contains(err.Error(), fmt.Sprintf(`probe "db": 2 processes named %q: `, name)) ||
		!strings.Contains(err.Error(), fmt.Sprint(first.pid)) || !strings.Contains(err.Error(), fmt.Sprint(second.pid)) {
		t.Errorf("two processes: %v", err)
	}
	// A pattern over the command line tells them apart by what they were started with.
	third := startTarget(t, uniqueName("vtpat"), "-body", "77")
	probes = openAll(t, Spec{Name: "db", Kind: KindProcess, Match: &Match{Pattern: `vtpat\d+ -metrics -body 77`}})
	if src := probes[0].src.(*procSource); src.pid != third.pid {
		t.Errorf("pattern matched pid %d, want %d", src.pid, third.pid)
	}
}

// A target that cannot be read when the run starts: the probe names what was wrong.
func TestAProbeThatCannotBeReadFailsAtStartSayingWhy(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() + "/metrics"
	ln.Close()
	registry := prometheus.NewRegistry()
	registry.MustRegister(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	client := httptest.NewServer(promhttp.HandlerFor(registry, promhttp.HandlerOpts{}))
	defer client.Close()
	notFound := httptest.NewServer(http.NotFoundHandler())
	defer notFound.Close()
	garbage := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4")
		fmt.Fprintln(w, "process_cpu_seconds_total{ one two")
	}))
	defer garbage.Close()
	cases := []struct {
		spec Spec
		want string
	}{
		{Spec{Name: "app-1", Kind: KindPrometheus, URL: closed}, fmt.Sprintf(`probe "app-1": GET %s: connection refused`, closed)},
		{Spec{Name: "app-1", Kind: KindPrometheus, URL: client.URL, Presets: []string{"process", "jvm"}}, `probe "app-1": preset jvm: no jvm_memory_used_bytes{area="heap"} series`},
		{Spec{Name: "app-1", Kind: KindPrometheus, URL: client.URL, Presets: []string{"node"}}, `probe "app-1": preset node: no node_cpu_seconds_total{mode="idle"} series`},
		{Spec{Name: "q", Kind: KindPrometheus, URL: client.URL, Series: []Series{{Key: "depth", Metric: "app_queue_depth", Labels: map[string]string{"queue": "orders"}, Aggregation: "mean", Unit: "count", Direction: "lower_is_better"}}},
			`probe "q": series depth: no app_queue_depth{queue="orders"} series`},
		{Spec{Name: "app-1", Kind: KindPrometheus, URL: notFound.URL + "/metrics"}, fmt.Sprintf(`probe "app-1": GET %s/metrics: 404 Not Found`, notFound.URL)},
		{Spec{Name: "app-1", Kind: KindPrometheus, URL: garbage.URL}, fmt.Sprintf(`probe "app-1": GET %s: not Prometheus text or OpenMetrics (text/plain; version=0.0.4): `, garbage.URL)},
		{Spec{Name: "db", Kind: KindProcess, Match: &Match{PID: 1 << 30}}, `probe "db": no process with pid 1073741824`},
	}
	for _, c := range cases {
		if err := c.spec.check(); err != nil {
			t.Fatal(err)
		}
		_, err := Open(context.Background(), []Spec{c.spec})
		var start *StartError
		if !errors.As(err, &start) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("got %v\nwant %s", err, c.want)
		}
	}
}

// metricsText serves crafted exposition text, one page per scrape (the last one again after).
type metricsText struct {
	pages  []string
	served atomic.Int64
}

func (m *metricsText) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	i := int(m.served.Add(1)) - 1
	if i >= len(m.pages) {
		i = len(m.pages) - 1
	}
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	fmt.Fprint(w, m.pages[i])
}

func processPage(cpu float64) string {
	return fmt.Sprintf("# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total %g\n# TYPE process_resident_memory_bytes gauge\nprocess_resident_memory_bytes 1e+07\n", cpu)
}

// A counter that goes down (a restarted target) skips its interval with a warning and becomes
// the new baseline: never a negative CPU.
func TestACounterThatGoesDownIsSkippedWithAWarning(t *testing.T) {
	// Open reads page 0; the sampler's baseline page 1, then one page per interval. The counter
	// grows 0.05 s per interval except at the fourth page of the window, where it restarts.
	cpu := []float64{1, 1, 1.05, 1.1, 0.02, 0.07, 0.12, 0.17, 0.22, 0.27, 0.32, 0.37}
	text := &metricsText{}
	for _, c := range cpu {
		text.pages = append(text.pages, processPage(c))
	}
	srv := httptest.NewServer(text)
	defer srv.Close()
	probes := openAll(t, Spec{Name: "app-1", Kind: KindPrometheus, URL: srv.URL, IntervalSeconds: 0.1})
	r := sample(probes, 850*time.Millisecond)
	values := metricNamed(t, r, "app-1.cpu_percent")
	rss := metricNamed(t, r, "app-1.rss")
	if len(values) != len(rss)-1 {
		t.Errorf("%d CPU values for %d intervals: the reset's interval should be the only one without", len(values), len(rss))
	}
	for _, v := range values {
		if v < 0 {
			t.Errorf("a negative CPU %% after a restart: %v", values)
		}
	}
	want := `probe "app-1": process_cpu_seconds_total went down at 0.3 s (target restarted?); the interval was skipped`
	if len(r.Warnings) != 1 || r.Warnings[0] != want {
		t.Errorf("warnings %q, want %q", r.Warnings, want)
	}
	if r.Failure != nil {
		t.Errorf("a restart is no gap: %v", r.Failure)
	}
	for _, m := range r.Metrics {
		if m.Key == "app-1.cpu_percent" && (m.TimeSeries.IntervalMs != 0 || len(m.TimeSeries.OffsetsMs) != len(values) || m.TimeSeries.OffsetsMs[2] != 300) {
			t.Errorf("the series skips the interval from 200 ms: %+v", m.TimeSeries)
		}
	}
}

var gapWarning = regexp.MustCompile(`^probe "app-1" did not answer for (\d+) of (\d+) intervals \(([\d.]+) s – ([\d.]+) s\): GET http://127\.0\.0\.1:\d+/metrics: connection refused$`)

// The endpoint goes away mid-run: the intervals without an answer are a gap with a warning, and
// a required probe fails the run with the same words.
func TestAnEndpointThatStopsMidRunLeavesAGapAndAWarning(t *testing.T) {
	for _, required := range []bool{false, true} {
		t.Run(fmt.Sprintf("required=%v", required), func(t *testing.T) {
			registry := prometheus.NewRegistry()
			registry.MustRegister(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
			metrics := promhttp.HandlerFor(registry, promhttp.HandlerOpts{})
			// The endpoint stops after a counted number of readings, not after a time: on a loaded
			// machine the sampler's readings come late, and which one fails first would depend on it.
			var served atomic.Int32
			stopAfter := int32(-1)
			stopped := make(chan struct{})
			var stopping sync.Once
			var srv *httptest.Server
			srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				// Every reading after the last one answered is cut off, and the endpoint stops. Every
				// one, not only the next: Go's client sends a GET again on a new connection when its
				// connection is cut, and that retry can arrive before the endpoint is closed.
				n := served.Add(1)
				if stop := atomic.LoadInt32(&stopAfter); stop >= 0 && n > stop {
					stopping.Do(func() {
						go func() {
							srv.CloseClientConnections()
							srv.Close()
							close(stopped)
						}()
					})
					panic(http.ErrAbortHandler)
				}
				metrics.ServeHTTP(w, r)
			}))
			probes := openAll(t, Spec{Name: "app-1", Kind: KindPrometheus, URL: srv.URL + "/metrics", IntervalSeconds: 0.1, Required: required})
			atomic.StoreInt32(&stopAfter, served.Load()+4)
			s := StartSampler(probes)
			select {
			case <-stopped:
			case <-time.After(30 * time.Second):
				t.Fatal("the sampler did not read the endpoint four times in 30 s")
			}
			// Readings keep failing for a while after that; how many depends on the machine.
			time.Sleep(500 * time.Millisecond)
			r := s.Stop()
			if len(r.Warnings) != 1 {
				t.Fatalf("warnings %q", r.Warnings)
			}
			m := gapWarning.FindStringSubmatch(r.Warnings[0])
			if m == nil {
				t.Fatalf("warning %q", r.Warnings[0])
			}
			rss := metricNamed(t, r, "app-1.rss")
			// Of the four readings the endpoint answered, the first (at the start) is the baseline the
			// intervals are measured from: three values; every later interval is the gap.
			if missed, all := atoi(m[1]), atoi(m[2]); len(rss) != 3 || missed < 1 || all != len(rss)+missed {
				t.Errorf("%s: %d values", r.Warnings[0], len(rss))
			}
			// The gap starts after the last reading that was answered.
			var from, last float64
			fmt.Sscan(m[3], &from)
			for _, metric := range r.Metrics {
				if offsets := metric.TimeSeries.OffsetsMs; metric.Key == "app-1.rss" && len(offsets) > 0 {
					last = float64(offsets[len(offsets)-1])
				}
			}
			if from*1000 <= last {
				t.Errorf("the gap starts at %s s, the last answered reading at %v ms", m[3], last)
			}
			for _, metric := range r.Metrics {
				if metric.TimeSeries.IntervalMs != 0 || len(metric.TimeSeries.OffsetsMs) != len(metric.Samples) {
					t.Errorf("%s: a series with a gap needs its offsets: %+v", metric.Key, metric.TimeSeries)
				}
			}
			var gap *GapError
			if required != errors.As(r.Failure, &gap) || (required && gap.Message != r.Warnings[0]) {
				t.Errorf("required %v: failure %v", required, r.Failure)
			}
		})
	}
}

func atoi(s string) int {
	var n int
	fmt.Sscan(s, &n)
	return n
}

// OpenMetrics (as client_golang writes it) is read as well as the classic text format; custom
// series match labels, sum what matches, and aggregate as asked.
func TestOpenMetricsAndCustomSeries(t *testing.T) {
	registry := prometheus.NewRegistry()
	requests := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "app_requests_total"}, []string{"path", "code"})
	sent := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "app_sent_bytes_total"}, []string{"path"})
	depth := prometheus.NewGauge(prometheus.GaugeOpts{Name: "app_queue_depth"})
	registry.MustRegister(requests, sent, depth)
	depth.Set(7)
	// The bytes grow with time (1,000 a second on /a, 5,000 on /b), so their rate does not depend on
	// how evenly a loaded machine spaces the scrapes; the requests grow per scrape, so their
	// increase per interval is exact.
	start := time.Now()
	var mu sync.Mutex
	counted := 0.0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Each scrape finds 10 more /a requests (5 of them 500s) and one /b.
		requests.WithLabelValues("/a", "200").Add(5)
		requests.WithLabelValues("/a", "500").Add(5)
		requests.WithLabelValues("/b", "200").Add(1)
		mu.Lock()
		if elapsed := time.Since(start).Seconds(); elapsed > counted {
			sent.WithLabelValues("/a").Add(1000 * (elapsed - counted))
			sent.WithLabelValues("/b").Add(5000 * (elapsed - counted))
			counted = elapsed
		}
		mu.Unlock()
		families, err := registry.Gather()
		if err != nil {
			t.Error(err)
		}
		w.Header().Set("Content-Type", string(expfmt.FmtOpenMetrics_1_0_0))
		enc := expfmt.NewEncoder(w, expfmt.FmtOpenMetrics_1_0_0)
		for _, f := range families {
			if err := enc.Encode(f); err != nil {
				t.Error(err)
			}
		}
		if closer, ok := enc.(expfmt.Closer); ok {
			closer.Close()
		}
	}))
	defer srv.Close()
	series := []Series{
		{Key: "a_requests", Metric: "app_requests_total", Labels: map[string]string{"path": "/a"}, Aggregation: "delta", Unit: "count", Direction: "higher_is_better"},
		{Key: "a_sent", Metric: "app_sent_bytes_total", Labels: map[string]string{"path": "/a"}, Aggregation: "rate", Unit: "B/s", Direction: "higher_is_better"},
		{Key: "depth", Metric: "app_queue_depth", Aggregation: "max", Unit: "count", Direction: "lower_is_better"},
	}
	probes := openAll(t, Spec{Name: "app", Kind: KindPrometheus, URL: srv.URL, Presets: []string{}, Series: series, IntervalSeconds: 0.1})
	r := sample(probes, 550*time.Millisecond)
	if len(r.Warnings) > 0 {
		t.Errorf("warnings %v", r.Warnings)
	}
	for _, v := range metricNamed(t, r, "app.a_requests") {
		if v != 10 {
			t.Errorf("a_requests: %v, want 10 an interval", v)
		}
	}
	// Each interval's rate is its increase over the time between its two readings, which the
	// agent stamps and the target does not see: a late reading shifts a little of one interval's
	// bytes into the next, so the intervals' mean is checked closely, and each one only for its
	// label (/b's 5,000 B/s, or both summed, would be far above 3,000).
	rates := metricNamed(t, r, "app.a_sent")
	mean := 0.0
	for _, v := range rates {
		if v < 300 || v > 3000 {
			t.Errorf("a_sent: %v, want /a's 1,000 B/s, not /b's 5,000 or both", v)
		}
		mean += v / float64(len(rates))
	}
	if mean < 800 || mean > 1250 {
		t.Errorf("a_sent: mean %.0f over %v, want about 1,000 B/s", mean, rates)
	}
	if d := metricNamed(t, r, "app.depth"); d[0] != 7 {
		t.Errorf("depth %v", d)
	}
	for _, m := range r.Metrics {
		want := map[string]string{"app.a_requests": "sum", "app.a_sent": "mean", "app.depth": "max"}[m.Key]
		if m.Aggregation != want {
			t.Errorf("%s: aggregation %s, want %s", m.Key, m.Aggregation, want)
		}
	}
}

// The node preset: host CPU % from the idle share of all CPUs, memory used = total − available.
func TestTheNodePreset(t *testing.T) {
	page := func(i int) string {
		// Per interval: 2 CPUs × 0.1 s = 0.2 s of CPU time, of which 0.05 s idle → 75 % busy.
		idle, user := 10+0.025*float64(i), 20+0.075*float64(i)
		return fmt.Sprintf(`# TYPE node_cpu_seconds_total counter
node_cpu_seconds_total{cpu="0",mode="idle"} %g
node_cpu_seconds_total{cpu="0",mode="user"} %g
node_cpu_seconds_total{cpu="1",mode="idle"} %g
node_cpu_seconds_total{cpu="1",mode="user"} %g
# TYPE node_memory_MemTotal_bytes gauge
node_memory_MemTotal_bytes 8e+09
# TYPE node_memory_MemAvailable_bytes gauge
node_memory_MemAvailable_bytes 6e+09
`, idle, user, idle, user)
	}
	text := &metricsText{}
	for i := 0; i < 20; i++ {
		text.pages = append(text.pages, page(i))
	}
	srv := httptest.NewServer(text)
	defer srv.Close()
	probes := openAll(t, Spec{Name: "host", Kind: KindPrometheus, URL: srv.URL, Presets: []string{"node"}, IntervalSeconds: 0.1})
	r := sample(probes, 350*time.Millisecond)
	for _, v := range metricNamed(t, r, "host.host_cpu_percent") {
		if math.Abs(v-75) > 1e-9 {
			t.Errorf("host_cpu_percent %v, want 75", v)
		}
	}
	if m := metricNamed(t, r, "host.host_memory_used_peak"); m[0] != 2e9 {
		t.Errorf("host_memory_used_peak %v", m)
	}
}

// A window shorter than one interval has no values, and says so.
func TestAWindowShorterThanAnIntervalSaysSo(t *testing.T) {
	text := &metricsText{pages: []string{processPage(1)}}
	srv := httptest.NewServer(text)
	defer srv.Close()
	probes := openAll(t, Spec{Name: "app-1", Kind: KindPrometheus, URL: srv.URL, IntervalSeconds: 1})
	r := sample(probes, 100*time.Millisecond)
	if len(r.Metrics) != 0 || len(r.Warnings) != 1 || !strings.HasPrefix(r.Warnings[0], `probe "app-1": the measured window (0.1`) {
		t.Errorf("metrics %v warnings %q", r.Metrics, r.Warnings)
	}
}

// OpenMetrics the classic text parser refuses (an unknown-typed family, timestamps in seconds) is
// read by expfmt's OpenMetrics parser.
func TestOpenMetricsTheTextParserRefusesGoesToTheOpenMetricsParser(t *testing.T) {
	// The CPU counter grows with time (ten seconds a second), so its rate does not depend on how a
	// loaded machine spaces the readings.
	start := time.Now()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/openmetrics-text; version=1.0.0; charset=utf-8")
		fmt.Fprintf(w, `# TYPE app_build unknown
app_build{version="1.2"} 1
# TYPE process_cpu_seconds counter
# UNIT process_cpu_seconds seconds
process_cpu_seconds_total %.6f 1700000000.123
# TYPE process_resident_memory_bytes gauge
process_resident_memory_bytes 1.0e7
# EOF
`, time.Since(start).Seconds()*10)
	}))
	defer srv.Close()
	probes := openAll(t, Spec{Name: "app-1", Kind: KindPrometheus, URL: srv.URL, IntervalSeconds: 0.1})
	r := sample(probes, 500*time.Millisecond)
	if rss := metricNamed(t, r, "app-1.rss"); len(rss) == 0 || rss[0] != 1e7 {
		t.Errorf("rss %v", rss)
	}
	// Ten CPU seconds a second: 1000 %.
	for _, v := range metricNamed(t, r, "app-1.cpu_percent") {
		if v < 500 || v > 1500 {
			t.Errorf("cpu_percent %v", v)
		}
	}
	if !probes[0].src.(*promSource).openMetricsParser.Load() {
		t.Error("the text parser read a page with an unknown-typed family")
	}
}

// A process that exits mid-run leaves a gap whose warning says so.
func TestAProcessThatExitsMidRunIsAGap(t *testing.T) {
	tg := startTarget(t, uniqueName("vtexit"))
	probes := openAll(t, Spec{Name: "db", Kind: KindProcess, Match: &Match{PID: tg.pid}, IntervalSeconds: 0.1})
	s := StartSampler(probes)
	time.Sleep(350 * time.Millisecond)
	tg.kill()
	time.Sleep(350 * time.Millisecond)
	r := s.Stop()
	want := regexp.MustCompile(fmt.Sprintf(`^probe "db" did not answer for \d of \d intervals \(0\.[2-4] s – 0\.[6-9] s\): process %d: gone \(it exited\)$`, tg.pid))
	if len(r.Warnings) != 1 || !want.MatchString(r.Warnings[0]) {
		t.Errorf("warnings %q, want %s", r.Warnings, want)
	}
}

// A target slower than the interval: the intervals whose reading would start more than an
// interval late are missed, and counted among the window's intervals.
func TestATargetSlowerThanTheIntervalMissesIntervals(t *testing.T) {
	srv, slow := slowTarget(t, 250*time.Millisecond)
	probes := openAll(t, Spec{Name: "app-1", Kind: KindPrometheus, URL: srv.URL, IntervalSeconds: 0.1})
	slow.Store(true)
	r := sample(probes, 1050*time.Millisecond)
	want := regexp.MustCompile(`^probe "app-1" did not answer for (\d+) of 10 intervals \(0(\.1)? s – (0\.9|1) s\): too slow: the reading before ended 0\.\d+ s after this one was due$`)
	if len(r.Warnings) != 1 || !want.MatchString(r.Warnings[0]) {
		t.Fatalf("warnings %q, want %s", r.Warnings, want)
	}
	missed := atoi(want.FindStringSubmatch(r.Warnings[0])[1])
	if rss := metricNamed(t, r, "app-1.rss"); missed < 3 || len(rss)+missed != 10 {
		t.Errorf("%d missed, %d values: %s", missed, len(rss), r.Warnings[0])
	}
}

// The workload's warm-up ends (Restart) while the first window's baseline reading is under way
// at a target that takes a while to answer: the measured window still begins when Restart is
// called, so a measured part of five whole intervals gives five values, not four.
func TestTheWindowBeginsWhenTheMeasuredPartDoes(t *testing.T) {
	srv, slow := slowTarget(t, 60*time.Millisecond)
	probes := openAll(t, Spec{Name: "app-1", Kind: KindPrometheus, URL: srv.URL, IntervalSeconds: 0.2})
	slow.Store(true)
	s := StartSampler(probes)
	measured := time.Now()
	s.Restart()
	time.Sleep(time.Second - time.Since(measured) + 5*time.Millisecond)
	r := s.Stop()
	if rss := metricNamed(t, r, "app-1.rss"); len(rss) != 5 {
		t.Errorf("%d values over a measured part of 5 intervals, want 5 (warnings %q)", len(rss), r.Warnings)
	}
}

// The workload and the probes keep their own clocks: a workload whose measured part of five
// intervals ends a few milliseconds before the probes' fifth interval does still gets five values.
func TestAWindowEndingJustShortOfAnIntervalKeepsIt(t *testing.T) {
	text := &metricsText{pages: []string{processPage(1)}}
	srv := httptest.NewServer(text)
	defer srv.Close()
	probes := openAll(t, Spec{Name: "app-1", Kind: KindPrometheus, URL: srv.URL, IntervalSeconds: 0.2})
	r := sample(probes, time.Second-3*time.Millisecond)
	if rss := metricNamed(t, r, "app-1.rss"); len(rss) != 5 {
		t.Errorf("%d values over a window 3 ms short of 5 intervals, want 5 (warnings %q)", len(rss), r.Warnings)
	}
}

// slowTarget serves a process page, taking `delay` to answer once slow is set (Open reads it fast).
func slowTarget(t *testing.T, delay time.Duration) (*httptest.Server, *atomic.Bool) {
	slow := &atomic.Bool{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if slow.Load() {
			time.Sleep(delay)
		}
		w.Header().Set("Content-Type", "text/plain; version=0.0.4")
		fmt.Fprint(w, processPage(1))
	}))
	t.Cleanup(srv.Close)
	return srv, slow
}
