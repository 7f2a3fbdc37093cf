package main

import (
	"bytes"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// `versus-agent run` with probes prints their figures, from --probe flags and a --probes file.
func TestRunPrintsTheProbesFigures(t *testing.T) {
	registry := prometheus.NewRegistry()
	registry.MustRegister(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), collectors.NewGoCollector())
	srv := httptest.NewServer(promhttp.HandlerFor(registry, promhttp.HandlerOpts{}))
	defer srv.Close()
	file := filepath.Join(t.TempDir(), "probes.json")
	if err := os.WriteFile(file, []byte(`[{"name": "custom", "kind": "prometheus", "url": "`+srv.URL+`", "presets": [], "intervalSeconds": 0.2,
		"series": [{"key": "goroutines", "metric": "go_goroutines", "aggregation": "max", "unit": "count", "direction": "lower_is_better"}]}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := runCommand([]string{"--workload", "sleep", "--settings", `{"ms": 900}`, "--probes", file,
		"--probe", "name=app-1,url=" + srv.URL + "/metrics,presets=process+go,interval=0.2",
		"--probe", "name=me,pid=" + strconv.Itoa(os.Getpid()) + ",interval=0.2"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	text := stdout.String()
	for _, want := range []string{
		`(?m)^probes \(the system under test, per interval\):$`,
		`(?m)^  app-1\.gc_count +sum \d+ count over`,
		`(?m)^  custom\.goroutines +max \d+ count over`,
		`(?m)^  me\.threads +mean [\d.]+ count over`,
		`(?m)^  slept_ms `,
	} {
		if !regexp.MustCompile(want).MatchString(text) {
			t.Errorf("summary lacks %s:\n%s", want, text)
		}
	}
	// The window holds the 0.9 s sleep: at least 4 whole intervals of 0.2 s, each a value or a
	// missed reading. With none missed the line names the interval; with some (a reading missed on
	// a loaded machine), the gap warning counts them and values + missed = the intervals.
	cpu := regexp.MustCompile(`(?m)^  app-1\.cpu_percent +mean [\d.e+]+ % over (\d+) intervals( of 0\.2 s)? \(min .*, max .*\)$`).FindStringSubmatch(text)
	if cpu == nil {
		t.Fatalf("summary lacks app-1.cpu_percent's line:\n%s", text)
	}
	values, _ := strconv.Atoi(cpu[1])
	intervals, missed := values, 0
	if gap := regexp.MustCompile(`probe "app-1" did not answer for (\d+) of (\d+) intervals`).FindStringSubmatch(stdout.String() + stderr.String()); gap != nil {
		missed, _ = strconv.Atoi(gap[1])
		intervals, _ = strconv.Atoi(gap[2])
	} else if cpu[2] == "" {
		t.Errorf("app-1.cpu_percent has no interval named, yet no gap was reported:\n%s", text)
	}
	if values+missed != intervals || intervals < 4 {
		t.Errorf("app-1.cpu_percent: %d values and %d missed of %d intervals, for a window holding 0.9 s at 0.2 s", values, missed, intervals)
	}
	if strings.Contains(text, "  app-1.cpu_percent  n=") {
		t.Errorf("probe metrics are listed once, under probes:\n%s", text)
	}
}

func TestBadProbeFlagsSayWhatIsWrong(t *testing.T) {
	for flag, want := range map[string]string{
		"name=app-1,url":                              `--probe "name=app-1,url": "url" is not key=value (keys: name, kind, url, presets, interval, required, pid, process, pattern)`,
		"name=app-1,colour=red":                       `unknown key "colour"`,
		"name=app-1,url=http://x/,interval=soon":      `interval: "soon" is not a number of seconds`,
		"name=app-1,url=http://x/,presets=process+js": `probes[0].presets[1]: "js" is not a preset (process, jvm, go, node)`,
		"name=db,process=postgres,pid=3":              `probes[0].match: give exactly one of pid, name and pattern`,
		"name=db,url=ftp://x/":                        `probes[0].url: "ftp://x/" is not an http(s) URL`,
	} {
		var stdout, stderr bytes.Buffer
		code := runCommand([]string{"--workload", "sleep", "--probe", flag}, &stdout, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), want) {
			t.Errorf("--probe %s: exit %d, %q; want 2 and %q", flag, code, stderr.String(), want)
		}
	}
}
