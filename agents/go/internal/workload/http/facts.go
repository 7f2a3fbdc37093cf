package http

// Facts is what the http workload records in the run's environment under "http": what was
// loaded and how, and the counts behind the metrics. `versus-agent run` prints its summary from
// it, and the tests read it back.
type Facts struct {
	Target          string           `json:"target"`
	Method          string           `json:"method"`
	Model           string           `json:"model"`
	Protocol        string           `json:"protocol"`
	KeepAlive       bool             `json:"keepAlive"`
	WarmupSeconds   float64          `json:"warmupSeconds"`
	DurationSeconds float64          `json:"durationSeconds"`
	Connections     int              `json:"connections,omitempty"`    // closed model
	Rate            float64          `json:"rate,omitempty"`           // open model
	MaxConnections  int              `json:"maxConnections,omitempty"` // open model
	Requests        int64            `json:"requests"`
	Responses       int64            `json:"responses"`
	StatusCodes     map[string]int64 `json:"statusCodes"`
	Non2xx3xx       int64            `json:"non2xx3xx"`
	TransportErrors map[string]int64 `json:"transportErrors"`
	BytesIn         int64            `json:"bytesIn"`
	BytesOut        int64            `json:"bytesOut"`
	SelfTarget      *SelfTarget      `json:"selfTarget,omitempty"`
}
