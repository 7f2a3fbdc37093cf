package workload

import (
	"bytes"
	"encoding/json"
)

// PresentSettings returns the top-level settings raw gives (nil when raw is not a JSON object;
// Decode reports that). Workloads whose settings exclude each other (a file or a generated
// payload, a command or a shell line) check presence with it before Decode, so the error names
// the field and says which one clashes instead of the schema's generic "not"/"false schema".
func PresentSettings(raw json.RawMessage) map[string]bool {
	var fields map[string]json.RawMessage
	if json.Unmarshal(bytes.TrimSpace(raw), &fields) != nil {
		return nil
	}
	present := make(map[string]bool, len(fields))
	for key := range fields {
		present[key] = true
	}
	return present
}
