package api

import (
	"errors"
	"fmt"
	"time"
)

// The kinds of failure a call can end in, as the loops act on them (the error table of
// docs/agent-protocol.md). Test with errors.Is(err, api.ErrConflict) and so on.
var (
	// ErrUnauthorized: the credential (or enrollment token) is unknown, malformed or revoked:
	// stop the agent; restarting will not help.
	ErrUnauthorized = errors.New("unauthorized")
	// ErrConflict: the lease is not this agent's any more: stop the job, drop its result.
	ErrConflict = errors.New("conflict")
	// ErrNotFound: no such job in this agent's project: drop it.
	ErrNotFound = errors.New("not found")
	// ErrRejected: the server refused the request itself (400, 413, 422): never retry it as is;
	// a refused run becomes a failure report carrying the server's message.
	ErrRejected = errors.New("rejected")
	// ErrUnavailable: 5xx, 429 or a network error: retry with backoff (no sooner than the
	// server's Retry-After), keep the result.
	ErrUnavailable = errors.New("unavailable")
)

// Error is a call that did not succeed: which call, the HTTP status (0 when no response came)
// and the server's error body when it sent one.
type Error struct {
	Call    string
	Status  int
	Code    string         // e.g. "CONFLICT"; empty without an error body
	Message string         // the server's message, or what went wrong on the way
	Details map[string]any // the server's details (details.fields names bad fields)
	// RetryAfter is how long the server asked to wait before trying again (its Retry-After
	// header, sent with a 503 while its database restarts); 0 when it did not say.
	RetryAfter time.Duration
	kind       error
}

func (e *Error) Error() string {
	if e.Status == 0 {
		return fmt.Sprintf("%s: %s", e.Call, e.Message)
	}
	if e.Message == "" {
		return fmt.Sprintf("%s: HTTP %d", e.Call, e.Status)
	}
	return fmt.Sprintf("%s: HTTP %d %s", e.Call, e.Status, e.Message)
}

// Is makes errors.Is(err, ErrConflict) and friends work.
func (e *Error) Is(target error) bool { return target == e.kind }

// Unwrap gives the kind, for errors.Is through wrappers.
func (e *Error) Unwrap() error { return e.kind }

// kindOf maps an HTTP status to its kind.
func kindOf(status int) error {
	switch {
	case status == 401:
		return ErrUnauthorized
	case status == 404:
		return ErrNotFound
	case status == 409:
		return ErrConflict
	case status == 429 || status >= 500:
		return ErrUnavailable
	default:
		return ErrRejected
	}
}

// Retryable says whether another try of the same request could succeed.
func Retryable(err error) bool { return errors.Is(err, ErrUnavailable) }

// UnreadableJobError is a claim answered with a job this agent cannot read (a server speaking
// another version of the protocol). The job is leased to this agent all the same, so the agent
// fails it, saying why, rather than leave it leased until its lease runs out.
type UnreadableJobError struct {
	JobID      string
	LeaseToken string
	Problem    string
}

func (e *UnreadableJobError) Error() string {
	return fmt.Sprintf("the agent cannot read job %s: %s", e.JobID, e.Problem)
}
