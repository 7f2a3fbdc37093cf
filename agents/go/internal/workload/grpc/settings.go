package grpc

import (
	_ "embed"
	"encoding/json"
	"fmt"
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
	Target             string            `json:"target"`
	Method             string            `json:"method"`
	ProtoFile          string            `json:"protoFile"`
	ImportPaths        []string          `json:"importPaths"`
	Data               string            `json:"data"`
	PayloadField       string            `json:"payloadField"`
	PayloadBytes       *int              `json:"payloadBytes"`
	ChunkBytes         int               `json:"chunkBytes"`
	MessagesPerCall    int               `json:"messagesPerCall"`
	Metadata           map[string]string `json:"metadata"`
	TLS                bool              `json:"tls"`
	InsecureSkipVerify bool              `json:"insecureSkipVerify"`
	Model              string            `json:"model"`
	Callers            int               `json:"callers"`
	Connections        int               `json:"connections"`
	Rate               float64           `json:"rate"`
	MaxInFlight        int               `json:"maxInFlight"`
	Duration           float64           `json:"duration"`
	Calls              int64             `json:"calls"`
	WarmupSeconds      float64           `json:"warmupSeconds"`
	TimeoutMs          int               `json:"timeoutMs"`
	Targets            []targets.Spec    `json:"targets"`
}

// defaultDuration applies when neither duration nor calls is given.
const defaultDuration = 10.0

func defaults() Settings {
	return Settings{MessagesPerCall: 1, Callers: 10, Connections: 1, MaxInFlight: 256, TimeoutMs: 10000}
}

// plan is checked settings turned into what the run needs. The method's descriptor and the
// request messages come later (from the .proto at Prepare, or the server's reflection at Run).
type plan struct {
	Settings
	service, methodName string // package.Service and Method
	duration, warmup    time.Duration
	timeout             time.Duration
	dataList            []json.RawMessage // the request messages as JSON; one {} when data is left out
	given               map[string]bool   // the settings the job gave (not defaults)
}

// parseSettings checks settings against the schema, then the rules a schema cannot say with a
// field name (duration or calls, the model's own fields, what goes with a payload or a stream).
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
	p := &plan{Settings: s, given: given, warmup: seconds(s.WarmupSeconds), timeout: time.Duration(s.TimeoutMs) * time.Millisecond}

	name := strings.TrimPrefix(s.Method, "/")
	cut := strings.LastIndexAny(name, "/.")
	p.service, p.methodName = name[:cut], name[cut+1:]

	if s.ProtoFile != "" {
		if _, err := os.Stat(s.ProtoFile); err != nil {
			bad("protoFile", "cannot be read: %v", err)
		}
	} else if given["importPaths"] {
		bad("importPaths", "is for protoFile (without it the method comes from the server's reflection)")
	}

	// data is JSON text, as ghz's -d takes it (and a text field in the dashboard's form).
	switch data := strings.TrimSpace(s.Data); {
	case data == "":
		p.dataList = []json.RawMessage{json.RawMessage("{}")}
	case !json.Valid([]byte(data)):
		var v any
		bad("data", "is not JSON: %v", json.Unmarshal([]byte(data), &v))
	case strings.HasPrefix(data, "["):
		if err := json.Unmarshal([]byte(data), &p.dataList); err != nil || len(p.dataList) == 0 {
			bad("data", "a list of messages needs at least one message")
		}
	default:
		p.dataList = []json.RawMessage{json.RawMessage(data)}
	}
	switch {
	case given["payloadField"] && !given["payloadBytes"]:
		bad("payloadBytes", "is required with payloadField (the size of the generated payload)")
	case given["payloadBytes"] && !given["payloadField"]:
		bad("payloadField", "is required with payloadBytes (the bytes field of the request that carries the payload)")
	}
	if given["chunkBytes"] && !given["payloadBytes"] {
		bad("chunkBytes", "splits the generated payload: give payloadField and payloadBytes too")
	}

	switch {
	case given["duration"] && given["calls"]:
		bad("calls", "give duration or calls, not both")
	case given["calls"]:
	case given["duration"]:
		p.duration = seconds(s.Duration)
	default:
		p.duration = seconds(defaultDuration)
	}

	if s.Model == "" {
		p.Model = loadgen.ModelClosed
		if given["rate"] {
			p.Model = loadgen.ModelOpen
		}
	}
	switch p.Model {
	case loadgen.ModelOpen:
		if !given["rate"] {
			bad("rate", "is required with the open model (calls per second)")
		}
		if given["callers"] {
			bad("callers", "is for the closed model; the open model takes rate and maxInFlight")
		}
	case loadgen.ModelClosed:
		if given["rate"] {
			bad("rate", "is for the open model; the closed model takes callers")
		}
		if given["maxInFlight"] {
			bad("maxInFlight", "is for the open model; the closed model takes callers")
		}
	}
	errs = append(errs, targets.Check(s.Targets)...)
	if given["insecureSkipVerify"] && !s.TLS {
		bad("insecureSkipVerify", "is for tls: true")
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return p, nil
}

// loadPlan is the load machinery's part of the plan. Every call ends with a gRPC status, so a
// call is a response whatever its status (latency counts every call, as ghz does) and it is an
// error unless the status is OK.
func (p *plan) loadPlan() loadgen.Plan {
	return loadgen.Plan{
		Model: p.Model, Workers: p.Callers, Rate: p.Rate, MaxInFlight: p.MaxInFlight,
		Duration: p.duration, Count: p.Calls, Warmup: p.warmup,
		Failed:     func(code int) bool { return code != 0 },
		Classify:   func(error) int { return 0 },
		ErrorKinds: []string{"other"},
	}
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
