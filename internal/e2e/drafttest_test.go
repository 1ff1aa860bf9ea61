package e2e_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestDraftTestRun: POST /api/workflows/:id/test runs the editor's IR
// without saving it, and the workflow's pinned outputs answer for their
// nodes (mocks win over them, usePinned false leaves them out, a pin of a
// node the IR lacks is ignored). A deployment of the workflow never carries
// a pinned value: neither the stored version's code nor the worker the edge
// runs holds it.
func TestDraftTestRun(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	saved := chain("checkout",
		step("load", "return { total: Number(event.payload.total ?? 0) };"),
		step("charge", "if ({{load.total}} > 100) throw new Error('card declined for ' + {{load.total}}); return { charged: {{load.total}} };"),
		step("receipt", "return { receipt: 'R-' + {{charge.charged}} };"))
	wf, ver := s.workflow("checkout", "workflow", saved)
	// The editor's IR, not saved: the receipt reads differently.
	draft := chain("checkout",
		step("load", "return { total: Number(event.payload.total ?? 0) };"),
		step("charge", "if ({{load.total}} > 100) throw new Error('card declined for ' + {{load.total}}); return { charged: {{load.total}} };"),
		step("receipt", "return { receipt: 'DRAFT-' + {{charge.charged}} };"))
	path := "/api/workflows/" + wf + "/test"
	type result struct {
		Status string          `json:"status"`
		Output json.RawMessage `json:"output"`
		Error  *string         `json:"error"`
		Steps  []struct {
			NodeID string `json:"nodeId"`
			State  string `json:"state"`
		} `json:"steps"`
		Pinned []string `json:"pinned"`
	}
	var res result
	s.must(200, "POST", path, map[string]any{"ir": draft, "params": map[string]any{"total": 42}}).into(&res)
	if res.Status != "complete" || len(res.Steps) != 3 || len(res.Pinned) != 0 {
		t.Fatalf("draft test run: %+v", res)
	}
	jsonEqual(t, res.Output, `{"receipt":"DRAFT-42"}`)

	const marker = "PINNED-7f3c9"
	s.must(200, "PUT", "/api/workflows/"+wf+"/pinned-outputs", map[string]any{"outputs": map[string]any{
		"charge": map[string]any{"charged": marker}, "gone": "a node the IR no longer has"}})
	// The declined charge does not run: its pin answers.
	res = result{}
	s.must(200, "POST", path, map[string]any{"ir": draft, "params": map[string]any{"total": 500}}).into(&res)
	if res.Status != "complete" || len(res.Pinned) != 1 || res.Pinned[0] != "charge" || res.Steps[1].State != "mocked" {
		t.Fatalf("test run with a pinned output: %+v", res)
	}
	jsonEqual(t, res.Output, `{"receipt":"DRAFT-`+marker+`"}`)
	// A mock wins over the pin.
	res = result{}
	s.must(200, "POST", path, map[string]any{"ir": draft, "params": map[string]any{"total": 500},
		"mocks": map[string]any{"charge": map[string]any{"charged": 9}}}).into(&res)
	if res.Status != "complete" || len(res.Pinned) != 0 {
		t.Fatalf("test run with a mock over a pin: %+v", res)
	}
	jsonEqual(t, res.Output, `{"receipt":"DRAFT-9"}`)
	// Without the pins the charge runs, and is declined.
	res = result{}
	s.must(200, "POST", path, map[string]any{"ir": draft, "params": map[string]any{"total": 500}, "usePinned": false}).into(&res)
	if res.Status != "errored" || res.Error == nil || !strings.Contains(*res.Error, "card declined for 500") {
		t.Fatalf("test run without pins: %+v", res)
	}
	// Nothing of the tests was stored as a version.
	var versions struct{ Data []any }
	s.must(200, "GET", "/api/workflows/"+wf+"/versions", nil).into(&versions)
	if len(versions.Data) != 1 {
		t.Errorf("versions after draft tests: %d", len(versions.Data))
	}

	// A deployment never carries a pin: not in the version's code, not in
	// the worker the edge runs.
	var detail struct {
		Code string `json:"code"`
	}
	s.must(200, "GET", "/api/workflows/"+wf+"/versions/"+ver, nil).into(&detail)
	if detail.Code == "" || strings.Contains(detail.Code, marker) {
		t.Errorf("the version's code holds the pinned value (or is empty: %d bytes)", len(detail.Code))
	}
	var dep struct {
		ScriptName string `json:"scriptName"`
	}
	s.must(200, "POST", "/api/workflows/"+wf+"/deploy", map[string]any{"connectionId": s.conn}).into(&dep)
	conn, err := s.store.FindConnectionByID(context.Background(), s.orgID, s.conn)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", shared.edge.APIBaseURL()+"/accounts/"+conn.AccountID+"/workers/scripts/"+dep.ScriptName+"/content/v2", nil)
	req.Header.Set("Authorization", "Bearer "+shared.edge.Token())
	hr, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	code, _ := io.ReadAll(hr.Body)
	hr.Body.Close()
	if hr.StatusCode != 200 || !strings.Contains(string(code), "card declined for ") {
		t.Fatalf("the deployed worker's code: %d %.300s", hr.StatusCode, code)
	}
	if strings.Contains(string(code), marker) {
		t.Error("the deployed worker's code holds the pinned value")
	}
	// A run of the deployment runs the charge: declined, as the code says.
	runID := s.must(201, "POST", "/api/workflows/"+wf+"/trigger", map[string]any{"connectionId": s.conn, "params": map[string]any{"total": 500}}).str("id")
	s.waitStatus(wf, runID, "errored", 60*time.Second)
}
