package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// The dashboard's tests and its "which agent runs this workload" hints read what this agent
// advertises from server/workloads/built-in/go-workloads.json: it must be what the agent prints.
func TestTheRepositoryHoldsWhatTheAgentAdvertises(t *testing.T) {
	var out, errs bytes.Buffer
	if code := workloadsCommand([]string{"--json"}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	stored, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "server", "workloads", "built-in", "go-workloads.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want, got any
	if err := json.Unmarshal(stored, &want); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("server/workloads/built-in/go-workloads.json is not what `versus-agent workloads --json` prints: run server/workloads/built-in/produce.sh from the repository root")
	}
}
