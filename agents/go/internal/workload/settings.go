package workload

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// english prints the validator's messages (it formats them through x/text).
var english = message.NewPrinter(language.English)

// SettingsError is a bad job setting: which field, and what is wrong with it. The agent fails
// the job (not retryable) with its message.
type SettingsError struct {
	Field   string // JSON path inside settings, e.g. "level"; empty for the whole object
	Message string
}

func (e *SettingsError) Error() string {
	if e.Field == "" {
		return "settings: " + e.Message
	}
	return "settings." + e.Field + ": " + e.Message
}

// SettingsErrors are all the problems of one settings object, reported together.
type SettingsErrors []*SettingsError

func (es SettingsErrors) Error() string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "; ")
}

// Schema is a compiled settings schema: the one JSON Schema a workload advertises is also what
// checks a job's settings, so the form in the dashboard and the agent never disagree.
type Schema struct {
	raw      json.RawMessage
	compiled *jsonschema.Schema
}

// MustCompileSchema compiles a built-in workload's schema; a broken one is a programming error.
func MustCompileSchema(name string, schema []byte) *Schema {
	s, err := CompileSchema(name, schema)
	if err != nil {
		panic(err)
	}
	return s
}

// CompileSchema compiles a JSON Schema (draft 2020-12 unless it says otherwise).
func CompileSchema(name string, schema []byte) (*Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, fmt.Errorf("workload %s: settings schema is not JSON: %w", name, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	url := "versus:workload/" + name + ".json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("workload %s: %w", name, err)
	}
	compiled, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("workload %s: settings schema: %w", name, err)
	}
	return &Schema{raw: json.RawMessage(schema), compiled: compiled}, nil
}

// Raw is the schema as advertised.
func (s *Schema) Raw() json.RawMessage { return s.raw }

// Decode checks raw settings against the schema, then decodes them into `into`, which holds the
// defaults beforehand (fields the settings leave out keep them). Absent or null settings are {}.
func (s *Schema) Decode(raw json.RawMessage, into any) error {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		raw = json.RawMessage("{}")
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return SettingsErrors{{Message: "not valid JSON: " + err.Error()}}
	}
	if err := s.compiled.Validate(inst); err != nil {
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			return fromValidation(ve, s.raw)
		}
		return SettingsErrors{{Message: err.Error()}}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(into); err != nil {
		return SettingsErrors{{Message: err.Error()}}
	}
	return nil
}

// fromValidation flattens the validator's tree into one error per failing field (its leaves).
// Unknown settings are worded with the ones the schema takes at that place, so a user who
// wrote another tool's words (k6's "vus") learns this workload's.
func fromValidation(ve *jsonschema.ValidationError, schema json.RawMessage) SettingsErrors {
	var out SettingsErrors
	seen := map[string]bool{}
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		field := strings.Join(e.InstanceLocation, ".")
		msg := e.ErrorKind.LocalizedString(english)
		if extra, ok := e.ErrorKind.(*kind.AdditionalProperties); ok {
			msg = unknownSettings(extra.Properties, propertyNamesAt(schema, e.InstanceLocation))
		}
		if _, ok := e.ErrorKind.(*kind.Not); ok {
			// "not": {"required": [a, b]} is how a schema says "a or b, never both": the last
			// one named is the setting to take out, and its message names the others.
			if names := notTogetherAt(schema, e.InstanceLocation); len(names) > 1 {
				field = strings.Join(append(append([]string(nil), e.InstanceLocation...), names[len(names)-1]), ".")
				msg = "cannot be given together with " + strings.Join(names[:len(names)-1], ", ") + " (give one or the other)"
			}
		}
		if key := field + "\x00" + msg; !seen[key] {
			seen[key] = true
			out = append(out, &SettingsError{Field: field, Message: msg})
		}
	}
	walk(ve)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Field < out[j].Field })
	return out
}

// unknownSettings is "unknown settings 'a', 'b'; valid settings are x, y, z". The unknown names
// are sorted: the validator lists them in a map's order, and the same mistake should read the
// same way every time.
func unknownSettings(unknown, valid []string) string {
	names := append([]string(nil), unknown...)
	sort.Strings(names)
	quoted := make([]string, len(names))
	for i, name := range names {
		quoted[i] = "'" + name + "'"
	}
	msg := "unknown setting " + quoted[0]
	if len(quoted) > 1 {
		msg = "unknown settings " + strings.Join(quoted, ", ")
	}
	if len(valid) > 0 {
		msg += "; valid settings are " + strings.Join(valid, ", ")
	}
	return msg
}

// notTogetherAt is the "required" list of the "not" of the object the schema defines at an
// instance location: the settings that must not all be given.
func notTogetherAt(schema json.RawMessage, location []string) []string {
	var node struct {
		Not struct {
			Required []string `json:"required"`
		} `json:"not"`
	}
	if json.Unmarshal(schemaAt(schema, location), &node) != nil {
		return nil
	}
	return node.Not.Required
}

// schemaAt is the schema of the object at an instance location (the top level's, then each
// step's "properties" member); nil where the schema does not say (e.g. inside an array).
func schemaAt(schema json.RawMessage, location []string) json.RawMessage {
	current := schema
	for _, step := range location {
		var node map[string]json.RawMessage
		if json.Unmarshal(current, &node) != nil {
			return nil
		}
		var properties map[string]json.RawMessage
		if json.Unmarshal(node["properties"], &properties) != nil || properties[step] == nil {
			return nil
		}
		current = properties[step]
	}
	return current
}

// propertyNamesAt lists, in the schema's own order, the properties the schema defines for the
// object at an instance location (e.g. ["selfTarget"]): the top level's properties, then each
// step's "properties" member. Nil where the schema does not say (e.g. inside an array).
func propertyNamesAt(schema json.RawMessage, location []string) []string {
	var node map[string]json.RawMessage
	if json.Unmarshal(schemaAt(schema, location), &node) != nil || node["properties"] == nil {
		return nil
	}
	return orderedKeys(node["properties"])
}

// orderedKeys are a JSON object's keys in the order they are written (a map would lose it).
func orderedKeys(object json.RawMessage) []string {
	dec := json.NewDecoder(bytes.NewReader(object))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return keys
		}
		key, _ := tok.(string)
		keys = append(keys, key)
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return keys
		}
	}
	return keys
}
