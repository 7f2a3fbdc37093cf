package target

import (
	"io"
	"net/http"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func TestBadFlagsNameTheFlagAndWhatIsValid(t *testing.T) {
	cases := map[string][]string{
		"--burn must be from 0 to 1":                     {"--burn", "1.5"},
		"--body must be 0 or more":                       {"--body", "-1"},
		"--workers must be 0 (no limit) or more":         {"--workers", "-1"},
		"--payload-size must be from 0 to 67108864":      {"--payload-size", "67108865"},
		"--products must be from 1 to 100000":            {"--products", "0"},
		"--stall-for must be more than 0 and at most":    {"--stall-every", "1s", "--stall-for", "2s"},
		"must not be negative":                           {"--products-delay", "-1s"},
		`--upstream: "127.0.0.1:8081" is not a base URL`: {"--upstream", "127.0.0.1:8081"},
		"--cache, --products-delay: with --upstream":     {"--upstream", "http://127.0.0.1:1", "--cache", "--products-delay", "1s"},
		`unexpected argument "extra"`:                    {"extra"},
		"--grpc-addr: with --upstream":                   {"--upstream", "http://127.0.0.1:1", "--grpc-addr", "127.0.0.1:0"},
		"--s3-bucket, --s3-delay: only with --s3":        {"--s3-bucket", "mail", "--s3-delay", "20ms"},
		"--s3 cannot be given with --upstream":           {"--s3", "--upstream", "http://127.0.0.1:1"},
		`--s3-bucket: "Mail" is not a bucket name`:       {"--s3", "--s3-bucket", "Mail"},
		"--s3-delay must not be negative":                {"--s3", "--s3-delay", "-1s"},
	}
	for want, args := range cases {
		_, err := ParseOptions("target", args, io.Discard)
		if err == nil {
			t.Errorf("%v: accepted", args)
			continue
		}
		wantContains(t, err.Error(), want)
	}
	o, err := ParseOptions("target", []string{"-metrics", "-stall-every", "5s", "--upstream", "http://a:1, https://b:2/x"}, io.Discard)
	if err != nil || !o.Metrics || len(o.Upstreams) != 2 || o.Upstreams[1].String() != "https://b:2/x" {
		t.Fatalf("the benches' single-dash flags and a list of upstreams: %+v, %v", o, err)
	}
}

func TestServeStopsWhenTheContextEnds(t *testing.T) {
	target := serveGRPC(t)
	if a := get(t, target.url+"/payload/binary?size=10"); a.status != http.StatusOK || len(a.body) != 10 {
		t.Fatalf("GET = %d, %d bytes", a.status, len(a.body))
	}
	if _, err := call(t, target.addr, "Unary", `{"size": 10}`); err != nil {
		t.Fatalf("gRPC Unary: %v", err)
	}
	if err := target.stop(); err != nil {
		t.Fatalf("Serve after the context ended: %v", err)
	}
	if _, err := http.Get(target.url + "/"); err == nil {
		t.Fatal("still answering HTTP after Serve returned")
	}
	if _, err := call(t, target.addr, "Unary", `{"size": 10}`); status.Code(err) != codes.Unavailable {
		t.Fatalf("gRPC after Serve returned: %v, want Unavailable", err)
	}
}
