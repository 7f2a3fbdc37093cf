package target

import (
	"io"

	"github.com/versus/agents/go/internal/target/options"
)

// Options are the target's flags (package options).
type Options = options.Options

// MaxPayload is the largest payload an endpoint sends or accepts (64 MiB).
const MaxPayload = options.MaxPayload

// ParseOptions reads the flags; the error names the flag that was wrong and what is valid.
func ParseOptions(name string, args []string, stderr io.Writer) (Options, error) {
	return options.Parse(name, args, stderr)
}
