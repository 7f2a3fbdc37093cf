package main

import (
	"github.com/versus/agents/go/internal/env"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"
)

func fakeEnv(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestAgentOptionsComeFromFlagsThenEnvironmentThenDefaults(t *testing.T) {
	o, err := parseAgentOptions(
		[]string{"--url", "http://flag:3000/", "--label", "pool=lab", "--label", "gpu=none", "--shutdown-grace", "2.5"},
		fakeEnv(map[string]string{"VERSUS_URL": "http://env:3000", "VERSUS_ENROLLMENT_TOKEN": "venr_x", "VERSUS_AGENT_NAME": "box", "VERSUS_AGENT_LABELS": "pool=env,zone=a",
			"VERSUS_AGENT_CLAIM_JITTER_MS": "250", "VERSUS_AGENT_EXIT_WITH_PARENT": "1", "VERSUS_AGENT_BUFFER_DIR": "/tmp/b",
			"VERSUS_AGENT_MACHINE_LOCK": "/tmp/versus-machine.lock"}),
		io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if o.URL != "http://flag:3000" || o.EnrollmentToken != "venr_x" || o.Name != "box" || o.BufferDir != "/tmp/b" || o.MachineLock != "/tmp/versus-machine.lock" {
		t.Errorf("options %+v", o)
	}
	if o.ShutdownGrace != 2500*time.Millisecond || o.ClaimJitter != 250*time.Millisecond || !o.ExitWithParent || o.LogFormat != "text" {
		t.Errorf("options %+v", o)
	}
	want := map[string]string{"os": env.NodePlatform(runtime.GOOS), "arch": env.NodeArch(runtime.GOARCH), "pool": "lab", "zone": "a", "gpu": "none"}
	for k, v := range want {
		if o.Labels[k] != v {
			t.Errorf("label %s = %q, want %q (labels %v)", k, o.Labels[k], v, o.Labels)
		}
	}
	if !strings.HasSuffix(o.CredentialFile, ".versus-agent/credential.json") {
		t.Errorf("credential file %s", o.CredentialFile)
	}
	if got, _ := o.Git.Capture(env.RunGit); got != (env.Commit{}) {
		t.Errorf("no VERSUS_GIT_*: commit %+v", got)
	}
	withCommit, err := parseAgentOptions([]string{"--url", "http://x"}, fakeEnv(map[string]string{"VERSUS_GIT_COMMIT": "abc1234", "VERSUS_GIT_BRANCH": "main"}), io.Discard)
	if got, _ := withCommit.Git.Capture(env.RunGit); err != nil || got != (env.Commit{Hash: "abc1234", Branch: "main"}) {
		t.Errorf("VERSUS_GIT_COMMIT: %+v, %v", got, err)
	}
}

func TestABadValueNamesTheFlagAndTheVariable(t *testing.T) {
	cases := map[string]struct {
		args []string
		vars map[string]string
		want string
	}{
		"url":         {nil, map[string]string{"VERSUS_URL": "localhost:3000"}, "--url / VERSUS_URL"},
		"no url":      {nil, nil, "--url / VERSUS_URL"},
		"token":       {[]string{"--url", "http://x", "--enrollment-token", "vsag_oops"}, nil, "--enrollment-token / VERSUS_ENROLLMENT_TOKEN"},
		"grace":       {[]string{"--url", "http://x"}, map[string]string{"VERSUS_AGENT_SHUTDOWN_GRACE_SECONDS": "soon"}, `--shutdown-grace / VERSUS_AGENT_SHUTDOWN_GRACE_SECONDS must be a number of seconds from 0 to 86400 (got "soon")`},
		"jitter":      {[]string{"--url", "http://x"}, map[string]string{"VERSUS_AGENT_CLAIM_JITTER_MS": "-1"}, "VERSUS_AGENT_CLAIM_JITTER_MS"},
		"label":       {[]string{"--url", "http://x", "--label", "pool"}, nil, `--label / VERSUS_AGENT_LABELS: label "pool" is not key=value`},
		"key":         {[]string{"--url", "http://x"}, map[string]string{"VERSUS_AGENT_LABELS": "bad key=1"}, "label key"},
		"log":         {[]string{"--url", "http://x", "--log-format", "xml"}, nil, "--log-format / VERSUS_AGENT_LOG_FORMAT"},
		"parent":      {[]string{"--url", "http://x"}, map[string]string{"VERSUS_AGENT_EXIT_WITH_PARENT": "yes"}, "--exit-with-parent / VERSUS_AGENT_EXIT_WITH_PARENT"},
		"name":        {[]string{"--url", "http://x", "--name", strings.Repeat("n", 101)}, nil, "--name / VERSUS_AGENT_NAME"},
		"commit time": {[]string{"--url", "http://x"}, map[string]string{"VERSUS_GIT_COMMIT": "abc1234", "VERSUS_GIT_COMMIT_TIME": "soon"}, "VERSUS_GIT_COMMIT_TIME must be ISO 8601 with an offset"},
		"git dir":     {[]string{"--url", "http://x"}, map[string]string{"VERSUS_GIT_DIR": "/no/such/checkout"}, "VERSUS_GIT_DIR=/no/such/checkout: cannot read its HEAD commit with git"},
	}
	for name, c := range cases {
		_, err := parseAgentOptions(c.args, fakeEnv(c.vars), io.Discard)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", name, err, c.want)
		}
	}
}

func TestLogsAreOneEventALine(t *testing.T) {
	var text, js strings.Builder
	newLogger(&text, "text").Info("job.started", "job", "j1", "variant", "Gzip 6")
	newLogger(&js, "json").Info("job.started", "job", "j1")
	if got := text.String(); !strings.Contains(got, "level=info event=job.started job=j1 variant=\"Gzip 6\"\n") || !strings.HasPrefix(got, "ts=") {
		t.Errorf("text log %q", got)
	}
	if got := js.String(); !strings.Contains(got, `"event":"job.started"`) || !strings.Contains(got, `"level":"info"`) || strings.Count(got, "\n") != 1 {
		t.Errorf("json log %q", got)
	}
}
