// Package builtin lists the workloads compiled into versus-agent. Adding a workload is one line
// here; the agent advertises exactly what this registry holds.
package builtin

import (
	"github.com/versus/agents/go/internal/workload"
	"github.com/versus/agents/go/internal/workload/exec"
	grpcworkload "github.com/versus/agents/go/internal/workload/grpc"
	"github.com/versus/agents/go/internal/workload/gzip"
	httpworkload "github.com/versus/agents/go/internal/workload/http"
	s3workload "github.com/versus/agents/go/internal/workload/s3"
	"github.com/versus/agents/go/internal/workload/sleep"
)

// Registry returns a registry of every built-in workload.
func Registry() *workload.Registry {
	return workload.NewRegistry(
		exec.New(),
		gzip.New(),
		grpcworkload.Workload{},
		httpworkload.Workload{},
		s3workload.Workload{},
		sleep.New(),
	)
}
