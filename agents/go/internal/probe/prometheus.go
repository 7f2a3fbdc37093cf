package probe

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// acceptHeader asks for the Prometheus text format first (the cheaper parser) and takes
// OpenMetrics from a target that only speaks that.
const acceptHeader = "text/plain;version=0.0.4;q=0.9,application/openmetrics-text;version=1.0.0;q=0.5,*/*;q=0.1"

// maxScrapeBytes bounds what one scrape reads: an exporter's page is tens of KiB.
const maxScrapeBytes = 16 << 20

// promSource scrapes a Prometheus text / OpenMetrics endpoint.
type promSource struct {
	url        string
	client     *http.Client
	quantities []quantity
	origins    []string // per quantity: "preset jvm", "series queue_depth" (for errors)
	defs       []metricDef
	wanted     map[string]bool // the sample names the quantities read
	// openMetricsParser: the target's OpenMetrics needs expfmt's OpenMetrics parser (see decode).
	openMetricsParser atomic.Bool
}

func newPromSource(s Spec) *promSource {
	p := &promSource{url: s.URL, wanted: map[string]bool{}}
	for _, name := range s.Presets {
		for _, q := range presets[name].quantities {
			p.quantities = append(p.quantities, q)
			p.origins = append(p.origins, "preset "+name)
		}
		p.defs = append(p.defs, presets[name].metrics...)
	}
	for _, c := range s.Series {
		q, m := customSeries(c)
		p.quantities = append(p.quantities, q)
		p.origins = append(p.origins, "series "+c.Key)
		p.defs = append(p.defs, m)
	}
	for _, q := range p.quantities {
		p.wanted[q.sample] = true
		if q.minus != "" {
			p.wanted[q.minus] = true
		}
		if q.fallback != "" {
			p.wanted[q.fallback] = true
		}
	}
	// A scrape that takes longer than the interval is late, not lost: its interval still gets a
	// value from the times the readings were taken. Past the timeout it is a gap.
	timeout := min(max(s.Interval(), 2*time.Second), 10*time.Second)
	// No proxy from the environment: a probe's target is on the machines under test.
	p.client = &http.Client{Timeout: timeout, Transport: &http.Transport{
		Proxy: nil, MaxIdleConns: 1, IdleConnTimeout: time.Minute, ResponseHeaderTimeout: timeout,
		DialContext: (&net.Dialer{Timeout: timeout}).DialContext,
	}}
	return p
}

func (p *promSource) metrics() []metricDef { return p.defs }

func (p *promSource) counters() []string {
	var out []string
	for _, q := range p.quantities {
		if q.counter {
			out = append(out, q.name)
		}
	}
	return out
}

func (p *promSource) close() { p.client.CloseIdleConnections() }

// read scrapes once and sums each quantity's samples.
func (p *promSource) read(ctx context.Context) (reading, error) {
	samples, err := p.scrape(ctx)
	if err != nil {
		return nil, err
	}
	return p.values(samples)
}

// values sums each quantity's samples of one scrape.
func (p *promSource) values(samples map[string][]labeled) (reading, error) {
	r := make(reading, len(p.quantities))
	for i, q := range p.quantities {
		v, found := sum(samples[q.sample], q.labels)
		if !found && !q.optional {
			return nil, fmt.Errorf("%s: no %s series", p.origins[i], seriesName(q.sample, q.labels))
		}
		if q.minus != "" {
			m, found := sum(samples[q.minus], nil)
			if !found {
				return nil, fmt.Errorf("%s: no %s series", p.origins[i], q.minus)
			}
			v -= m
		}
		if q.scale != 0 {
			v *= q.scale
		}
		r[q.name] = v
	}
	return r, nil
}

// settle is the first reading, before the run: a quantity the target lacks takes its fallback
// series (the metrics read it under its own name, so a reset warning names what the target
// exports), or, if droppable, is left out with its metrics and a note for the run. What neither
// saves is an error, naming the series (and its fallback).
func (p *promSource) settle(ctx context.Context) (notes []string, err error) {
	samples, err := p.scrape(ctx)
	if err != nil {
		return nil, err
	}
	var kept []quantity
	var origins []string
	for i, q := range p.quantities {
		if _, found := sum(samples[q.sample], q.labels); !found && q.fallback != "" {
			if _, found := sum(samples[q.fallback], q.labels); !found {
				return nil, fmt.Errorf("%s: no %s or %s series", p.origins[i], seriesName(q.sample, q.labels), seriesName(q.fallback, q.labels))
			}
			p.renameQuantity(q.name, q.fallback)
			q.name, q.sample, q.scale = q.fallback, q.fallback, q.fallbackScale
		} else if !found && q.droppable {
			dropped := strings.Join(p.dropMetrics(q.name), " and ")
			notes = append(notes, fmt.Sprintf("%s: the target has no %s series, so %s are not reported; %s",
				p.origins[i], q.name, dropped, q.dropHint))
			continue
		}
		kept = append(kept, q)
		origins = append(origins, p.origins[i])
	}
	p.quantities, p.origins = kept, origins
	_, err = p.values(samples)
	return notes, err
}

// renameQuantity points the metrics read from quantity from at to.
func (p *promSource) renameQuantity(from, to string) {
	for i := range p.defs {
		if p.defs[i].q == from {
			p.defs[i].q = to
		}
	}
}

// dropMetrics removes the metrics read from quantity q and returns their suffixes.
func (p *promSource) dropMetrics(q string) []string {
	var kept []metricDef
	var dropped []string
	for _, d := range p.defs {
		if d.q == q || d.all == q {
			dropped = append(dropped, d.suffix)
			continue
		}
		kept = append(kept, d)
	}
	p.defs = kept
	return dropped
}

// labeled is one sample: its labels and value.
type labeled struct {
	labels []*dto.LabelPair
	value  float64
}

// sum adds the samples whose labels include every label of want; found is false when none does.
func sum(samples []labeled, want map[string]string) (total float64, found bool) {
	for _, s := range samples {
		if matches(s.labels, want) {
			total += s.value
			found = true
		}
	}
	return total, found
}

func matches(have []*dto.LabelPair, want map[string]string) bool {
	for name, value := range want {
		ok := false
		for _, l := range have {
			if l.GetName() == name {
				ok = l.GetValue() == value
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// scrape GETs the endpoint and returns the samples of the wanted names.
func (p *promSource) scrape(ctx context.Context) (map[string][]labeled, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.url, nil)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %v", p.url, err)
	}
	req.Header.Set("Accept", acceptHeader)
	resp, err := p.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %s", p.url, describeHTTPError(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return nil, fmt.Errorf("GET %s: %s", p.url, resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxScrapeBytes))
	if err != nil {
		return nil, fmt.Errorf("GET %s: reading the answer: %s", p.url, describeHTTPError(err))
	}
	out := map[string][]labeled{}
	if err := p.decode(resp.Header, body, out); err != nil {
		return nil, fmt.Errorf("GET %s: not Prometheus text or OpenMetrics (%s): %v", p.url, resp.Header.Get("Content-Type"), err)
	}
	return out, nil
}

// decode parses a page into out. OpenMetrics goes through the classic text parser first: it
// reads the pages exporters write (counters come as untyped `<name>_total` samples, the sample
// names the quantities look for) in about 0.3 ms, where expfmt's OpenMetrics parser, built on a
// generic ABNF grammar, takes over half a second of CPU for the same page. A page the text parser
// refuses (timestamps in seconds, exemplars, the unknown type) goes to the OpenMetrics parser,
// and so do the target's later pages.
func (p *promSource) decode(header http.Header, body []byte, out map[string][]labeled) error {
	format := expfmt.ResponseFormat(header)
	switch format.FormatType() {
	case expfmt.TypeOpenMetrics:
		if !p.openMetricsParser.Load() {
			parser := expfmt.NewTextParser(model.UTF8Validation)
			families, err := parser.TextToMetricFamilies(bytes.NewReader(body))
			if err == nil {
				for _, mf := range families {
					p.collect(mf, out)
				}
				return nil
			}
			p.openMetricsParser.Store(true)
			clear(out)
		}
	case expfmt.TypeUnknown:
		// text/plain without a version, or no Content-Type: the classic text format.
		format = expfmt.NewFormat(expfmt.TypeTextPlain)
	}
	dec := expfmt.NewDecoder(bytes.NewReader(body), format)
	for {
		var mf dto.MetricFamily
		err := dec.Decode(&mf)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		p.collect(&mf, out)
	}
}

// collect keeps the samples of one family that a quantity reads, by sample name: a counter's
// own name (OpenMetrics counters come with their _total), a summary's or histogram's _count and
// _sum, a gauge's or untyped metric's name.
func (p *promSource) collect(mf *dto.MetricFamily, out map[string][]labeled) {
	name := mf.GetName()
	add := func(sample string, labels []*dto.LabelPair, v float64) {
		if p.wanted[sample] {
			out[sample] = append(out[sample], labeled{labels, v})
		}
	}
	for _, m := range mf.Metric {
		switch mf.GetType() {
		case dto.MetricType_COUNTER:
			add(name, m.Label, m.GetCounter().GetValue())
		case dto.MetricType_GAUGE:
			add(name, m.Label, m.GetGauge().GetValue())
		case dto.MetricType_UNTYPED:
			add(name, m.Label, m.GetUntyped().GetValue())
		case dto.MetricType_SUMMARY:
			add(name+"_count", m.Label, float64(m.GetSummary().GetSampleCount()))
			add(name+"_sum", m.Label, m.GetSummary().GetSampleSum())
		case dto.MetricType_HISTOGRAM, dto.MetricType_GAUGE_HISTOGRAM:
			h := m.GetHistogram()
			count := float64(h.GetSampleCount())
			if h.SampleCountFloat != nil {
				count = h.GetSampleCountFloat()
			}
			add(name+"_count", m.Label, count)
			add(name+"_sum", m.Label, h.GetSampleSum())
		}
	}
}

// describeHTTPError says what went wrong without Go's wrapping ("Get \"…\": dial tcp …:").
func describeHTTPError(err error) string {
	var netErr net.Error
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset"
	case errors.As(err, &netErr) && netErr.Timeout():
		return "no answer in time (timeout)"
	}
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		return urlErr.Err.Error()
	}
	return err.Error()
}
