package s3

import (
	"fmt"
	"slices"
	"testing"

	"github.com/versus/agents/go/internal/workload/targets/targetstest"
	"github.com/versus/agents/go/internal/workload/workloadtest"
)

func TestMain(m *testing.M) { targetstest.Main(m) }

// targetSettings aim at a bundled target the run starts with --s3 and the given flags.
func targetSettings(addr, extra string, flags ...string) string {
	args := append([]string{"--s3"}, flags...)
	quoted := ""
	for i, a := range args {
		if i > 0 {
			quoted += ", "
		}
		quoted += fmt.Sprintf("%q", a)
	}
	return settings("http://"+addr, fmt.Sprintf(`"targets": [{"name": "s3", "addr": %q, "args": [%s]}]`, addr, quoted)+extraOf(extra))
}

func extraOf(extra string) string {
	if extra == "" {
		return ""
	}
	return ", " + extra
}

// The runnable example's shape: the run starts the bundled target serving S3, uploads the mail
// plain and gzipped to it, and --s3-delay holds every PUT for at least the delay, so the fixed
// cost is in every put_time whatever the size.
func TestUploadsToTheBundledTarget(t *testing.T) {
	withCredentials(t)
	addr := targetstest.FreeAddr(t)
	plain := workloadtest.Run(t, Workload{}, targetSettings(addr, "", "--s3-bucket", "mail", "--s3-delay", "15ms"))
	gzipped := workloadtest.Run(t, Workload{}, targetSettings(addr, `"gzip": true`, "--s3-bucket", "mail", "--s3-delay", "15ms"))
	if p, g := summaryMean(t, plain, "sent_bytes"), summaryMean(t, gzipped, "sent_bytes"); g >= p/10 {
		t.Errorf("gzip sent %v bytes of the mail's %v, want under a tenth", g, p)
	}
	for _, run := range []struct {
		name string
		put  []float64
	}{{"plain", samples(t, plain, "put_time")}, {"gzip", samples(t, gzipped, "put_time")}} {
		if len(run.put) != 10 || slices.Min(run.put) < 15 {
			t.Errorf("%s: put_time %v: want 10 operations of at least --s3-delay 15 ms", run.name, run.put)
		}
	}
	var listed []map[string]any
	workloadtest.Environment(t, plain, "targets", &listed)
	if len(listed) != 1 || listed[0]["name"] != "s3" {
		t.Errorf("the run's environment names targets %v", listed)
	}
}

// A bucket the bundled target does not have fails the run with S3's NoSuchBucket.
func TestBundledTargetWithoutTheBucket(t *testing.T) {
	withCredentials(t)
	addr := targetstest.FreeAddr(t)
	failed(t, targetSettings(addr, `"bucket": "sms"`, "--s3-bucket", "mail"), "NoSuchBucket: ")
}
