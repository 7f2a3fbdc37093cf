package protocoltest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"
)

// Direction is which way a type travels: a request body the agent sends, or an answer it reads.
type Direction int

const (
	// Sends: every field must be a property of the schema, of a type the schema takes, and every
	// property the schema requires must be a field that is always sent (no omitempty).
	Sends Direction = iota
	// Reads: every field must be a property of the schema, of a type that can hold it.
	Reads
)

var (
	rawMessageType = reflect.TypeOf(json.RawMessage{})
	timeType       = reflect.TypeOf(time.Time{})
)

// CheckType compares a Go type, by its JSON field names (encoding/json's rules), with a schema of
// the document; it returns one line per problem, each naming the field and what the schema has.
func (d *Document) CheckType(t reflect.Type, schema map[string]any, dir Direction) []string {
	c := &typeChecker{doc: d, dir: dir}
	c.check(t, schema, "body")
	return c.problems
}

type typeChecker struct {
	doc      *Document
	dir      Direction
	problems []string
}

func (c *typeChecker) problem(at string, format string, args ...any) {
	c.problems = append(c.problems, at+": "+fmt.Sprintf(format, args...))
}

func (c *typeChecker) check(t reflect.Type, raw map[string]any, at string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	schema := c.doc.resolve(raw)
	if t == rawMessageType || t.Kind() == reflect.Interface {
		return // any JSON value: the code that reads it checks it
	}
	if t == timeType {
		c.want(schema, at, t, "string")
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		c.object(t, schema, at)
	case reflect.Map:
		if t.Key().Kind() != reflect.String || !c.want(schema, at, t, "object") {
			return
		}
		if extra := object(schema["additionalProperties"]); extra != nil {
			c.check(t.Elem(), extra, at+".*")
		} else if c.dir == Sends && schema["properties"] != nil {
			c.problem(at, "%s sends any keys, but the schema lists its properties (%s)", t, keys(object(schema["properties"])))
		}
	case reflect.Slice, reflect.Array:
		if c.want(schema, at, t, "array") {
			if items := object(schema["items"]); items != nil {
				c.check(t.Elem(), items, at+"[]")
			}
		}
	case reflect.String:
		c.want(schema, at, t, "string")
	case reflect.Bool:
		c.want(schema, at, t, "boolean")
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if c.dir == Sends {
			c.want(schema, at, t, "integer", "number")
		} else {
			c.want(schema, at, t, "integer") // a fraction would not decode
		}
	case reflect.Float32, reflect.Float64:
		if c.dir == Sends {
			c.want(schema, at, t, "number") // a fraction where the schema wants an integer is refused
		} else {
			c.want(schema, at, t, "number", "integer")
		}
	default:
		c.problem(at, "%s: a Go type this check does not know", t)
	}
}

// want reports whether the schema's type is one of types (a schema without a type takes any).
func (c *typeChecker) want(schema map[string]any, at string, t reflect.Type, types ...string) bool {
	have := schemaTypes(schema)
	if len(have) == 0 {
		return true
	}
	for _, h := range have {
		for _, w := range types {
			if h == w {
				return true
			}
		}
	}
	c.problem(at, "%s holds a JSON %s, but the schema's type is %s", t, strings.Join(types, " or "), strings.Join(have, " or "))
	return false
}

func schemaTypes(schema map[string]any) []string {
	switch t := schema["type"].(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, v := range t {
			out = append(out, fmt.Sprint(v))
		}
		return out
	}
	var out []string
	for _, branch := range list(schema["anyOf"]) {
		out = append(out, schemaTypes(object(branch))...)
	}
	return out
}

func (c *typeChecker) object(t reflect.Type, schema map[string]any, at string) {
	if !c.want(schema, at, t, "object") {
		return
	}
	properties := object(schema["properties"])
	fields := jsonFields(t)
	for _, f := range fields {
		property := object(properties[f.name])
		if property == nil {
			verb := "sends"
			if c.dir == Reads {
				verb = "reads"
			}
			c.problem(at+"."+f.name, "%s %s %q, which the schema does not have (it has %s)", fieldName(t, f), verb, f.name, keys(properties))
			continue
		}
		c.check(f.typ, property, at+"."+f.name)
	}
	if c.dir != Sends {
		return
	}
	for _, r := range list(schema["required"]) {
		name := fmt.Sprint(r)
		f, ok := fieldNamed(fields, name)
		switch {
		case !ok:
			c.problem(at+"."+name, "the schema requires %q, which %s does not send", name, typeName(t))
		case f.omitEmpty && canBeEmpty(f.typ):
			c.problem(at+"."+name, "the schema requires %q, but %s has omitempty: it is left out when empty", name, fieldName(t, f))
		}
	}
}

type jsonField struct {
	name, goName string
	typ          reflect.Type
	omitEmpty    bool
}

// jsonFields lists a struct's fields as encoding/json names them (embedded structs flattened).
func jsonFields(t reflect.Type) []jsonField {
	var out []jsonField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		name, options, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			out = append(out, jsonFields(f.Type)...)
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, jsonField{name: name, goName: f.Name, typ: f.Type, omitEmpty: strings.Contains(","+options+",", ",omitempty,")})
	}
	return out
}

func fieldNamed(fields []jsonField, name string) (jsonField, bool) {
	for _, f := range fields {
		if f.name == name {
			return f, true
		}
	}
	return jsonField{}, false
}

// canBeEmpty says whether omitempty can leave the field out (it never leaves out a struct).
func canBeEmpty(t reflect.Type) bool {
	return t.Kind() != reflect.Struct
}

// typeName names a struct type for a message (an anonymous struct by what it is).
func typeName(t reflect.Type) string {
	if t.Name() == "" {
		return "the anonymous struct"
	}
	return t.Name()
}

func fieldName(t reflect.Type, f jsonField) string {
	if t.Name() == "" {
		return "field " + f.goName
	}
	return t.Name() + "." + f.goName
}
