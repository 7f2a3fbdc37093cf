package agent

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"github.com/versus/agents/go/internal/fakeapi"
	"github.com/versus/agents/go/internal/workload"
	s3workload "github.com/versus/agents/go/internal/workload/s3"
)

// An s3 job runs with the agent's own credentials and none of them reaches the server: neither
// the completed run nor the fail body of a job whose bucket does not exist, which fails with
// S3's error code and message and is not retried.
func TestS3JobsUseTheAgentsCredentialsAndNeverSendThem(t *testing.T) {
	const keyID, secret = "AKIDAGENTTESTKEY0001", "agent-test-secret-never-sent"
	t.Setenv("AWS_ACCESS_KEY_ID", keyID)
	t.Setenv("AWS_SECRET_ACCESS_KEY", secret)
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	backend := s3mem.New()
	if err := backend.CreateBucket("mail"); err != nil {
		t.Fatal(err)
	}
	s3 := httptest.NewServer(gofakes3.New(backend).Server())
	defer s3.Close()

	fake := fakeapi.Start(t)
	cfg := testConfig(t, fake, t.TempDir())
	cfg.Registry = workload.NewRegistry(s3workload.Workload{})
	a := start(t, cfg)
	settings := func(bucket string) map[string]any {
		return map[string]any{"endpoint": s3.URL, "pathStyle": true, "bucket": bucket, "gzip": true, "warmupOperations": 1, "operations": 5}
	}
	ok := fake.Enqueue("s3", settings("mail"), fakeapi.JobOptions{})
	missing := fake.Enqueue("s3", settings("absent"), fakeapi.JobOptions{})
	fake.Await(t, "both jobs done", func() bool { return fake.Run(ok) != nil && fake.Failure(missing) != nil })
	a.stop(t)

	f := fake.Failure(missing)
	if f["retryable"] != false || !strings.Contains(f["error"].(string), "NoSuchBucket: The specified bucket does not exist") {
		t.Errorf("fail body %v", f)
	}
	sent, err := json.Marshal([]any{fake.Run(ok), f})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(sent), "EnvConfigCredentials") {
		t.Errorf("the run does not say where the credentials came from: %s", sent)
	}
	for _, s := range []string{keyID, secret} {
		if strings.Contains(string(sent), s) {
			t.Errorf("%q was sent to the server", s)
		}
	}
}
