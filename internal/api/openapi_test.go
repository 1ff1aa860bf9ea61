package api_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/testenv"
)

// TestOpenAPI: GET /api/openapi.json is a public OpenAPI 3.1 document with
// exactly one operation per route (method, path, path parameters, security),
// and its request schemas match the handlers: every property of a body
// schema is a field the handler reads (a wrong value there is a 422, never
// "unknown field", which any other name gets), and every field of the
// route's BadBody is in its schema.
func TestOpenAPI(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r := w.must(200, "GET", "/api/openapi.json", "", cred{})
	var doc struct {
		OpenAPI string                               `json:"openapi"`
		Paths   map[string]map[string]map[string]any `json:"paths"`
	}
	if err := json.Unmarshal(r.body, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.OpenAPI != "3.1.0" {
		t.Fatalf("openapi = %q", doc.OpenAPI)
	}

	ops, ids := 0, map[string]string{}
	for _, ops2 := range doc.Paths {
		ops += len(ops2)
	}
	routes := w.api.Routes()
	if ops != len(routes) {
		t.Errorf("the document has %d operations, the server %d routes", ops, len(routes))
	}
	param := regexp.MustCompile(`\{([A-Za-z]+)(\.\.\.)?\}`)
	for _, rt := range routes {
		name := rt.Method + " " + rt.Pattern
		path := param.ReplaceAllString(rt.Pattern, "{$1}")
		op := doc.Paths[path][strings.ToLower(rt.Method)]
		if op == nil {
			t.Errorf("%s: no operation", name)
			continue
		}
		id, _ := op["operationId"].(string)
		if id == "" || ids[id] != "" {
			t.Errorf("%s: operationId %q missing or also used by %s", name, id, ids[id])
		}
		ids[id] = name
		if s, _ := op["summary"].(string); s == "" {
			t.Errorf("%s: no summary", name)
		}

		var inPath []string
		params, _ := op["parameters"].([]any)
		for _, p := range params {
			p := p.(map[string]any)
			if p["in"] == "path" {
				inPath = append(inPath, p["name"].(string))
			}
		}
		var want []string
		for _, m := range param.FindAllStringSubmatch(rt.Pattern, -1) {
			want = append(want, m[1])
		}
		if fmt.Sprint(inPath) != fmt.Sprint(want) {
			t.Errorf("%s: path parameters %v, want %v", name, inPath, want)
		}

		security, _ := json.Marshal(op["security"])
		wantSecurity := map[api.AuthMode]string{
			api.AuthNone: `[]`, api.AuthSession: `[{"session":[]}]`, api.AuthKey: `[{"apiKey":[]}]`,
			api.AuthAny: `[{"apiKey":[]},{"session":[]}]`,
		}[rt.Auth]
		if string(security) != wantSecurity {
			t.Errorf("%s: security %s, want %s", name, security, wantSecurity)
		}
		if role := rt.MinRole(); role != "" && op["x-edgeflow-role"] != string(role) {
			t.Errorf("%s: x-edgeflow-role %v, want %s", name, op["x-edgeflow-role"], role)
		}
		if rt.Scope != "" && op["x-edgeflow-scope"] != string(rt.Scope) {
			t.Errorf("%s: x-edgeflow-scope %v, want %s", name, op["x-edgeflow-scope"], rt.Scope)
		}

		// The answers are those of docs/api.md's reference: the success
		// status and every error status of Route.Refusals, nothing else.
		resp, _ := op["responses"].(map[string]any)
		wantResp := map[string]bool{"default": true, fmt.Sprint(rt.Status): true}
		if rt.CreatedWith != "" {
			wantResp["201"] = true
		}
		for _, e := range rt.Refusals() {
			wantResp[fmt.Sprint(e.Status)] = true
		}
		for st := range resp {
			if !wantResp[st] {
				t.Errorf("%s: response %s, which the route table does not list", name, st)
			}
		}
		for st := range wantResp {
			if resp[st] == nil {
				t.Errorf("%s: no response %s", name, st)
			}
		}

		body, hasBody := op["requestBody"].(map[string]any)
		if hasBody != rt.ReadsBody() {
			t.Errorf("%s: requestBody %v, reads a body %v", name, hasBody, rt.ReadsBody())
			continue
		}
		if !hasBody {
			continue
		}
		schema := body["content"].(map[string]any)["application/json"].(map[string]any)["schema"].(map[string]any)
		props, _ := schema["properties"].(map[string]any)
		if schema["additionalProperties"] != false || len(props) == 0 {
			t.Errorf("%s: body schema %v", name, schema)
			continue
		}
		var bad map[string]any
		if err := json.Unmarshal([]byte(rt.BadBody), &bad); err != nil {
			t.Fatal(err)
		}
		for f := range bad {
			if props[f] == nil {
				t.Errorf("%s: BadBody field %q is not in the schema", name, f)
			}
		}
		if rt.Protocol != "" {
			continue // its messages are the protocol's: internal/mcp tests them
		}
		url, _ := w.pathOf(rt)
		c := w.a.session
		if rt.Auth == api.AuthNone {
			c = cred{}
		}
		fields := make([]string, 0, len(props))
		for f := range props {
			fields = append(fields, f)
		}
		sort.Strings(fields)
		for _, f := range fields {
			wrong, ok := wrongValue(props[f].(map[string]any))
			if !ok {
				continue
			}
			t.Run(name+" "+f, func(t *testing.T) {
				// Refused as invalid, never as an unknown field (a handler
				// may first name another field it requires).
				r := w.do(rt.Method, url, fmt.Sprintf(`{%q:%s}`, f, wrong), c)
				checkError(t, r, 422, "validation_failed", "")
				if strings.Contains(string(r.body), "unknown field") {
					t.Fatalf("the handler does not know field %q: %s", f, r.body)
				}
			})
		}
	}
}

// wrongValue is a JSON value the schema refuses.
func wrongValue(schema map[string]any) (string, bool) {
	typ := schema["type"]
	if list, ok := typ.([]any); ok && len(list) > 0 {
		typ = list[0]
	}
	if schema["$ref"] != nil {
		typ = "object" // the IR
	}
	switch typ {
	case "string":
		return "12345", true
	case "integer", "number", "boolean", "object", "array":
		return `"not the right type"`, true
	}
	return "", false
}

// TestOpenAPIValid checks the document against the OpenAPI 3.1 schema with
// a Node validator (testdata/openapi; npm ci there). Without node or the
// package it skips, except in CI.
func TestOpenAPIValid(t *testing.T) {
	t.Parallel()
	dir, err := filepath.Abs(filepath.Join("testdata", "openapi"))
	if err != nil {
		t.Fatal(err)
	}
	testenv.NodeModules(t, dir, filepath.Join("@seriousme", "openapi-schema-validator"))
	w := newWorld(t)
	doc := filepath.Join(t.TempDir(), "openapi.json")
	if err := os.WriteFile(doc, w.must(200, "GET", "/api/openapi.json", "", cred{}).body, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", "validate.mjs", doc)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the OpenAPI document is not valid OpenAPI 3.1: %v\n%s", err, out)
	}
}

// TestReplySchemas: every route that answers a body has a response schema
// in the OpenAPI document, derived from the Go type its handler writes, and
// its example's answer fits that schema (a Partial example may leave
// required fields out). TestRouteExamples and the e2e TestRouteExamplesLive
// check the real answers.
func TestReplySchemas(t *testing.T) {
	t.Parallel()
	var doc struct {
		Paths map[string]map[string]struct {
			Responses map[string]struct {
				Content map[string]struct {
					Schema map[string]any `json:"schema"`
				} `json:"content"`
			} `json:"responses"`
		} `json:"paths"`
	}
	b, err := api.OpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	param := regexp.MustCompile(`\{([A-Za-z]+)(\.\.\.)?\}`)
	for _, rt := range api.DocRoutes() {
		name := rt.Method + " " + rt.Pattern
		success := doc.Paths[param.ReplaceAllString(rt.Pattern, "{$1}")][strings.ToLower(rt.Method)].Responses[fmt.Sprint(rt.Status)]
		if rt.Status == 204 {
			if len(success.Content) > 0 || rt.Reply != nil || rt.Events != nil {
				t.Errorf("%s answers 204 and declares a body", name)
			}
			continue
		}
		if len(success.Content) == 0 {
			t.Errorf("%s: no response schema (declare its Reply or Events in routes.go)", name)
		}
		for media, c := range success.Content {
			if len(c.Schema) == 0 {
				t.Errorf("%s: the %s answer has no schema", name, media)
			}
		}
		if err := rt.CheckReply([]byte(rt.Example.Answer), rt.Example.Partial); err != nil {
			t.Errorf("%s: the example: %v", name, err)
		}
	}
}

// TestCheckReplyRefusesDrift: an answer that is not what the route declares
// — a field of the wrong type, a missing or unknown field, a value outside
// an enum, an event the stream does not declare — fails CheckReply.
func TestCheckReplyRefusesDrift(t *testing.T) {
	t.Parallel()
	routes := map[string]api.Route{}
	for _, rt := range api.DocRoutes() {
		routes[rt.Method+" "+rt.Pattern] = rt
	}
	for _, c := range []struct {
		route, body string
		ok          bool
	}{
		{"GET /healthz", `{"status": "ok"}`, true},
		{"GET /healthz", `{"status": 1}`, false},
		{"GET /healthz", `{"status": "fine"}`, false},
		{"GET /healthz", `{"status": "ok", "uptime": 3}`, false},
		{"GET /healthz", `{}`, false},
		{"GET /api/projects", `{"data": [], "nextCursor": null}`, true},
		{"GET /api/projects", `{"data": [{"id": "prj_1"}], "nextCursor": null}`, false},
		{"GET /api/projects", `{"data": null, "nextCursor": null}`, false},
		{"GET /api/runs/stream", "event: run\nid: x\ndata: {\"id\":\"run_1\",\"workflowId\":\"wf_1\",\"projectId\":\"prj_1\",\"status\":\"queued\",\"updatedAt\":\"2026-11-27T06:40:12Z\"}\n\n", true},
		{"GET /api/runs/stream", "event: run\nid: x\ndata: {\"id\":\"run_1\",\"workflowId\":\"wf_1\",\"projectId\":\"prj_1\",\"status\":\"lost\",\"updatedAt\":\"2026-11-27T06:40:12Z\"}\n\n", false},
		{"GET /api/runs/stream", "event: step\nid: x\ndata: {}\n\n", false},
		{"GET /api/runs/stream", "event: run\nid: x\ndata: {\"id\":\"run_1\",\"workflowId\":\"wf_1\",\"projectId\":\"prj_1\",\"status\":\"queued\",\"updatedAt\":\"yesterday\"}\n\n", false},
	} {
		err := routes[c.route].CheckReply([]byte(c.body), false)
		if (err == nil) != c.ok {
			t.Errorf("%s answering %s: CheckReply = %v, want ok %v", c.route, c.body, err, c.ok)
		}
	}
}
