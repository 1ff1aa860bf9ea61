package api

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode"

	deploysvc "github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/importer"
	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/marketplace"
	"github.com/edgeflow/edgeflow/internal/mcp"
	"github.com/edgeflow/edgeflow/internal/nodes/registry"
)

// The answers' schemas are derived, like the request bodies', from the Go
// types: Route.Reply is a value of the type the handler writes with
// writeJSON, and Route.Events the types of a stream's events. They read as
// encoding/json writes: a field is required unless it has omitempty or
// omitzero; a pointer may be null unless omitempty leaves it out; a struct
// refuses other fields; a named struct type is one schema of the
// document's components, referred to by $ref, under its Go name (or its
// name in schemaNames); slices and maps are never null (handlers answer []
// and {}). A type that writes itself (json.Marshaler) is any JSON value. The
// enums are those the domain's constants define (replyEnums, typeEnums).

// Media is the Reply of a route whose answer is not JSON of a Go type: its
// media type and the schema of its body.
type Media struct {
	Type   string
	Schema map[string]any
}

// schemaNames name the components of types whose Go names say how the API
// package holds them rather than what they are.
var schemaNames = map[reflect.Type]string{
	reflect.TypeFor[edgeflow.ConnectionView](): "Connection",
	reflect.TypeFor[envVarView]():              "EnvVar",
	reflect.TypeFor[importer.EnvVar]():         "ImportEnvVar",
	reflect.TypeFor[importer.Report]():         "ImportReport",
	reflect.TypeFor[importResult]():            "ImportResult",
	reflect.TypeFor[apiKeyView]():              "APIKey",
	reflect.TypeFor[apiKeyCreated]():           "APIKeyCreated",
	reflect.TypeFor[sessionView]():             "Session",
	reflect.TypeFor[edgeflow.SignedInUser]():   "User",
	reflect.TypeFor[invitationBody]():          "Invitation",
	reflect.TypeFor[edgeflow.VersionSummary](): "Version",
	reflect.TypeFor[edgeflow.Version]():        "StoredVersion",
	reflect.TypeFor[irCompileResponse]():       "IRCompilation",
	reflect.TypeFor[nodeTemplateView]():        "NodeTemplate",
	reflect.TypeFor[healthBody]():              "Health",
	reflect.TypeFor[readyBody]():               "Readiness",
	reflect.TypeFor[r2ObjectsBody]():           "R2ObjectList",
	reflect.TypeFor[categoryList]():            "CategoryList",
	reflect.TypeFor[marketplace.Details]():     "MarketplaceNode",
	reflect.TypeFor[registry.VersionInfo]():    "CatalogVersion",
	reflect.TypeFor[edgeflow.Route]():          "WorkerRoute",
	reflect.TypeFor[ir.Validation]():           "ConfigValidation",
	reflect.TypeFor[mcpMessage]():              "MCPMessage",
	reflect.TypeFor[mcpError]():                "MCPError",
	reflect.TypeFor[mcp.Connect]():             "MCPConnect",
	reflect.TypeFor[mcp.StdioCommand]():        "MCPStdioCommand",
	reflect.TypeFor[mcp.ClientConfig]():        "MCPClientConfig",
}

var (
	runStatuses = []string{edgeflow.RunQueued, edgeflow.RunRunning, edgeflow.RunPaused, edgeflow.RunComplete,
		edgeflow.RunErrored, edgeflow.RunTerminated}
	recordScopes = []string{ScopeOrganization, ScopeProject}
)

// typeEnums are the values of the named types whose constants list them;
// each is a component of the document.
var typeEnums = map[reflect.Type][]string{
	reflect.TypeFor[edgeflow.Role]():  {string(edgeflow.RoleOwner), string(edgeflow.RoleAdmin), string(edgeflow.RoleMember), string(edgeflow.RoleViewer)},
	reflect.TypeFor[edgeflow.Scope](): {string(edgeflow.ScopeRead), string(edgeflow.ScopeWrite), string(edgeflow.ScopeDeploy)},
}

// replyEnums are the values of string fields (or of the items of string
// list fields) whose constants list them, by the struct that declares the
// field and its JSON name.
var replyEnums = map[reflect.Type]map[string][]string{
	reflect.TypeFor[edgeflow.Run]():          {"status": runStatuses},
	reflect.TypeFor[edgeflow.RunEvent]():     {"status": runStatuses},
	reflect.TypeFor[deploysvc.RunLogsView](): {"status": runStatuses},
	reflect.TypeFor[runLogsEnd]():            {"status": runStatuses},
	reflect.TypeFor[deploysvc.Progress]():    {"stage": deploysvc.Stages},
	reflect.TypeFor[edgeflow.RunStep](): {"state": {edgeflow.StepRunning, edgeflow.StepRetrying, edgeflow.StepWaiting,
		edgeflow.StepComplete, edgeflow.StepErrored, edgeflow.StepReplayed, edgeflow.StepTerminated, deploysvc.StepMocked,
		edgeflow.StepRolledBack, edgeflow.StepRollbackFailed}},
	reflect.TypeFor[edgeflow.Deployment]():     {"status": {edgeflow.DeploymentActive, edgeflow.DeploymentReplaced, edgeflow.DeploymentRemoved}},
	reflect.TypeFor[edgeflow.Workflow]():       {"kind": {edgeflow.KindWorkflow, edgeflow.KindScript}},
	reflect.TypeFor[envVarUsage]():             {"kind": {edgeflow.KindWorkflow, edgeflow.KindScript}},
	reflect.TypeFor[envVarUse]():               {"via": {"reference", "declared"}},
	reflect.TypeFor[edgeflow.ConnectionView](): {"scope": recordScopes, "provider": {edgeflow.ProviderCloudflare, edgeflow.ProviderLocal}},
	reflect.TypeFor[envVarView]():              {"scope": recordScopes},
	reflect.TypeFor[apiKeyView]():              {"scope": recordScopes},
	reflect.TypeFor[edgeflow.WhoamiKey]():      {"scope": recordScopes},
	reflect.TypeFor[invitationBody]():          {"status": {"pending", "accepted", "revoked", "expired"}},
	reflect.TypeFor[edgeflow.Webhook]():        {"events": edgeflow.WebhookEventTypes},
	reflect.TypeFor[edgeflow.WebhookDelivery](): {"status": {edgeflow.DeliveryPending, edgeflow.DeliveryDelivered, edgeflow.DeliveryFailed},
		"eventType": edgeflow.WebhookEventTypes},
	reflect.TypeFor[edgeflow.AuditActor](): {"type": {"user", "key"}},
	reflect.TypeFor[deploysvc.KVValue]():   {"encoding": {"utf-8", "base64"}},
	reflect.TypeFor[healthBody]():          {"status": {"ok"}},
	reflect.TypeFor[readyBody]():           {"status": {"ok"}, "database": {"ok"}, "edge": {"ok", "off"}},
}

// replyOverrides give schemas to answer fields whose Go type says too
// little (json.RawMessage), by the declaring struct and the JSON name.
var replyOverrides = map[reflect.Type]map[string]map[string]any{
	reflect.TypeFor[edgeflow.VersionSummary](): {"ir": {"$ref": irComponent}},
	reflect.TypeFor[edgeflow.VersionDetail]():  {"ir": {"$ref": irComponent}},
	reflect.TypeFor[importResult]():            {"ir": {"$ref": irComponent}},
	reflect.TypeFor[edgeflow.Version]():        {"ir": {"$ref": irComponent}},
}

// schemaSet derives answer schemas, collecting the named types' schemas as
// components; err is the first naming conflict.
type schemaSet struct {
	components map[string]any
	types      map[string]reflect.Type
	err        error
}

func newSchemaSet(reserved map[string]any) *schemaSet {
	s := &schemaSet{components: map[string]any{}, types: map[string]reflect.Type{}}
	for name, schema := range reserved {
		s.components[name] = schema
		s.types[name] = nil
	}
	return s
}

// componentRef is the $ref of a component.
func componentRef(name string) map[string]any {
	return map[string]any{"$ref": "#/components/schemas/" + name}
}

// componentName is the name of a named type's component, "" for a type
// that has none (unnamed, generic, or of the standard library).
func componentName(t reflect.Type) string {
	if n, ok := schemaNames[t]; ok {
		return n
	}
	if t.Name() == "" || strings.Contains(t.Name(), "[") || !strings.HasPrefix(t.PkgPath(), modulePath) {
		return ""
	}
	r := []rune(t.Name())
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

var (
	// modulePath is this module's import path with its final slash.
	modulePath    = strings.TrimSuffix(reflect.TypeFor[Route]().PkgPath(), "internal/api")
	marshalerType = reflect.TypeFor[json.Marshaler]()
)

// reply is the schema of the JSON encoding/json writes for values of t.
func (s *schemaSet) reply(t reflect.Type) map[string]any {
	switch {
	case t.Kind() == reflect.Pointer:
		return nullable(s.reply(t.Elem()))
	case t == timeType:
		return map[string]any{"type": "string", "format": "date-time"}
	case t.Implements(marshalerType) || reflect.PointerTo(t).Implements(marshalerType):
		return map[string]any{} // json.RawMessage too: any JSON value
	}
	if values, ok := typeEnums[t]; ok {
		return s.component(t, func() map[string]any {
			return map[string]any{"type": "string", "enum": slices.Clone(values)}
		})
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return map[string]any{"type": "string", "contentEncoding": "base64"}
		}
		return map[string]any{"type": "array", "items": s.reply(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": s.reply(t.Elem())}
	case reflect.Interface:
		return map[string]any{}
	case reflect.Struct:
		if componentName(t) == "" {
			return s.object(t)
		}
		return s.component(t, func() map[string]any { return s.object(t) })
	}
	return schemaOf(t, "")
}

// component registers the schema of the named type t once and refers to
// it. Two types of one name are a conflict unless their schemas are equal.
func (s *schemaSet) component(t reflect.Type, build func() map[string]any) map[string]any {
	name := componentName(t)
	if prev, ok := s.types[name]; ok {
		if prev != t && s.err == nil {
			other := newSchemaSet(nil)
			other.reply(t)
			a, _ := json.Marshal(s.components[name])
			b, _ := json.Marshal(other.components[name])
			if prev == nil || string(a) != string(b) {
				s.err = fmt.Errorf("api: %v and %v would both be the schema %s of the OpenAPI document; "+
					"name one of them in schemaNames (openapi_reply.go)", prev, t, name)
			}
		}
		return componentRef(name)
	}
	s.types[name] = t
	s.components[name] = map[string]any{} // a recursive type refers to itself
	s.components[name] = build()
	return componentRef(name)
}

// object is the schema of a struct's JSON object.
func (s *schemaSet) object(t reflect.Type) map[string]any {
	props := map[string]any{}
	required := []string{}
	for _, f := range jsonFields(t) {
		var schema map[string]any
		if o, ok := replyOverrides[f.owner][f.name]; ok {
			schema = clone(o)
			if f.typ.Kind() == reflect.Pointer && !f.optional {
				schema = nullable(schema)
			}
		} else if f.optional && f.typ.Kind() == reflect.Pointer {
			schema = s.reply(f.typ.Elem()) // omitempty leaves nil out: never null
		} else {
			schema = s.reply(f.typ)
		}
		if values, ok := replyEnums[f.owner][f.name]; ok {
			target := schema
			if items, ok := schema["items"].(map[string]any); ok {
				target = items
			}
			enum := make([]any, len(values))
			for i, v := range values {
				enum[i] = v
			}
			if typ, _ := target["type"].([]string); slices.Contains(typ, "null") {
				enum = append(enum, nil)
			}
			target["enum"] = enum
		}
		props[f.name] = schema
		if !f.optional {
			required = append(required, f.name)
		}
	}
	out := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		out["required"] = required
	}
	return out
}

// nullable lets a schema also be null.
func nullable(s map[string]any) map[string]any {
	switch typ := s["type"].(type) {
	case string:
		if s["enum"] == nil {
			out := clone(s)
			out["type"] = []string{typ, "null"}
			return out
		}
	case nil:
		if len(s) == 0 {
			return s // any value, null included
		}
	}
	return map[string]any{"anyOf": []any{s, map[string]any{"type": "null"}}}
}

func clone(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// jsonField is a field of a struct's JSON object: its name, its Go type,
// whether encoding/json may leave it out, and the struct declaring it.
type jsonField struct {
	name     string
	typ      reflect.Type
	optional bool
	tagged   bool
	depth    int
	owner    reflect.Type
}

// jsonFields are the fields encoding/json writes for the struct type t, in
// its order: embedded structs' fields promoted, a shallower field hiding
// deeper ones of its name, and of several at one depth the one with a JSON
// tag (none when that does not decide).
func jsonFields(t reflect.Type) []jsonField {
	var all []jsonField
	var walk func(t reflect.Type, depth int)
	walk = func(t reflect.Type, depth int) {
		for i := range t.NumField() {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			ft := f.Type
			if f.Anonymous {
				if ft.Kind() == reflect.Pointer {
					if !f.IsExported() {
						continue
					}
					ft = ft.Elem()
				}
				if name == "" && ft.Kind() == reflect.Struct {
					walk(ft, depth+1)
					continue
				}
			}
			if !f.IsExported() {
				continue
			}
			optional := false
			for _, o := range strings.Split(opts, ",") {
				switch o {
				case "omitzero":
					optional = true
				case "omitempty":
					switch f.Type.Kind() {
					case reflect.Struct:
					case reflect.Array:
						optional = f.Type.Len() == 0
					default:
						optional = true
					}
				}
			}
			all = append(all, jsonField{name: cmpOr(name, f.Name), typ: f.Type, optional: optional, tagged: name != "", depth: depth, owner: t})
		}
	}
	walk(t, 0)
	var out []jsonField
	for i, f := range all {
		dominant := true
		for j, g := range all {
			if i == j || g.name != f.name {
				continue
			}
			if g.depth < f.depth || g.depth == f.depth && (g.tagged == f.tagged || g.tagged) {
				dominant = false
			}
		}
		if dominant {
			out = append(out, f)
		}
	}
	return out
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// eventsSchema is the schema of one event of a text/event-stream answer,
// as a client reads it: {event, id, data}, one branch per event name.
func (s *schemaSet) eventsSchema(events map[string]any) map[string]any {
	names := make([]string, 0, len(events))
	for n := range events {
		names = append(names, n)
	}
	slices.Sort(names)
	var branches []any
	for _, n := range names {
		branches = append(branches, map[string]any{
			"type":     "object",
			"required": []string{"event", "data"},
			"properties": map[string]any{
				"event": map[string]any{"const": n},
				"id":    map[string]any{"type": "string"},
				"data":  s.reply(reflect.TypeOf(events[n])),
			},
			"additionalProperties": false,
		})
	}
	return map[string]any{"oneOf": branches}
}

// irComponents splits the IR's JSON Schema into components of the document:
// IR itself and one per definition ($defs/node is IRNode), its references
// rewritten to them, so that tools that resolve references only within the
// document (code generators) read it; the served /api/ir/schema.json keeps
// its $defs.
func irComponents(irSchema map[string]any) map[string]any {
	out := map[string]any{}
	name := func(def string) string { return "IR" + strings.ToUpper(def[:1]) + def[1:] }
	var rewrite func(v any) any
	rewrite = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			m := make(map[string]any, len(x))
			for k, v := range x {
				if ref, ok := v.(string); k == "$ref" && ok && strings.HasPrefix(ref, "#/$defs/") {
					m[k] = "#/components/schemas/" + name(strings.TrimPrefix(ref, "#/$defs/"))
					continue
				}
				m[k] = rewrite(v)
			}
			return m
		case []any:
			l := make([]any, len(x))
			for i, v := range x {
				l[i] = rewrite(v)
			}
			return l
		}
		return v
	}
	root := rewrite(irSchema).(map[string]any)
	defs, _ := root["$defs"].(map[string]any)
	for def, schema := range defs {
		out[name(def)] = schema
	}
	delete(root, "$defs")
	delete(root, "$id")
	delete(root, "$schema")
	out["IR"] = root
	return out
}
