//go:build !linux

package exec

// Other systems do not carry the starting process's peak into a command's ru_maxrss the way
// Linux does (see rss_linux.go); there is nothing to reset.
func releaseAgentPeak()     {}
func resetAgentPeak()       {}
func agentPeakKiB() float64 { return 0 }
