// Package builtin lists the workloads compiled into versus-agent. Adding a workload is one line
// here; the agent advertises exactly what this registry holds.
package builtin

import (
	httpworkload "github.com/versus/agents/go/internal/workload/http"

	"github.com/versus/agents/go/internal/workload"
)

// Registry returns a registry of every built-in workload.
func Registry() *workload.Registry {
	return workload.NewRegistry(
		httpworkload.Workload{},
	)
}
