package target

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// start serves a target with the given flags (as on the command line) for the test's duration.
func start(t *testing.T, args ...string) *httptest.Server {
	t.Helper()
	o, err := ParseOptions("target", args, io.Discard)
	if err != nil {
		t.Fatalf("flags %v: %v", args, err)
	}
	server := httptest.NewServer(NewHandler(o))
	t.Cleanup(server.Close)
	return server
}

type answer struct {
	status int
	header http.Header
	body   []byte
}

func do(t *testing.T, method, url, contentType string, body []byte) answer {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return answer{resp.StatusCode, resp.Header, data}
}

func get(t *testing.T, url string) answer { t.Helper(); return do(t, http.MethodGet, url, "", nil) }

// errorOf is the "error" of a JSON error answer, after checking its status.
func errorOf(t *testing.T, a answer, status int) string {
	t.Helper()
	if a.status != status {
		t.Fatalf("status %d, want %d (%s)", a.status, status, a.body)
	}
	var e struct{ Error string }
	if err := json.Unmarshal(a.body, &e); err != nil || e.Error == "" {
		t.Fatalf("not a JSON error: %s", a.body)
	}
	return e.Error
}

func wantContains(t *testing.T, got string, parts ...string) {
	t.Helper()
	for _, part := range parts {
		if !strings.Contains(got, part) {
			t.Errorf("%q does not say %q", got, part)
		}
	}
}
