package http

import (
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/versus/agents/go/internal/workload"
	"github.com/versus/agents/go/internal/workload/loadgen"
	"github.com/versus/agents/go/internal/workload/targets"
)

//go:embed settings.schema.json
var schemaJSON []byte

var schema = workload.MustCompileSchema(Name, schemaJSON)

// Settings are a job's settings, decoded over the defaults.
type Settings struct {
	URL                string            `json:"url"`
	Method             string            `json:"method"`
	Headers            map[string]string `json:"headers"`
	Body               *string           `json:"body"`
	BodyFile           string            `json:"bodyFile"`
	BodySizeBytes      *int              `json:"bodySizeBytes"`
	BodyFormat         string            `json:"bodyFormat"`
	BodyJSONField      string            `json:"bodyJsonField"`
	Model              string            `json:"model"`
	Connections        int               `json:"connections"`
	Rate               float64           `json:"rate"`
	MaxConnections     int               `json:"maxConnections"`
	Duration           float64           `json:"duration"`
	Requests           int64             `json:"requests"`
	WarmupSeconds      float64           `json:"warmupSeconds"`
	KeepAlive          bool              `json:"keepAlive"`
	HTTP2              bool              `json:"http2"`
	TimeoutMs          int               `json:"timeoutMs"`
	InsecureSkipVerify bool              `json:"insecureSkipVerify"`
	SelfTarget         *SelfTarget       `json:"selfTarget"`
	Targets            []targets.Spec    `json:"targets"`
}

// SelfTarget is the in-process loopback server used when url is left out.
type SelfTarget struct {
	ResponseBytes int     `json:"responseBytes"`
	DelayMs       float64 `json:"delayMs"`
}

const (
	modelClosed = loadgen.ModelClosed
	modelOpen   = loadgen.ModelOpen
	// The bodyFormat values.
	bodyText   = "text"
	bodyBinary = "binary"
	bodyJSON   = "json"
	// defaultDuration applies when neither duration nor requests is given.
	defaultDuration = 10.0
)

func defaults() Settings {
	return Settings{Method: "GET", Connections: 10, MaxConnections: 256, KeepAlive: true, TimeoutMs: 10000, BodyFormat: bodyText, BodyJSONField: "payload"}
}

// plan is checked settings turned into what the run needs.
type plan struct {
	Settings
	body        []byte
	contentType string        // of a generated binary or JSON body; empty: none set
	duration    time.Duration // zero when the run counts requests
	warmup      time.Duration
	timeout     time.Duration
	self        *SelfTarget // non-nil: start the loopback server and aim at it
}

// parseSettings checks settings against the schema, then the rules a schema cannot say with a
// field name (at most one body, duration or requests, the model's own fields), and reads the body.
func parseSettings(raw json.RawMessage) (*plan, error) {
	s := defaults()
	if err := schema.Decode(raw, &s); err != nil {
		return nil, err
	}
	// Which fields were given, to tell "left out" from a default.
	var given map[string]json.RawMessage
	_ = json.Unmarshal(nonEmpty(raw), &given)
	var errs workload.SettingsErrors
	bad := func(field, format string, args ...any) {
		errs = append(errs, &workload.SettingsError{Field: field, Message: fmt.Sprintf(format, args...)})
	}

	p := &plan{Settings: s, timeout: time.Duration(s.TimeoutMs) * time.Millisecond, warmup: seconds(s.WarmupSeconds)}
	errs = append(errs, targets.Check(s.Targets)...)
	_, hasTargets := given["targets"]
	if hasTargets && s.URL == "" {
		bad("url", "is required with targets: give the URL the load goes to (e.g. http://127.0.0.1:17811/products), the workload never guesses which target to aim at")
	}
	if hasTargets && s.SelfTarget != nil {
		bad("selfTarget", "cannot be given with targets: the load goes to url, at the targets the agent starts")
	}
	if s.URL == "" && !hasTargets {
		p.self = &SelfTarget{ResponseBytes: 1024}
		if s.SelfTarget != nil {
			p.self = s.SelfTarget
			if _, ok := rawObject(given["selfTarget"])["responseBytes"]; !ok {
				p.self.ResponseBytes = 1024
			}
		}
	} else if s.URL != "" {
		u, err := url.Parse(s.URL)
		switch {
		case err != nil:
			bad("url", "is not a URL: %v", err)
		case u.Scheme != "http" && u.Scheme != "https":
			bad("url", "must start with http:// or https:// (got %q)", u.Scheme)
		case u.Host == "":
			bad("url", "has no host")
		}
	}

	bodies := []string{}
	for _, field := range []string{"body", "bodyFile", "bodySizeBytes"} {
		if _, ok := given[field]; ok {
			bodies = append(bodies, field)
		}
	}
	switch {
	case len(bodies) > 1:
		bad(bodies[1], "give at most one of body, bodyFile and bodySizeBytes (got %s)", strings.Join(bodies, " and "))
	case s.Body != nil:
		p.body = []byte(*s.Body)
	case s.BodyFile != "":
		data, err := os.ReadFile(s.BodyFile)
		if err != nil {
			bad("bodyFile", "cannot be read: %v", err)
		}
		p.body = data
	case s.BodySizeBytes != nil:
		p.body, p.contentType = generatedBodyOf(s)
	}
	if _, ok := given["bodyFormat"]; ok && s.BodySizeBytes == nil {
		bad("bodyFormat", "is how bodySizeBytes generated bytes are sent: give bodySizeBytes too (body and bodyFile are sent as they are)")
	}
	if _, ok := given["bodyJsonField"]; ok && s.BodyFormat != bodyJSON {
		bad("bodyJsonField", "is for bodyFormat json (got bodyFormat %s)", s.BodyFormat)
	}

	_, hasDuration := given["duration"]
	_, hasRequests := given["requests"]
	switch {
	case hasDuration && hasRequests:
		bad("requests", "give duration or requests, not both")
	case hasRequests:
	case hasDuration:
		p.duration = seconds(s.Duration)
	default:
		p.duration = seconds(defaultDuration)
	}

	_, hasRate := given["rate"]
	if s.Model == "" {
		s.Model = modelClosed
		if hasRate {
			s.Model = modelOpen
		}
		p.Model = s.Model
	}
	switch s.Model {
	case modelOpen:
		if !hasRate {
			bad("rate", "is required with the open model (requests per second)")
		}
		if _, ok := given["connections"]; ok {
			bad("connections", "is for the closed model; the open model takes rate and maxConnections")
		}
	case modelClosed:
		if hasRate {
			bad("rate", "is for the open model; the closed model takes connections")
		}
		if _, ok := given["maxConnections"]; ok {
			bad("maxConnections", "is for the open model; the closed model takes connections")
		}
	}
	if s.HTTP2 && !s.KeepAlive {
		bad("keepAlive", "false needs http2: false (HTTP/2 multiplexes requests over kept connections)")
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return p, nil
}

// loadPlan is the load machinery's part of the plan: an HTTP response is a failure unless 2xx or
// 3xx; a request without a response is sorted by classify.
func (p *plan) loadPlan() loadgen.Plan {
	return loadgen.Plan{
		Model: p.Model, Workers: p.Connections, Rate: p.Rate, MaxInFlight: p.MaxConnections,
		Duration: p.duration, Count: p.Requests, Warmup: p.warmup,
		Failed:     func(status int) bool { return status < 200 || status >= 400 },
		Classify:   classify,
		ErrorKinds: errorKindNames,
	}
}

func nonEmpty(raw json.RawMessage) json.RawMessage {
	if len(strings.TrimSpace(string(raw))) == 0 {
		return json.RawMessage("{}")
	}
	return raw
}

func rawObject(raw json.RawMessage) map[string]json.RawMessage {
	var out map[string]json.RawMessage
	_ = json.Unmarshal(raw, &out)
	return out
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// generatedBodyOf is the bodySizeBytes body in its bodyFormat, and its content type.
func generatedBodyOf(s Settings) ([]byte, string) {
	n := *s.BodySizeBytes
	switch s.BodyFormat {
	case bodyBinary:
		return loadgen.Payload(n), "application/octet-stream"
	case bodyJSON:
		// The write-up's HTTP/JSON variant: the same bytes as binary, in base64 inside a field.
		doc, _ := json.Marshal(map[string]string{s.BodyJSONField: base64.StdEncoding.EncodeToString(loadgen.Payload(n))})
		return doc, "application/json"
	default:
		return generatedBody(n), ""
	}
}

// generatedBody is n printable bytes (a repeating alphabet), so a body of a given size needs no file.
func generatedBody(n int) []byte {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[i%len(alphabet)]
	}
	return b
}
