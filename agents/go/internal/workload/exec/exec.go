// Package exec is the exec workload: run a command N times after warm-up runs and report each
// run's wall time, CPU time and peak memory, the way hyperfine reports a command. The command's
// output is not measured; its last lines go to the run's log.
package exec

import (
	"encoding/json"
	"fmt"
	"os"
	osexec "os/exec"
	"strings"
	"time"

	"github.com/versus/agents/go/internal/result"
	"github.com/versus/agents/go/internal/workload"
)

// env is a list of NAME=value strings rather than an object so the dashboard's settings form
// (flat fields and lists of strings) can edit every exec setting.
const settingsSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "additionalProperties": false,
  "properties": {
    "command": {"type": "array", "items": {"type": "string"}, "minItems": 1, "description": "The program and its arguments, run without a shell (not with shell)"},
    "shell": {"type": "string", "minLength": 1, "description": "A command line run with /bin/sh -c (not with command); the shell's own start is part of every time"},
    "runs": {"type": "integer", "minimum": 1, "maximum": 100000, "default": 10, "description": "Measured runs"},
    "warmupRuns": {"type": "integer", "minimum": 0, "maximum": 100000, "default": 1, "description": "Runs first, not measured (warm caches)"},
    "timeoutSeconds": {"type": "number", "x-unit": "s", "exclusiveMinimum": 0, "maximum": 86400, "default": 600, "description": "Longest a run may take; a run that takes longer is killed and fails the job"},
    "env": {"type": "array", "items": {"type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*="}, "default": [], "description": "Extra environment variables, NAME=value, on top of the agent's own"},
    "dir": {"type": "string", "minLength": 1, "description": "Working directory of the command; none: the agent's"},
    "okExitCodes": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 255}, "minItems": 1, "uniqueItems": true, "default": [0], "description": "Exit codes of a successful run"},
    "ignoreFailures": {"type": "boolean", "default": false, "description": "true: a run with another exit code is measured and counted in a warning instead of failing the job"},
    "stdin": {"type": "string", "description": "Text given to the command on its standard input; none: empty input"}
  },
  "dependentSchemas": {"command": {"properties": {"shell": false}}},
  "not": {"properties": {"command": false, "shell": false}}
}`

var schema = workload.MustCompileSchema("exec", []byte(settingsSchema))

// Settings are the exec workload's settings.
type Settings struct {
	Command        []string `json:"command"`
	Shell          string   `json:"shell"`
	Runs           int      `json:"runs"`
	WarmupRuns     int      `json:"warmupRuns"`
	TimeoutSeconds float64  `json:"timeoutSeconds"`
	Env            []string `json:"env"`
	Dir            string   `json:"dir"`
	OkExitCodes    []int    `json:"okExitCodes"`
	IgnoreFailures bool     `json:"ignoreFailures"`
	Stdin          *string  `json:"stdin"`
}

func defaults() Settings {
	return Settings{Runs: 10, WarmupRuns: 1, TimeoutSeconds: 600, OkExitCodes: []int{0}}
}

// Workload is the exec workload.
type Workload struct{}

// New returns the exec workload.
func New() Workload { return Workload{} }

func (Workload) Info() workload.Info {
	ms := func(key, description string) workload.MetricSpec {
		return workload.MetricSpec{Key: key, Unit: "ms", Direction: result.LowerIsBetter, Aggregation: "median", Description: description}
	}
	return workload.Info{
		Name:           "exec",
		Description:    "Run a command (or a shell line) several times after warm-up runs: wall time, CPU time and peak memory per run",
		SettingsSchema: schema.Raw(),
		Metrics: []workload.MetricSpec{
			ms("wall_time", "Wall-clock time of one run, from start to exit"),
			ms("cpu_user", "User CPU time of one run (the command and the children it waited for)"),
			ms("cpu_system", "System CPU time of one run"),
			ms("cpu_total", "User + system CPU time of one run"),
			{Key: "max_rss", Unit: "KiB", Direction: result.LowerIsBetter, Aggregation: "max", Description: "Peak resident memory of one run (its largest process)"},
		},
	}
}

func (Workload) Prepare(raw json.RawMessage) (workload.Runner, error) {
	if present := workload.PresentSettings(raw); present != nil {
		switch {
		case present["command"] && present["shell"]:
			return nil, workload.SettingsErrors{{Field: "shell", Message: "not with command: give command (run as it is) or shell (run with /bin/sh -c), not both"}}
		case !present["command"] && !present["shell"]:
			return nil, workload.SettingsErrors{{Field: "command", Message: "give command (the program and its arguments) or shell (a line for /bin/sh -c)"}}
		}
	}
	s := defaults()
	if err := schema.Decode(raw, &s); err != nil {
		return nil, err
	}
	argv := s.Command
	if s.Shell != "" {
		argv = shellArgv(s.Shell)
	}
	if err := checkProgram(argv[0]); err != nil {
		field := "command"
		if s.Shell != "" {
			field = "shell"
		}
		return nil, workload.SettingsErrors{{Field: field, Message: err.Error()}}
	}
	if s.Dir != "" {
		if info, err := os.Stat(s.Dir); err != nil {
			return nil, workload.SettingsErrors{{Field: "dir", Message: err.Error()}}
		} else if !info.IsDir() {
			return nil, workload.SettingsErrors{{Field: "dir", Message: s.Dir + " is not a directory"}}
		}
	}
	ok := map[int]bool{}
	for _, code := range s.OkExitCodes {
		ok[code] = true
	}
	return &runner{settings: s, argv: argv, okCodes: ok, timeout: time.Duration(s.TimeoutSeconds * float64(time.Second))}, nil
}

// checkProgram finds a program named without a path on PATH now, so a missing one fails as a bad
// setting instead of on every run. A path (./build/app) is left to the run: it is relative to dir.
func checkProgram(program string) error {
	if program == "" {
		return fmt.Errorf("the program name is empty")
	}
	if strings.ContainsRune(program, os.PathSeparator) || strings.ContainsRune(program, '/') {
		return nil
	}
	if _, err := osexec.LookPath(program); err != nil {
		return fmt.Errorf("program %q is not on the agent's PATH", program)
	}
	return nil
}

// describe is the command as a log line shows it.
func (s Settings) describe() string {
	if s.Shell != "" {
		return "sh -c " + quoteArg(s.Shell)
	}
	parts := make([]string, len(s.Command))
	for i, arg := range s.Command {
		parts[i] = quoteArg(arg)
	}
	return strings.Join(parts, " ")
}

func quoteArg(arg string) string {
	if arg != "" && !strings.ContainsAny(arg, " \t\n'\"\\$`*?;&|<>()") {
		return arg
	}
	return "'" + strings.ReplaceAll(arg, "'", `'\''`) + "'"
}
