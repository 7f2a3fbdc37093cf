// Package targets is the `targets` setting of the http, grpc and s3 workloads: bundled target
// processes (`versus-agent target`) the agent starts for a job, on loopback at fixed addresses the
// workload's url and the probes name, and stops when the workload and the probes are done.
package targets

import (
	"context"
	"fmt"
	"io"
	"net"
	"regexp"
	"strconv"
	"strings"

	"github.com/versus/agents/go/internal/target/options"
	"github.com/versus/agents/go/internal/workload"
)

// Spec is one target of the setting: where it listens and the rest of its flags.
type Spec struct {
	Name     string   `json:"name"`
	Addr     string   `json:"addr"`
	GRPCAddr string   `json:"grpcAddr,omitempty"`
	Args     []string `json:"args,omitempty"`
}

// The schema says these too (the dashboard checks a form with it); Check says them again for
// settings that reach the agent without the dashboard, with the field and what is valid.
// Capability is what an agent whose workloads start bundled targets advertises: a job whose
// settings list targets needs it (the server adds it to such a job's needs), so an agent with an
// http workload of its own but no targets setting never claims one.
const Capability = "targets"

const (
	maxTargets = 8
	maxName    = 40
	maxArgs    = 40
)

var namePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

// ownFlags are the target's flags the setting gives a field of its own (or that would make the
// process print and exit instead of serving), with what to use instead.
var ownFlags = map[string]string{
	"addr":        "give the address as addr",
	"grpc-addr":   "give the address as grpcAddr",
	"print-proto": "it prints the .proto and exits instead of serving",
	"h":           "it prints the help and exits instead of serving",
	"help":        "it prints the help and exits instead of serving",
}

// Check checks the list as settings of the workload: names unique, addresses on loopback at a
// fixed port and not shared, args that `versus-agent target` takes. Field names are as the
// schema validator gives them ("targets.0.addr").
func Check(list []Spec) workload.SettingsErrors {
	var errs workload.SettingsErrors
	bad := func(field, format string, args ...any) {
		errs = append(errs, &workload.SettingsError{Field: field, Message: fmt.Sprintf(format, args...)})
	}
	if len(list) > maxTargets {
		bad("targets", "at most %d targets (got %d)", maxTargets, len(list))
	}
	names := map[string]int{}
	addrs := map[string]string{}
	for i, s := range list {
		at := func(field string) string { return fmt.Sprintf("targets.%d.%s", i, field) }
		switch {
		case !namePattern.MatchString(s.Name) || len(s.Name) > maxName:
			bad(at("name"), "must be 1 to %d lowercase letters, digits, - or _, starting with a letter or digit (got %q)", maxName, s.Name)
		case names[s.Name] > 0:
			bad(at("name"), "%q is also the name of targets.%d: each target needs its own", s.Name, names[s.Name]-1)
		default:
			names[s.Name] = i + 1
		}
		for _, a := range []struct{ field, addr string }{{"addr", s.Addr}, {"grpcAddr", s.GRPCAddr}} {
			if a.addr == "" && a.field == "grpcAddr" {
				continue
			}
			if err := checkAddr(a.addr); err != nil {
				bad(at(a.field), "%v", err)
				continue
			}
			if other, ok := addrs[canonical(a.addr)]; ok {
				bad(at(a.field), "%s is also %s: each address takes one listener", a.addr, other)
				continue
			}
			addrs[canonical(a.addr)] = at(a.field)
		}
		if len(s.Args) > maxArgs {
			bad(at("args"), "at most %d arguments (got %d)", maxArgs, len(s.Args))
		} else if err := checkArgs(s.Args); err != nil {
			bad(at("args"), "%v", err)
		}
	}
	return errs
}

// checkAddr: host:port with a loopback host and a fixed port. The port cannot be 0 (any free
// port): the workload's url and the probes have to name it.
func checkAddr(addr string) error {
	const valid = "must be host:port on loopback (127.0.0.1, localhost or [::1]) with a port from 1 to 65535, e.g. 127.0.0.1:17811"
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%s (got %q)", valid, addr)
	}
	if host != "127.0.0.1" && host != "localhost" && host != "::1" {
		return fmt.Errorf("%s: the agent starts targets on its own machine, reachable from it only (got host %q)", valid, host)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return fmt.Errorf("%s: the workload and the probes name the port, so it cannot be 0 or left to chance (got port %q)", valid, port)
	}
	return nil
}

// canonical spells localhost as 127.0.0.1, so two spellings of one address are seen to clash.
func canonical(addr string) string {
	host, port, _ := net.SplitHostPort(addr)
	if host == "localhost" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}

// checkArgs refuses the flags the setting owns, then has the target read the rest as it will
// when it starts.
func checkArgs(args []string) error {
	for _, arg := range args {
		name, ok := flagName(arg)
		if !ok {
			continue
		}
		if instead, own := ownFlags[name]; own {
			return fmt.Errorf("%s is not for args: %s", arg, instead)
		}
	}
	if _, err := options.Parse("versus-agent target", args, io.Discard); err != nil {
		return fmt.Errorf("the target refused them: %v (see versus-agent target -h)", err)
	}
	return nil
}

// flagName is the name of a flag argument ("--cache-ttl=5s" → "cache-ttl"), as Go's flag
// package reads one or two dashes.
func flagName(arg string) (string, bool) {
	if len(arg) < 2 || arg[0] != '-' {
		return "", false
	}
	name := strings.TrimPrefix(strings.TrimPrefix(arg, "-"), "-")
	name, _, _ = strings.Cut(name, "=")
	return name, name != ""
}

// StartRecorded starts the list (nil when it is empty), after recording it in the run's
// environment under "targets" and warning that the targets share the agent's machine.
func StartRecorded(ctx context.Context, list []Spec, rec workload.Recorder) (workload.RunningTargets, error) {
	if len(list) == 0 {
		return nil, nil
	}
	names := make([]string, len(list))
	for i, s := range list {
		names[i] = s.Name
	}
	rec.Environment("targets", list)
	rec.Warn(fmt.Sprintf("the targets (%s) were started by the agent on its own machine: they share its CPU with the load generator, so these figures describe this machine, not a deployed server", strings.Join(names, ", ")))
	running, err := Start(ctx, list, rec.Logf)
	if err != nil {
		return nil, err
	}
	return running, nil
}
