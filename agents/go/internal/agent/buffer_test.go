package agent

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/versus/agents/go/internal/result"
)

func TestTheBufferListsReportsOldestFirstAndSetsAsideWhatItCannotRead(t *testing.T) {
	dir := t.TempDir()
	b := buffer{dir: filepath.Join(dir, "buffer")}
	now := time.Now().UTC()
	if err := b.save(Report{JobID: "j2", LeaseToken: "l2", SavedAt: now, Kind: kindFail, Fail: &FailReport{Error: "x"}}); err != nil {
		t.Fatal(err)
	}
	if err := b.save(Report{JobID: "j1/../x", LeaseToken: "l1", SavedAt: now.Add(-time.Minute), Kind: kindComplete, Run: &result.Run{}}); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"half.json": `{"jobId":"j3","kind":"comp`, "nokind.json": `{"jobId":"j4"}`} {
		if err := os.WriteFile(filepath.Join(b.dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	reports, corrupt, err := b.list()
	if err != nil {
		t.Fatal(err)
	}
	if len(reports) != 2 || reports[0].JobID != "j1/../x" || reports[1].JobID != "j2" {
		t.Fatalf("reports %+v", reports)
	}
	if len(corrupt) != 2 {
		t.Fatalf("corrupt %v", corrupt)
	}
	if _, err := os.Stat(filepath.Join(b.dir, "half.json.corrupt")); err != nil {
		t.Fatal(err)
	}
	// The job id never leaves the buffer directory.
	if _, err := os.Stat(filepath.Join(b.dir, "j1____x.json")); err != nil {
		t.Fatalf("report file: %v", err)
	}
	info, _ := os.Stat(filepath.Join(b.dir, "j2.json"))
	if info.Mode().Perm() != 0o600 {
		t.Errorf("mode %o", info.Mode().Perm())
	}
	if err := b.remove("j2"); err != nil {
		t.Fatal(err)
	}
	if err := b.remove("j2"); err != nil {
		t.Fatalf("removing twice: %v", err)
	}
}

func TestACredentialFileThisAgentDidNotWriteIsRefused(t *testing.T) {
	file := filepath.Join(t.TempDir(), "credential.json")
	if c, err := LoadCredential(file); c != nil || err != nil {
		t.Fatalf("no file: %v %v", c, err)
	}
	for _, text := range []string{`not json`, `{"url":"http://x","credential":"","heartbeatIntervalSeconds":10,"claimWaitSeconds":30}`, `{"url":"http://x","credential":"vsag_1","heartbeatIntervalSeconds":0,"claimWaitSeconds":30}`} {
		if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadCredential(file); err == nil {
			t.Errorf("%s: want an error", text)
		}
	}
}
