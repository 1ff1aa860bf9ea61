package mcp

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// The tools' JSON Schemas are taken from the API's OpenAPI document (the
// route table's Body and answer types, internal/api/openapi*.go), never
// written again here: a tool's arguments are the path parameters, the
// query parameters and the body of the route it stands for, and its result
// is the route's answer, so that a change of an API type changes the tool
// with it. Each schema is made self-contained: the components it refers to
// are copied under $defs and the references rewritten.

// apiDoc is the part of the OpenAPI document the tools read.
type apiDoc struct {
	ops     map[string]map[string]any // "METHOD /path" → operation
	schemas map[string]any            // components.schemas
}

// parseDoc reads the OpenAPI document.
func parseDoc(raw []byte) (*apiDoc, error) {
	var doc struct {
		Paths      map[string]map[string]map[string]any `json:"paths"`
		Components struct {
			Schemas map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("mcp: the OpenAPI document: %w", err)
	}
	d := &apiDoc{ops: map[string]map[string]any{}, schemas: doc.Components.Schemas}
	for path, methods := range doc.Paths {
		for method, op := range methods {
			d.ops[strings.ToUpper(method)+" "+path] = op
		}
	}
	return d, nil
}

// operation is what a tool takes from one route of the document.
type operation struct {
	key   string
	scope string
	op    map[string]any
}

// operation returns the route's operation; a route the document lacks is an
// error naming it (the tool table and the route table drifted apart).
func (d *apiDoc) operation(key string) (operation, error) {
	op, ok := d.ops[key]
	if !ok {
		return operation{}, fmt.Errorf("mcp: the API has no route %s", key)
	}
	scope, _ := op["x-edgeflow-scope"].(string)
	return operation{key: key, scope: scope, op: op}, nil
}

// bodyProperties are the properties of the route's JSON request body.
func (o operation) bodyProperties() map[string]any {
	s, _ := dig(o.op, "requestBody", "content", "application/json", "schema").(map[string]any)
	props, _ := s["properties"].(map[string]any)
	return props
}

// bodyProperty is one property of the route's request body; it panics when
// the body has none of that name, as a tool built on a field the route does
// not read is a programming error the tests catch.
func (o operation) bodyProperty(name string) map[string]any {
	p, ok := o.bodyProperties()[name].(map[string]any)
	if !ok {
		panic(fmt.Sprintf("mcp: %s reads no body field %q", o.key, name))
	}
	return clone(p)
}

// queryParameter is the schema of a query parameter of the route, with its
// description.
func (o operation) queryParameter(name string) map[string]any {
	params, _ := o.op["parameters"].([]any)
	for _, p := range params {
		pm, _ := p.(map[string]any)
		if pm["in"] == "query" && pm["name"] == name {
			s := clone(pm["schema"].(map[string]any))
			if desc, ok := pm["description"].(string); ok && s["description"] == nil {
				s["description"] = desc
			}
			return s
		}
	}
	panic(fmt.Sprintf("mcp: %s reads no query parameter %q", o.key, name))
}

// reply is the schema of the route's JSON answer.
func (o operation) reply() map[string]any {
	responses, _ := o.op["responses"].(map[string]any)
	for _, status := range slices.Sorted(maps.Keys(responses)) {
		if !strings.HasPrefix(status, "2") {
			continue
		}
		if s, ok := dig(responses[status], "content", "application/json", "schema").(map[string]any); ok {
			return clone(s)
		}
	}
	panic(fmt.Sprintf("mcp: %s answers no JSON", o.key))
}

// component is a reference to a schema of the document's components.
func (d *apiDoc) component(name string) map[string]any {
	if _, ok := d.schemas[name]; !ok {
		panic(fmt.Sprintf("mcp: the OpenAPI document has no schema %q", name))
	}
	return map[string]any{"$ref": componentRef + name}
}

// resolved is the component's own schema (a copy), for a tool that builds
// its answer from the component's properties.
func (d *apiDoc) resolved(name string) map[string]any {
	s, ok := d.schemas[name].(map[string]any)
	if !ok {
		panic(fmt.Sprintf("mcp: the OpenAPI document has no schema %q", name))
	}
	return clone(s)
}

const (
	componentRef = "#/components/schemas/"
	defsRef      = "#/$defs/"
)

// bundle makes schema self-contained: every component it refers to,
// directly or through another, is copied into $defs, and the references
// point there. A schema that is only a reference to a component becomes
// that component's schema: MCP wants a tool's schemas to be objects at the
// top.
func (d *apiDoc) bundle(schema map[string]any) map[string]any {
	if ref, ok := schema["$ref"].(string); ok && len(schema) == 1 {
		schema = d.resolved(strings.TrimPrefix(ref, componentRef))
	}
	out := rewriteRefs(clone(schema)).(map[string]any)
	defs := map[string]any{}
	var visit func(v any)
	visit = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if ref, ok := v["$ref"].(string); ok && strings.HasPrefix(ref, defsRef) {
				name := strings.TrimPrefix(ref, defsRef)
				if _, done := defs[name]; !done {
					def := rewriteRefs(clone(d.schemas[name].(map[string]any)))
					defs[name] = def
					visit(def)
				}
			}
			for _, child := range v {
				visit(child)
			}
		case []any:
			for _, child := range v {
				visit(child)
			}
		}
	}
	visit(out)
	if len(defs) > 0 {
		out["$defs"] = defs
	}
	return out
}

// rewriteRefs points the document's component references at $defs and
// drops the keyword only OpenAPI knows, "example" (the examples are for the
// API's reader; a JSON Schema validator in a strict mode refuses them).
func rewriteRefs(v any) any { return rewrite(v, false) }

// rewrite is rewriteRefs of v; names says that v's keys are names
// (properties, $defs) rather than keywords.
func rewrite(v any, names bool) any {
	switch v := v.(type) {
	case map[string]any:
		for k, child := range v {
			switch {
			case names:
				v[k] = rewrite(child, false)
			case k == "example":
				delete(v, k)
			case k == "$ref":
				if s, ok := child.(string); ok {
					v[k] = defsRef + strings.TrimPrefix(s, componentRef)
				}
			default:
				v[k] = rewrite(child, k == "properties" || k == "$defs" || k == "patternProperties")
			}
		}
	case []any:
		for i, child := range v {
			v[i] = rewrite(child, false)
		}
	}
	return v
}

// object is an object schema of props, required listing the names that
// must be present, no other property allowed.
func object(props map[string]any, required ...string) map[string]any {
	s := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

// described is s with its description set.
func described(s map[string]any, description string) map[string]any {
	s = clone(s)
	s["description"] = description
	return s
}

// str is a string schema with a description.
func str(description string) map[string]any {
	return map[string]any{"type": "string", "description": description}
}

// dig walks nested objects by key.
func dig(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// clone deep-copies a JSON value.
func clone[T any](v T) T {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	var out T
	if err := json.Unmarshal(b, &out); err != nil {
		panic(err)
	}
	return out
}
