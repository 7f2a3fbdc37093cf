package s3

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net/url"
	"time"

	"github.com/versus/agents/go/internal/workload"
	"github.com/versus/agents/go/internal/workload/gzip"
	"github.com/versus/agents/go/internal/workload/targets"
)

//go:embed settings.schema.json
var schemaJSON []byte

var schema = workload.MustCompileSchema(Name, schemaJSON)

// Settings are a job's settings, decoded over the defaults. They hold no credentials: those come
// from the agent's environment or AWS profile only.
type Settings struct {
	Endpoint         string         `json:"endpoint"`
	Region           string         `json:"region"`
	Bucket           string         `json:"bucket"`
	KeyPrefix        string         `json:"keyPrefix"`
	PathStyle        bool           `json:"pathStyle"`
	Profile          string         `json:"profile"`
	Anonymous        bool           `json:"anonymous"`
	Operation        string         `json:"operation"`
	Payload          string         `json:"payload"`
	SizeBytes        *int           `json:"sizeBytes"`
	Seed             int64          `json:"seed"`
	File             string         `json:"file"`
	ContentType      string         `json:"contentType"`
	Gzip             bool           `json:"gzip"`
	GzipLevel        int            `json:"gzipLevel"`
	Operations       int            `json:"operations"`
	WarmupOperations int            `json:"warmupOperations"`
	Concurrency      int            `json:"concurrency"`
	TimeoutMs        int            `json:"timeoutMs"`
	Targets          []targets.Spec `json:"targets"`
}

const (
	opPut         = "put"
	opGet         = "get"
	payloadMail   = "html-mail"
	payloadSMS    = "sms"
	payloadFile   = "file"
	mailType      = "text/html; charset=utf-8"
	smsType       = "text/plain; charset=utf-8"
	binaryType    = "application/octet-stream"
	defaultRegion = "us-east-1"
)

func defaults() Settings {
	return Settings{
		Region: defaultRegion, KeyPrefix: "versus/", Operation: opPut, Payload: payloadMail,
		Seed: 1, GzipLevel: 6, Operations: 100, WarmupOperations: 20,
		Concurrency: 1, TimeoutMs: 30_000,
	}
}

// plan is checked settings with the payload read.
type plan struct {
	Settings
	payload []byte
	timeout time.Duration
}

// parseSettings checks settings against the schema, then what the schema cannot say with a field
// name (the payload's own fields, a profile or anonymous, an endpoint with targets), and reads
// the payload.
func parseSettings(raw json.RawMessage) (*plan, error) {
	s := defaults()
	if err := schema.Decode(raw, &s); err != nil {
		return nil, err
	}
	given := workload.PresentSettings(raw)
	var errs workload.SettingsErrors
	bad := func(field, format string, args ...any) {
		errs = append(errs, &workload.SettingsError{Field: field, Message: fmt.Sprintf(format, args...)})
	}
	errs = append(errs, targets.Check(s.Targets)...)
	if given["targets"] && s.Endpoint == "" {
		bad("endpoint", "is required with targets: give the address of the target serving S3 (e.g. http://127.0.0.1:17830 for a target with --s3), the workload never guesses which target to aim at")
	}
	if s.Endpoint != "" {
		if u, err := url.Parse(s.Endpoint); err != nil || u.Host == "" {
			bad("endpoint", "is not a base URL such as http://127.0.0.1:17830 (got %q)", s.Endpoint)
		}
	}
	if s.Anonymous && given["profile"] {
		bad("profile", "cannot be given with anonymous: true (anonymous requests use no credentials)")
	}
	if given["gzipLevel"] && !s.Gzip {
		bad("gzipLevel", "is for gzip: true (the payload is sent as it is without it)")
	}

	p := &plan{Settings: s, timeout: time.Duration(s.TimeoutMs) * time.Millisecond}
	switch s.Payload {
	case payloadFile:
		for _, other := range []string{"sizeBytes", "seed"} {
			if given[other] {
				bad(other, "is for payload html-mail or sms; with payload file the file's bytes are the payload")
			}
		}
		if s.File == "" {
			bad("file", "is required with payload file: the path of a file on the agent's machine")
		} else if data, err := gzip.ReadPayloadFile(s.File); err != nil {
			bad("file", "%v", err)
		} else {
			p.payload = data
		}
		if p.ContentType == "" {
			p.ContentType = binaryType
		}
	default:
		if given["file"] {
			bad("file", "is for payload file (got payload %s): give payload file too, or leave file out", s.Payload)
		}
		size, generate, contentType := 51_200, mailPayload, mailType
		if s.Payload == payloadSMS {
			size, generate, contentType = 80, smsPayload, smsType
		}
		if s.SizeBytes != nil {
			size = *s.SizeBytes
		}
		p.payload = generate(size, s.Seed)
		if p.ContentType == "" {
			p.ContentType = contentType
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return p, nil
}
