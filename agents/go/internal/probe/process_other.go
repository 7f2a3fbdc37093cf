//go:build !linux

package probe

import (
	"context"
	"errors"
)

// processSupported: the process probe reads /proc, which only Linux has.
const processSupported = false

type procSource struct{}

func newProcSource(Match) (*procSource, error) {
	return nil, errors.New("process probes need Linux (/proc); this agent runs elsewhere")
}

func (*procSource) metrics() []metricDef                  { return nil }
func (*procSource) counters() []string                    { return nil }
func (*procSource) close()                                {}
func (*procSource) read(context.Context) (reading, error) { return nil, errors.New("no /proc") }
