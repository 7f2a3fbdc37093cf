package http

import (
	"net/url"
	"strconv"

	"github.com/versus/agents/go/internal/workload"
	"github.com/versus/agents/go/internal/workload/loadgen"
)

// report records the run's metrics (the load machinery's family), then the http facts and the
// model's warnings.
func report(l *loadgen.Load, p *plan, target *url.URL, rec workload.Recorder) error {
	t, err := l.Report(rec)
	if err != nil {
		return err
	}
	codes := map[string]int64{}
	for code, n := range t.Statuses {
		name := strconv.Itoa(code)
		if code < 0 {
			name = "other"
		}
		codes[name] = n
	}
	facts := Facts{
		Target:          target.String(),
		Method:          p.Method,
		Model:           p.Model,
		Protocol:        protocolOf(p),
		KeepAlive:       p.KeepAlive,
		WarmupSeconds:   p.WarmupSeconds,
		DurationSeconds: t.Seconds,
		Requests:        t.Responses + t.NoResponse,
		Responses:       t.Responses,
		StatusCodes:     codes,
		Non2xx3xx:       t.FailedResponses,
		TransportErrors: t.Errors,
		BytesIn:         t.BytesIn,
		BytesOut:        t.BytesOut,
		SelfTarget:      p.self,
	}
	if p.Model == modelOpen {
		facts.Rate = p.Rate
		facts.MaxConnections = p.MaxConnections
	} else {
		facts.Connections = p.Connections
	}
	rec.Environment("http", facts)
	l.Warn(rec, t, loadgen.Nouns{Workers: "connections", Operations: "requests"})
	rec.Logf("http: %d responses, %d transport errors, %d non-2xx/3xx in %.2fs", t.Responses, t.NoResponse, t.FailedResponses, t.Seconds)
	return nil
}

func protocolOf(p *plan) string {
	if p.HTTP2 {
		return "HTTP/2"
	}
	return "HTTP/1.1"
}
