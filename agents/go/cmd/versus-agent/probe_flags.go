package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/versus/agents/go/internal/probe"
)

// probeFlags collects the repeatable --probe flag: one probe in key=value pairs.
type probeFlags []string

func (p *probeFlags) String() string { return strings.Join(*p, " ") }

func (p *probeFlags) Set(v string) error {
	*p = append(*p, v)
	return nil
}

// probeFlagKeys are the keys of --probe, and the field each one sets.
const probeFlagKeys = "name, kind, url, presets, interval, required, pid, process, pattern"

// readProbes reads --probes FILE (a JSON array, as a job's probes) and the --probe flags, in that
// order, and checks them as a job's probes are checked.
func readProbes(file string, flags probeFlags) ([]probe.Spec, error) {
	var list []map[string]any
	if file != "" {
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("--probes: %w", err)
		}
		if err := json.Unmarshal(data, &list); err != nil {
			return nil, fmt.Errorf("--probes %s: not a JSON array of probes: %v", file, err)
		}
	}
	for _, f := range flags {
		p, err := parseProbeFlag(f)
		if err != nil {
			return nil, fmt.Errorf("--probe %q: %v", f, err)
		}
		list = append(list, p)
	}
	if len(list) == 0 {
		return nil, nil
	}
	raw, err := json.Marshal(list)
	if err != nil {
		return nil, err
	}
	return probe.Decode(raw)
}

// parseProbeFlag reads "name=app-1,url=http://…/metrics,presets=process+go,interval=0.5" (kind
// prometheus, from the url) or "name=db,process=postgres" (kind process; or pid=…, pattern=…).
func parseProbeFlag(text string) (map[string]any, error) {
	p := map[string]any{}
	match := map[string]any{}
	for _, pair := range strings.Split(text, ",") {
		key, value, ok := strings.Cut(pair, "=")
		if !ok || value == "" {
			return nil, fmt.Errorf("%q is not key=value (keys: %s)", pair, probeFlagKeys)
		}
		switch key {
		case "name", "kind", "url":
			p[key] = value
		case "presets":
			p["presets"] = strings.Split(value, "+")
		case "interval":
			seconds, err := strconv.ParseFloat(value, 64)
			if err != nil {
				return nil, fmt.Errorf("interval: %q is not a number of seconds", value)
			}
			p["intervalSeconds"] = seconds
		case "required":
			required, err := strconv.ParseBool(value)
			if err != nil {
				return nil, fmt.Errorf("required: %q is not true or false", value)
			}
			p["required"] = required
		case "pid":
			pid, err := strconv.Atoi(value)
			if err != nil {
				return nil, fmt.Errorf("pid: %q is not a process id", value)
			}
			match["pid"] = pid
		case "process":
			match["name"] = value
		case "pattern":
			match["pattern"] = value
		default:
			return nil, fmt.Errorf("unknown key %q (keys: %s)", key, probeFlagKeys)
		}
	}
	if len(match) > 0 {
		p["match"] = match
	}
	if p["kind"] == nil {
		p["kind"] = probe.KindPrometheus
		if len(match) > 0 {
			p["kind"] = probe.KindProcess
		}
	}
	return p, nil
}
