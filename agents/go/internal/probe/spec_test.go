package probe

import (
	"strings"
	"testing"
)

func TestDecodeFillsDefaults(t *testing.T) {
	specs, err := Decode([]byte(`[{"name": "app-1", "kind": "prometheus", "url": "http://127.0.0.1:8081/actuator/prometheus"},
		{"name": "db", "kind": "process", "match": {"name": "postgres"}, "required": true, "intervalSeconds": 2}]`))
	if err != nil {
		t.Fatal(err)
	}
	if p := specs[0]; p.IntervalSeconds != 1 || len(p.Presets) != 1 || p.Presets[0] != "process" || p.Required {
		t.Errorf("defaults: %+v", p)
	}
	if p := specs[1]; p.Interval().Seconds() != 2 || !p.Required || p.Match.Name != "postgres" {
		t.Errorf("process probe: %+v", p)
	}
	for _, none := range []string{"", "null", "[]"} {
		if specs, err := Decode([]byte(none)); err != nil || len(specs) != 0 {
			t.Errorf("%q: %v %v", none, specs, err)
		}
	}
}

// A probe the agent cannot run is refused naming the field, what was wrong and what is valid.
func TestDecodeRefusesBadProbesNamingTheField(t *testing.T) {
	prom := func(extra string) string {
		return `[{"name": "app-1", "kind": "prometheus", "url": "http://x:1/metrics"` + extra + `}]`
	}
	for raw, want := range map[string]string{
		`{"name": "x"}`: "probes: json: cannot unmarshal object",
		`[{"name": "App", "kind": "prometheus", "url": "http://x/"}]`:    `probes[0].name: "App" is not a probe name`,
		`[{"name": "a", "kind": "snmp"}]`:                                `probes[0].kind: "snmp" is not a probe kind (prometheus or process)`,
		`[{"name": "a", "kind": "prometheus", "url": "localhost:9090"}]`: `probes[0].url: "localhost:9090" is not an http(s) URL`,
		prom(`, "intervalSeconds": 0.05`):                                `probes[0].intervalSeconds: 0.05 is out of range (0.1 – 60)`,
		prom(`, "presets": ["jvm", "jvm"]`):                              `probes[0].presets[1]: "jvm" is listed twice`,
		prom(`, "presets": ["dotnet"]`):                                  `probes[0].presets[0]: "dotnet" is not a preset (process, jvm, go, node)`,
		prom(`, "colour": "red"`):                                        `probes: json: unknown field "colour"`,
		prom(`, "series": [{"key": "Q", "metric": "q", "aggregation": "mean", "unit": "count", "direction": "lower_is_better"}]`): `probes[0].series[0].key: "Q" is not a key`,
		prom(`, "series": [{"key": "rss", "metric": "q", "aggregation": "mean", "unit": "B", "direction": "lower_is_better"}]`):   `probes[0].series[0].key: "rss" is already a metric of this probe`,
		prom(`, "series": [{"key": "q", "metric": "q", "aggregation": "p99", "unit": "ms", "direction": "lower_is_better"}]`):     `probes[0].series[0].aggregation: "p99" is not one of rate, delta, mean, max, min, last`,
		prom(`, "series": [{"key": "q", "metric": "q", "aggregation": "max", "unit": "ms", "direction": "down"}]`):                `probes[0].series[0].direction: "down" is not one of lower_is_better, higher_is_better`,
		prom(`, "presets": []`): `probes[0].presets: none, and no series: the probe would measure nothing`,
		`[{"name": "` + strings.Repeat("a", 40) + `", "kind": "prometheus", "url": "http://x/", "series": [{"key": "` + strings.Repeat("b", 30) + `", "metric": "q", "aggregation": "max", "unit": "ms", "direction": "lower_is_better"}]}]`: `probes[0].series[0].key: the metric key "aaaa`,
		prom(`, "match": {"pid": 1}`):                                                                                    `probes[0].match: only a process probe has one`,
		`[{"name": "db", "kind": "process"}]`:                                                                            `probes[0].match: missing`,
		`[{"name": "db", "kind": "process", "match": {"name": "a", "pid": 2}}]`:                                          `probes[0].match: give exactly one of pid, name and pattern`,
		`[{"name": "db", "kind": "process", "match": {"pattern": "("}}]`:                                                 `probes[0].match.pattern: error parsing regexp`,
		`[{"name": "db", "kind": "process", "match": {"pid": 1}, "url": "http://x/"}]`:                                   `probes[0].kind: a process probe takes match, not url, presets or series`,
		`[{"name": "a", "kind": "process", "match": {"pid": 1}}, {"name": "a", "kind": "process", "match": {"pid": 2}}]`: `probes[1].name: "a" names two probes`,
	} {
		_, err := Decode([]byte(raw))
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s:\n got %v\nwant %s…", raw, err, want)
		}
	}
}
