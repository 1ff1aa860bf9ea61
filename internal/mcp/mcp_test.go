package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edgeflow/edgeflow/docs"
	"github.com/edgeflow/edgeflow/examples"
	"github.com/edgeflow/edgeflow/internal/api"
)

// The tools the issue names, and send_event_by_type, exactly.
var toolNames = []string{"create_workflow", "deploy", "get_run", "get_workflow", "list_connections", "list_node_types",
	"list_runs", "list_workflows", "restart_run", "send_event", "send_event_by_type", "submit_version", "trigger", "validate_ir"}

// readOnlyTools change nothing; the others are not read-only.
var readOnlyTools = map[string]bool{"get_run": true, "get_workflow": true, "list_connections": true, "list_node_types": true,
	"list_runs": true, "list_workflows": true, "validate_ir": true}

// destructiveTools replace what exists (deploy) or run workflow code, which
// may do anything (trigger, send_event, restart_run).
var destructiveTools = map[string]bool{"deploy": true, "trigger": true, "send_event": true, "send_event_by_type": true, "restart_run": true}

func example(t *testing.T, name string) json.RawMessage {
	t.Helper()
	for _, ex := range examples.All() {
		if ex.Name == name {
			return ex.IR
		}
	}
	t.Fatalf("no example %s", name)
	return nil
}

// invalidIR breaks three rules: an edge to a node that does not exist, an
// expression reading a node that is not upstream, and a sleep without its
// duration.
const invalidIR = `{"metadata":{"name":"broken"},"nodes":[
 {"id":"first","type":"step","name":"First","data":{"code":"return {{second.x}};"}},
 {"id":"second","type":"step","name":"Second","data":{"code":"return 1;"}},
 {"id":"nap","type":"sleep","name":"Nap","data":{}}],
 "edges":[{"id":"e1","source":"first","target":"second"},{"id":"e2","source":"second","target":"nap"},{"id":"e3","source":"nap","target":"ghost"}],
 "entryNodeId":"first"}`

// TestToolsListed: the server lists exactly the tools, each with
// an input and an output schema that compile as JSON Schema (draft
// 2020-12), the hints each declares, and the scope it needs in its
// description; the resources hold the IR reference, the node reference and
// every example; the prompt frames a description.
func TestToolsListed(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	s := w.connect(w.a.key("read"))
	if got := slices.Sorted(maps.Keys(s.tools)); !slices.Equal(got, toolNames) {
		t.Fatalf("tools %v, want %v", got, toolNames)
	}
	for name, tool := range s.tools {
		in := compileSchema(t, name+" input", tool.InputSchema)
		_ = in
		if m, _ := tool.InputSchema.(map[string]any); m["type"] != "object" {
			t.Errorf("%s: input schema type %v", name, m["type"])
		}
		if m, _ := tool.OutputSchema.(map[string]any); m["type"] != "object" {
			t.Errorf("%s: output schema is not an object: %v", name, m)
		}
		a := tool.Annotations
		if a == nil || a.ReadOnlyHint != readOnlyTools[name] || a.DestructiveHint == nil || *a.DestructiveHint != destructiveTools[name] {
			t.Errorf("%s: annotations %+v", name, a)
		}
		if !strings.Contains(tool.Description, "scope") {
			t.Errorf("%s: the description names no scope: %s", name, tool.Description)
		}
	}
	if !strings.Contains(s.tools["deploy"].Description, `"deploy" scope`) || !strings.Contains(s.tools["submit_version"].Description, `"write" scope`) {
		t.Errorf("the scopes of deploy and submit_version: %s / %s", s.tools["deploy"].Description, s.tools["submit_version"].Description)
	}
	// The IR in submit_version's input is the API's IR schema.
	in, _ := json.Marshal(s.tools["submit_version"].InputSchema)
	if !strings.Contains(string(in), `"entryNodeId"`) || !strings.Contains(string(in), `"IRNode"`) {
		t.Errorf("submit_version's input does not carry the IR's schema: %.300s", in)
	}

	ctx := context.Background()
	res, err := s.cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	uris := map[string]bool{}
	for _, r := range res.Resources {
		uris[r.URI] = true
	}
	want := []string{"edgeflow://docs/ir.md", "edgeflow://docs/nodes.md"}
	for _, ex := range examples.All() {
		want = append(want, "edgeflow://examples/"+ex.Name+".json")
	}
	for _, u := range want {
		if !uris[u] {
			t.Errorf("no resource %s (have %v)", u, uris)
		}
	}
	if len(uris) != len(want) {
		t.Errorf("resources %v, want %v", uris, want)
	}
	read, err := s.cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "edgeflow://docs/ir.md"})
	if err != nil || len(read.Contents) != 1 || read.Contents[0].Text != string(docs.IRReference()) {
		t.Fatalf("read ir.md: %v %v", err, read)
	}
	read, err = s.cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "edgeflow://examples/hello.json"})
	if err != nil || !jsonEqual(read.Contents[0].Text, string(example(t, "hello"))) {
		t.Fatalf("read hello.json: %v %v", err, read)
	}

	p, err := s.cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "build-workflow", Arguments: map[string]string{"description": "greets the caller by name"}})
	if err != nil {
		t.Fatal(err)
	}
	first, _ := p.Messages[0].Content.(*sdk.TextContent)
	if first == nil || !strings.Contains(first.Text, "greets the caller by name") || !strings.Contains(first.Text, "entryNodeId") {
		t.Fatalf("prompt: %+v", p.Messages[0])
	}
	if _, err := s.cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "build-workflow", Arguments: map[string]string{}}); err == nil {
		t.Fatal("build-workflow without a description succeeded")
	}
}

// TestBuildWorkflow goes from nothing to a stored version by tools alone:
// the node types, an invalid IR's every problem with its pointer, node and
// rule (from validate_ir as from submit_version, which then stores
// nothing), a workflow, its version, and the workflow read back.
func TestBuildWorkflow(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	s := w.connect(w.a.key("read", "write"))

	types := s.ok("list_node_types", nil)
	var ids []string
	for _, n := range types["data"].([]any) {
		ids = append(ids, n.(map[string]any)["id"].(string))
	}
	for _, want := range []string{"step", "http_request", "wait_for_event", "branch", "loop"} {
		if !slices.Contains(ids, want) {
			t.Errorf("list_node_types lacks %s: %v", want, ids)
		}
	}

	v := s.ok("validate_ir", map[string]any{"ir": json.RawMessage(invalidIR)})
	if v["valid"] != false {
		t.Fatalf("the invalid IR is valid: %v", v)
	}
	rules := map[string]string{}
	for _, e := range v["errors"].([]any) {
		e := e.(map[string]any)
		rules[e["rule"].(string)] = e["path"].(string)
	}
	for rule, path := range map[string]string{"edge-ends": "/edges/2/target", "upstream-reference": "/nodes/0/data/code", "node-data": "/nodes/2/data/duration"} {
		if rules[rule] != path {
			t.Errorf("rule %s at %q, want %q (all: %v)", rule, rules[rule], path, rules)
		}
	}
	if v := s.ok("validate_ir", map[string]any{"ir": example(t, "hello")}); v["valid"] != true {
		t.Fatalf("hello is invalid: %v", v)
	}

	wf := s.ok("create_workflow", map[string]any{"name": "Greeter", "description": "made by an assistant"})
	wfID := wf["id"].(string)
	text := s.fails("submit_version", map[string]any{"workflowId": wfID, "ir": json.RawMessage(invalidIR)},
		"invalid_ir", "/edges/2/target", "rule edge-ends", "/nodes/2/data/duration (node nap, rule node-data)")
	if !strings.Contains(text, `"details"`) {
		t.Errorf("the error carries no JSON details: %s", text)
	}
	ver := s.ok("submit_version", map[string]any{"workflowId": wfID, "ir": example(t, "hello")})
	if ver["version"] != float64(1) {
		t.Fatalf("version %v", ver)
	}

	got := s.ok("get_workflow", map[string]any{"workflowId": wfID})
	cur := got["currentVersion"].(map[string]any)
	if cur["id"] != ver["id"] || cur["ir"] == nil || cur["code"] != nil {
		t.Fatalf("get_workflow's current version: %v", cur)
	}
	if got["activeDeployment"] != nil || len(got["deployments"].([]any)) != 0 || len(got["versions"].([]any)) != 1 {
		t.Fatalf("get_workflow: %v", got)
	}
	list := s.ok("list_workflows", map[string]any{"limit": 10})
	if data := list["data"].([]any); len(data) != 1 || data[0].(map[string]any)["id"] != wfID {
		t.Fatalf("list_workflows: %v", list)
	}
	if c := s.ok("list_connections", nil); c["data"] == nil {
		t.Fatalf("list_connections: %v", c)
	}
	if r := s.ok("list_runs", map[string]any{"workflowId": wfID, "status": "complete"}); len(r["data"].([]any)) != 0 {
		t.Fatalf("list_runs: %v", r)
	}

	// Bad arguments are tool errors naming the argument.
	s.fails("get_workflow", map[string]any{"workflowId": wfID, "nope": 1}, `"nope"`, "is not an argument")
	s.fails("get_workflow", map[string]any{}, `"workflowId"`, "required")
	s.fails("trigger", map[string]any{"workflowId": wfID, "wait": 301}, `"wait"`, "from 0 to 300")
	s.fails("create_workflow", map[string]any{"name": 7}, "validation_failed", "/name")
}

// TestAttackOtherOrganizationsWorkflow: every tool that names a workflow
// or a run of another organization answers not_found, exactly as the API
// does, and changes nothing; the twin: the owner's key reaches it.
func TestAttackOtherOrganizationsWorkflow(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	owner := w.connect(w.a.key("read", "write", "deploy"))
	wfID := owner.ok("create_workflow", map[string]any{"name": "Private"})["id"].(string)
	verID := owner.ok("submit_version", map[string]any{"workflowId": wfID, "ir": example(t, "hello")})["id"].(string)

	other := w.connect(w.b.key("read", "write", "deploy"))
	for name, args := range map[string]map[string]any{
		"get_workflow":   {"workflowId": wfID},
		"submit_version": {"workflowId": wfID, "ir": example(t, "hello")},
		"deploy":         {"workflowId": wfID, "connectionId": "con_x", "versionId": verID},
		"trigger":        {"workflowId": wfID, "connectionId": "con_x"},
		"get_run":        {"runId": "run_doesnotexist"},
		"restart_run":    {"runId": "run_doesnotexist"},
		"send_event":     {"runId": "run_doesnotexist", "eventType": "approval"},
	} {
		other.fails(name, args, "not_found", "HTTP 404")
	}
	// The IR check names the workflow in its body: the API answers 422 at
	// /workflowId, as it does for an id that does not exist.
	other.fails("validate_ir", map[string]any{"ir": example(t, "hello"), "workflowId": wfID}, "/workflowId", "is not a workflow or function of the active project")
	if l := other.ok("list_workflows", nil); len(l["data"].([]any)) != 0 {
		t.Fatalf("another organization lists %v", l)
	}
	other.fails("list_runs", map[string]any{"workflowId": wfID}, "not_found", "HTTP 404")
	// An event by type limited to the workflow: the body names it, so the
	// API answers 422 at /workflowId, as for a workflow that does not exist.
	other.fails("send_event_by_type", map[string]any{"eventType": "approval", "workflowId": wfID}, "/workflowId", "the project has no workflow")
	// The twin: the owner sends it (no run waits for it yet), reads it, and nothing changed.
	if sent := owner.ok("send_event_by_type", map[string]any{"eventType": "approval", "workflowId": wfID, "payload": map[string]any{"ok": true}}); sent["workflowId"] != wfID || len(sent["runs"].([]any)) != 0 {
		t.Fatalf("the owner's send_event_by_type answered %v", sent)
	}
	got := owner.ok("get_workflow", map[string]any{"workflowId": wfID})
	if len(got["versions"].([]any)) != 1 {
		t.Fatalf("the refused calls changed the workflow: %v", got)
	}
}

// TestAttackReadOnlyKeyDeploys: a read-only key calling the tools of the
// write and deploy routes gets tool errors naming the scope each needs (not
// a transport failure), and the session goes on; the twin: a key with the
// scope gets past it.
func TestAttackReadOnlyKeyDeploys(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	full := w.connect(w.a.key("read", "write", "deploy"))
	wfID := full.ok("create_workflow", map[string]any{"name": "Guarded"})["id"].(string)
	full.ok("submit_version", map[string]any{"workflowId": wfID, "ir": example(t, "hello")})

	ro := w.connect(w.a.key("read"))
	ro.fails("deploy", map[string]any{"workflowId": wfID, "connectionId": "con_x"}, `lacks the "deploy" scope`, "forbidden")
	ro.fails("trigger", map[string]any{"workflowId": wfID, "connectionId": "con_x"}, `lacks the "deploy" scope`)
	ro.fails("send_event_by_type", map[string]any{"eventType": "approval"}, `lacks the "deploy" scope`)
	ro.fails("create_workflow", map[string]any{"name": "Nope"}, `lacks the "write" scope`)
	ro.fails("submit_version", map[string]any{"workflowId": wfID, "ir": example(t, "hello")}, `lacks the "write" scope`)
	if got := ro.ok("get_workflow", map[string]any{"workflowId": wfID}); len(got["versions"].([]any)) != 1 {
		t.Fatalf("the read-only key changed the workflow: %v", got)
	}
	// The twin: the scope is there, so the deploy gets as far as the
	// connection, which does not exist.
	text := full.fails("deploy", map[string]any{"workflowId": wfID, "connectionId": "con_doesnotexist"})
	if strings.Contains(text, "scope") {
		t.Fatalf("a key with the deploy scope was refused for it: %s", text)
	}
}

// TestAttackSessionCookie: the MCP endpoint refuses a session cookie (with
// its CSRF token, or without) on every method, so that no page another
// site serves can act through a signed-in browser; the twin: the same
// user's API key is served.
func TestAttackSessionCookie(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	noCSRF := map[string]string{"Cookie": api.SessionCookie + "=" + w.a.cookie}
	for _, h := range []map[string]string{w.a.session(), noCSRF} {
		for _, m := range []string{"POST", "GET", "DELETE"} {
			body := ""
			if m == "POST" {
				body = initialize
			}
			r := w.do(m, "/api/mcp", body, h)
			if r.status != 403 || r.json(t)["code"] != "forbidden" {
				t.Fatalf("%s /api/mcp with a session cookie: %d %s", m, r.status, r.body)
			}
		}
	}
	r := w.must(200, "POST", "/api/mcp", initialize, bearer(w.a.key("read")))
	if r.header.Get("Mcp-Session-Id") == "" || !strings.Contains(string(r.body), `"serverInfo"`) {
		t.Fatalf("initialize with a key: %v %s", r.header, r.body)
	}
}

// TestAttackAnotherKeysSession: a session belongs to the key that opened
// it; another key (even of the same user) naming its id is refused, and
// the session goes on for its own key.
func TestAttackAnotherKeysSession(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	key, other := w.a.key("read"), w.a.key("read", "write", "deploy")
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	r := w.must(200, "POST", "/api/mcp", initialize, bearer(key))
	id := r.header.Get("Mcp-Session-Id")
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	hijack := bearer(other)
	hijack["Mcp-Session-Id"] = id
	hijack["Mcp-Protocol-Version"] = "2025-06-18"
	if r := w.do("POST", "/api/mcp", call, hijack); r.status != 403 {
		t.Fatalf("another key on the session: %d %s", r.status, r.body)
	}
	own := bearer(key)
	own["Mcp-Session-Id"] = id
	own["Mcp-Protocol-Version"] = "2025-06-18"
	w.must(202, "POST", "/api/mcp", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, own)
	if r := w.must(200, "POST", "/api/mcp", call, own); !strings.Contains(string(r.body), `"validate_ir"`) {
		t.Fatalf("tools/list on its own session: %s", r.body)
	}
}

// TestSessionLimit: one key holds at most 16 sessions; the 17th initialize
// is refused with 429 until one ends (DELETE), and another key is not
// affected.
func TestSessionLimit(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	key := w.a.key("read")
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	var ids []string
	for range 16 {
		ids = append(ids, w.must(200, "POST", "/api/mcp", initialize, bearer(key)).header.Get("Mcp-Session-Id"))
	}
	r := w.do("POST", "/api/mcp", initialize, bearer(key))
	if r.status != 429 || r.json(t)["code"] != "rate_limited" || !strings.Contains(string(r.body), "16 MCP sessions") {
		t.Fatalf("the 17th session: %d %s", r.status, r.body)
	}
	w.must(200, "POST", "/api/mcp", initialize, bearer(w.a.key("read")))
	end := bearer(key)
	end["Mcp-Session-Id"] = ids[0]
	w.must(204, "DELETE", "/api/mcp", "", end)
	w.must(200, "POST", "/api/mcp", initialize, bearer(key))
}

// TestNoSecretInToolOutput: secret values of the project's variables and
// of a workflow's never appear in what the tools answer.
func TestNoSecretInToolOutput(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	const globalSecret, workflowSecret = "g10bal-s3cret-value-4471", "wf-s3cret-value-9932"
	key := w.a.key("read", "write", "deploy")
	w.must(201, "POST", "/api/env-vars", fmt.Sprintf(`{"name":"SHOP_TOKEN","value":%q,"isSecret":true}`, globalSecret), bearer(key))
	s := w.connect(key)
	wfID := s.ok("create_workflow", map[string]any{"name": "Secretive"})["id"].(string)
	w.must(200, "PATCH", "/api/workflows/"+wfID, fmt.Sprintf(`{"envVars":[{"name":"API_KEY","value":%q,"isSecret":true}]}`, workflowSecret), bearer(key))
	s.ok("submit_version", map[string]any{"workflowId": wfID, "ir": example(t, "hello")})
	s.ok("get_workflow", map[string]any{"workflowId": wfID})
	s.ok("list_workflows", nil)
	s.ok("list_connections", nil)
	s.ok("validate_ir", map[string]any{"ir": example(t, "hello"), "workflowId": wfID})
	s.fails("trigger", map[string]any{"workflowId": wfID})
	for _, text := range s.texts {
		if strings.Contains(text, globalSecret) || strings.Contains(text, workflowSecret) {
			t.Fatalf("a tool output holds a secret: %s", text)
		}
	}
	if !slices.ContainsFunc(s.texts, func(t string) bool { return strings.Contains(t, `"API_KEY"`) }) {
		t.Fatal("get_workflow did not show the variable at all (the scan proves nothing)")
	}
}
