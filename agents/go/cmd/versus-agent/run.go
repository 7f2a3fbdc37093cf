package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/versus/agents/go/internal/builtin"
	"github.com/versus/agents/go/internal/env"
	"github.com/versus/agents/go/internal/execute"
	"github.com/versus/agents/go/internal/workload"
)

// runCommand runs one workload without a server: `versus-agent run --workload gzip --config x.json`.
func runCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	name := fs.String("workload", "", "workload to run (see versus-agent workloads)")
	config := fs.String("config", "", "file with the workload's settings as JSON (- for stdin); none: the defaults")
	settingsFlag := fs.String("settings", "", "the workload's settings as inline JSON (instead of --config)")
	asJSON := fs.Bool("json", false, "print the run document (the `run` of a job's complete call) instead of a summary")
	check := fs.Bool("check", false, "only check the settings (as an agent does before running a job) and exit")
	var probeList probeFlags
	fs.Var(&probeList, "probe", "a probe of the system under test, e.g. name=app-1,url=http://127.0.0.1:8081/metrics,presets=process+go or name=db,process=postgres (repeatable; keys: "+probeFlagKeys+")")
	probesFile := fs.String("probes", "", "file with probes as a JSON array, as a job's probes (custom series need this form)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	registry := builtin.Registry()
	w, ok := registry.Get(*name)
	if !ok {
		fmt.Fprintf(stderr, "versus-agent run: --workload must be one of %v (got %q)\n", registry.Capabilities(), *name)
		return 2
	}
	settings, err := readSettings(*config, *settingsFlag)
	if err != nil {
		fmt.Fprintf(stderr, "versus-agent run: %v\n", err)
		return 2
	}
	probes, err := readProbes(*probesFile, probeList)
	if err != nil {
		fmt.Fprintf(stderr, "versus-agent run: %v\n", err)
		return 2
	}
	if *check {
		if _, err := w.Prepare(settings); err != nil {
			fmt.Fprintf(stderr, "versus-agent run: %s: %v\n", *name, err)
			return 2
		}
		fmt.Fprintf(stdout, "%s: settings ok\n", *name)
		return 0
	}
	// The run document names the commit as a job's would (VERSUS_GIT_*), ready to upload.
	git, err := env.ReadGitSource(os.Getenv, env.RunGit)
	if err != nil {
		fmt.Fprintf(stderr, "versus-agent run: %v\n", err)
		return 2
	}
	commit, problem := git.Capture(env.RunGit)
	if problem != "" {
		fmt.Fprintln(stderr, problem)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	outcome := execute.RunProbed(ctx, w, settings, probes, env.CaptureFor(version), func(line string) { fmt.Fprintln(stderr, line) })
	if outcome.Err != nil {
		fmt.Fprintf(stderr, "versus-agent run: %s: %v\n", *name, outcome.Err)
		return 1
	}
	outcome.Run = outcome.Run.WithCommit(commit.Hash, commit.Branch, commit.Message, commit.Time)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(outcome.Run); err != nil {
			fmt.Fprintf(stderr, "versus-agent run: %v\n", err)
			return 1
		}
		return 0
	}
	names := make([]string, len(probes))
	for i, p := range probes {
		names[i] = p.Name
	}
	printSummary(stdout, *name, outcome.Run, names...)
	return 0
}

func readSettings(path, inline string) (json.RawMessage, error) {
	switch {
	case path != "" && inline != "":
		return nil, fmt.Errorf("give --config or --settings, not both")
	case inline != "":
		return json.RawMessage(inline), nil
	case path == "-":
		data, err := io.ReadAll(os.Stdin)
		return json.RawMessage(data), err
	case path != "":
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("--config: %w", err)
		}
		return json.RawMessage(data), nil
	default:
		return nil, nil
	}
}

// workloadsCommand prints each built-in workload, its metrics and its settings schema; with
// --json, the list an agent advertises ([{name, description, settingsSchema, metrics}]).
func workloadsCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("workloads", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the workloads as JSON")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	workloads := builtin.Registry().All()
	if *asJSON {
		type advert struct {
			Name           string                `json:"name"`
			Description    string                `json:"description"`
			SettingsSchema json.RawMessage       `json:"settingsSchema"`
			Metrics        []workload.MetricSpec `json:"metrics"`
		}
		list := make([]advert, 0, len(workloads))
		for _, w := range workloads {
			info := w.Info()
			list = append(list, advert{info.Name, info.Description, info.SettingsSchema, info.AdvertisedMetrics()})
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(list); err != nil {
			fmt.Fprintf(stderr, "versus-agent workloads: %v\n", err)
			return 1
		}
		return 0
	}
	for _, w := range workloads {
		info := w.Info()
		fmt.Fprintf(stdout, "%s — %s\n", info.Name, info.Description)
		for _, m := range info.AdvertisedMetrics() {
			fmt.Fprintf(stdout, "  metric %s (%s, %s, per run: %s): %s\n", m.Key, m.Unit, m.Direction, m.Aggregation, m.Description)
		}
		fmt.Fprintf(stdout, "  settings schema: %s\n\n", compactJSON(info.SettingsSchema))
	}
	return 0
}

func compactJSON(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	out, _ := json.Marshal(v)
	return string(out)
}
