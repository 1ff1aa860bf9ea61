package e2e_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// edgeNames lists the names of the scripts and Workflows in an account of
// the shared edge, read with the edge's root token.
func edgeNames(t *testing.T, accountID string) []string {
	t.Helper()
	var names []string
	for _, path := range []string{"/workers/scripts", "/workflows"} {
		req, _ := http.NewRequest("GET", shared.edge.APIBaseURL()+"/accounts/"+accountID+path, nil)
		req.Header.Set("Authorization", "Bearer "+shared.edge.Token())
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("GET %s of account %s: %d %s", path, accountID, res.StatusCode, raw)
		}
		var body struct {
			Result []struct {
				ID   string `json:"id"`
				Name string `json:"name"`
			} `json:"result"`
		}
		json.Unmarshal(raw, &body)
		for _, r := range body.Result {
			names = append(names, r.ID+r.Name)
		}
	}
	return names
}

// TestVersionTestRun: POST …/versions/:versionId/test runs a version once on
// the local edge without a deployment, answers complete and errored runs
// alike, applies mocks and a timeout, refuses what it cannot run, and
// leaves no workflow, deployment, run, worker or Workflow behind.
func TestVersionTestRun(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	var conn struct {
		AccountID string `json:"accountId"`
	}
	// The organization's local account exists once a deploy or test used it.
	wf, ver := s.workflow("checkout", "workflow", chain("checkout",
		step("load", "return { total: Number(event.payload.total ?? 0) };"),
		step("charge", "if ({{load.total}} > 100) throw new Error('card declined for ' + {{load.total}}); return { charged: {{load.total}} };"),
		step("receipt", "console.log('receipt for', {{charge.charged}}); return { receipt: 'R-' + {{charge.charged}} };")))
	path := "/api/workflows/" + wf + "/versions/" + ver + "/test"

	var res struct {
		Status string          `json:"status"`
		Output json.RawMessage `json:"output"`
		Error  *string         `json:"error"`
		Steps  []struct {
			NodeID string          `json:"nodeId"`
			State  string          `json:"state"`
			Output json.RawMessage `json:"output"`
		} `json:"steps"`
		Logs []any `json:"logs"`
	}
	s.must(200, "POST", path, map[string]any{"params": map[string]any{"total": 42}}).into(&res)
	if res.Status != "complete" || res.Error != nil || len(res.Steps) != 3 || res.Logs == nil {
		t.Fatalf("complete test run: %+v", res)
	}
	jsonEqual(t, res.Output, `{"receipt":"R-42"}`)

	// An errored run is a 200 too, with the error and the failing step.
	res.Steps, res.Error = nil, nil
	s.must(200, "POST", path, map[string]any{"params": map[string]any{"total": 500}}).into(&res)
	if res.Status != "errored" || res.Error == nil || !strings.Contains(*res.Error, "card declined for 500") {
		t.Fatalf("errored test run: %+v", res)
	}
	if last := res.Steps[len(res.Steps)-1]; last.NodeID != "charge" || last.State != "errored" {
		t.Errorf("steps of the errored run: %+v", res.Steps)
	}

	// Mocks answer instead of the steps: the declined charge does not run.
	res.Steps, res.Error = nil, nil
	s.must(200, "POST", path, map[string]any{"params": map[string]any{"total": 500}, "mocks": map[string]any{"charge": map[string]any{"charged": 7}}}).into(&res)
	if res.Status != "complete" || len(res.Steps) != 3 || res.Steps[1].State != "mocked" {
		t.Fatalf("mocked test run: %+v", res)
	}
	jsonEqual(t, res.Output, `{"receipt":"R-7"}`)

	// A run that does not end in time is stopped.
	slow, slowVer := s.workflow("slow", "workflow", chain("slow",
		step("start", "return 1;"),
		node("nap", "sleep", "nap", map[string]any{"duration": "1 hour"})))
	res.Steps, res.Error = nil, nil
	s.must(200, "POST", "/api/workflows/"+slow+"/versions/"+slowVer+"/test", map[string]any{"timeoutSeconds": 2}).into(&res)
	if res.Status != "terminated" || res.Error == nil || !strings.Contains(*res.Error, "did not finish within 2s") {
		t.Fatalf("timed-out test run: %+v", res)
	}

	// Refusals, each before anything runs.
	wantError(t, s.do("POST", path, map[string]any{"mocks": map[string]any{"nowhere": 1}}), 422, "validation_failed")
	wantError(t, s.do("POST", path, map[string]any{"params": []int{1}}), 422, "validation_failed")
	wantError(t, s.do("POST", path, map[string]any{"timeoutSeconds": 601}), 422, "validation_failed")
	wantError(t, s.do("POST", path, map[string]any{"params": map[string]any{"__edgeflowReplay": map[string]any{"charge": 1}}}), 422, "validation_failed")
	wantError(t, s.do("POST", "/api/workflows/"+wf+"/versions/ver_nope/test", map[string]any{}), 404, "not_found")
	fn, fnVer := s.workflow("fn", "script", script("fn", step("a", "return 1;")))
	wantError(t, s.do("POST", "/api/workflows/"+fn+"/versions/"+fnVer+"/test", map[string]any{}), 400, "bad_request")
	// Another organization cannot test this version (not found), but can test its own.
	other := s.tenant("other-tester@example.com")
	wantError(t, other.do("POST", path, map[string]any{}), 404, "not_found")
	// Its organization has no connection at all: a test needs none.
	other.must(204, "DELETE", "/api/connections/"+other.conn, nil)
	owf, over := other.workflow("mine", "workflow", chain("mine", step("a", "return 'mine';")))
	other.must(200, "POST", "/api/workflows/"+owf+"/versions/"+over+"/test", map[string]any{}).into(&res)
	if res.Status != "complete" {
		t.Errorf("test run of an organization without connections: %+v", res)
	}

	// Nothing stays: no deployment, no run, no worker or Workflow on the edge.
	var list struct{ Data []any }
	s.must(200, "GET", "/api/deployments", nil).into(&list)
	if len(list.Data) != 0 {
		t.Errorf("deployments after tests: %v", list.Data)
	}
	s.must(200, "GET", "/api/runs", nil).into(&list)
	if len(list.Data) != 0 {
		t.Errorf("runs after tests: %v", list.Data)
	}
	s.must(200, "POST", "/api/workflows/"+wf+"/deploy", map[string]any{"connectionId": s.conn})
	stored, err := s.store.FindConnectionByID(context.Background(), s.orgID, s.conn)
	if err != nil {
		t.Fatal(err)
	}
	conn.AccountID = stored.AccountID
	if conn.AccountID == "" {
		t.Fatal("the local connection has no account")
	}
	names := edgeNames(t, conn.AccountID)
	if !strings.Contains(strings.Join(names, " "), "ef-wf-") {
		t.Errorf("the deployed workflow is not in the edge's list: %v", names)
	}
	for _, name := range names {
		if strings.Contains(name, "ef-test-") {
			t.Errorf("a test run's %s is still on the edge", name)
		}
	}
}
