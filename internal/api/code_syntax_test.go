package api_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type codeProblem struct {
	Path, NodeID, Field string
	Line, Column        int
}

// codeProblems reads the details of a 422 validation_failed answer to a
// syntax error.
func codeProblems(t *testing.T, r response) []codeProblem {
	t.Helper()
	checkError(t, r, 422, "validation_failed", "")
	var body struct {
		Error   string
		Details []struct {
			Path, Message, NodeID, Field string
			Line, Column                 int
		}
	}
	if err := json.Unmarshal(r.body, &body); err != nil {
		t.Fatal(err)
	}
	var out []codeProblem
	for _, d := range body.Details {
		if !strings.Contains(d.Message, "syntax error at line") {
			t.Errorf("message %q does not say where", d.Message)
		}
		out = append(out, codeProblem{d.Path, d.NodeID, d.Field, d.Line, d.Column})
	}
	if strings.Contains(string(r.body), ".ts") || strings.Contains(string(r.body), "index.") {
		t.Errorf("the answer names a generated file: %s", r.body)
	}
	return out
}

// syntaxIR has a valid first step and a second one with a syntax error on
// its second line, after an expression.
const syntaxIR = `{"metadata":{"name":"Typo"},
"nodes":[
 {"id":"start","type":"step","name":"Start","data":{"code":"return {n: 1};"}},
 {"id":"second","type":"step","name":"Second","data":{"code":"const a = 1;\nreturn {{start.n}} + ;"}},
 {"id":"third","type":"step","name":"Third","data":{"code":"if (x) {\n  return 1;"}}
],
"edges":[{"id":"e1","source":"start","target":"second"},{"id":"e2","source":"second","target":"third"}],"entryNodeId":"start"}`

// TestCodeSyntaxErrorsAtSubmit: a step whose code does not parse as
// TypeScript is refused at version submit (422, nothing stored) with the
// node id, the field and the line and column inside the field's own text;
// triggerCode likewise at PATCH (the stored one is kept) and at submit.
// Valid code is accepted.
func TestCodeSyntaxErrorsAtSubmit(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.a
	wf := w.must(201, "POST", "/api/workflows", `{"name":"Typo"}`, a.keyAll).str(t, "id")

	got := codeProblems(t, w.do("POST", "/api/workflows/"+wf+"/versions", `{"ir":`+syntaxIR+`}`, a.keyAll))
	want := []codeProblem{
		{"/nodes/1/data/code", "second", "data.code", 2, 22},
		{"/nodes/2/data/code", "third", "data.code", 2, 12},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("step syntax errors (-want +got):\n%s", diff)
	}
	if n := versionCount(t, w, a, wf); n != 0 {
		t.Fatalf("%d versions stored", n)
	}
	fixed := strings.NewReplacer(`{{start.n}} + ;`, `{{start.n}} + a;`, `if (x) {\n  return 1;`, `if (true) {\n  return 1;\n}`).Replace(syntaxIR)
	w.submitVersion(a, wf, fixed)

	// triggerCode at PATCH.
	good := `{"triggerCode":"const u = new URL(request.url);\nreturn new Response(u.pathname);"}`
	w.must(200, "PATCH", "/api/workflows/"+wf, good, a.keyAll)
	bad := `{"name":"Renamed","triggerCode":"const u = new URL(request.url);\nreturn new Response(u.pathname;"}`
	if diff := cmp.Diff([]codeProblem{{"/triggerCode", "", "triggerCode", 2, 31}},
		codeProblems(t, w.do("PATCH", "/api/workflows/"+a.workflowID, bad, a.keyAll))); diff != "" {
		t.Errorf("triggerCode syntax error (-want +got):\n%s", diff)
	}
	if m := w.must(200, "GET", "/api/workflows/"+a.workflowID, "", a.keyRead).json(t); m["name"] != "Orders" {
		t.Errorf("a refused PATCH changed the workflow: %v", m)
	}
	got2 := w.must(200, "GET", "/api/workflows/"+wf, "", a.keyRead).json(t)
	if got2["triggerCode"] != "const u = new URL(request.url);\nreturn new Response(u.pathname);" {
		t.Errorf("triggerCode = %v", got2["triggerCode"])
	}
}

// deployRoutes answer a request without a body or Content-Type with 422
// naming connectionId.
var deployRoutes = map[string]bool{
	"/api/workflows/{workflowId}/deploy":        true,
	"/api/workflows/{workflowId}/deploy-stream": true,
}

// TestDeployWithoutBody: a deploy without a body, or without a
// Content-Type, is a 422 naming connectionId (not a complaint about the
// Content-Type).
func TestDeployWithoutBody(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.a
	path := "/api/workflows/" + a.workflowID + "/deploy"
	checkError(t, w.do("POST", path, "", a.keyAll), 422, "validation_failed", "/connectionId")
	checkError(t, w.doType("POST", path, `{"connectionId":"`+a.connectionID+`"}`, "", a.keyAll), 422, "validation_failed", "/connectionId")
	checkError(t, w.do("POST", path, `{}`, a.keyAll), 422, "validation_failed", "/connectionId")
	checkError(t, w.do("POST", "/api/workflows/"+a.workflowID+"/deploy-stream", "", a.keyAll), 422, "validation_failed", "/connectionId")
}

// TestRollbackAtSubmit: a rollback whose code does not parse is refused at
// version submit with the path of its code; a rollback on a node that does
// not run as a durable step is invalid_ir at /nodes/<i>/config/rollback; a
// saga of two steps with their rollbacks is stored.
func TestRollbackAtSubmit(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.a
	wf := w.must(201, "POST", "/api/workflows", `{"name":"Saga"}`, a.keyAll).str(t, "id")
	saga := func(rollback string) string {
		return `{"metadata":{"name":"Saga"},"nodes":[
 {"id":"charge","type":"step","name":"Charge","data":{"code":"return {id: 1};"},"config":{"rollback":{"code":"await refund(output.id);"}}},
 {"id":"nap","type":"sleep","name":"Nap","data":{"duration":"1 second"}},
 {"id":"ship","type":"step","name":"Ship","data":{"code":"return 2;"},"config":{"rollback":` + rollback + `}}],
"edges":[{"id":"e1","source":"charge","target":"nap"},{"id":"e2","source":"nap","target":"ship"}],"entryNodeId":"charge"}`
	}
	got := codeProblems(t, w.do("POST", "/api/workflows/"+wf+"/versions", `{"ir":`+saga(`{"code":"cancel(output;"}`)+`}`, a.keyAll))
	if diff := cmp.Diff([]codeProblem{{"/nodes/2/config/rollback/code", "ship", "config.rollback.code", 1, 14}}, got); diff != "" {
		t.Errorf("rollback syntax error (-want +got):\n%s", diff)
	}
	onSleep := strings.Replace(saga(`{"code":"cancel(output);"}`), `"data":{"duration":"1 second"}`, `"data":{"duration":"1 second"},"config":{"rollback":{"code":"x"}}`, 1)
	checkError(t, w.do("POST", "/api/workflows/"+wf+"/versions", `{"ir":`+onSleep+`}`, a.keyAll), 400, "invalid_ir", "/nodes/1/config/rollback")
	w.submitVersion(a, wf, saga(`{"code":"cancel(output, {{charge.id}});","retries":{"limit":2,"delay":"5 seconds"},"timeout":"1 minute"}`))
}
