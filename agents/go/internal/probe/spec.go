package probe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"regexp"
	"strings"
	"time"
)

// Spec is one probe of a variant, as a job carries it in `job.probes` (and as
// `versus-agent run --probes` reads it).
type Spec struct {
	Name            string   `json:"name"`
	Kind            string   `json:"kind"`
	IntervalSeconds float64  `json:"intervalSeconds,omitempty"`
	Required        bool     `json:"required,omitempty"`
	URL             string   `json:"url,omitempty"`
	Presets         []string `json:"presets,omitempty"`
	Series          []Series `json:"series,omitempty"`
	Match           *Match   `json:"match,omitempty"`
}

// Series is a custom series of a prometheus probe.
type Series struct {
	Key         string            `json:"key"`
	Metric      string            `json:"metric"`
	Labels      map[string]string `json:"labels,omitempty"`
	Aggregation string            `json:"aggregation"`
	Unit        string            `json:"unit"`
	Direction   string            `json:"direction"`
}

// Match picks the process of a process probe: exactly one of the three.
type Match struct {
	PID     int    `json:"pid,omitempty"`
	Name    string `json:"name,omitempty"`
	Pattern string `json:"pattern,omitempty"`
}

// Kinds a probe can be.
const (
	KindPrometheus = "prometheus"
	KindProcess    = "process"
)

// maxMetricKey is the longest metric key a run document takes.
const maxMetricKey = 64

var (
	probeName  = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)
	seriesKey  = regexp.MustCompile(`^[a-z0-9_]+$`)
	presetKeys = []string{"process", "jvm", "go", "node"}
	seriesAggs = []string{"rate", "delta", "mean", "max", "min", "last"}
	directions = []string{"lower_is_better", "higher_is_better"}
)

// Interval is the probe's sampling interval (default 1 s).
func (s Spec) Interval() time.Duration {
	if s.IntervalSeconds == 0 {
		return time.Second
	}
	return time.Duration(s.IntervalSeconds * float64(time.Second))
}

// Decode reads a job's probes (a JSON array; absent or null: none), fills in the defaults and
// checks every field the way the server's schema does, so a probe the agent cannot run is refused
// with the field's path before anything starts.
func Decode(raw json.RawMessage) ([]Spec, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return nil, nil
	}
	var specs []Spec
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&specs); err != nil {
		return nil, fmt.Errorf("probes: %v", err)
	}
	seen := map[string]bool{}
	for i := range specs {
		if err := specs[i].check(); err != nil {
			return nil, fmt.Errorf("probes[%d].%v", i, err)
		}
		if seen[specs[i].Name] {
			return nil, fmt.Errorf("probes[%d].name: %q names two probes; each probe needs its own name", i, specs[i].Name)
		}
		seen[specs[i].Name] = true
	}
	return specs, nil
}

// check validates one spec and fills its defaults; errors start with the field's name.
func (s *Spec) check() error {
	if len(s.Name) < 1 || len(s.Name) > 40 || !probeName.MatchString(s.Name) {
		return fmt.Errorf("name: %q is not a probe name (1–40 of a-z, 0-9, _ and -, starting with a letter or digit)", s.Name)
	}
	if s.IntervalSeconds == 0 {
		s.IntervalSeconds = 1
	}
	if math.IsNaN(s.IntervalSeconds) || s.IntervalSeconds < 0.1 || s.IntervalSeconds > 60 {
		return fmt.Errorf("intervalSeconds: %g is out of range (0.1 – 60)", s.IntervalSeconds)
	}
	switch s.Kind {
	case KindPrometheus:
		return s.checkPrometheus()
	case KindProcess:
		return s.checkProcess()
	default:
		return fmt.Errorf("kind: %q is not a probe kind (prometheus or process)", s.Kind)
	}
}

func (s *Spec) checkPrometheus() error {
	if s.Match != nil {
		return fmt.Errorf("match: only a process probe has one")
	}
	u, err := url.Parse(s.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("url: %q is not an http(s) URL", s.URL)
	}
	if s.Presets == nil {
		s.Presets = []string{"process"}
	}
	seen := map[string]bool{}
	for i, p := range s.Presets {
		if !contains(presetKeys, p) {
			return fmt.Errorf("presets[%d]: %q is not a preset (%s)", i, p, strings.Join(presetKeys, ", "))
		}
		if seen[p] {
			return fmt.Errorf("presets[%d]: %q is listed twice", i, p)
		}
		seen[p] = true
	}
	if len(s.Presets) == 0 && len(s.Series) == 0 {
		return fmt.Errorf("presets: none, and no series: the probe would measure nothing")
	}
	if len(s.Series) > 20 {
		return fmt.Errorf("series: %d series, at most 20", len(s.Series))
	}
	keys := map[string]bool{}
	for _, m := range presetMetrics(s.Presets) {
		keys[m.suffix] = true
	}
	for i, c := range s.Series {
		switch {
		case len(c.Key) > 40 || !seriesKey.MatchString(c.Key):
			return fmt.Errorf("series[%d].key: %q is not a key (1–40 of a-z, 0-9 and _)", i, c.Key)
		case len(s.Name)+1+len(c.Key) > maxMetricKey:
			return fmt.Errorf("series[%d].key: the metric key %q is %d characters; at most %d", i, s.Name+"."+c.Key, len(s.Name)+1+len(c.Key), maxMetricKey)
		case keys[c.Key]:
			return fmt.Errorf("series[%d].key: %q is already a metric of this probe", i, c.Key)
		case c.Metric == "":
			return fmt.Errorf("series[%d].metric: the Prometheus metric's name is missing", i)
		case !contains(seriesAggs, c.Aggregation):
			return fmt.Errorf("series[%d].aggregation: %q is not one of %s", i, c.Aggregation, strings.Join(seriesAggs, ", "))
		case c.Unit == "" || len(c.Unit) > 32:
			return fmt.Errorf("series[%d].unit: 1–32 characters (got %q)", i, c.Unit)
		case !contains(directions, c.Direction):
			return fmt.Errorf("series[%d].direction: %q is not one of %s", i, c.Direction, strings.Join(directions, ", "))
		}
		keys[c.Key] = true
	}
	return nil
}

func (s *Spec) checkProcess() error {
	if s.URL != "" || s.Presets != nil || s.Series != nil {
		return fmt.Errorf("kind: a process probe takes match, not url, presets or series")
	}
	if s.Match == nil {
		return fmt.Errorf("match: missing; give {\"pid\": …}, {\"name\": …} or {\"pattern\": …}")
	}
	given := 0
	if s.Match.PID != 0 {
		given++
		if s.Match.PID < 0 {
			return fmt.Errorf("match.pid: %d is not a process id", s.Match.PID)
		}
	}
	if s.Match.Name != "" {
		given++
	}
	if s.Match.Pattern != "" {
		given++
		if _, err := regexp.Compile(s.Match.Pattern); err != nil {
			return fmt.Errorf("match.pattern: %v", err)
		}
	}
	if given != 1 {
		return fmt.Errorf("match: give exactly one of pid, name and pattern")
	}
	return nil
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
