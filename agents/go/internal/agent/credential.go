package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Credential is the agent's credential on disk, in exactly the reference agent's format
// (agents/reference/agent/credential.ts), so `npm start`'s local agent code reads it whichever
// agent wrote it. Mode 0600: it is a password; the server keeps only its hash, so losing this
// file means enrolling again.
type Credential struct {
	// URL is the server it belongs to: a credential for another server is not sent anywhere else.
	URL                      string  `json:"url"`
	AgentID                  string  `json:"agentId"`
	Name                     string  `json:"name"`
	Project                  string  `json:"project"`
	Credential               string  `json:"credential"`
	HeartbeatIntervalSeconds float64 `json:"heartbeatIntervalSeconds"`
	ClaimWaitSeconds         float64 `json:"claimWaitSeconds"`
}

// LoadCredential reads a credential file; (nil, nil) when there is none.
func LoadCredential(file string) (*Credential, error) {
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var c Credential
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("%s is not a credential file this agent wrote: %w", file, err)
	}
	switch {
	case c.Credential == "":
		return nil, fmt.Errorf("%s is not a credential file this agent wrote: credential is empty", file)
	case c.HeartbeatIntervalSeconds <= 0:
		return nil, fmt.Errorf("%s is not a credential file this agent wrote: heartbeatIntervalSeconds must be positive", file)
	case c.ClaimWaitSeconds < 0:
		return nil, fmt.Errorf("%s is not a credential file this agent wrote: claimWaitSeconds must not be negative", file)
	}
	return &c, nil
}

// SaveCredential writes the file atomically (a temporary file renamed over it) with mode 0600.
func SaveCredential(file string, c Credential) error {
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(file, append(data, '\n'))
}

// writeFileAtomic writes data to file through a synced temporary file and a rename: a crash
// leaves the old file or the new one, never half of one. The file's mode is 0600 whatever the
// umask, and its directory is made 0700 when missing.
func writeFileAtomic(file string, data []byte) error {
	dir := filepath.Dir(file)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(file)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename there is nothing left to remove
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		return err
	}
	// The rename itself is durable only once the directory is synced.
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}
