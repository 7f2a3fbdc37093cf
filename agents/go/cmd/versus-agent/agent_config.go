package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/versus/agents/go/internal/agent"
	"github.com/versus/agents/go/internal/env"
)

// agentOptions is the agent command's configuration: flags first, then environment variables,
// then defaults — the same names as the reference agent (agents/reference/config.ts).
type agentOptions struct {
	agent.Config          // URL, token, name, labels, files, grace, jitter; the command adds the rest
	LogFormat      string // text or json
	ExitWithParent bool
}

// errHelp is -h: print the usage and exit 0.
var errHelp = flag.ErrHelp

// labelFlag collects repeated --label k=v.
type labelFlag []string

func (l *labelFlag) String() string     { return strings.Join(*l, ",") }
func (l *labelFlag) Set(v string) error { *l = append(*l, v); return nil }

var labelKey = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,63}$`)

// parseLabels reads "pool=lab,os=linux" (or repeated --label pool=lab) into a map.
func parseLabels(into map[string]string, items []string) error {
	for _, item := range items {
		for _, pair := range strings.Split(item, ",") {
			pair = strings.TrimSpace(pair)
			if pair == "" {
				continue
			}
			at := strings.Index(pair, "=")
			if at <= 0 {
				return fmt.Errorf("label %q is not key=value", pair)
			}
			key := strings.TrimSpace(pair[:at])
			if !labelKey.MatchString(key) {
				return fmt.Errorf("label key %q: use 1-63 letters, digits and _ . -", key)
			}
			into[key] = strings.TrimSpace(pair[at+1:])
		}
	}
	return nil
}

// parseAgentOptions reads flags and the environment (getenv); every problem names the flag and
// the variable, all problems are reported together.
func parseAgentOptions(args []string, getenv func(string) string, usageOut io.Writer) (agentOptions, error) {
	home, _ := os.UserHomeDir()
	stateDir := filepath.Join(home, ".versus-agent")
	fs := flag.NewFlagSet("agent", flag.ContinueOnError)
	fs.SetOutput(usageOut)
	urlFlag := fs.String("url", "", "Versus server address (VERSUS_URL)")
	token := fs.String("enrollment-token", "", "venr_… token from the project's Agents page, used once to enroll (VERSUS_ENROLLMENT_TOKEN)")
	name := fs.String("name", "", "agent name, unique in the project (VERSUS_AGENT_NAME; default: the host name)")
	var labels labelFlag
	fs.Var(&labels, "label", "a label jobs can require, key=value, repeatable (VERSUS_AGENT_LABELS=k=v,k=v; os and arch are set by default)")
	credentialFile := fs.String("credential-file", "", "where the credential is kept, mode 0600 (VERSUS_AGENT_CREDENTIAL_FILE; default "+filepath.Join(stateDir, "credential.json")+")")
	bufferDir := fs.String("buffer-dir", "", "results not yet acknowledged (VERSUS_AGENT_BUFFER_DIR; default "+filepath.Join(stateDir, "buffer")+")")
	grace := fs.String("shutdown-grace", "", "on SIGTERM/SIGINT, seconds a running job may take to finish before it is released (VERSUS_AGENT_SHUTDOWN_GRACE_SECONDS; default 10)")
	logFormat := fs.String("log-format", "", "text (key=value lines) or json (VERSUS_AGENT_LOG_FORMAT; default text)")
	machineLock := fs.String("machine-lock", "", "a file the agents of this machine lock while one of them claims and runs a job, so they measure one at a time (VERSUS_AGENT_MACHINE_LOCK; npm start gives its Go and JVM agents the same one)")
	exitWithParent := fs.Bool("exit-with-parent", false, "stop gracefully when the parent process goes away (VERSUS_AGENT_EXIT_WITH_PARENT=1)")
	fs.Usage = func() {
		fmt.Fprintf(usageOut, "usage: versus-agent [agent] [flags]\n\nTakes jobs from a Versus server and runs them (docs/agent-protocol.md). Also: VERSUS_AGENT_CLAIM_JITTER_MS (longest random pause between claims, default 1000); VERSUS_GIT_COMMIT, VERSUS_GIT_BRANCH, VERSUS_GIT_COMMIT_MESSAGE, VERSUS_GIT_COMMIT_TIME or VERSUS_GIT_DIR (the commit runs measured).\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return agentOptions{}, err
	}
	if fs.NArg() > 0 {
		return agentOptions{}, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	pick := func(flagValue, variable string) string {
		if flagValue != "" {
			return flagValue
		}
		return strings.TrimSpace(getenv(variable))
	}

	var problems []string
	// Node's names, as the reference agent labels itself, so a job pinned to arch=x64 runs on either.
	o := agentOptions{Config: agent.Config{Labels: map[string]string{"os": env.NodePlatform(runtime.GOOS), "arch": env.NodeArch(runtime.GOARCH)}}}

	o.URL = strings.TrimRight(pick(*urlFlag, "VERSUS_URL"), "/")
	if u, err := url.Parse(o.URL); o.URL == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		problems = append(problems, "--url / VERSUS_URL must be the server's address, e.g. http://localhost:3000")
	}
	o.EnrollmentToken = pick(*token, "VERSUS_ENROLLMENT_TOKEN")
	if o.EnrollmentToken != "" && !strings.HasPrefix(o.EnrollmentToken, "venr_") {
		problems = append(problems, "--enrollment-token / VERSUS_ENROLLMENT_TOKEN must be a venr_… token")
	}
	o.Name = pick(*name, "VERSUS_AGENT_NAME")
	if o.Name == "" {
		o.Name, _ = os.Hostname()
	}
	if n := len([]rune(o.Name)); n == 0 || n > 100 {
		problems = append(problems, "--name / VERSUS_AGENT_NAME must be 1 to 100 characters")
	}
	var labelItems []string
	if v := getenv("VERSUS_AGENT_LABELS"); v != "" {
		labelItems = append(labelItems, v)
	}
	if err := parseLabels(o.Labels, append(labelItems, labels...)); err != nil {
		problems = append(problems, "--label / VERSUS_AGENT_LABELS: "+err.Error())
	}
	o.CredentialFile = pick(*credentialFile, "VERSUS_AGENT_CREDENTIAL_FILE")
	if o.CredentialFile == "" {
		o.CredentialFile = filepath.Join(stateDir, "credential.json")
	}
	o.BufferDir = pick(*bufferDir, "VERSUS_AGENT_BUFFER_DIR")
	if o.BufferDir == "" {
		o.BufferDir = filepath.Join(stateDir, "buffer")
	}
	if s := pick(*grace, "VERSUS_AGENT_SHUTDOWN_GRACE_SECONDS"); s == "" {
		o.ShutdownGrace = 10 * time.Second
	} else if v, err := strconv.ParseFloat(s, 64); err != nil || v < 0 || v > 86400 {
		problems = append(problems, fmt.Sprintf("--shutdown-grace / VERSUS_AGENT_SHUTDOWN_GRACE_SECONDS must be a number of seconds from 0 to 86400 (got %q)", s))
	} else {
		o.ShutdownGrace = time.Duration(v * float64(time.Second))
	}
	if s := strings.TrimSpace(getenv("VERSUS_AGENT_CLAIM_JITTER_MS")); s == "" {
		o.ClaimJitter = time.Second
	} else if v, err := strconv.ParseFloat(s, 64); err != nil || v < 0 || v > 3600000 {
		problems = append(problems, fmt.Sprintf("VERSUS_AGENT_CLAIM_JITTER_MS must be a number of milliseconds from 0 to 3600000 (got %q)", s))
	} else {
		o.ClaimJitter = time.Duration(v * float64(time.Millisecond))
	}
	o.LogFormat = pick(*logFormat, "VERSUS_AGENT_LOG_FORMAT")
	if o.LogFormat == "" {
		o.LogFormat = "text"
	}
	if o.LogFormat != "text" && o.LogFormat != "json" {
		problems = append(problems, fmt.Sprintf("--log-format / VERSUS_AGENT_LOG_FORMAT must be text or json (got %q)", o.LogFormat))
	}
	o.MachineLock = pick(*machineLock, "VERSUS_AGENT_MACHINE_LOCK")
	o.ExitWithParent = *exitWithParent
	if v := strings.TrimSpace(getenv("VERSUS_AGENT_EXIT_WITH_PARENT")); !*exitWithParent && v != "" {
		switch v {
		case "1", "true":
			o.ExitWithParent = true
		case "0", "false":
		default:
			problems = append(problems, fmt.Sprintf("--exit-with-parent / VERSUS_AGENT_EXIT_WITH_PARENT must be 1 or 0 (got %q)", v))
		}
	}
	if git, err := env.ReadGitSource(getenv, env.RunGit); err != nil {
		problems = append(problems, err.Error())
	} else {
		o.Git = git
	}
	if len(problems) > 0 {
		return o, errors.New(strings.Join(problems, "; "))
	}
	return o, nil
}
