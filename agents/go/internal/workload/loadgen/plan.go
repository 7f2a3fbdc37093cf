// Package loadgen is the load machinery the network workloads (http, grpc) share: the closed
// model (N workers, each starting its next operation when the previous one finished, like wrk
// and ghz) and the open model (operations due at a constant rate, latency counted from the time
// each was due, like wrk2 and vegeta), warm-up, a duration or a count, an HdrHistogram of
// latency, per-second series, status counting, wire bytes, and the metrics they make. A workload
// gives it a Sender per worker (one operation: an HTTP request, a gRPC call) and reads the
// counts back in Totals for its own facts.
package loadgen

import "time"

// The load models.
const (
	ModelClosed = "closed"
	ModelOpen   = "open"
)

// Plan is how much load, in which model, and how a workload's outcomes are sorted.
type Plan struct {
	Model       string
	Workers     int     // closed model: concurrent workers
	Rate        float64 // open model: operations started per second
	MaxInFlight int     // open model: at most this many operations in flight
	Duration    time.Duration
	Count       int64 // when Duration is zero: the number of measured operations
	Warmup      time.Duration

	// Failed says whether a response's status counts as an error (HTTP: not 2xx/3xx).
	Failed func(status int) bool
	// Classify sorts an error without a response into one of ErrorKinds (an index).
	Classify func(error) int
	// ErrorKinds names the kinds Classify returns (at most 8).
	ErrorKinds []string
}

// Sender performs one operation and waits for its outcome. Each worker has its own sender
// (buffers are reused, never shared).
type Sender interface {
	// Send returns the response's status, or an error when no response came.
	Send() (status int, err error)
}
