package api_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/ratelimit"
)

type irErrorBody struct {
	NodeID  string `json:"nodeId"`
	Path    string `json:"path"`
	Message string `json:"message"`
	Rule    string `json:"rule"`
	Field   string `json:"field"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
}

func validateIR(t *testing.T, w *world, body string, c cred) (bool, []irErrorBody) {
	t.Helper()
	r := w.must(200, "POST", "/api/ir/validate", body, c)
	var out struct {
		Valid  *bool         `json:"valid"`
		Errors []irErrorBody `json:"errors"`
	}
	if err := json.Unmarshal(r.body, &out); err != nil || out.Valid == nil || out.Errors == nil {
		t.Fatalf("validate answered %s (%v): want {valid, errors: [...]}", r.body, err)
	}
	if *out.Valid != (len(out.Errors) == 0) {
		t.Fatalf("valid = %v with %d errors", *out.Valid, len(out.Errors))
	}
	return *out.Valid, out.Errors
}

// findIRError returns the error at path with rule, failing the test when
// there is none.
func findIRError(t *testing.T, errs []irErrorBody, path, rule string) irErrorBody {
	t.Helper()
	for _, e := range errs {
		if e.Path == path && e.Rule == rule {
			if e.Message == "" {
				t.Fatalf("error at %s has no message", path)
			}
			return e
		}
	}
	t.Fatalf("no %s error at %s in %+v", rule, path, errs)
	return irErrorBody{}
}

// badIR has a problem of every stage at once: a node of an unknown type, a
// sleep without its duration, an edge to no node, step code that does not
// parse (on its second line), and a sub_workflow naming no workflow.
const badIR = `{"metadata":{"name":"Broken"},
"nodes":[
 {"id":"load","type":"step","name":"Load","data":{"code":"const x = 1;\nreturn { x: };"}},
 {"id":"nap","type":"sleep","name":"Nap","data":{}},
 {"id":"mystery","type":"no-such-node","name":"Mystery","data":{}},
 {"id":"child","type":"sub_workflow","name":"Child","data":{"workflowId":"wf_nowhere"}}],
"edges":[{"id":"e1","source":"load","target":"nap"},{"id":"e2","source":"nap","target":"ghost"},
 {"id":"e3","source":"nap","target":"mystery"},{"id":"e4","source":"mystery","target":"child"}],
"entryNodeId":"load"}`

func TestIRValidateReportsEveryProblem(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.a
	before := w.snapshot(a)

	valid, errs := validateIR(t, w, `{"ir":`+badIR+`}`, a.keyRead)
	if valid {
		t.Fatal("a broken IR is valid")
	}
	nap := findIRError(t, errs, "/nodes/1/data/duration", "node-data")
	if nap.NodeID != "nap" {
		t.Errorf("sleep error names node %q, want nap", nap.NodeID)
	}
	if e := findIRError(t, errs, "/nodes/2/type", "node-type"); e.NodeID != "mystery" {
		t.Errorf("unknown type error names node %q", e.NodeID)
	}
	findIRError(t, errs, "/edges/1/target", "edge-ends")
	if len(errs) < 3 {
		t.Fatalf("want every problem at once, got %+v", errs)
	}

	// Code and sub_workflow checks run on an IR the reader accepts.
	const stagesIR = `{"metadata":{"name":"Stages"},
"nodes":[{"id":"load","type":"step","name":"Load","data":{"code":"const x = 1;\nreturn { x: };"}},
 {"id":"child","type":"sub_workflow","name":"Child","data":{"workflowId":"wf_nowhere"}},
 {"id":"nap","type":"sleep","name":"Nap","data":{}}],
"edges":[{"id":"e1","source":"load","target":"child"},{"id":"e2","source":"child","target":"nap"}],
"entryNodeId":"load"}`
	valid, errs = validateIR(t, w, `{"ir":`+stagesIR+`}`, a.session)
	if valid {
		t.Fatal("invalid")
	}
	code := findIRError(t, errs, "/nodes/0/data/code", "code-syntax")
	if code.NodeID != "load" || code.Field != "data.code" || code.Line != 2 || code.Column < 1 {
		t.Errorf("code error = %+v, want node load, field data.code, line 2 with a column", code)
	}
	if sub := findIRError(t, errs, "/nodes/1/data/workflowId", "sub-workflow"); sub.NodeID != "child" {
		t.Errorf("sub_workflow error = %+v", sub)
	}
	findIRError(t, errs, "/nodes/2/data/duration", "node-data")

	// The same IR through compile: 400 invalid_ir with the same errors.
	r := w.do("POST", "/api/ir/compile", `{"ir":`+stagesIR+`}`, a.keyRead)
	checkError(t, r, 400, "invalid_ir", "/nodes/0/data/code")
	var ce struct{ Details []irErrorBody }
	if err := json.Unmarshal(r.body, &ce); err != nil || fmt.Sprint(ce.Details) != fmt.Sprint(errs) {
		t.Errorf("compile details = %+v, want validate's errors %+v", ce.Details, errs)
	}

	// A valid IR: no errors.
	if valid, errs := validateIR(t, w, `{"ir":`+minimalIR+`}`, a.keyRead); !valid || len(errs) != 0 {
		t.Fatalf("minimal IR: valid %v, %+v", valid, errs)
	}

	// The kind is checked against the workflow named.
	script := `{"kind":"script","metadata":{"name":"F"},"trigger":{"type":"http"},
"nodes":[{"id":"s","type":"step","name":"S","data":{"code":"return 1;"}}],"edges":[],"entryNodeId":"s"}`
	if _, errs := validateIR(t, w, `{"ir":`+script+`,"workflowId":"`+a.workflowID+`"}`, a.keyRead); len(errs) != 1 || errs[0].Rule != "kind" {
		t.Errorf("a script IR for a workflow: %+v, want one kind error", errs)
	}

	// Bad requests.
	checkError(t, w.do("POST", "/api/ir/validate", `{}`, a.keyRead), 422, "validation_failed", "/ir")
	checkError(t, w.do("POST", "/api/ir/validate", `{"ir":null}`, a.keyRead), 422, "validation_failed", "/ir")
	checkError(t, w.do("POST", "/api/ir/compile", `{"ir":"x"}`, a.keyRead), 422, "validation_failed", "/ir")
	checkError(t, w.do("POST", "/api/ir/validate", `{"ir":{},"workflowId":"wf_nowhere"}`, a.keyRead), 422, "validation_failed", "/workflowId")
	// Another tenant's workflow is no workflow of the caller's project.
	checkError(t, w.do("POST", "/api/ir/compile", `{"ir":`+minimalIR+`,"workflowId":"`+w.b.workflowID+`"}`, a.keyRead), 422, "validation_failed", "/workflowId")
	checkError(t, w.do("POST", "/api/ir/validate", `{"ir":{"nodes":[}`, a.keyRead), 400, "bad_request", "")

	if after := w.snapshot(a); after != before {
		t.Errorf("the IR endpoints changed what is stored:\n%s\n---\n%s", before, after)
	}
}

func TestIRCompileEqualsTheVersionsCode(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.a
	// The workflow has variables, a dependency-free trigger and a private
	// marketplace node: everything a version's code depends on.
	w.must(200, "PATCH", "/api/workflows/"+a.workflowID, `{"envVars":[{"name":"API_URL","value":"https://example.com","isSecret":false},{"name":"TOKEN","value":"s3cret","isSecret":true}]}`, a.keyAll)
	irJSON := `{"metadata":{"name":"Greeting"},
"nodes":[{"id":"greet","type":"step","name":"Greet","data":{"code":"return { hello: env.API_URL };"}},
 {"id":"priv","type":"` + a.nodeID + `","version":"1.0.0","name":"Private","data":{"text":"{{greet.hello}}"}},
 {"id":"nap","type":"sleep","name":"Nap","data":{"duration":"5 seconds"}}],
"edges":[{"id":"e1","source":"greet","target":"priv"},{"id":"e2","source":"priv","target":"nap"}],
"entryNodeId":"greet"}`
	versionID := w.submitVersion(a, a.workflowID, irJSON)
	v := w.must(200, "GET", "/api/workflows/"+a.workflowID+"/versions/"+versionID, "", a.keyRead).json(t)
	stored, err := json.Marshal(v["ir"])
	if err != nil {
		t.Fatal(err)
	}
	before := w.snapshot(a)

	r := w.must(200, "POST", "/api/ir/compile", `{"ir":`+string(stored)+`,"workflowId":"`+a.workflowID+`"}`, a.keyRead).json(t)
	if r["code"] != v["code"] {
		t.Fatalf("compile answered other code than the version's:\n--- compile\n%v\n--- version\n%v", r["code"], v["code"])
	}
	if code, _ := r["code"].(string); strings.Contains(code, "s3cret") {
		t.Fatal("a secret's value is in the generated code")
	}
	// Without workflowId the IR compiles on its own.
	r = w.must(200, "POST", "/api/ir/compile", `{"ir":`+irJSON+`}`, a.session).json(t)
	if code, _ := r["code"].(string); !strings.Contains(code, "preview") || !strings.Contains(code, "Greeting") {
		t.Fatalf("compile without workflowId: %.300s", code)
	}
	if valid, errs := validateIR(t, w, `{"ir":`+irJSON+`,"workflowId":"`+a.workflowID+`"}`, a.keyRead); !valid {
		t.Fatalf("valid IR: %+v", errs)
	}

	// Nothing stored: no new version, nothing else changed.
	if after := w.snapshot(a); after != before {
		t.Errorf("compile changed what is stored:\n%s\n---\n%s", before, after)
	}
	list := w.must(200, "GET", "/api/workflows/"+a.workflowID+"/versions", "", a.keyRead).json(t)
	if n := len(list["data"].([]any)); n != 2 { // the world's version and the one above
		t.Errorf("%d versions, want 2", n)
	}
}

// TestIRToolsTenantIsolation: an organization's installed marketplace node
// is a node type for its own IRs only (attack), while the organization that
// installed it uses it (twin).
func TestIRToolsTenantIsolation(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	withNode := func(nodeID string) string {
		return `{"ir":{"metadata":{"name":"Private"},"nodes":[{"id":"p","type":"` + nodeID + `","version":"1.0.0","name":"P","data":{"text":"hi"}}],"edges":[],"entryNodeId":"p"}}`
	}
	// Twin: a's own node is valid for a and compiles.
	if valid, errs := validateIR(t, w, withNode(w.a.nodeID), w.a.keyRead); !valid {
		t.Fatalf("a's own node: %+v", errs)
	}
	code := w.must(200, "POST", "/api/ir/compile", withNode(w.a.nodeID), w.a.keyRead).json(t)["code"].(string)
	if !strings.Contains(code, "privateNode") {
		t.Fatalf("a's node template missing from the code: %.400s", code)
	}
	// Attack: b names a's node.
	valid, errs := validateIR(t, w, withNode(w.a.nodeID), w.b.keyRead)
	if valid {
		t.Fatal("b may use a's private marketplace node")
	}
	if e := findIRError(t, errs, "/nodes/0/type", "node-type"); e.NodeID != "p" {
		t.Errorf("error = %+v", e)
	}
	r := w.do("POST", "/api/ir/compile", withNode(w.a.nodeID), w.b.session)
	checkError(t, r, 400, "invalid_ir", "/nodes/0/type")
	if strings.Contains(string(r.body), "privateNode") || strings.Contains(string(r.body), "ctx.config.text") {
		t.Fatal("the answer leaks a's node template")
	}
}

// TestIRToolsRateClass: validate and compile share the per-user ir class,
// apart from writes.
func TestIRToolsRateClass(t *testing.T) {
	t.Parallel()
	w := newWorld(t, worldOptions{limits: ratelimit.Limits{Global: 1000, Write: 1000, Verify: 1000, IR: 3}})
	sess, _ := w.signUp("editor@example.com")
	body := `{"ir":` + minimalIR + `}`
	w.must(200, "POST", "/api/ir/validate", body, sess)
	w.must(200, "POST", "/api/ir/compile", body, sess)
	r := w.must(200, "POST", "/api/ir/validate", body, sess)
	if r.header.Get("RateLimit-Limit") != "3" || r.header.Get("RateLimit-Remaining") != "0" {
		t.Fatalf("headers: %v", r.header)
	}
	checkError(t, w.do("POST", "/api/ir/compile", body, sess), 429, "rate_limited", "")
	// Writes have their own budget.
	w.must(201, "POST", "/api/workflows", `{"name":"still allowed"}`, sess)
}
