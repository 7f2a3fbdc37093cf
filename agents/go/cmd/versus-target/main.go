// versus-target is `versus-agent target` as a binary of its own, under the name the http-load
// benchmarks (bench/http-load.ts, bench/http-stall.ts), the probe tests and the probes walk
// (e2e/probes-agent-run.spec.ts) start: the same flags and endpoints (internal/target).
package main

import (
	"os"

	"github.com/versus/agents/go/internal/target"
)

func main() {
	os.Exit(target.Main("versus-target", os.Args[1:], os.Stdout, os.Stderr))
}
