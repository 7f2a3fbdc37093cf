package target

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

func TestFixedAnswerAtRootOnly(t *testing.T) {
	server := start(t, "--body", "21")
	a := get(t, server.URL+"/")
	if a.status != http.StatusOK || string(a.body) != strings.Repeat("x", 21) || a.header.Get("Content-Type") != "text/plain" {
		t.Fatalf("GET / = %d %q %q", a.status, a.header.Get("Content-Type"), a.body)
	}
	if a := get(t, server.URL+"/nowhere"); a.status != http.StatusNotFound {
		t.Fatalf("GET /nowhere = %d, want 404", a.status)
	}
}

func TestBinaryPayloadGetAndPost(t *testing.T) {
	server := start(t)
	a := get(t, server.URL+"/payload/binary")
	if a.status != http.StatusOK || a.header.Get("Content-Type") != "application/octet-stream" || len(a.body) != 1<<20 {
		t.Fatalf("GET default = %d %q, %d bytes; want 200 octet-stream 1 MiB", a.status, a.header.Get("Content-Type"), len(a.body))
	}
	// Random bytes: a compressing proxy or transport could not shrink them.
	if distinct := countDistinct(a.body[:4096]); distinct < 200 {
		t.Fatalf("payload has %d distinct byte values in its first 4 KiB; want random bytes", distinct)
	}
	sized := get(t, server.URL+"/payload/binary?size=100001")
	if len(sized.body) != 100001 || sized.header.Get("Content-Length") != "100001" || !bytes.Equal(sized.body, a.body[:100001]) {
		t.Fatalf("?size=100001: %d bytes (Content-Length %s), want the default payload's first 100001", len(sized.body), sized.header.Get("Content-Length"))
	}
	if empty := get(t, server.URL+"/payload/binary?size=0"); empty.status != http.StatusOK || len(empty.body) != 0 {
		t.Fatalf("?size=0 = %d, %d bytes", empty.status, len(empty.body))
	}

	posted := do(t, http.MethodPost, server.URL+"/payload/binary", "application/octet-stream", a.body)
	if posted.status != http.StatusOK || string(posted.body) != `{"receivedBytes":1048576}` {
		t.Fatalf("POST 1 MiB = %d %s", posted.status, posted.body)
	}
	if noType := do(t, http.MethodPost, server.URL+"/payload/binary", "", []byte("abc")); string(noType.body) != `{"receivedBytes":3}` {
		t.Fatalf("POST without a Content-Type = %d %s", noType.status, noType.body)
	}
	wantContains(t, errorOf(t, do(t, http.MethodPost, server.URL+"/payload/binary", "text/plain", []byte("abc")), http.StatusUnsupportedMediaType),
		"Content-Type", "application/octet-stream", "text/plain")
	for _, bad := range []string{"-1", "abc", "67108865"} {
		wantContains(t, errorOf(t, get(t, server.URL+"/payload/binary?size="+bad), http.StatusBadRequest), "size:", "from 0 to 67108864", bad)
	}
}

func TestJSONPayloadCarriesTheSameBytesInBase64(t *testing.T) {
	server := start(t, "--payload-size", "3000")
	binary := get(t, server.URL+"/payload/binary")
	a := get(t, server.URL+"/payload/json")
	if a.status != http.StatusOK || a.header.Get("Content-Type") != "application/json" {
		t.Fatalf("GET = %d %q", a.status, a.header.Get("Content-Type"))
	}
	var doc map[string]string
	if err := json.Unmarshal(a.body, &doc); err != nil || len(doc) != 1 {
		t.Fatalf("answer is not {\"payload\": …}: %.80s (%v)", a.body, err)
	}
	decoded, err := base64.StdEncoding.DecodeString(doc["payload"])
	if err != nil || !bytes.Equal(decoded, binary.body) || len(decoded) != 3000 {
		t.Fatalf("payload decodes to %d bytes (%v), want the binary endpoint's 3000", len(decoded), err)
	}
	if mib := get(t, server.URL+"/payload/json?size=1048576"); len(mib.body) != len(`{"payload":""}`)+base64.StdEncoding.EncodedLen(1<<20) {
		t.Fatalf("?size=1048576: %d bytes of JSON, want 1 MiB in base64 plus the field", len(mib.body))
	}

	body, _ := json.Marshal(map[string][]byte{"payload": binary.body})
	posted := do(t, http.MethodPost, server.URL+"/payload/json", "application/json; charset=utf-8", body)
	if posted.status != http.StatusOK || string(posted.body) != `{"receivedBytes":3000}` {
		t.Fatalf("POST = %d %s", posted.status, posted.body)
	}
	post := func(body string) answer {
		return do(t, http.MethodPost, server.URL+"/payload/json", "application/json", []byte(body))
	}
	wantContains(t, errorOf(t, post(`{"payload": "a!b="}`), http.StatusBadRequest), "payload:", "base64")
	wantContains(t, errorOf(t, post(`{"payload": 12}`), http.StatusBadRequest), "payload:", "base64")
	wantContains(t, errorOf(t, post(`{"data": "aGk="}`), http.StatusBadRequest), "payload: missing")
	wantContains(t, errorOf(t, post(`{"payload": "aGk=`), http.StatusBadRequest), "not JSON")
	wantContains(t, errorOf(t, do(t, http.MethodPost, server.URL+"/payload/json", "application/octet-stream", body), http.StatusUnsupportedMediaType), "application/json")
}

func countDistinct(data []byte) int {
	var seen [256]bool
	n := 0
	for _, b := range data {
		if !seen[b] {
			seen[b], n = true, n+1
		}
	}
	return n
}
