package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/edgeflow/edgeflow/internal/ir"
)

// The OpenAPI 3.1 document at GET /api/openapi.json is built from the route
// table at start, so it lists exactly the routes the server serves: method,
// path and path parameters, the query parameters the handler reads, the
// authentication and scope, the rate-limit class, and the request body's
// schema, derived from the Go type the handler decodes into (unknown fields
// are refused, so every body schema has additionalProperties false), the
// success status with the route's Answer, example and response schema,
// derived from the Go type the handler writes (Route.Reply, Route.Events;
// openapi_reply.go), and the error statuses of Route.Refusals — the same as
// docs/api.md's endpoint reference, which is rendered from the same table
// (apidoc.go). Every error has the one error shape. Studio's API types are
// generated from this document (make apidoc).

// irSchemaRef is where the IR's own JSON Schema is served.
const irSchemaRef = "/api/ir/schema.json"

// irComponent refers to the IR's JSON Schema, embedded in the document's
// components so that the document stands alone.
const irComponent = "#/components/schemas/IR"

// bodyOverrides give schemas to fields whose Go type says too little
// (json.RawMessage), by "<type>.<json field>".
var bodyOverrides = map[string]map[string]any{
	"versionSubmitRequest.ir":   {"$ref": irComponent},
	"importN8nRequest.workflow": {"type": "object", "description": "The workflow as n8n exports it (its nodes and connections)."},
	"importAwaitStepRequest.ir": {"type": "object", "description": "The IR as AwaitStep exports it."},
	"triggerRequest.params":     {"type": "object", "description": "The run's params (at most 100 KB serialized); {instanceId, eventType, payload} delivers an event to a waiting run."},
}

var pathParam = regexp.MustCompile(`\{([A-Za-z]+)(\.\.\.)?\}`)

// errorSchema is the one error shape.
var errorSchema = map[string]any{
	"type":     "object",
	"required": []string{"error", "code"},
	"properties": map[string]any{
		"error":     map[string]any{"type": "string", "description": "What went wrong, for people."},
		"code":      map[string]any{"type": "string", "description": "What went wrong, for programs (docs/api.md)."},
		"details":   map[string]any{"type": "array", "items": map[string]any{"type": "object"}, "description": "Per-field or per-IR-problem details, each with its path."},
		"requestId": map[string]any{"type": "string"},
	},
}

// openAPIDocument builds the document for routes; irSchema is the IR's
// JSON Schema. It fails when two answer types would have one schema name.
func openAPIDocument(routes []Route, irSchema map[string]any) (map[string]any, error) {
	reserved := irComponents(irSchema)
	reserved["Error"] = errorSchema
	schemas := newSchemaSet(reserved)
	paths := map[string]map[string]any{}
	for _, rt := range routes {
		path := pathParam.ReplaceAllString(rt.Pattern, "{$1}")
		if paths[path] == nil {
			paths[path] = map[string]any{}
		}
		paths[path][strings.ToLower(rt.Method)] = operation(rt, schemas)
	}
	if schemas.err != nil {
		return nil, schemas.err
	}
	return map[string]any{
		"openapi":           "3.1.0",
		"jsonSchemaDialect": "https://spec.openapis.org/oas/3.1/dialect/base",
		"info": map[string]any{
			"title":   "edgeflow API",
			"version": "1",
			"description": "Stores workflow and function definitions as a JSON IR, validates and compiles them, deploys them to " +
				"a Cloudflare account or the local edge, triggers runs and tracks them. Bodies are JSON; unknown fields " +
				"are refused. Lists answer {data, nextCursor}. Every authenticated operation names the least role in the organization it needs " +
				"(x-edgeflow-role: viewer < member < admin < owner). See docs/api.md and docs/security.md.",
		},
		"paths": paths,
		"components": map[string]any{
			"securitySchemes": map[string]any{
				"apiKey": map[string]any{"type": "http", "scheme": "bearer",
					"description": "An API key (ask_…), bound to one project or (an organization key) to the whole organization, with scopes read, write and deploy; it acts with at most its creator's current role."},
				"session": map[string]any{"type": "apiKey", "in": "cookie", "name": SessionCookie,
					"description": "The session cookie of POST /api/auth/sign-in; writes also send the session's csrfToken in the " + CSRFHeader + " header."},
			},
			"schemas": schemas.components,
			"responses": map[string]any{
				"Error": map[string]any{
					"description": "An error: 400 bad_request or invalid_ir, 401, 403, 404, 405, 409, 413, 422 validation_failed, 429 rate_limited, 502 from the provider, 503 unavailable while the database cannot be reached.",
					"content":     map[string]any{"application/json": map[string]any{"schema": map[string]any{"$ref": "#/components/schemas/Error"}}},
				},
			},
		},
	}, nil
}

func operation(rt Route, schemas *schemaSet) map[string]any {
	op := map[string]any{
		"operationId": operationID(rt),
		"summary":     rt.Summary,
		"responses":   responses(rt, schemas),
	}
	var params []any
	for _, m := range pathParam.FindAllStringSubmatch(rt.Pattern, -1) {
		p := map[string]any{"name": m[1], "in": "path", "required": true, "schema": map[string]any{"type": "string"}}
		if m[2] != "" {
			p["description"] = "The rest of the path; it may contain /."
		}
		params = append(params, p)
	}
	for _, q := range rt.Query {
		params = append(params, routeQueryParam(rt, q))
	}
	switch rt.Auth {
	case AuthNone:
		op["security"] = []any{}
	case AuthSession:
		op["security"] = []any{map[string]any{"session": []string{}}}
	case AuthKey:
		op["security"] = []any{map[string]any{"apiKey": []string{}}}
	case AuthAny:
		op["security"] = []any{map[string]any{"apiKey": []string{}}, map[string]any{"session": []string{}}}
	}
	if rt.Auth != AuthNone {
		params = append(params,
			map[string]any{"name": "organizationId", "in": "query", "schema": map[string]any{"type": "string"},
				"description": "With a session: the organization to act in instead of the active one."},
			map[string]any{"name": "projectId", "in": "query", "schema": map[string]any{"type": "string"},
				"description": "With a session: the project to act in instead of the active one."})
	}
	if rt.Auth == AuthAny || rt.Auth == AuthKey {
		params = append(params, map[string]any{"name": ProjectHeader, "in": "header", "schema": map[string]any{"type": "string"},
			"description": "With an organization API key: the project of the organization to act in (default its first project). A project key naming another project gets 404."})
	}
	if role := rt.MinRole(); role != "" {
		op["x-edgeflow-role"] = string(role)
	}
	if rt.Scope != "" {
		op["x-edgeflow-scope"] = string(rt.Scope)
	}
	op["x-edgeflow-rate-limit"] = rt.Limit.String()
	if rt.Audit != "" {
		op["x-edgeflow-audit-action"] = rt.Audit
	}
	if len(params) > 0 {
		op["parameters"] = params
	}
	if rt.ReadsBody() && rt.Body != nil {
		media := map[string]any{"schema": schemaOf(reflect.TypeOf(rt.Body), "")}
		if ex, ok := jsonValue(rt.Example.Body); ok {
			media["example"] = ex
		}
		op["requestBody"] = map[string]any{"required": true, "content": map[string]any{"application/json": media}}
	}
	return op
}

// responses are the route's success answer (its status, the Answer text,
// the schema of each media type it answers and the example's answer) and
// one entry per error status of Route.Refusals, with the one error shape;
// any other status is the default error.
func responses(rt Route, schemas *schemaSet) map[string]any {
	out := map[string]any{"default": map[string]any{"$ref": "#/components/responses/Error"}}
	success := map[string]any{"description": http.StatusText(rt.Status)}
	if rt.Answer != "" {
		success["description"] = rt.Answer
	}
	if content := successContent(rt, schemas); len(content) > 0 {
		success["content"] = content
	}
	out[strconv.Itoa(rt.Status)] = success
	if rt.CreatedWith != "" {
		created := map[string]any{"description": "Created (with ?" + rt.CreatedWith + "=true)"}
		if c, ok := success["content"]; ok {
			created["content"] = c
		}
		out[strconv.Itoa(http.StatusCreated)] = created
	}
	whens := map[int][]string{}
	var statuses []int
	for _, e := range rt.Refusals() {
		if whens[e.Status] == nil {
			statuses = append(statuses, e.Status)
		}
		whens[e.Status] = append(whens[e.Status], e.Code+": "+e.When)
	}
	for _, st := range statuses {
		out[strconv.Itoa(st)] = map[string]any{
			"description": strings.Join(whens[st], "; "),
			"content":     map[string]any{"application/json": map[string]any{"schema": map[string]any{"$ref": "#/components/schemas/Error"}}},
		}
	}
	return out
}

// jsonValue decodes an example; ok is false for "" or text that is not JSON.
func jsonValue(s string) (any, bool) {
	if s == "" {
		return nil, false
	}
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return nil, false
	}
	return v, true
}

// successContent is the content of the route's success answer: each media
// type it answers with its schema, the example's answer under its own.
func successContent(rt Route, schemas *schemaSet) map[string]any {
	content := map[string]any{}
	switch reply := rt.Reply.(type) {
	case nil:
	case Media:
		content[reply.Type] = map[string]any{"schema": clone(reply.Schema)}
	default:
		content["application/json"] = map[string]any{"schema": schemas.reply(reflect.TypeOf(reply))}
	}
	if rt.Events != nil {
		content[eventStream] = map[string]any{"schema": schemas.eventsSchema(rt.Events)}
	}
	if media, ok := content[exampleType(rt)].(map[string]any); ok {
		if ex, ok := jsonValue(rt.Example.Answer); ok {
			media["example"] = ex
		} else if rt.Example.Answer != "" {
			media["example"] = rt.Example.Answer
		}
	}
	return content
}

const eventStream = "text/event-stream"

// exampleType is the media type of the route's example answer: an event
// stream, the Media's type, or JSON.
func exampleType(rt Route) string {
	if strings.HasPrefix(rt.Example.Answer, "event: ") {
		return eventStream
	}
	if m, ok := rt.Reply.(Media); ok {
		return m.Type
	}
	return "application/json"
}

// routeQueryParam is queryParam as route rt reads it: the estimate and the
// deploy plan read some shared names differently.
func routeQueryParam(rt Route, name string) map[string]any {
	p := queryParam(name)
	switch {
	case strings.HasSuffix(rt.Pattern, "/estimate"):
		estimateParam(p)
	case strings.HasSuffix(rt.Pattern, "/deploy-plan"):
		planParam(p)
	}
	return p
}

// planParam says what the deploy plan's query parameters mean there: the
// connection or the environment names where the deploy would go.
func planParam(p map[string]any) {
	switch p["name"] {
	case "connectionId":
		delete(p, "required")
		p["description"] = "The connection the deploy would go to; required unless environment is given."
	case "environment":
		p["description"] = "The project environment the deploy would go to, in place of connectionId (docs/environments.md)."
	case "versionId":
		p["description"] = "The version the deploy would make active (default: the current one)."
	}
}

// estimateParam says what the estimate's query parameters mean there:
// the shared names read differently (its connection is optional).
func estimateParam(p map[string]any) {
	switch p["name"] {
	case "connectionId":
		delete(p, "required")
		p["description"] = "The connection whose plan prices the runs (the Paid plan without one)."
	case "versionId":
		p["description"] = "The version to estimate (default: the current one)."
	}
}

func queryParam(name string) map[string]any {
	p := map[string]any{"name": name, "in": "query", "schema": map[string]any{"type": "string"}}
	switch name {
	case "cursor":
		p["description"] = "The nextCursor of the previous page."
	case "limit":
		p["schema"] = map[string]any{"type": "integer", "minimum": 1}
		p["description"] = "Items per page (1 to 100 unless the route says otherwise)."
	case "status":
		p["description"] = "Only runs in this status."
	case "connectionId":
		p["description"] = "The connection whose provider account is read."
		p["required"] = true
	case "prefix":
		p["description"] = "Only names starting with this."
	case "delimiter":
		p["description"] = "Keys that go on past it after the prefix are answered once, as delimitedPrefixes (\"/\" lists folders)."
	case "version":
		p["description"] = "A version id to show instead of the current version."
	case "force":
		p["description"] = "true deletes without taking the deployments down."
	case "actor":
		p["description"] = "Only entries made by this user or API key id."
	case "action":
		p["description"] = "Only entries of this action, such as workflow.create."
	case "target":
		p["description"] = "Only entries acting on this record id."
	case "since":
		p["schema"] = map[string]any{"type": "string", "format": "date-time"}
		p["description"] = "Only entries at or after this RFC 3339 time."
	case "until":
		p["schema"] = map[string]any{"type": "string", "format": "date-time"}
		p["description"] = "Only entries before this RFC 3339 time."
	case "workflowId":
		p["description"] = "Only runs of this workflow."
	case "versionId":
		p["description"] = "Only runs of this version."
	case "runsPerMonth":
		p["description"] = "The runs a month to price (a whole number, 0 to 10^12)."
	case "from":
		p["schema"] = map[string]any{"type": "string", "format": "date-time"}
		p["description"] = "Only runs created at or after this time (RFC 3339)."
	case "to":
		p["schema"] = map[string]any{"type": "string", "format": "date-time"}
		p["description"] = "Only runs created before this time (RFC 3339)."
	case "create":
		p["schema"] = map[string]any{"type": "string", "enum": []any{"true", "false"}}
		p["description"] = "true also creates the workflow, with the converted IR as its first version (201)."
	case "format":
		p["schema"] = map[string]any{"type": "string", "enum": []any{"wrangler"}}
		p["description"] = "The export's format, which must be given: wrangler (a Cloudflare Workers project)."
	case "environment":
		p["description"] = "Only runs in this project environment (docs/environments.md)."
	case "q":
		p["description"] = "Only runs whose params, output, error, step outputs or received event payloads contain every word of this (letters and digits, any case; docs/runs.md, \"Finding runs\")."
	}
	return p
}

// operationID is the handler's name without its "handle" prefix, e.g.
// versionSubmit: unique, since every route has its own handler.
func operationID(rt Route) string {
	name := runtime.FuncForPC(reflect.ValueOf(rt.Handler).Pointer()).Name()
	name = name[strings.LastIndexByte(name, '.')+1:]
	name = strings.TrimSuffix(name, "-fm")
	name = strings.TrimPrefix(name, "handle")
	r := []rune(name)
	r[0] = unicode.ToLower(r[0])
	return string(r)
}

var (
	timeType = reflect.TypeOf(time.Time{})
	rawType  = reflect.TypeOf(json.RawMessage(nil))
)

// schemaOf is the JSON Schema of values of t as encoding/json decodes them;
// owner names the struct a field belongs to, for bodyOverrides.
func schemaOf(t reflect.Type, owner string) map[string]any {
	switch {
	case t == timeType:
		return map[string]any{"type": "string", "format": "date-time"}
	case t == rawType:
		return map[string]any{}
	}
	switch t.Kind() {
	case reflect.Pointer:
		s := schemaOf(t.Elem(), owner)
		if typ, ok := s["type"].(string); ok {
			s["type"] = []string{typ, "null"}
		}
		return s
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.Slice, reflect.Array:
		return map[string]any{"type": "array", "items": schemaOf(t.Elem(), owner)}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": schemaOf(t.Elem(), owner)}
	case reflect.Interface:
		return map[string]any{}
	case reflect.Struct:
		props := map[string]any{}
		addFields(t, props)
		return map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	}
	return map[string]any{}
}

func addFields(t reflect.Type, props map[string]any) {
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			addFields(f.Type, props)
			continue
		}
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if o, ok := bodyOverrides[t.Name()+"."+name]; ok {
			props[name] = o
			continue
		}
		props[name] = schemaOf(f.Type, t.Name())
	}
}

// handleOpenAPI serves the OpenAPI document.
func (s *Server) handleOpenAPI(w http.ResponseWriter, r *http.Request) error {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, err := w.Write(s.openAPI)
	return err
}

// buildOpenAPI encodes the document once.
func buildOpenAPI(routes []Route) ([]byte, error) {
	var irSchema map[string]any
	if err := json.Unmarshal(ir.SchemaJSON(), &irSchema); err != nil {
		return nil, fmt.Errorf("api: the IR schema: %w", err)
	}
	doc, err := openAPIDocument(routes, irSchema)
	if err != nil {
		return nil, err
	}
	return json.MarshalIndent(doc, "", "  ")
}

// OpenAPI is the OpenAPI document of the route table, as GET
// /api/openapi.json serves it (the source of Studio's API types).
func OpenAPI() ([]byte, error) { return buildOpenAPI(DocRoutes()) }
