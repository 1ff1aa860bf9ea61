package api_test

import (
	"fmt"
	"strings"
	"testing"
)

// agentToolIR is a workflow IR whose agent node has a workflow tool
// starting target (its second tool; the first is an http tool).
func agentToolIR(target, apiKey string) string {
	return fmt.Sprintf(`{"metadata":{"name":"Parent","version":1,"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z"},
"nodes":[{"id":"bot","type":"agent","name":"Bot","position":{"x":0,"y":0},"version":"1.0.0","provider":"cloudflare",
"data":{"provider":"openai","model":"m","apiKey":%q,"prompt":"hi","tools":[{"http":{"url":"https://api.example.com/x"}},{"workflow":%q}]}}],
"edges":[],"entryNodeId":"bot"}`, apiKey, target)
}

// TestAttackAgentToolOtherTenant: an agent's workflow tool naming another
// organization's workflow, or one of another project, is refused at
// submission (422 at the tool's pointer), exactly as an unknown id is.
func TestAttackAgentToolOtherTenant(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	b := w.b
	otherProject := w.must(201, "POST", "/api/workflows", `{"name":"Elsewhere"}`, b.keyOtherProject).str(t, "id")
	base := "/api/workflows/" + b.workflowID + "/versions"
	before := w.must(200, "GET", base, "", b.keyRead).body
	messages := map[string]string{}
	for name, target := range map[string]string{"other organization": w.a.workflowID, "other project": otherProject, "unknown": "wf_doesnotexist"} {
		r := w.do("POST", base, `{"ir":`+agentToolIR(target, "{{env.OPENAI_API_KEY}}")+`}`, b.keyAll)
		checkError(t, r, 422, "validation_failed", "/nodes/0/data/tools/1/workflow")
		messages[name] = strings.ReplaceAll(r.str(t, "error"), target, "ID")
	}
	if messages["other organization"] != messages["unknown"] || messages["other project"] != messages["unknown"] {
		t.Errorf("answers tell a foreign workflow from a missing one: %v", messages)
	}
	// The IR check says the same, with the node id.
	r := w.must(200, "POST", "/api/ir/validate", `{"ir":`+agentToolIR(w.a.workflowID, "{{env.OPENAI_API_KEY}}")+`,"workflowId":"`+b.workflowID+`"}`, b.keyAll)
	if !strings.Contains(string(r.body), `/nodes/0/data/tools/1/workflow`) {
		t.Errorf("validate: %s", r.body)
	}
	if after := w.must(200, "GET", base, "", b.keyRead).body; string(after) != string(before) {
		t.Errorf("a refused submission created a version:\n%s\n%s", before, after)
	}
}

// TestAttackAgentLiteralKey: a literal provider key in an agent's data is
// refused at submission, and the answer does not repeat it.
func TestAttackAgentLiteralKey(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	b := w.b
	child := w.must(201, "POST", "/api/workflows", `{"name":"Child"}`, b.keyAll).str(t, "id")
	r := w.do("POST", "/api/workflows/"+b.workflowID+"/versions", `{"ir":`+agentToolIR(child, "sk-live-abcdef123456")+`}`, b.keyAll)
	if r.status < 400 || !strings.Contains(string(r.body), "/nodes/0/data/apiKey") {
		t.Fatalf("literal key accepted: %d %s", r.status, r.body)
	}
	if strings.Contains(string(r.body), "sk-live-abcdef123456") {
		t.Errorf("the answer repeats the key: %s", r.body)
	}
}

// TestLegitAgentToolSameProject: the twin of both attacks: a workflow of
// the same project and a key read from an env var are accepted.
func TestLegitAgentToolSameProject(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	b := w.b
	child := w.must(201, "POST", "/api/workflows", `{"name":"Child"}`, b.keyAll).str(t, "id")
	w.submitVersion(b, b.workflowID, agentToolIR(child, "{{env.OPENAI_API_KEY}}"))
}
