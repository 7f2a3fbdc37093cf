package target

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"mime"
	"net/http"
	"strconv"
)

// payloads answers /payload/binary and /payload/json: the same bytes sent as they are
// (application/octet-stream) or base64-encoded in a JSON field ({"payload": "<base64>"}), the
// HTTP halves of the HTTP-vs-gRPC comparison. GET sends a payload of ?size= bytes (default
// --payload-size); POST reads one and answers {"receivedBytes": N}.
type payloads struct {
	defaultSize int
	block       []byte // random bytes (incompressible), repeated to make a payload of any size
}

// payloadBlock is the unit a payload repeats; random so that nothing on the way compresses it.
const payloadBlock = 64 << 10

func newPayloads(defaultSize int) *payloads {
	block := make([]byte, payloadBlock)
	source := rand.NewChaCha8([32]byte{'v', 'e', 'r', 's', 'u', 's'})
	_, _ = source.Read(block)
	return &payloads{defaultSize: defaultSize, block: block}
}

// jsonPayload is the JSON form: encoding/json writes a []byte as standard base64.
type jsonPayload struct {
	Payload []byte `json:"payload"`
}

type received struct {
	ReceivedBytes int64 `json:"receivedBytes"`
}

func (p *payloads) getBinary(w http.ResponseWriter, r *http.Request) {
	size, ok := p.size(w, r)
	if !ok {
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Length", itoa(size))
	for left := size; left > 0; {
		chunk := p.block[:min(left, len(p.block))]
		if _, err := w.Write(chunk); err != nil {
			return
		}
		left -= len(chunk)
	}
}

func (p *payloads) getJSON(w http.ResponseWriter, r *http.Request) {
	size, ok := p.size(w, r)
	if !ok {
		return
	}
	// The whole payload is built and encoded per request, as a JSON API serialising a byte
	// array does: the allocation and base64 work are what this format costs.
	payload := make([]byte, size)
	for i := 0; i < size; i += len(p.block) {
		copy(payload[i:], p.block)
	}
	writeJSON(w, http.StatusOK, jsonPayload{payload})
}

func (p *payloads) postBinary(w http.ResponseWriter, r *http.Request) {
	if !contentType(w, r, "application/octet-stream") {
		return
	}
	n, err := io.Copy(io.Discard, http.MaxBytesReader(w, r.Body, MaxPayload))
	if err != nil {
		bodyError(w, err, "the body")
		return
	}
	writeJSON(w, http.StatusOK, received{n})
}

func (p *payloads) postJSON(w http.ResponseWriter, r *http.Request) {
	if !contentType(w, r, "application/json") {
		return
	}
	// Base64 is 4/3 of the payload; the rest of the document is small.
	limit := int64(MaxPayload/3*4 + 4096)
	var body struct {
		Payload *[]byte `json:"payload"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, limit)).Decode(&body); err != nil {
		var syntax *json.SyntaxError
		var typeErr *json.UnmarshalTypeError
		switch {
		case errors.As(err, &typeErr) || isBase64Error(err):
			problem(w, http.StatusBadRequest, fmt.Sprintf(`payload: must be a string of standard base64 (%v); send {"payload": "<base64>"}`, err))
		case errors.As(err, &syntax) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
			problem(w, http.StatusBadRequest, fmt.Sprintf(`the body is not JSON (%v); send {"payload": "<base64>"}`, err))
		default:
			bodyError(w, err, "the JSON body")
		}
		return
	}
	if body.Payload == nil {
		problem(w, http.StatusBadRequest, `payload: missing; send {"payload": "<base64>"}`)
		return
	}
	writeJSON(w, http.StatusOK, received{int64(len(*body.Payload))})
}

// size is ?size= or the default; on a bad value it has answered 400.
func (p *payloads) size(w http.ResponseWriter, r *http.Request) (int, bool) {
	raw := r.URL.Query().Get("size")
	if raw == "" {
		return p.defaultSize, true
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 0 || n > MaxPayload {
		problem(w, http.StatusBadRequest, fmt.Sprintf("size: must be a whole number of bytes from 0 to %d (got %q)", MaxPayload, raw))
		return 0, false
	}
	return n, true
}

// contentType refuses a body declared as something else (none declared is taken as want).
func contentType(w http.ResponseWriter, r *http.Request, want string) bool {
	declared := r.Header.Get("Content-Type")
	if declared == "" {
		return true
	}
	if media, _, err := mime.ParseMediaType(declared); err == nil && media == want {
		return true
	}
	problem(w, http.StatusUnsupportedMediaType, fmt.Sprintf("Content-Type: this endpoint reads %s (got %q)", want, declared))
	return false
}

func bodyError(w http.ResponseWriter, err error, what string) {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		problem(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("%s is over %d bytes", what, tooBig.Limit))
		return
	}
	problem(w, http.StatusBadRequest, fmt.Sprintf("%s could not be read: %v", what, err))
}

// isBase64Error: encoding/json decodes a []byte as base64 and returns base64's own error.
func isBase64Error(err error) bool {
	var corrupt base64.CorruptInputError
	return errors.As(err, &corrupt)
}

// problem answers an error as {"error": "..."}.
func problem(w http.ResponseWriter, status int, message string) {
	writeJSON(w, status, map[string]string{"error": message})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

func itoa(n int) string { return strconv.Itoa(n) }
