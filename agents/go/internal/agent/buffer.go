package agent

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/versus/agents/go/internal/result"
)

// Report is what the agent owes the server about a job: a run (complete) or a failure (fail).
// It is kept on disk from before the first attempt to send it until the server answered, so
// neither a server outage nor an agent restart loses a measured result. The format is the
// reference agent's (agents/reference/agent/result-buffer.ts).
type Report struct {
	JobID      string      `json:"jobId"`
	LeaseToken string      `json:"leaseToken"`
	SavedAt    time.Time   `json:"savedAt"`
	Kind       string      `json:"kind"` // "complete" or "fail"
	Run        *result.Run `json:"run,omitempty"`
	Fail       *FailReport `json:"fail,omitempty"`
}

// FailReport is the body of a fail call without the lease token.
type FailReport struct {
	Error     string `json:"error"`
	LogTail   string `json:"logTail,omitempty"`
	Retryable bool   `json:"retryable"`
	Cancelled bool   `json:"cancelled"`
}

const (
	kindComplete = "complete"
	kindFail     = "fail"
)

// buffer is the directory of reports not yet acknowledged, one file per job.
type buffer struct{ dir string }

// unsafeInPath: job ids are server-made (cuid); keep any other character out of the path anyway.
var unsafeInPath = regexp.MustCompile(`[^A-Za-z0-9_-]`)

func (b buffer) file(jobID string) string {
	return filepath.Join(b.dir, unsafeInPath.ReplaceAllString(jobID, "_")+".json")
}

// save writes the report durably (fsync, then rename) before anything is sent.
func (b buffer) save(r Report) error {
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return writeFileAtomic(b.file(r.JobID), data)
}

func (b buffer) remove(jobID string) error {
	err := os.Remove(b.file(jobID))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// list returns the reports waiting to be sent, oldest first; files it cannot read are set aside
// as *.corrupt (and named in the second result) so they do not block the others.
func (b buffer) list() ([]Report, []string, error) {
	entries, err := os.ReadDir(b.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	var reports []Report
	var corrupt []string
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		path := filepath.Join(b.dir, e.Name())
		data, err := os.ReadFile(path)
		var r Report
		if err == nil {
			err = json.Unmarshal(data, &r)
		}
		if err == nil && (r.JobID == "" || (r.Kind == kindComplete && r.Run == nil) || (r.Kind == kindFail && r.Fail == nil) || (r.Kind != kindComplete && r.Kind != kindFail)) {
			err = errors.New("not a report")
		}
		if err != nil {
			_ = os.Rename(path, path+".corrupt")
			corrupt = append(corrupt, e.Name())
			continue
		}
		reports = append(reports, r)
	}
	sort.SliceStable(reports, func(i, j int) bool { return reports[i].SavedAt.Before(reports[j].SavedAt) })
	return reports, corrupt, nil
}
