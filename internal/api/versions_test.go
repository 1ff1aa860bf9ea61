package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// slackIR is a workflow of a step and a slack-message node at version.
func slackIR(version string) string {
	return `{"metadata":{"name":"Notify","version":7,"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z"},
"nodes":[
 {"id":"start","type":"step","name":"Start","position":{"x":0,"y":0},"version":"1.0.0","provider":"cloudflare","data":{"code":"return {n: 1};"}},
 {"id":"notify","type":"slack-message","name":"Notify","position":{"x":0,"y":0},"version":"` + version + `","provider":"cloudflare","data":{"channel":"C1","text":"n = {{start.n}}"}}
],
"edges":[{"id":"e1","source":"start","target":"notify"}],"entryNodeId":"start"}`
}

type irProblem struct {
	Path, NodeID, Rule string
}

// irProblems reads the details of a 400 invalid_ir answer.
func irProblems(t *testing.T, r response) []irProblem {
	t.Helper()
	checkError(t, r, 400, "invalid_ir", "")
	var body struct {
		Details []struct {
			Path, Message, NodeID, Rule string
		}
	}
	if err := json.Unmarshal(r.body, &body); err != nil {
		t.Fatal(err)
	}
	var out []irProblem
	for _, d := range body.Details {
		if d.Message == "" {
			t.Errorf("problem without message: %+v", d)
		}
		out = append(out, irProblem{d.Path, d.NodeID, d.Rule})
	}
	return out
}

func versionCount(t *testing.T, w *world, tn *tenant, workflowID string) int {
	t.Helper()
	return len(w.must(200, "GET", "/api/workflows/"+workflowID+"/versions?limit=100", "", tn.keyRead).json(t)["data"].([]any))
}

func TestVersionSubmitAndRead(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.a
	wf := w.must(201, "POST", "/api/workflows", `{"name":"Numbers"}`, a.keyAll).str(t, "id")
	base := "/api/workflows/" + wf + "/versions"

	// The client's metadata.version (7) is replaced by the number.
	v1 := w.must(201, "POST", base, `{"ir":`+strings.Replace(minimalIR, `"version":1,`, `"version":7,`, 1)+`}`, a.keyAll).json(t)
	if v1["version"] != 1.0 || v1["locked"] != false || v1["id"] == "" || v1["ir"] != nil || v1["code"] != nil {
		t.Fatalf("submit answer = %v", v1)
	}
	got := w.must(200, "GET", base+"/"+v1["id"].(string), "", a.keyRead).json(t)
	meta := got["ir"].(map[string]any)["metadata"].(map[string]any)
	if meta["version"] != 1.0 {
		t.Fatalf("stored metadata.version = %v, want 1", meta["version"])
	}
	code, _ := got["code"].(string)
	if !strings.Contains(code, "extends WorkflowEntrypoint") || !strings.Contains(code, "return {ok: true};") {
		t.Fatalf("generated code:\n%s", code)
	}

	// Key order, whitespace and look-alike keys do not confuse the number.
	tricky := `{ "nodes" : [{"id":"start","type":"step","name":"Start \"version\": 3","position":{"x":0,"y":0},"version":"1.0.0","provider":"cloudflare","data":{"code":"return {version: 9};"}}],
	  "edges":[], "entryNodeId":"start",
	  "metadata" : { "name":"{\"version\":5}", "createdAt":"2026-01-01T00:00:00Z", "version" : 12 , "updatedAt":"2026-01-01T00:00:00Z"} }`
	tv := w.submitVersion(a, wf, tricky)
	got = w.must(200, "GET", base+"/"+tv, "", a.keyRead).json(t)
	if m := got["ir"].(map[string]any)["metadata"].(map[string]any); m["version"] != 2.0 || m["name"] != `{"version":5}` ||
		got["ir"].(map[string]any)["nodes"].([]any)[0].(map[string]any)["name"] != `Start "version": 3` {
		t.Fatalf("stored IR = %v", got["ir"])
	}
	// tv is the current version: it stays until a newer one is current.
	checkError(t, w.do("DELETE", base+"/"+tv, "", a.keyAll), 409, "conflict", "")
	v2 := w.submitVersion(a, wf, minimalIR)
	w.must(204, "DELETE", base+"/"+tv, "", a.keyAll)

	list := w.must(200, "GET", base+"?limit=1", "", a.keyRead).json(t)
	first := list["data"].([]any)[0].(map[string]any)
	if first["id"] != v2 || first["version"] != 3.0 || first["ir"] != nil || first["code"] != nil || list["nextCursor"] == nil {
		t.Fatalf("list page = %v", list)
	}
	page2 := w.must(200, "GET", base+"?limit=1&cursor="+list["nextCursor"].(string), "", a.keyRead).json(t)
	if page2["data"].([]any)[0].(map[string]any)["id"] != v1["id"] || page2["nextCursor"] != nil {
		t.Fatalf("list page 2 = %v", page2)
	}

	// /full: the current version, or the one asked for.
	full := w.must(200, "GET", "/api/workflows/"+wf+"/full", "", a.keyRead).json(t)
	if full["currentVersion"].(map[string]any)["id"] != v2 || len(full["versions"].([]any)) != 2 {
		t.Fatalf("full = %v", full)
	}
	full = w.must(200, "GET", "/api/workflows/"+wf+"/full?version="+v1["id"].(string), "", a.keyRead).json(t)
	if full["currentVersion"].(map[string]any)["id"] != v1["id"] {
		t.Fatalf("full?version = %v", full["currentVersion"])
	}

	// A deleted number is never reused: the next submission gets the next
	// unused number, and its IR says so.
	v3 := w.must(201, "POST", base, `{"ir":`+minimalIR+`}`, a.keyAll).json(t)
	w.must(204, "DELETE", base+"/"+v2, "", a.keyAll)
	got = w.must(200, "GET", base+"/"+v3["id"].(string), "", a.keyRead).json(t)
	meta = got["ir"].(map[string]any)["metadata"].(map[string]any)
	if got["version"] != meta["version"] || got["version"] != 4.0 {
		t.Fatalf("after deleting version 2: number %v, metadata.version %v", got["version"], meta["version"])
	}
	if !strings.Contains(got["code"].(string), fmt.Sprintf("version %v", got["version"])) {
		t.Errorf("code header does not name version %v:\n%.400s", got["version"], got["code"])
	}
}

func TestVersionSubmitRefusesInvalidIR(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.a
	base := "/api/workflows/" + a.workflowID + "/versions"
	before := versionCount(t, w, a, a.workflowID)

	bad := `{"metadata":{"name":"x","version":1,"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z"},
"nodes":[
 {"id":"a","type":"step","name":"A","position":{"x":0,"y":0},"version":"1.0.0","provider":"cloudflare","data":{"code":"return {{b.x}};"}},
 {"id":"b","type":"sleep","name":"B","position":{"x":0,"y":0},"version":"1.0.0","provider":"cloudflare","data":{"duration":"soon"}},
 {"id":"c","type":"no_such_type","name":"C","position":{"x":0,"y":0},"version":"1.0.0","provider":"cloudflare","data":{}}
],
"edges":[{"id":"e1","source":"a","target":"b"},{"id":"e2","source":"b","target":"c"}],"entryNodeId":"a"}`
	got := irProblems(t, w.do("POST", base, `{"ir":`+bad+`}`, a.keyAll))
	want := []irProblem{
		{"/nodes/0/data/code", "a", "upstream-reference"},
		{"/nodes/1/data/duration", "b", "duration"},
		{"/nodes/2/type", "c", "node-type"},
	}
	for _, p := range want {
		found := false
		for _, g := range got {
			if g == p {
				found = true
			}
		}
		if !found {
			t.Errorf("problem %+v missing from %+v", p, got)
		}
	}

	// A function's versions must be script IRs.
	fn := w.must(201, "POST", "/api/workflows", `{"name":"Fn","kind":"script"}`, a.keyAll).str(t, "id")
	if diff := cmp.Diff([]irProblem{{"/kind", "", "kind"}}, irProblems(t, w.do("POST", "/api/workflows/"+fn+"/versions", `{"ir":`+minimalIR+`}`, a.keyAll))); diff != "" {
		t.Errorf("workflow IR for a function (-want +got):\n%s", diff)
	}

	checkError(t, w.do("POST", base, `{"ir":"text"}`, a.keyAll), 422, "validation_failed", "/ir")
	checkError(t, w.do("POST", base, `{"ir":null}`, a.keyAll), 422, "validation_failed", "/ir")
	checkError(t, w.do("POST", base, `{}`, a.keyAll), 422, "validation_failed", "/ir")
	// Malformed JSON inside the IR is a malformed body, like anywhere else.
	for _, body := range []string{`{"ir":{"metadata" {}}}`, `{"ir":{"a":[1,}}`, `{"ir":{"a":tru}}`, `{"ir":{]}`, `{"ir":{"a":1}} x`} {
		checkError(t, w.do("POST", base, body, a.keyAll), 400, "bad_request", "")
	}
	if diff := cmp.Diff([]irProblem{{"/nodes", "", "nodes-required"}}, irProblems(t, w.do("POST", base,
		`{"ir":{"metadata":{"name":"x","version":1,"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z"},"nodes":[],"edges":[],"entryNodeId":"x"}}`, a.keyAll))[:1]); diff != "" {
		t.Errorf("empty IR (-want +got):\n%s", diff)
	}
	if after := versionCount(t, w, a, a.workflowID); after != before {
		t.Fatalf("refused submissions created versions: %d → %d", before, after)
	}
	checkError(t, w.do("POST", "/api/workflows/"+a.workflowID+"/versions", `{"ir":`+minimalIR+`}`, w.b.keyAll), 404, "not_found", "")
}

func TestVersionLockRevertDelete(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.a
	ctx := context.Background()
	wf := w.must(201, "POST", "/api/workflows", `{"name":"Lifecycle"}`, a.keyAll).str(t, "id")
	base := "/api/workflows/" + wf + "/versions/"
	v1 := w.submitVersion(a, wf, minimalIR)
	other := strings.Replace(minimalIR, "return {ok: true};", "return {ok: 2};", 1)
	v2 := w.submitVersion(a, wf, other)

	// Lock: delete refused until unlocked.
	if r := w.must(200, "PATCH", base+v1, `{"locked":true}`, a.keyAll).json(t); r["locked"] != true {
		t.Fatalf("lock = %v", r)
	}
	checkError(t, w.do("DELETE", base+v1, "", a.keyAll), 409, "conflict", "")
	checkError(t, w.do("PATCH", base+v1, `{}`, a.keyAll), 422, "validation_failed", "/locked")
	w.must(200, "PATCH", base+v1, `{"locked":false}`, a.keyAll)

	// Revert: a new version with v1's IR; v1 unchanged.
	rv := w.must(201, "POST", base+v1+"/revert", "", a.keyAll).json(t)
	if rv["version"] != 3.0 || rv["id"] == v1 {
		t.Fatalf("revert = %v", rv)
	}
	reverted := w.must(200, "GET", base+rv["id"].(string), "", a.keyRead).json(t)
	orig := w.must(200, "GET", base+v1, "", a.keyRead).json(t)
	if !strings.Contains(reverted["code"].(string), "return {ok: true};") || orig["version"] != 1.0 ||
		reverted["ir"].(map[string]any)["metadata"].(map[string]any)["version"] != 3.0 {
		t.Fatalf("reverted = %v\noriginal = %v", reverted["ir"], orig["ir"])
	}
	checkError(t, w.do("POST", base+"ver_nope/revert", "", a.keyAll), 404, "not_found", "")

	// Deployed versions cannot be deleted.
	d := &edgeflow.Deployment{WorkflowID: wf, ProjectID: a.projectID, VersionID: v2, ConnectionID: a.connectionID,
		Status: edgeflow.DeploymentActive, ScriptName: "ef-" + wf}
	if err := w.store.RecordDeployment(ctx, d); err != nil {
		t.Fatal(err)
	}
	checkError(t, w.do("DELETE", base+v2, "", a.keyAll), 409, "conflict", "")
	w.must(204, "DELETE", base+v1, "", a.keyAll)
	checkError(t, w.do("GET", base+v1, "", a.keyRead), 404, "not_found", "")
	checkError(t, w.do("DELETE", base+v1, "", a.keyAll), 404, "not_found", "")
}

// TestCurrentVersionCannotBeDeleted: the active version is the
// workflow's current version (currentVersionId), deployed or not; deleting
// it is 409 like a deployed or locked one, with a message saying what to do,
// and nothing is lost. Twin: once a newer version is current, the older one
// can go.
func TestCurrentVersionCannotBeDeleted(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.a
	for _, kind := range []string{"workflow", "script"} {
		wf := w.must(201, "POST", "/api/workflows", `{"name":"Current `+kind+`","kind":"`+kind+`"}`, a.keyAll).str(t, "id")
		base := "/api/workflows/" + wf + "/versions/"
		ir := minimalIR
		if kind == "script" {
			ir = `{"kind":"script","metadata":{"name":"Fn"},"trigger":{"type":"http"},
"nodes":[{"id":"start","type":"step","name":"Start","data":{"code":"return {ok: true};"}}],"edges":[],"entryNodeId":"start"}`
		}
		v1 := w.submitVersion(a, wf, ir)
		got := w.must(200, "GET", "/api/workflows/"+wf, "", a.keyRead).json(t)
		if got["currentVersionId"] != v1 || got["activeVersionId"] != "" {
			t.Fatalf("%s: before the delete: %v", kind, got)
		}
		r := w.do("DELETE", base+v1, "", a.keyAll)
		checkError(t, r, 409, "conflict", "")
		if msg := r.str(t, "error"); !strings.Contains(msg, "current version") || !strings.Contains(msg, "version 1") {
			t.Fatalf("%s: the refusal does not explain itself: %s", kind, r.body)
		}
		w.must(200, "GET", base+v1, "", a.keyRead)
		if got := w.must(200, "GET", "/api/workflows/"+wf, "", a.keyRead).json(t); got["currentVersionId"] != v1 {
			t.Fatalf("%s: refused delete changed the workflow: %v", kind, got)
		}
		// A read key is refused for its scope first; another tenant sees nothing.
		checkError(t, w.do("DELETE", base+v1, "", a.keyRead), 403, "forbidden", "")
		checkError(t, w.do("DELETE", base+v1, "", w.b.keyAll), 404, "not_found", "")

		// Twin: a revert makes a new current version; v1 can go, the new one cannot.
		v2 := w.must(201, "POST", base+v1+"/revert", "", a.keyAll).str(t, "id")
		w.must(204, "DELETE", base+v1, "", a.keyAll)
		checkError(t, w.do("DELETE", base+v2, "", a.keyAll), 409, "conflict", "")
		if got := w.must(200, "GET", "/api/workflows/"+wf, "", a.keyRead).json(t); got["currentVersionId"] != v2 {
			t.Fatalf("%s: current after the delete: %v", kind, got)
		}
	}
}

func TestVersionsUseInstalledMarketplaceNodes(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a, b := w.a, w.b
	ctx := context.Background()
	w.must(201, "POST", "/api/marketplace/install", `{"nodeId":"slack-message","version":"1.0.0"}`, a.keyAll)

	// Node definitions follow the organization's installs.
	defs := w.must(200, "GET", "/api/nodes", "", a.keyRead)
	var page struct {
		Data       []struct{ ID, Version string }
		NextCursor *string
	}
	if err := json.Unmarshal(defs.body, &page); err != nil {
		t.Fatal(err)
	}
	list := page.Data
	var ids []string
	for _, d := range list {
		ids = append(ids, d.ID+"@"+d.Version)
	}
	if len(list) != 15 || page.NextCursor != nil || ids[0] != "step@1.0.0" || !strings.Contains(strings.Join(ids, " "), "slack-message@1.0.0") {
		t.Fatalf("GET /nodes = %v", ids)
	}
	if r := w.must(200, "GET", "/api/nodes/slack-message", "", a.keyRead).json(t); r["version"] != "1.0.0" {
		t.Fatalf("GET /nodes/slack-message = %v", r)
	}
	checkError(t, w.do("GET", "/api/nodes/slack-message", "", b.keyRead), 404, "not_found", "")
	w.must(200, "GET", "/api/nodes/http_request", "", b.keyRead)
	tpl := w.must(200, "GET", "/api/nodes/templates", "", a.keyRead).json(t)
	slack := tpl["slack-message"].(map[string]any)
	if slack["version"] != "1.0.0" || !strings.Contains(slack["template"].(string), "export default async function") ||
		slack["cloudflare"] != slack["template"] || fmt.Sprint(slack["secretEnvVars"]) != "[SLACK_BOT_TOKEN]" {
		t.Fatalf("templates[slack-message] = %v", slack)
	}
	if step := tpl["step"].(map[string]any); step["builtin"] != true || step["template"] != nil {
		t.Fatalf("templates[step] = %v", step)
	}
	if _, ok := w.must(200, "GET", "/api/nodes/templates", "", b.keyRead).json(t)["slack-message"]; ok {
		t.Fatal("b's templates list a's node")
	}

	// Versions validate against the installed version and inline its template.
	wf := w.must(201, "POST", "/api/workflows", `{"name":"Notify"}`, a.keyAll).str(t, "id")
	vid := w.submitVersion(a, wf, slackIR("1.0.0"))
	v := w.must(200, "GET", "/api/workflows/"+wf+"/versions/"+vid, "", a.keyRead).json(t)
	if fmt.Sprint(v["nodeTypes"]) != "[slack-message@1.0.0]" || !strings.Contains(v["code"].(string), "// ---- nodes/slack-message@1.0.0") {
		t.Fatalf("version nodeTypes %v, code:\n%s", v["nodeTypes"], v["code"])
	}
	if diff := cmp.Diff([]irProblem{{"/nodes/1/version", "notify", "node-type"}},
		irProblems(t, w.do("POST", "/api/workflows/"+wf+"/versions", `{"ir":`+slackIR("2.0.0")+`}`, a.keyAll))); diff != "" {
		t.Errorf("IR at a version not installed (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]irProblem{{"/nodes/1/type", "notify", "node-type"}},
		irProblems(t, w.do("POST", "/api/workflows/"+b.workflowID+"/versions", `{"ir":`+slackIR("1.0.0")+`}`, b.keyAll))); diff != "" {
		t.Errorf("IR using a node the organization has not installed (-want +got):\n%s", diff)
	}

	// Uninstall is refused while a deployed version uses the node.
	d := &edgeflow.Deployment{WorkflowID: wf, ProjectID: a.projectID, VersionID: vid, ConnectionID: a.connectionID,
		Status: edgeflow.DeploymentActive, ScriptName: "ef-" + wf}
	if err := w.store.RecordDeployment(ctx, d); err != nil {
		t.Fatal(err)
	}
	r := w.do("POST", "/api/marketplace/uninstall", `{"nodeId":"slack-message"}`, a.keyAll)
	checkError(t, r, 409, "conflict", "")
	if !strings.Contains(string(r.body), wf) || !strings.Contains(string(r.body), "Notify") {
		t.Fatalf("409 does not name the workflow: %s", r.body)
	}
	if _, err := w.store.RemoveDeployment(ctx, wf, a.connectionID, d.CreatedAt); err != nil {
		t.Fatal(err)
	}
	w.must(200, "POST", "/api/marketplace/uninstall", `{"nodeId":"slack-message"}`, a.keyAll)
}

func TestIRSchemaIsPublic(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r := w.must(200, "GET", "/api/ir/schema.json", "", cred{})
	var doc map[string]any
	if err := json.Unmarshal(r.body, &doc); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(fmt.Sprint(doc["$schema"]), "2020-12") || r.header.Get("Content-Type") != "application/schema+json" {
		t.Fatalf("schema: %v %v", r.header, doc["$schema"])
	}
}

// TestVersionSubmitLargeIR: a version submission may be larger than other
// bodies (MaxIRBodyBytes): an IR of 4,000 nodes (over 1 MiB) is stored and
// read back whole; a body over the IR limit is refused with 413.
func TestVersionSubmitLargeIR(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.a
	wf := w.must(201, "POST", "/api/workflows", `{"name":"Large"}`, a.keyAll).str(t, "id")
	base := "/api/workflows/" + wf + "/versions"

	var nodes, edges []string
	for i := range 4000 {
		nodes = append(nodes, fmt.Sprintf(`{"id":"n%d","type":"step","name":"Step %d","position":{"x":%d,"y":0},"version":"1.0.0","provider":"cloudflare",`+
			`"data":{"code":"const items = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];\nreturn { index: %d, total: items.reduce((a, b) => a + b, 0) };"}}`, i, i, i*200, i))
		if i > 0 {
			edges = append(edges, fmt.Sprintf(`{"id":"e%d","source":"n%d","target":"n%d"}`, i, i-1, i))
		}
	}
	irText := `{"metadata":{"name":"large","version":1,"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z"},` +
		`"nodes":[` + strings.Join(nodes, ",") + `],"edges":[` + strings.Join(edges, ",") + `],"entryNodeId":"n0"}`
	if len(irText) <= api.MaxBodyBytes {
		t.Fatalf("test IR is only %d bytes", len(irText))
	}
	v := w.must(201, "POST", base, `{"ir":`+irText+`}`, a.keyAll).json(t)
	got := w.must(200, "GET", base+"/"+v["id"].(string), "", a.keyRead).json(t)
	if n := len(got["ir"].(map[string]any)["nodes"].([]any)); n != 4000 {
		t.Fatalf("stored IR has %d nodes", n)
	}
	if code := got["code"].(string); !strings.Contains(code, `"Step 3999"`) {
		t.Fatalf("generated code lacks the last step (%d bytes)", len(code))
	}
	big := `{"ir":{"metadata":{"name":"` + strings.Repeat("x", api.MaxIRBodyBytes) + `"}}}`
	checkError(t, w.do("POST", base, big, a.keyAll), 413, "payload_too_large", "")
}
