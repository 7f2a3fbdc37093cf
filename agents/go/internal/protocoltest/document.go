// Package protocoltest checks the agent against docs/openapi.json, the OpenAPI document the
// server generates from its own schemas (committed at the repository's root, kept current by the
// server's tests): the protocol types field by field (CheckType), and every request body the agent
// sends to the test fake (Validate), so a server change the agent does not follow fails the
// agent's tests. Only tests use it.
package protocoltest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
)

// Document is the parsed docs/openapi.json.
type Document struct {
	// File is where it was read from.
	File string
	root map[string]any

	mu         sync.Mutex
	validators map[string]*validator
}

var (
	loadOnce sync.Once
	loaded   *Document
	loadErr  error
)

// Load reads docs/openapi.json from the first directory above the working directory that has
// one (tests run in their package's directory, somewhere under agents/go).
func Load(t testing.TB) *Document {
	t.Helper()
	loadOnce.Do(func() { loaded, loadErr = load() })
	if loadErr != nil {
		t.Fatalf("protocoltest: %v", loadErr)
	}
	return loaded
}

func load() (*Document, error) {
	dir, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	for {
		file := filepath.Join(dir, "docs", "openapi.json")
		if data, err := os.ReadFile(file); err == nil {
			var root map[string]any
			if err := json.Unmarshal(data, &root); err != nil {
				return nil, fmt.Errorf("%s: %w", file, err)
			}
			return &Document{File: file, root: root, validators: map[string]*validator{}}, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil, fmt.Errorf("no docs/openapi.json above the working directory (it is at the repository's root; `npm run openapi:snapshot` writes it)")
		}
		dir = parent
	}
}

// operation is the operation at method and path as the document spells the path
// ("/api/v1/jobs/{id}/lease").
func (d *Document) operation(method, path string) (map[string]any, error) {
	item, _ := object(d.root["paths"])[path].(map[string]any)
	if item == nil {
		return nil, fmt.Errorf("the document has no path %s", path)
	}
	op, _ := item[strings.ToLower(method)].(map[string]any)
	if op == nil {
		return nil, fmt.Errorf("the document has no %s %s", method, path)
	}
	return op, nil
}

// RequestSchema is the JSON body schema of an operation's request; nil when it takes no body.
func (d *Document) RequestSchema(method, path string) (map[string]any, error) {
	op, err := d.operation(method, path)
	if err != nil {
		return nil, err
	}
	body := object(op["requestBody"])
	if body == nil {
		return nil, nil
	}
	schema := object(object(object(body["content"])["application/json"])["schema"])
	if schema == nil {
		return nil, fmt.Errorf("%s %s takes no JSON body", method, path)
	}
	return schema, nil
}

// ResponseSchema is the JSON body schema of an operation's answer with the given status.
func (d *Document) ResponseSchema(method, path, status string) (map[string]any, error) {
	op, err := d.operation(method, path)
	if err != nil {
		return nil, err
	}
	response := object(object(op["responses"])[status])
	if response == nil {
		return nil, fmt.Errorf("%s %s does not answer %s (it answers %s)", method, path, status, keys(object(op["responses"])))
	}
	schema := object(object(object(response["content"])["application/json"])["schema"])
	if schema == nil {
		return nil, fmt.Errorf("%s %s answers %s without a JSON body", method, path, status)
	}
	return schema, nil
}

// QueryParameter is the schema of an operation's query parameter.
func (d *Document) QueryParameter(method, path, name string) (map[string]any, error) {
	op, err := d.operation(method, path)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, p := range list(op["parameters"]) {
		param := object(p)
		if param["in"] == "query" {
			if param["name"] == name {
				return object(param["schema"]), nil
			}
			names = append(names, fmt.Sprint(param["name"]))
		}
	}
	return nil, fmt.Errorf("%s %s has no query parameter %q (it has %v)", method, path, name, names)
}

// Component is a named schema of the document (#/components/schemas/<name>).
func (d *Document) Component(name string) (map[string]any, error) {
	schema := object(object(object(d.root["components"])["schemas"])[name])
	if schema == nil {
		return nil, fmt.Errorf("the document has no schema %q", name)
	}
	return schema, nil
}

// PathOf is the document's path template that a request's URL path matches
// ("/api/v1/jobs/job1/lease" → "/api/v1/jobs/{id}/lease").
func (d *Document) PathOf(urlPath string) (string, bool) {
	for template := range object(d.root["paths"]) {
		pattern := "^" + regexp.MustCompile(`\\\{[^}]+\\\}`).ReplaceAllString(regexp.QuoteMeta(template), `[^/]+`) + "$"
		if regexp.MustCompile(pattern).MatchString(urlPath) {
			return template, true
		}
	}
	return "", false
}

// resolve follows a $ref to the component it names, and of a nullable schema (anyOf with a
// {"type": "null"} branch) returns the other branch.
func (d *Document) resolve(schema map[string]any) map[string]any {
	for {
		if ref, ok := schema["$ref"].(string); ok {
			name := strings.TrimPrefix(ref, "#/components/schemas/")
			resolved, err := d.Component(name)
			if err != nil {
				return schema
			}
			schema = resolved
			continue
		}
		if branches := list(schema["anyOf"]); len(branches) == 2 {
			if nonNull := withoutNull(branches); nonNull != nil {
				schema = nonNull
				continue
			}
		}
		return schema
	}
}

func withoutNull(branches []any) map[string]any {
	var other map[string]any
	nulls := 0
	for _, b := range branches {
		if object(b)["type"] == "null" {
			nulls++
		} else {
			other = object(b)
		}
	}
	if nulls == 1 && other != nil {
		return other
	}
	return nil
}

func object(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func list(v any) []any {
	l, _ := v.([]any)
	return l
}

func keys(m map[string]any) string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}
