package e2e_test

import (
	"context"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/testenv"
)

// needNPM skips a test that installs npm packages when npm is missing, and
// fails it under CI.
func needNPM(t *testing.T) {
	t.Helper()
	testenv.Command(t, "npm")
}

var quotedInput = regexp.MustCompile(`\\"[^"\\]*\\"`)

// noServerPath fails when an answer shows a path of the server; echo is
// what the request sent, which the answer may quote.
func noServerPath(t *testing.T, body []byte, echo string) {
	t.Helper()
	text := string(body)
	if echo != "" {
		// Messages quote what was sent (an import specifier, a spec).
		text = quotedInput.ReplaceAllString(text, "")
		text = strings.ReplaceAll(text, echo, "")
	}
	for _, p := range []string{os.TempDir() + "/", "/root", "/home/", "/dev/shm", "/var/", "node_modules/.", "/etc/passwd:"} {
		if strings.Contains(text, p) {
			t.Errorf("answer shows a server path (%s): %s", p, body)
		}
	}
}

// errorPaths returns the details paths of an error reply.
func errorPaths(r reply) []string {
	var body struct {
		Details []struct {
			Path string `json:"path"`
		} `json:"details"`
	}
	json.Unmarshal(r.body, &body)
	var out []string
	for _, d := range body.Details {
		out = append(out, d.Path)
	}
	return out
}

func wantPath(t *testing.T, r reply, status int, code, path, echo string) {
	t.Helper()
	wantError(t, r, status, code)
	for _, p := range errorPaths(r) {
		if p == path {
			noServerPath(t, r.body, echo)
			return
		}
	}
	t.Fatalf("error %s does not name %s", r.body, path)
}

// TestAttackDependenciesReachHost: a stranger's function declares a
// registry dependency and tries to bundle host files through it
// (require('ms/../../…'), a dynamic import('/etc/passwd'), require of an
// absolute path), and to declare file:, git+https:, URL and npm: alias
// dependencies. Each is refused with the status and the field or node
// named, and no answer shows a server path; nothing was deployed.
func TestAttackDependenciesReachHost(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	m := s.tenant("mallory@example.com")
	wf, _ := m.workflow("Thief", "script", script("Thief", step("start", "return 1;")))
	base := "/api/workflows/" + wf
	m.must(200, "PATCH", base, map[string]any{"dependencies": map[string]string{"ms": "^2.1.3"}})
	for _, code := range []string{
		"return require('ms/../../../../../../etc/passwd');",
		"return require('ms/../../../../../../root/.config/edgeflow/secret.key');",
		"return String(await import('/etc/passwd'));",
		"return require('/etc/hostname');",
		"const f = 'passwd'; return await import(`/etc/${f}`);",
	} {
		r := m.do("POST", base+"/versions", map[string]any{"ir": script("Thief", step("start", code))})
		wantPath(t, r, 400, "invalid_ir", "/nodes/0/data/code", code)
		r = m.do("PATCH", base, map[string]any{"triggerCode": code})
		wantPath(t, r, 422, "validation_failed", "/triggerCode", code)
	}
	for _, spec := range []string{"file:/etc", "file:../../../../", "git+https://github.com/vercel/ms.git", "https://registry.npmjs.org/ms/-/ms-2.1.3.tgz",
		"http://127.0.0.1:9/x.tgz", "npm:ms@2.1.3", "github:vercel/ms", "vercel/ms", "/etc"} {
		r := m.do("PATCH", base, map[string]any{"dependencies": map[string]string{"ms": spec}})
		wantPath(t, r, 422, "validation_failed", "/dependencies/ms", spec)
	}
	if deps := m.must(200, "GET", base, nil).obj()["dependencies"].(map[string]any); deps["ms"] != "^2.1.3" || len(deps) != 1 {
		t.Errorf("dependencies after the refused updates = %v", deps)
	}
	var page struct {
		Data []any `json:"data"`
	}
	m.must(200, "GET", base+"/deployments", nil).into(&page)
	if len(page.Data) != 0 {
		t.Errorf("deployments = %v, want none", page.Data)
	}
}

// TestLegitRegistryDependency: a function with a registry dependency under
// a semver range bundles it from the npm registry and uses it on the
// local edge.
func TestLegitRegistryDependency(t *testing.T) {
	t.Parallel()
	needNPM(t)
	s := newServer(t, serverOptions{})
	code := step("start", "return { ms: ms.default('2 days'), short: ms.default(60000) };")
	code["name"] = "EXPORT_result"
	wf, _ := s.workflow("Durations", "script", script("Durations", code))
	s.must(200, "PATCH", "/api/workflows/"+wf, map[string]any{"dependencies": map[string]string{"ms": "^2.1.0"}})
	s.version(wf, script("Durations", code))
	r := s.do("POST", "/api/workflows/"+wf+"/deploy", map[string]any{"connectionId": s.conn})
	if r.status != 200 && strings.Contains(string(r.body), "ENOTFOUND") {
		testenv.Missing(t, "the npm registry is not reachable: %s", r.body)
	}
	if r.status != 200 {
		t.Fatalf("deploy = %d %s", r.status, r.body)
	}
	var d deployment
	r.into(&d)
	status, body := post(t, "POST", d.URL, `{}`)
	if status != 200 {
		t.Fatalf("POST url = %d %s", status, body)
	}
	jsonEqual(t, body, `{"result":{"ms":172800000,"short":"1m"}}`)
}

// subWorkflowIR is a workflow that starts target with {"n": 21}, waits,
// and returns the child's output.
func subWorkflowIR(name, target string) map[string]any {
	return chain(name,
		node("child", "sub_workflow", "child", map[string]any{"workflowId": target, "input": `{"n": 21}`, "waitForCompletion": true, "timeout": "1 minute"}),
		step("done", "return {{child.output}};"))
}

// TestAttackSubWorkflowForeign: a stranger's workflow naming another
// organization's workflow in a sub_workflow node is refused at submit
// (422 naming the node) and never deployed; a version whose target was
// deleted since is refused at deploy (422 naming the node), and the
// answers for a foreign and a missing workflow are the same.
func TestAttackSubWorkflowForeign(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	victim, _ := s.workflow("Payroll", "workflow", chain("Payroll", step("pay", "return 'paid';")))
	m := s.tenant("mallory@example.com")
	wf, _ := m.workflow("Parent", "workflow", chain("Parent", step("start", "return 1;")))
	foreign := m.do("POST", "/api/workflows/"+wf+"/versions", map[string]any{"ir": subWorkflowIR("Parent", victim)})
	wantPath(t, foreign, 422, "validation_failed", "/nodes/0/data/workflowId", "")
	missing := m.do("POST", "/api/workflows/"+wf+"/versions", map[string]any{"ir": subWorkflowIR("Parent", "wf_0000000000000000")})
	wantPath(t, missing, 422, "validation_failed", "/nodes/0/data/workflowId", "")
	if a, b := strings.ReplaceAll(foreign.obj()["error"].(string), victim, "X"), strings.ReplaceAll(missing.obj()["error"].(string), "wf_0000000000000000", "X"); a != b {
		t.Errorf("a foreign workflow is told apart from a missing one:\n%s\n%s", a, b)
	}

	// Deploy-time check: the target was deleted after the version was
	// submitted.
	child, _ := m.workflow("Child", "workflow", chain("Child", step("double", "return event.payload.n * 2;")))
	m.version(wf, subWorkflowIR("Parent", child))
	m.must(204, "DELETE", "/api/workflows/"+child, nil)
	r := m.do("POST", "/api/workflows/"+wf+"/deploy", map[string]any{"connectionId": m.conn})
	wantPath(t, r, 422, "validation_failed", "/nodes/0/data/workflowId", "")
}

// TestLegitSubWorkflowSameProject: a workflow starts another workflow of
// its own project on the local edge and gets its output.
func TestLegitSubWorkflowSameProject(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	child, _ := s.workflow("Child", "workflow", chain("Child", step("double", "return event.payload.n * 2;")))
	s.deploy(child)
	parent, _ := s.workflow("Parent", "workflow", subWorkflowIR("Parent", child))
	s.deploy(parent)
	id := s.trigger(parent, map[string]any{})
	r := s.waitStatus(parent, id, "complete", 2*time.Minute)
	jsonEqual(t, r.Output, `42`)
}

// TestAttackStoredBeforeTheChecks: records written before the checks
// existed (put straight into the store here) are refused at deploy: a
// file: dependency (422 naming the dependency), step code reaching a host
// file through a dependency (refused naming the node), a sub_workflow
// naming another organization's workflow (422 naming the node). Nothing is
// deployed and no answer shows a server path.
func TestAttackStoredBeforeTheChecks(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	victim, _ := s.workflow("Payroll", "workflow", chain("Payroll", step("pay", "return 'paid';")))
	m := s.tenant("mallory@example.com")
	ctx := context.Background()
	store := func(wf string, ir map[string]any, deps map[string]string) string {
		t.Helper()
		w, err := m.store.FindWorkflowByID(ctx, m.projID, wf)
		if err != nil {
			t.Fatal(err)
		}
		if deps != nil {
			w.Dependencies = deps
			if err := m.store.UpdateWorkflow(ctx, w); err != nil {
				t.Fatal(err)
			}
		}
		raw, _ := json.Marshal(ir)
		v := &edgeflow.Version{WorkflowID: wf, IR: raw, Code: "// stored before the checks", NodeTypes: []string{}}
		if err := m.store.CreateVersion(ctx, v); err != nil {
			t.Fatal(err)
		}
		return v.ID
	}
	deploy := func(wf, version string) reply {
		return m.do("POST", "/api/workflows/"+wf+"/deploy", map[string]any{"connectionId": m.conn, "versionId": version})
	}

	fn, _ := m.workflow("Thief", "script", script("Thief", step("start", "return 1;")))
	v := store(fn, script("Thief", step("start", "return ms.default('1d');")), map[string]string{"ms": "file:/etc"})
	wantPath(t, deploy(fn, v), 422, "validation_failed", "/dependencies/ms", "file:/etc")

	v = store(fn, script("Thief", step("start", "return require('ms/../../../../../../etc/passwd');")), map[string]string{"ms": "^2.1.3"})
	r := deploy(fn, v)
	wantPath(t, r, 400, "invalid_ir", "/nodes/0/data/code", "x")
	if !strings.Contains(string(r.body), `"start"`) || !strings.Contains(string(r.body), "subpath") {
		t.Errorf("deploy of code reaching a host file = %s, want it to name node start and the subpath", r.body)
	}

	wf, _ := m.workflow("Parent", "workflow", chain("Parent", step("start", "return 1;")))
	v = store(wf, subWorkflowIR("Parent", victim), nil)
	wantPath(t, deploy(wf, v), 422, "validation_failed", "/nodes/0/data/workflowId", "")

	for _, id := range []string{fn, wf} {
		var page struct {
			Data []any `json:"data"`
		}
		m.must(200, "GET", "/api/workflows/"+id+"/deployments", nil).into(&page)
		if len(page.Data) != 0 {
			t.Errorf("deployments of %s = %v, want none", id, page.Data)
		}
	}
}
