package target

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// --s3 serves the S3 API at the target's address (an object put comes back as it was, with its
// Content-Encoding), counts it at /metrics, and buckets come into being when first written to.
func TestS3ServesObjectsAndKeepsMetrics(t *testing.T) {
	server := start(t, "--s3")
	put := do(t, http.MethodPut, server.URL+"/mail/a/1", "text/html", []byte("<p>hello</p>"))
	if put.status != http.StatusOK {
		t.Fatalf("PUT = %d %s", put.status, put.body)
	}
	got := get(t, server.URL+"/mail/a/1")
	if got.status != http.StatusOK || string(got.body) != "<p>hello</p>" {
		t.Fatalf("GET = %d %q", got.status, got.body)
	}
	metrics := get(t, server.URL+"/metrics")
	if metrics.status != http.StatusOK {
		t.Fatalf("GET /metrics = %d", metrics.status)
	}
	wantContains(t, string(metrics.body), `versus_target_s3_requests_total{method="PUT"} 1`, `versus_target_s3_requests_total{method="GET"} 1`, "versus_target_s3_received_bytes_total 12", "process_cpu_seconds_total")
	// The other endpoints are not served: the path is a bucket and a key.
	if a := get(t, server.URL+"/products"); a.status == http.StatusOK && !strings.Contains(string(a.body), "ListBucketResult") {
		t.Fatalf("GET /products with --s3 answered as the products endpoint: %s", a.body)
	}
}

// With --s3-bucket only those buckets exist: another is S3's NoSuchBucket, in S3's XML.
func TestS3BucketFlagMakesOnlyThoseBuckets(t *testing.T) {
	server := start(t, "--s3", "--s3-bucket", "mail,sms")
	if a := do(t, http.MethodPut, server.URL+"/sms/x", "text/plain", []byte("hi")); a.status != http.StatusOK {
		t.Fatalf("PUT to a bucket of --s3-bucket = %d %s", a.status, a.body)
	}
	a := do(t, http.MethodPut, server.URL+"/other/x", "text/plain", []byte("hi"))
	if a.status != http.StatusNotFound {
		t.Fatalf("PUT to another bucket = %d %s", a.status, a.body)
	}
	wantContains(t, string(a.body), "<Code>NoSuchBucket</Code>")
}

// --s3-delay holds every S3 request (not /metrics) for at least the delay.
func TestS3DelayHoldsEveryRequest(t *testing.T) {
	server := start(t, "--s3", "--s3-delay", "30ms")
	began := time.Now()
	if a := do(t, http.MethodPut, server.URL+"/mail/x", "text/plain", []byte("hi")); a.status != http.StatusOK {
		t.Fatalf("PUT = %d %s", a.status, a.body)
	}
	if took := time.Since(began); took < 30*time.Millisecond {
		t.Fatalf("the PUT took %v, less than --s3-delay 30ms", took)
	}
}

// --s3-access-key refuses unsigned requests and those signed with another key, as S3 would.
func TestS3AccessKeyRefusesOtherKeys(t *testing.T) {
	server := start(t, "--s3", "--s3-access-key", "AKIDRIGHT")
	unsigned := do(t, http.MethodPut, server.URL+"/mail/x", "text/plain", []byte("hi"))
	if unsigned.status != http.StatusForbidden {
		t.Fatalf("unsigned PUT = %d", unsigned.status)
	}
	wantContains(t, string(unsigned.body), "<Code>AccessDenied</Code>")
	signed := func(key string) answer {
		req, _ := http.NewRequest(http.MethodPut, server.URL+"/mail/x", strings.NewReader("hi"))
		req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential="+key+"/20260101/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=00")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return answer{status: resp.StatusCode, body: body}
	}
	if a := signed("AKIDWRONG"); a.status != http.StatusForbidden || !strings.Contains(string(a.body), "<Code>InvalidAccessKeyId</Code>") {
		t.Fatalf("PUT signed with another key = %d %s", a.status, a.body)
	}
	if a := signed("AKIDRIGHT"); a.status != http.StatusOK {
		t.Fatalf("PUT signed with the key = %d %s", a.status, a.body)
	}
}
