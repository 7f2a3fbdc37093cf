package grpc

// Facts is what the grpc workload records in the run's environment under "grpc": what was
// called and how, and the counts behind the metrics. `versus-agent run` prints its summary from
// it, and the tests read it back.
type Facts struct {
	Target           string           `json:"target"`
	Method           string           `json:"method"`
	Kind             string           `json:"kind"` // unary, serverStreaming, clientStreaming, bidi
	DescribedBy      string           `json:"describedBy"`
	TLS              bool             `json:"tls"`
	Model            string           `json:"model"`
	Connections      int              `json:"connections"`
	Callers          int              `json:"callers,omitempty"`     // closed model
	Rate             float64          `json:"rate,omitempty"`        // open model
	MaxInFlight      int              `json:"maxInFlight,omitempty"` // open model
	WarmupSeconds    float64          `json:"warmupSeconds"`
	DurationSeconds  float64          `json:"durationSeconds"`
	Calls            int64            `json:"calls"`
	StatusCodes      map[string]int64 `json:"statusCodes"` // by name: OK, UNAVAILABLE, DEADLINE_EXCEEDED, …
	Errors           int64            `json:"errors"`      // calls whose status is not OK
	MessagesSent     int              `json:"messagesSentPerCall"`
	RequestBytes     int              `json:"requestBytesPerCall"` // encoded messages, before gRPC framing
	MessagesReceived int64            `json:"messagesReceived"`    // in the whole run, warm-up included
	BytesIn          int64            `json:"bytesIn"`
	BytesOut         int64            `json:"bytesOut"`
}
