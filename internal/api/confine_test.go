package api_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// subWorkflowIR is a workflow IR whose second node starts the workflow
// target.
func subWorkflowIR(target string) string {
	return fmt.Sprintf(`{"metadata":{"name":"Parent","version":1,"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z"},
"nodes":[{"id":"start","type":"step","name":"Start","position":{"x":0,"y":0},"version":"1.0.0","provider":"cloudflare","data":{"code":"return {ok: true};"}},
{"id":"child","type":"sub_workflow","name":"Child","position":{"x":0,"y":100},"version":"1.0.0","provider":"cloudflare","data":{"workflowId":%q}}],
"edges":[{"id":"e1","source":"start","target":"child"}],"entryNodeId":"start"}`, target)
}

// TestAttackDependencySpecs: a workflow's dependencies naming anything but
// a registry package with a semver range or dist-tag (a local path, git, a
// URL, an npm: alias, ...) are refused with 422 naming the dependency, and
// nothing is stored; no message shows a server path.
func TestAttackDependencySpecs(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.a
	path := "/api/workflows/" + a.workflowID
	before := w.must(200, "GET", path, "", a.keyRead).body
	tests := []struct {
		name, deps, wantPath string
	}{
		{"file", `{"left-pad":"file:/etc"}`, "/dependencies/left-pad"},
		{"relative file", `{"left-pad":"file:../../../../etc"}`, "/dependencies/left-pad"},
		{"link", `{"left-pad":"link:/"}`, "/dependencies/left-pad"},
		{"bare path", `{"left-pad":"/etc/passwd"}`, "/dependencies/left-pad"},
		{"home path", `{"left-pad":"~/x"}`, "/dependencies/left-pad"},
		{"git+https", `{"left-pad":"git+https://github.com/left-pad/left-pad.git"}`, "/dependencies/left-pad"},
		{"git+ssh", `{"ms":"git+ssh://git@github.com:vercel/ms.git"}`, "/dependencies/ms"},
		{"github shorthand", `{"ms":"github:vercel/ms"}`, "/dependencies/ms"},
		{"owner/repo", `{"ms":"vercel/ms"}`, "/dependencies/ms"},
		{"url", `{"ms":"https://registry.npmjs.org/ms/-/ms-2.1.3.tgz"}`, "/dependencies/ms"},
		{"loopback url", `{"ms":"http://127.0.0.1:8080/x.tgz"}`, "/dependencies/ms"},
		{"tarball", `{"ms":"ms-2.1.3.tgz"}`, "/dependencies/ms"},
		{"npm alias", `{"ms":"npm:evil@1.0.0"}`, "/dependencies/ms"},
		{"workspace", `{"ms":"workspace:*"}`, "/dependencies/ms"},
		{"scoped escaped path", `{"@acme/x":"file:/"}`, "/dependencies/@acme~1x"},
		{"bad name", `{"../../etc":"1.0.0"}`, "/dependencies/..~1..~1etc"},
		{"upper case name", `{"Left-Pad":"1.0.0"}`, "/dependencies/Left-Pad"},
		{"not a range", `{"ms":"1.2.3.4"}`, "/dependencies/ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := w.do("PATCH", path, `{"dependencies":`+tt.deps+`}`, a.keyAll)
			checkError(t, r, 422, "validation_failed", tt.wantPath)
			if strings.Contains(string(r.body), "/etc") && !strings.Contains(tt.deps, "/etc") || strings.Contains(string(r.body), "/tmp") {
				t.Errorf("error shows a server path: %s", r.body)
			}
		})
	}
	if after := w.must(200, "GET", path, "", a.keyRead).body; string(after) != string(before) {
		t.Errorf("a refused update changed the workflow:\n%s\n%s", before, after)
	}
}

// TestLegitDependencySpecs: registry packages with semver ranges and
// dist-tags are stored as given.
func TestLegitDependencySpecs(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.a
	deps := `{"ms":"^2.1.3","left-pad":"~1.3.0","@acme/util":">=1.2.0 <2 || 3.x","date-fns":"latest","lodash":"4.17.21","x":"1.0.0 - 1.4.0","y":"*"}`
	r := w.must(200, "PATCH", "/api/workflows/"+a.workflowID, `{"dependencies":`+deps+`}`, a.keyAll)
	got, _ := r.json(t)["dependencies"].(map[string]any)
	if got["ms"] != "^2.1.3" || got["@acme/util"] != ">=1.2.0 <2 || 3.x" || got["date-fns"] != "latest" || len(got) != 7 {
		t.Errorf("dependencies = %v", got)
	}
}

// TestAttackSubWorkflowOtherTenant: tenant b submits a version whose
// sub_workflow node names tenant a's workflow, or a workflow of b's own
// other project: 422 naming the node's workflowId, no version created, and
// the answer is the same as for an id that does not exist.
func TestAttackSubWorkflowOtherTenant(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	b := w.b
	otherProject := w.must(201, "POST", "/api/workflows", `{"name":"Elsewhere"}`, b.keyOtherProject).str(t, "id")
	base := "/api/workflows/" + b.workflowID + "/versions"
	before := w.must(200, "GET", base, "", b.keyRead).body
	messages := map[string]string{}
	for name, target := range map[string]string{"other organization": w.a.workflowID, "other project": otherProject, "unknown": "wf_doesnotexist"} {
		r := w.do("POST", base, `{"ir":`+subWorkflowIR(target)+`}`, b.keyAll)
		checkError(t, r, 422, "validation_failed", "/nodes/1/data/workflowId")
		messages[name] = strings.ReplaceAll(r.str(t, "error"), target, "ID")
	}
	if messages["other organization"] != messages["unknown"] || messages["other project"] != messages["unknown"] {
		t.Errorf("answers tell a foreign workflow from a missing one: %v", messages)
	}
	if after := w.must(200, "GET", base, "", b.keyRead).body; string(after) != string(before) {
		t.Errorf("a refused submission created a version:\n%s\n%s", before, after)
	}
	// A function of the same project is not a workflow to start.
	fn := w.must(201, "POST", "/api/workflows", `{"name":"Fn","kind":"script"}`, b.keyAll).str(t, "id")
	checkError(t, w.do("POST", base, `{"ir":`+subWorkflowIR(fn)+`}`, b.keyAll), 422, "validation_failed", "/nodes/1/data/workflowId")
}

// TestLegitSubWorkflowSameProject: a sub_workflow naming a workflow of the
// same project is accepted.
func TestLegitSubWorkflowSameProject(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	b := w.b
	child := w.must(201, "POST", "/api/workflows", `{"name":"Child"}`, b.keyAll).str(t, "id")
	w.submitVersion(b, b.workflowID, subWorkflowIR(child))
	// A workflow may start itself (recursion is the author's business).
	w.submitVersion(b, b.workflowID, subWorkflowIR(b.workflowID))
}

// stepIR is a workflow IR of one step node running code.
func stepIR(code string) string {
	c, _ := json.Marshal(code)
	return `{"metadata":{"name":"Orders","version":1,"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z"},
"nodes":[{"id":"start","type":"step","name":"Start","position":{"x":0,"y":0},"version":"1.0.0","provider":"cloudflare","data":{"code":` + string(c) + `}}],
"edges":[],"entryNodeId":"start"}`
}

// TestAttackCodeImportsHostFiles: step code and triggerCode that import a
// path of the server (an absolute path, a package subpath climbing out of
// node_modules, a relative path, a computed path) are refused at version
// submit (400 invalid_ir naming the node's code) and on PATCH (422
// /triggerCode), with no server path in the answer.
func TestAttackCodeImportsHostFiles(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.a
	base := "/api/workflows/" + a.workflowID
	for _, code := range []string{
		`return require('ms/../../../../../etc/passwd');`,
		`return await import('/etc/passwd');`,
		`return require("/root/.config/edgeflow/secret.key");`,
		`return require('../../../etc/passwd');`,
		"const f = 'passwd'; return await import(`/etc/${f}`);",
		"return require(`../${'x'}`);",
		`return require('file:///etc/passwd');`,
		`return require.resolve('ms');`,
	} {
		r := w.do("POST", base+"/versions", `{"ir":`+stepIR(code)+`}`, a.keyAll)
		checkError(t, r, 400, "invalid_ir", "/nodes/0/data/code")
		r = w.do("PATCH", base, fmt.Sprintf(`{"triggerCode":%q}`, code), a.keyAll)
		checkError(t, r, 422, "validation_failed", "/triggerCode")
	}
}

// TestLegitCodeImports: code importing its packages and runtime modules is
// accepted.
func TestLegitCodeImports(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.a
	code := "const { Buffer } = await import('node:buffer');\nconst m = require('ms');\nconst d = await import(`date-fns/${'format'}`);\nreturn { n: m('2 days'), b: Buffer.from('x').length, imported: 'important from x' };"
	w.submitVersion(a, a.workflowID, stepIR(code))
	w.must(200, "PATCH", "/api/workflows/"+a.workflowID, fmt.Sprintf(`{"triggerCode":%q}`, "const m = require('ms'); return new Response(String(m('1h')));"), a.keyAll)
}
