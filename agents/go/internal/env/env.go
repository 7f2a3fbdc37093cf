// Package env captures the machine a run ran on; every run carries it in its environment.
package env

import (
	"os"
	"runtime"
)

// Capture returns facts about this machine and process.
func Capture() map[string]any {
	hostname, _ := os.Hostname()
	return map[string]any{
		"os":        runtime.GOOS,
		"arch":      runtime.GOARCH,
		"cores":     runtime.NumCPU(),
		"goVersion": runtime.Version(),
		"hostname":  hostname,
		"agent":     "versus-agent (go)",
	}
}
