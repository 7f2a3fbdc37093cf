package s3

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"github.com/versus/agents/go/internal/execute"
	"github.com/versus/agents/go/internal/result"
	"github.com/versus/agents/go/internal/target"
	"github.com/versus/agents/go/internal/workload"
	"github.com/versus/agents/go/internal/workload/workloadtest"
)

// The credentials of the tests' environment: none of them may show in a run or a log line.
const (
	testKeyID  = "AKIDVERSUSTESTKEY0001"
	testSecret = "versus-test-secret-never-shown-0001"
)

// fakeS3 is an in-process S3 (gofakes3 over memory); autoBucket makes a bucket on first write.
type fakeS3 struct {
	url     string
	backend *s3mem.Backend
}

func startFakeS3(t *testing.T, autoBucket bool, buckets ...string) *fakeS3 {
	t.Helper()
	backend := s3mem.New()
	for _, b := range buckets {
		if err := backend.CreateBucket(b); err != nil {
			t.Fatal(err)
		}
	}
	server := httptest.NewServer(gofakes3.New(backend, gofakes3.WithAutoBucket(autoBucket)).Server())
	t.Cleanup(server.Close)
	return &fakeS3{url: server.URL, backend: backend}
}

// withCredentials puts the test credentials in the environment, as an agent's would be.
func withCredentials(t *testing.T) {
	t.Setenv("AWS_ACCESS_KEY_ID", testKeyID)
	t.Setenv("AWS_SECRET_ACCESS_KEY", testSecret)
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(t.TempDir(), "none"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(t.TempDir(), "none"))
}

// stored is every object of the bucket: key → bytes and metadata.
func (f *fakeS3) stored(t *testing.T, bucket string) map[string]*gofakes3.Object {
	t.Helper()
	list, err := f.backend.ListBucket(bucket, nil, gofakes3.ListBucketPage{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*gofakes3.Object{}
	for _, c := range list.Contents {
		obj, err := f.backend.GetObject(bucket, c.Key, nil)
		if err != nil {
			t.Fatal(err)
		}
		out[c.Key] = obj
	}
	return out
}

func objectBytes(t *testing.T, obj *gofakes3.Object) []byte {
	t.Helper()
	data, err := io.ReadAll(obj.Contents)
	_ = obj.Contents.Close()
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// settings are a short run's (2 + 10 operations) at endpoint, to bucket mail unless extra names one.
func settings(endpoint string, extra string) string {
	s := fmt.Sprintf(`"endpoint": %q, "region": "us-east-1", "pathStyle": true, "warmupOperations": 2, "operations": 10`, endpoint)
	if !strings.Contains(extra, `"bucket"`) {
		s += `, "bucket": "mail"`
	}
	if extra != "" {
		s += ", " + extra
	}
	return "{" + s + "}"
}

// runLogged runs the workload through the agent's one execute path, keeping every log line.
func runLogged(t *testing.T, raw string) (execute.Outcome, []string) {
	t.Helper()
	var lines []string
	outcome := execute.Run(context.Background(), Workload{}, json.RawMessage(raw), nil, func(line string) { lines = append(lines, line) })
	return outcome, lines
}

func summaryMean(t *testing.T, run result.Run, key string) float64 {
	t.Helper()
	m := workloadtest.Metric(t, run, key)
	if m.Summary == nil {
		t.Fatalf("%s has no summary: %+v", key, m)
	}
	return m.Summary.Mean
}

// samples are the per-operation values of a metric (inline: the tests' runs are short).
func samples(t *testing.T, run result.Run, key string) []float64 {
	t.Helper()
	return workloadtest.Metric(t, run, key).Samples
}

// The write-up's pattern: gzip makes the ~50 KB mail far smaller (over 90%) and the ~80 B SMS
// bigger (its header and trailer outweigh what it saves), and what S3 stored is the bytes the
// run says it sent, with Content-Encoding: gzip.
func TestPlainAndGzipUploadsOfMailAndSMS(t *testing.T) {
	withCredentials(t)
	fake := startFakeS3(t, true)
	sent := map[string]float64{}
	for _, payload := range []string{"html-mail", "sms"} {
		for _, gz := range []bool{false, true} {
			name := fmt.Sprintf("%s gzip=%v", payload, gz)
			prefix := strings.ReplaceAll(name, " ", "-") + "/"
			run := workloadtest.Run(t, Workload{}, settings(fake.url, fmt.Sprintf(`"payload": %q, "gzip": %v, "keyPrefix": %q`, payload, gz, prefix)))
			before, after := summaryMean(t, run, "payload_bytes"), summaryMean(t, run, "sent_bytes")
			sent[name] = after
			for _, key := range []string{"upload_time", "compress_time", "put_time"} {
				if got := samples(t, run, key); len(got) != 10 {
					t.Errorf("%s: %s has %d samples, want one per measured operation", name, key, len(got))
				}
			}
			if m := workloadtest.Metric(t, run, "errors"); m.Value == nil || *m.Value != 0 {
				t.Errorf("%s: errors %+v", name, m.Value)
			}
			want := map[string]float64{"html-mail": 51200, "sms": 80}[payload]
			if before != want {
				t.Errorf("%s: payload_bytes %v, want %v", name, before, want)
			}
			if !gz && after != before {
				t.Errorf("%s: plain sent %v bytes of a %v-byte payload", name, after, before)
			}
			objects := 0
			for key, obj := range fake.stored(t, "mail") {
				if !strings.HasPrefix(key, prefix) {
					continue
				}
				objects++
				data := objectBytes(t, obj)
				if float64(len(data)) != after {
					t.Errorf("%s: %s stored %d bytes, sent_bytes %v", name, key, len(data), after)
				}
				if encoding := obj.Metadata["Content-Encoding"]; (encoding == "gzip") != gz {
					t.Errorf("%s: %s stored with Content-Encoding %q", name, key, encoding)
				}
				if gz {
					plain, err := decompress(data)
					if err != nil || float64(len(plain)) != before {
						t.Errorf("%s: %s does not gunzip to the payload: %d bytes, %v", name, key, len(plain), err)
					}
				}
			}
			if objects != 12 {
				t.Errorf("%s: %d objects stored, want 2 warm-up + 10 measured", name, objects)
			}
		}
	}
	if mail := sent["html-mail gzip=true"] / sent["html-mail gzip=false"]; mail > 0.1 {
		t.Errorf("gzip kept %.1f%% of the mail, want under 10%% (the write-up: −96%%)", mail*100)
	}
	if sent["sms gzip=true"] <= sent["sms gzip=false"] {
		t.Errorf("gzip made the SMS %v bytes from %v, want bigger (the write-up: +14.9%%)", sent["sms gzip=true"], sent["sms gzip=false"])
	}
}

// A file payload is uploaded byte for byte, as application/octet-stream unless told otherwise.
func TestFilePayloadIsUploadedAsItIs(t *testing.T) {
	withCredentials(t)
	fake := startFakeS3(t, false, "mail")
	file := filepath.Join(t.TempDir(), "invoice.pdf")
	content := bytes.Repeat([]byte("%PDF-1.7 versus\n"), 300)
	if err := os.WriteFile(file, content, 0o600); err != nil {
		t.Fatal(err)
	}
	run := workloadtest.Run(t, Workload{}, settings(fake.url, fmt.Sprintf(`"payload": "file", "file": %q`, file)))
	if got := summaryMean(t, run, "payload_bytes"); got != float64(len(content)) {
		t.Fatalf("payload_bytes %v, want %d", got, len(content))
	}
	objects := fake.stored(t, "mail")
	if len(objects) != 12 {
		t.Fatalf("%d objects stored, want 12", len(objects))
	}
	for key, obj := range objects {
		if !bytes.Equal(objectBytes(t, obj), content) || obj.Metadata["Content-Type"] != "application/octet-stream" {
			t.Fatalf("%s: not the file's bytes as application/octet-stream (%v)", key, obj.Metadata)
		}
	}
}

// get puts the payload once (gzipped with gzip), then reads it every operation and gunzips it.
func TestGetObjectReadsThePayloadBack(t *testing.T) {
	withCredentials(t)
	fake := startFakeS3(t, false, "mail")
	run := workloadtest.Run(t, Workload{}, settings(fake.url, `"operation": "get", "gzip": true`))
	for _, key := range []string{"download_time", "decompress_time", "get_time"} {
		if got := samples(t, run, key); len(got) != 10 {
			t.Errorf("%s has %d samples, want one per measured operation", key, len(got))
		}
	}
	for _, m := range run.Metrics {
		if m.Key == "upload_time" {
			t.Errorf("a get run reported upload_time")
		}
	}
	objects := fake.stored(t, "mail")
	if len(objects) != 1 {
		t.Fatalf("%d objects stored, want the one the gets read", len(objects))
	}
	for _, obj := range objects {
		if got := summaryMean(t, run, "sent_bytes"); float64(len(objectBytes(t, obj))) != got || got >= 51200 {
			t.Errorf("sent_bytes %v is not the gzipped object's size", got)
		}
	}
}

// failed runs the settings and wants them to fail, not retryable, saying want.
func failed(t *testing.T, raw string, want ...string) (execute.Outcome, []string) {
	t.Helper()
	outcome, lines := runLogged(t, raw)
	if outcome.Err == nil {
		t.Fatalf("%s: the run succeeded", raw)
	}
	var permanent *workload.PermanentError
	if !errors.As(outcome.Err, &permanent) || outcome.Retryable() {
		t.Errorf("%s: %v is retryable", raw, outcome.Err)
	}
	for _, w := range want {
		if !strings.Contains(outcome.Err.Error(), w) {
			t.Errorf("the error %q does not say %q", outcome.Err, w)
		}
	}
	return outcome, lines
}

// A bucket that does not exist fails the run with S3's NoSuchBucket, before any measurement.
func TestMissingBucketFailsWithS3sError(t *testing.T) {
	withCredentials(t)
	fake := startFakeS3(t, false, "other")
	failed(t, settings(fake.url, ""), "NoSuchBucket: ", "bucket mail", "HTTP 404")
}

// Credentials the endpoint does not know fail the run with S3's InvalidAccessKeyId, and an
// unsigned request where one is required with AccessDenied.
func TestWrongCredentialsFailWithS3sError(t *testing.T) {
	withCredentials(t)
	o, err := target.ParseOptions("target", []string{"--s3", "--s3-access-key", "AKIDSOMEONEELSE"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	server := httptest.NewServer(target.NewHandler(o))
	t.Cleanup(server.Close)
	failed(t, settings(server.URL, ""), "InvalidAccessKeyId: The AWS Access Key Id you provided does not exist", "HTTP 403")
	failed(t, settings(server.URL, `"anonymous": true`), "AccessDenied: ", "HTTP 403")
}

// The agent's credentials never reach the run document or a log line, whether the run
// succeeds or S3 refuses it; the run names where they came from.
func TestCredentialsAreNeverInTheRunOrTheLog(t *testing.T) {
	withCredentials(t)
	fake := startFakeS3(t, false, "mail")
	outcome, lines := runLogged(t, settings(fake.url, `"gzip": true`))
	if outcome.Err != nil {
		t.Fatalf("run: %v", outcome.Err)
	}
	doc, err := json.Marshal(outcome.Run)
	if err != nil {
		t.Fatal(err)
	}
	var facts Facts
	workloadtest.Environment(t, outcome.Run, "s3", &facts)
	if facts.CredentialsSource != "EnvConfigCredentials" {
		t.Errorf("credentialsSource %q, want the environment's", facts.CredentialsSource)
	}
	_, failLines := failed(t, settings(fake.url, `"bucket": "absent"`), "NoSuchBucket")
	everything := string(doc) + strings.Join(lines, "\n") + strings.Join(failLines, "\n") + outcome.Recorder.LogTail()
	if len(lines) == 0 || len(failLines) == 0 {
		t.Fatal("no log lines to look through")
	}
	for _, secret := range []string{testKeyID, testSecret} {
		if strings.Contains(everything, secret) {
			t.Errorf("%q is in the run or the log", secret)
		}
	}
}

func TestBadSettingsNameTheField(t *testing.T) {
	file := filepath.Join(t.TempDir(), "p.txt")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	workloadtest.RequireRefused(t, Workload{}, []workloadtest.SettingsCase{
		{`{}`, "settings:", "bucket"},
		{`{"bucket": "Mail"}`, "settings.bucket:", "does not match pattern"},
		{`{"bucket": "mail", "endpoint": "s3.example"}`, "settings.endpoint:", "does not match pattern"},
		{`{"bucket": "mail", "operation": "delete"}`, "settings.operation:", "put"},
		{`{"bucket": "mail", "payload": "file"}`, "settings.file:", "is required with payload file"},
		{`{"bucket": "mail", "payload": "file", "file": "/nonexistent/p.txt"}`, "settings.file:", "cannot read the payload file"},
		{fmt.Sprintf(`{"bucket": "mail", "payload": "file", "file": %q, "sizeBytes": 10}`, file), "settings.sizeBytes:", "payload html-mail or sms"},
		{fmt.Sprintf(`{"bucket": "mail", "file": %q}`, file), "settings.file:", "is for payload file"},
		{`{"bucket": "mail", "gzipLevel": 9}`, "settings.gzipLevel:", "is for gzip: true"},
		{`{"bucket": "mail", "anonymous": true, "profile": "dev"}`, "settings.profile:", "anonymous"},
		{`{"bucket": "mail", "accessKeyId": "AKID"}`, "settings:", "unknown setting 'accessKeyId'"},
		{`{"bucket": "mail", "targets": [{"name": "s3", "addr": "127.0.0.1:17830", "args": ["--s3"]}]}`, "settings.endpoint:", "is required with targets"},
		{`{"bucket": "mail", "endpoint": "http://127.0.0.1:1", "targets": [{"name": "s3", "addr": "10.0.0.1:17830"}]}`, "settings.targets.0.addr:", "loopback"},
		{`{"bucket": "mail", "concurrency": 0}`, "settings.concurrency:", "minimum"},
	})
}

// Operations in flight at once (concurrency) each put their own object.
func TestConcurrentUploadsEachPutTheirObject(t *testing.T) {
	withCredentials(t)
	fake := startFakeS3(t, false, "mail")
	run := workloadtest.Run(t, Workload{}, settings(fake.url, `"concurrency": 4, "operations": 20`))
	if got := samples(t, run, "upload_time"); len(got) != 20 {
		t.Fatalf("%d upload_time samples, want 20", len(got))
	}
	if objects := fake.stored(t, "mail"); len(objects) != 22 {
		t.Fatalf("%d objects stored, want 2 warm-up + 20 measured", len(objects))
	}
}

// A failure S3 may not repeat (a 500) counts in errors and the run goes on, with a warning; the
// times are of the operations that succeeded.
func TestPassingFailuresCountAsErrors(t *testing.T) {
	withCredentials(t)
	backend := s3mem.New()
	if err := backend.CreateBucket("mail"); err != nil {
		t.Fatal(err)
	}
	api := gofakes3.New(backend).Server()
	var requests atomic.Int64
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Requests 3, 6, 9 and 12 fail: all in the measured part (the 2 warm-ups are 1 and 2).
		if requests.Add(1)%3 == 0 {
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError</Code><Message>We encountered an internal error. Please try again.</Message></Error>`))
			return
		}
		api.ServeHTTP(w, r)
	}))
	t.Cleanup(server.Close)
	run := workloadtest.Run(t, Workload{}, settings(server.URL, ""))
	if m := workloadtest.Metric(t, run, "errors"); m.Value == nil || *m.Value != 4 {
		t.Fatalf("errors %v, want 4", m.Value)
	}
	if got := samples(t, run, "upload_time"); len(got) != 6 {
		t.Fatalf("%d upload_time samples, want the 6 that succeeded", len(got))
	}
	var warnings []string
	workloadtest.Environment(t, run, "warnings", &warnings)
	if !slices.ContainsFunc(warnings, func(w string) bool {
		return strings.Contains(w, "4 of 10 measured operations failed") && strings.Contains(w, "InternalError")
	}) {
		t.Fatalf("warnings %v", warnings)
	}
}
