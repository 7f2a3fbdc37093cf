package main

import (
	"fmt"
	"os"
)

// agentCommand takes jobs from a Versus server.
func agentCommand(args []string) int {
	fmt.Fprintln(os.Stderr, "versus-agent agent: not built yet")
	return 2
}
