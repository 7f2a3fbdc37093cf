// Package workloadtest holds the checks every workload's tests share.
package workloadtest

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/versus/agents/go/internal/workload"
)

// SettingsCase is {settings a workload must refuse, the field its error names (e.g.
// "settings.level:"), words the message says}.
type SettingsCase [3]string

// RequireRefused checks that Prepare refuses each case with settings errors naming its field.
func RequireRefused(t *testing.T, w workload.Workload, cases []SettingsCase) {
	t.Helper()
	for _, c := range cases {
		settings, field, says := c[0], c[1], c[2]
		_, err := w.Prepare(json.RawMessage(settings))
		var se workload.SettingsErrors
		if !errors.As(err, &se) {
			t.Errorf("%s: want settings errors, got %v", settings, err)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, field) || !strings.Contains(msg, says) {
			t.Errorf("%s: error %q does not name %q with %q", settings, msg, field, says)
		}
	}
}
