package protocoltest

// Property is the schema of a property nested in schema (references followed), or nil when the
// document does not have it.
func (d *Document) Property(schema map[string]any, path ...string) map[string]any {
	for _, name := range path {
		schema = object(object(d.resolve(schema)["properties"])[name])
		if schema == nil {
			return nil
		}
	}
	return d.resolve(schema)
}

// Merged is the schema with every oneOf/anyOf of object schemas (a union discriminated by a
// field, such as a probe's kind) made one object schema holding every branch's properties, all
// the way down: what a Go struct carrying the fields of every branch is checked against.
func (d *Document) Merged(schema map[string]any) map[string]any {
	s := d.resolve(schema)
	out := make(map[string]any, len(s))
	for k, v := range s {
		out[k] = v
	}
	for _, key := range []string{"oneOf", "anyOf"} {
		branches := list(s[key])
		if len(branches) == 0 {
			continue
		}
		properties := map[string]any{}
		objects := true
		for _, b := range branches {
			branch := d.resolve(object(b))
			if branch["type"] != "object" {
				objects = false
				break
			}
			for name, p := range object(branch["properties"]) {
				properties[name] = p
			}
		}
		if objects {
			delete(out, key)
			out["type"], out["properties"] = "object", properties
		}
	}
	if properties := object(out["properties"]); properties != nil {
		merged := make(map[string]any, len(properties))
		for name, p := range properties {
			merged[name] = d.Merged(object(p))
		}
		out["properties"] = merged
	}
	if items := object(out["items"]); items != nil {
		out["items"] = d.Merged(items)
	}
	return out
}
