package agent

import (
	"math"
	"strings"
	"testing"

	"github.com/versus/agents/go/internal/api"
	"github.com/versus/agents/go/internal/result"
	"github.com/versus/agents/go/internal/workload"
)

func TestUnitFactorWithinAFamilyOnly(t *testing.T) {
	for _, c := range []struct {
		from, to string
		want     float64
		ok       bool
	}{{"us", "ms", 1e-3, true}, {"B", "KiB", 1.0 / 1024, true}, {"s", "ns", 1e9, true}, {"ms", "ms", 1, true}, {"ms", "B", 0, false}, {"req/s", "ms", 0, false}} {
		got, ok := unitFactor(c.from, c.to)
		if ok != c.ok || math.Abs(got-c.want) > 1e-12*math.Max(1, c.want) {
			t.Errorf("%s→%s: got %v %v, want %v %v", c.from, c.to, got, ok, c.want, c.ok)
		}
	}
}

func TestJobMetricsConvertEveryFormToTheJobsUnit(t *testing.T) {
	recorded := []result.Metric{
		{Key: "t", Unit: "us", Direction: result.LowerIsBetter, Samples: []float64{1000, 2000}, Histogram: "HISTfake", HistogramScale: 1,
			Summary: &result.Summary{N: 2, Mean: 1500, P99: result.F(2000)}, TimeSeries: &result.TimeSeries{IntervalMs: 1000, Values: []float64{3000}}, Value: result.F(4000)},
		{Key: "b", Unit: "B", SamplesBase64: result.EncodeSamples([]float64{2048})},
		{Key: "rps", Unit: "req/s", Samples: []float64{5}},
		{Key: "extra", Unit: "ms", Samples: []float64{1}},
	}
	specs := []workload.MetricSpec{{Key: "t", Unit: "us"}, {Key: "b", Unit: "B"}, {Key: "rps", Unit: "req/s"}, {Key: "extra", Unit: "ms"}}
	metrics, missing, problem := jobMetrics([]api.JobMetric{{Key: "t", Unit: "ms"}, {Key: "b", Unit: "KiB", Direction: "higher_is_better"}, {Key: "rps", Unit: "ms"}, {Key: "gone"}}, specs, recorded)
	if problem != "" || len(metrics) != 3 || len(missing) != 1 || missing[0] != "gone" {
		t.Fatalf("metrics %+v missing %v problem %q", metrics, missing, problem)
	}
	tm := metrics[0]
	if tm.Unit != "ms" || tm.Samples[0] != 1 || tm.Samples[1] != 2 || tm.Summary.Mean != 1.5 || *tm.Summary.P99 != 2 || tm.TimeSeries.Values[0] != 3 || tm.HistogramScale != 1000 || *tm.Value != 4 {
		t.Errorf("t converted to %+v (summary %+v)", tm, *tm.Summary)
	}
	if recorded[0].Samples[0] != 1000 || *recorded[0].Value != 4000 {
		t.Error("the recorded metric was changed in place")
	}
	b := metrics[1]
	values, err := decodeSamples(b.SamplesBase64)
	if err != nil || b.Unit != "KiB" || values[0] != 2 || b.Direction != result.HigherIsBetter {
		t.Errorf("b converted to %+v (%v %v)", b, values, err)
	}
	// Another family: sent as recorded, for the server to refuse with its message.
	if r := metrics[2]; r.Unit != "req/s" || r.Samples[0] != 5 {
		t.Errorf("rps sent as %+v", r)
	}
}

func TestAJobWithoutMetricsGetsEverythingRecorded(t *testing.T) {
	metrics, _, problem := jobMetrics(nil, nil, []result.Metric{{Key: "a", Unit: "ms", Samples: []float64{1}}, {Key: "b", Unit: "B", Samples: []float64{2}}})
	if problem != "" || len(metrics) != 2 {
		t.Fatalf("%v %q", metrics, problem)
	}
}

func TestNoneOfTheAskedMetricsIsAProblemThatSaysWhy(t *testing.T) {
	_, _, problem := jobMetrics([]api.JobMetric{{Key: "x"}}, []workload.MetricSpec{{Key: "slept_ms", Unit: "ms"}}, []result.Metric{{Key: "slept_ms", Unit: "ms", Samples: []float64{1}}})
	if !strings.Contains(problem, "none of the experiment's metrics (x); it reports slept_ms (ms)") {
		t.Fatalf("problem %q", problem)
	}
}
