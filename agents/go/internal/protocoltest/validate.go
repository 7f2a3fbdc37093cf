package protocoltest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

type validator struct {
	schema *jsonschema.Schema
	err    error
}

// ValidateRequest checks a request body the agent sent to a URL path (POST) against the
// operation's request schema, closed: besides what the schema says (required fields, types,
// enums, lengths, formats), an object may hold no property its schema does not list. The server
// ignores unknown properties, so a misspelt or renamed optional field would otherwise be dropped
// without a word. An operation without a body takes none (or an empty object).
func (d *Document) ValidateRequest(urlPath string, body any) error {
	path, ok := d.PathOf(urlPath)
	if !ok {
		return fmt.Errorf("POST %s: the document has no such path", urlPath)
	}
	v := d.requestValidator(path)
	if v.err != nil {
		return fmt.Errorf("POST %s: %w", path, v.err)
	}
	data, err := json.Marshal(body)
	if err != nil {
		return err
	}
	if v.schema == nil {
		if m, ok := body.(map[string]any); body == nil || (ok && len(m) == 0) {
			return nil
		}
		return fmt.Errorf("POST %s takes no body, but the agent sent %s", path, data)
	}
	value, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	if err := v.schema.Validate(value); err != nil {
		return fmt.Errorf("POST %s: the body %s is not what %s allows: %w", urlPath, abbreviate(data), d.File, err)
	}
	return nil
}

func (d *Document) requestValidator(path string) *validator {
	d.mu.Lock()
	defer d.mu.Unlock()
	if v, ok := d.validators[path]; ok {
		return v
	}
	v := &validator{}
	d.validators[path] = v
	schema, err := d.RequestSchema("POST", path)
	if err != nil || schema == nil {
		v.err = err
		return v
	}
	v.schema, v.err = d.compileClosed(schema)
	return v
}

// compileClosed compiles a schema of the document on its own: the components it refers to become
// $defs, and every object schema that lists properties admits no others.
func (d *Document) compileClosed(schema map[string]any) (*jsonschema.Schema, error) {
	standalone := closed(schema).(map[string]any)
	standalone["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	defs := map[string]any{}
	for name, component := range object(object(d.root["components"])["schemas"]) {
		defs[name] = closed(component)
	}
	standalone["$defs"] = defs
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	c.AssertContent()
	if err := c.AddResource("versus-protocol.json", standalone); err != nil {
		return nil, err
	}
	return c.Compile("versus-protocol.json")
}

// closed copies a schema with its $refs pointing at $defs and its objects closed.
func closed(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v)+1)
		for k, e := range v {
			out[k] = closed(e)
		}
		if ref, ok := v["$ref"].(string); ok {
			out["$ref"] = strings.Replace(ref, "#/components/schemas/", "#/$defs/", 1)
		}
		if _, lists := v["properties"]; lists {
			if _, says := v["additionalProperties"]; !says {
				out["additionalProperties"] = false
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = closed(e)
		}
		return out
	}
	return v
}

func abbreviate(data []byte) string {
	if len(data) > 300 {
		return string(data[:300]) + "…"
	}
	return string(data)
}
