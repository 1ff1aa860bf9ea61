package e2e_test

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/api"
)

// TestRouteExamplesLive replays the examples of docs/api.md's endpoint
// reference that need a deployed workflow or a provider account (the api
// package's TestRouteExamples replays the others): deploy, deploy-stream,
// trigger, the run and its control, the trigger secret, the deployment and
// run lists with records in them, the provider resources, token
// verification and takedown. Each example request is sent with the
// examples' ids replaced by this server's records; its answer must have the
// route's status and the example's shape, and fit the route's response
// schema (Route.CheckReply).
func TestRouteExamplesLive(t *testing.T) {
	t.Parallel()
	requireEdge(t)
	s := newServer(t, serverOptions{cloudflareBase: shared.edge.APIBaseURL()})
	routes := map[string]api.Route{}
	for _, rt := range api.DocRoutes() {
		routes[rt.Method+" "+rt.Pattern] = rt
	}
	ex := api.ExampleIDs()
	ids := map[string]string{ex["connection"]: s.conn, ex["project"]: s.projID, ex["organization"]: s.orgID}
	replay := func(name string, more map[string]string) reply {
		t.Helper()
		rt, ok := routes[name]
		if !ok {
			t.Fatalf("no route %s", name)
		}
		path, body := rt.Example.Path, rt.Example.Body
		for _, m := range []map[string]string{more, ids} {
			for from, to := range m {
				path = strings.ReplaceAll(path, from, to)
				body = strings.ReplaceAll(body, from, to)
			}
		}
		var b any
		if body != "" {
			b = json.RawMessage(body)
		}
		r := s.do(rt.Method, path, b)
		if r.status != rt.Status {
			t.Fatalf("%s: the example answers %d, the route says %d\n%s", name, r.status, rt.Status, r.body)
		}
		if err := rt.Example.CheckAnswer(r.body); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if err := rt.CheckReply(r.body, false); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		return r
	}

	// A workflow that writes what the resource examples read: KV key
	// order:A-1001, table orders with row A-1001, object 2026/A-1001.pdf.
	for _, n := range []string{"kv-put", "d1-query", "r2-put"} {
		s.must(201, "POST", "/api/marketplace/install", map[string]any{"nodeId": n})
	}
	wf, ver := s.workflow("Order confirmation", "workflow", chain("Order confirmation",
		step("load", "console.log('loading order A-1001'); return { id: 'A-1001', total: 42 };"),
		node("kv", "kv-put", "kv", map[string]any{"key": "order:{{load.id}}", "value": `{"total":42}`}),
		node("table", "d1-query", "table", map[string]any{"sql": "CREATE TABLE IF NOT EXISTS orders (id TEXT PRIMARY KEY, total INTEGER)"}),
		node("row", "d1-query", "row", map[string]any{"sql": "INSERT OR REPLACE INTO orders (id, total) VALUES (?1, ?2)",
			"params": `["{{load.id}}", {{load.total}}]`}),
		node("obj", "r2-put", "obj", map[string]any{"key": "2026/{{load.id}}.pdf", "content": "%PDF-1.7"}),
		step("confirm", "return { sent: true, total: {{load.total}} };"),
	))
	s.must(200, "PATCH", "/api/workflows/"+wf, map[string]any{"deployConfig": map[string]any{"publicTrigger": true}})
	ids[ex["workflow"]], ids[ex["version"]] = wf, ver

	testRun := replay("POST /api/workflows/{workflowId}/versions/{versionId}/test", nil).obj()
	if testRun["status"] != "complete" {
		t.Fatalf("the test example's run: %v", testRun)
	}
	if draft := replay("POST /api/workflows/{workflowId}/test", nil).obj(); draft["status"] != "complete" {
		t.Fatalf("the draft test example's run: %v", draft)
	}
	replay("POST /api/workflows/{workflowId}/deploy", nil)
	replay("POST /api/workflows/{workflowId}/deploy-stream", nil)
	runID := replay("POST /api/workflows/{workflowId}/trigger", nil).str("id")
	s.waitStatus(wf, runID, "complete", 60*time.Second)
	ids[ex["run"]] = runID
	replay("GET /api/workflows/{workflowId}/runs/{runId}", nil)
	replay("GET /api/workflows/{workflowId}/runs/{runId}/logs", nil)
	replay("GET /api/workflows/{workflowId}/runs/{runId}/worker-logs", nil)
	replay("GET /api/workflows/{workflowId}/runs/{runId}/steps/{nodeId}/output", nil)
	replay("GET /api/workflows/{workflowId}/trigger-secret", nil)
	replay("GET /api/deployments", nil)
	replay("GET /api/workflows/{workflowId}/deployments", nil)
	replay("GET /api/runs", nil)
	replay("GET /api/workflows/{workflowId}/runs", nil)
	restarted := replay("POST /api/workflows/{workflowId}/runs/{runId}/restart", nil).str("id")
	s.waitStatus(wf, restarted, "complete", 60*time.Second)
	replayed := replay("POST /api/workflows/{workflowId}/runs/{runId}/replay", nil).str("id")
	s.waitStatus(wf, replayed, "complete", 60*time.Second)
	// No refresher runs here, so the job stays running until cancelled.
	ids[ex["bulk"]] = replay("POST /api/runs/bulk", nil).str("id")
	replay("GET /api/runs/bulk/{bulkId}", nil)
	replay("DELETE /api/runs/bulk/{bulkId}", nil)

	// The resources the run wrote, found as a client would.
	var namespaces struct {
		Data []struct{ ID, Title string } `json:"data"`
	}
	replay("GET /api/resources/kv/namespaces", nil).into(&namespaces)
	var databases struct {
		Data []struct{ ID, Name string } `json:"data"`
	}
	replay("GET /api/resources/d1/databases", nil).into(&databases)
	var buckets struct {
		Data []struct{ Name string } `json:"data"`
	}
	replay("GET /api/resources/r2/buckets", nil).into(&buckets)
	mark := strings.ReplaceAll(s.projID, "_", "-")
	for _, n := range namespaces.Data {
		if strings.Contains(n.Title, mark) {
			ids[ex["namespace"]] = n.ID
		}
	}
	for _, d := range databases.Data {
		if strings.Contains(d.Name, mark) {
			ids[ex["database"]] = d.ID
		}
	}
	bucket := ""
	for _, b := range buckets.Data {
		if strings.Contains(b.Name, mark) {
			bucket = b.Name
		}
	}
	if ids[ex["namespace"]] == "" || ids[ex["database"]] == "" || bucket == "" {
		t.Fatalf("the run's resources are not listed: %+v %+v %+v", namespaces, databases, buckets)
	}
	replay("GET /api/resources/kv/namespaces/{namespaceId}/keys", nil)
	replay("GET /api/resources/kv/namespaces/{namespaceId}/values/{key...}", map[string]string{"order:A-1001": url.PathEscape("order:A-1001")})
	replay("POST /api/resources/d1/databases/{databaseId}/query", nil)
	replay("GET /api/resources/r2/buckets/{bucketName}/objects", map[string]string{"/invoices/": "/" + bucket + "/"})
	replay("GET /api/resources/r2/buckets/{bucketName}/objects/{key...}", map[string]string{"/invoices/": "/" + bucket + "/"})
	replay("POST /api/connections/verify-token", map[string]string{api.ExampleCloudflareToken: shared.edge.Token()})

	// A function for the invoke example.
	sum := step("sum", "return { sum: event.payload.a + event.payload.b };")
	sum["name"] = "EXPORT_result"
	fn, _ := s.workflow("Adder", "script", script("Adder", sum))
	s.deploy(fn)
	replay("POST /api/workflows/{workflowId}/invoke", map[string]string{ex["workflow"]: fn})

	// Run control on a run that is still going.
	long, _ := s.workflow("Long", "workflow", chain("Long",
		step("load", "console.log('loading order A-1001'); return { id: 'A-1001', total: 42 };"),
		step("second", "await new Promise((resolve) => setTimeout(resolve, 5000)); return 2;"),
		step("last", "await new Promise((resolve) => setTimeout(resolve, 10000)); return 1;")))
	s.deploy(long)
	id := s.trigger(long, map[string]any{"orderId": "A-1001"})
	// Pause while the second step runs, so that the first step, which the
	// examples show, has finished whatever the machine's speed. The first
	// step returns at once: every deploy of the package's other tests
	// restarts the shared edge's workerd, and a step in progress at a
	// restart runs again from its start, so under load a step that takes
	// seconds can be cut off again and again.
	s.waitRun(long, id, 30*time.Second, "first step finished", func(r run) bool { return len(r.Steps) > 0 && r.Steps[0].EndedAt != nil })
	control := map[string]string{ex["workflow"]: long, ex["run"]: id}
	replay("POST /api/workflows/{workflowId}/runs/{runId}/pause", control)
	s.waitRun(long, id, 30*time.Second, "manually paused", func(r run) bool { return r.Status == "paused" && r.StatusDetail == "paused" })
	replay("POST /api/workflows/{workflowId}/runs/{runId}/resume", control)
	replay("POST /api/workflows/{workflowId}/runs/{runId}/terminate", control)

	replay("POST /api/workflows/{workflowId}/takedown", nil)
}
