// versus-agent runs Versus workloads: as an agent that takes jobs from a Versus server
// (`versus-agent agent`, the default), or once on its own (`versus-agent run`); `versus-agent
// target` serves the bundled system under test.
package main

import (
	"fmt"
	"os"

	"github.com/versus/agents/go/internal/target"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

const usage = `versus-agent — runs Versus workloads

usage:
  versus-agent [agent] [flags]      take jobs from a Versus server (see versus-agent agent -h)
  versus-agent run [flags]          run one workload here and print its result (see versus-agent run -h)
  versus-agent workloads [--json]   list the built-in workloads, their metrics and settings schemas
  versus-agent target [flags]       serve the bundled system under test (see versus-agent target -h)
  versus-agent version
`

func main() {
	os.Exit(dispatch(os.Args[1:]))
}

func dispatch(args []string) int {
	command := "agent"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		command, args = args[0], args[1:]
	}
	switch command {
	case "agent":
		return agentCommand(args)
	case "run":
		return runCommand(args, os.Stdout, os.Stderr)
	case "workloads":
		return workloadsCommand(args, os.Stdout, os.Stderr)
	case "target":
		return target.Main("versus-agent target", args, os.Stdout, os.Stderr)
	case "version":
		fmt.Println(version)
		return 0
	case "help":
		fmt.Print(usage)
		return 0
	default:
		fmt.Fprintf(os.Stderr, "versus-agent: unknown command %q\n\n%s", command, usage)
		return 2
	}
}
