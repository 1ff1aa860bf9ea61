package api_test

import (
	"strings"
	"testing"
)

// runIDsOf returns the ids of a run list answer ({data: [Run]}).
func runIDsOf(t *testing.T, r response) []string {
	t.Helper()
	var out []string
	data, _ := r.json(t)["data"].([]any)
	for _, it := range data {
		m, _ := it.(map[string]any)
		id, _ := m["id"].(string)
		out = append(out, id)
	}
	return out
}

// TestDeleteWorkflowKeepingRuns: DELETE /api/workflows/:id?runs=keep keeps
// the workflow's runs in the project: GET /api/runs lists and finds them
// (also by the deleted workflow's id), GET /api/runs/:runId answers them
// with the workflow's name. A bad runs value is refused, changing nothing.
func TestDeleteWorkflowKeepingRuns(t *testing.T) {
	t.Parallel()
	onBothEngines(t, worldOptions{}, testDeleteWorkflowKeepingRuns)
}

func testDeleteWorkflowKeepingRuns(t *testing.T, w *world) {
	a := w.a
	runID := w.fixtureRun(a)

	r := w.must(422, "DELETE", "/api/workflows/"+a.workflowID+"?runs=archive", "", a.keyAll)
	if !strings.Contains(string(r.body), `"?runs"`) {
		t.Errorf("refusal does not name ?runs: %s", r.body)
	}
	w.must(200, "GET", "/api/workflows/"+a.workflowID, "", a.keyAll)

	w.must(204, "DELETE", "/api/workflows/"+a.workflowID+"?runs=keep", "", a.keyAll)
	w.must(404, "GET", "/api/workflows/"+a.workflowID, "", a.keyAll)
	for _, c := range []cred{a.keyRead, a.session} {
		got := w.must(200, "GET", "/api/runs/"+runID, "", c).json(t)
		dw, _ := got["deletedWorkflow"].(map[string]any)
		if got["id"] != runID || got["status"] != "complete" || dw["name"] != "Orders" || dw["deletedAt"] == nil {
			t.Errorf("kept run = %v", got)
		}
	}
	for _, q := range []string{"", "?workflowId=" + a.workflowID, "?q=A-1001", "?status=complete&q=sent"} {
		if ids := runIDsOf(t, w.must(200, "GET", "/api/runs"+q, "", a.keyRead)); len(ids) != 1 || ids[0] != runID {
			t.Errorf("GET /api/runs%s = %v, want the kept run", q, ids)
		}
	}
	// The run's workflow is gone: the routes under it answer 404.
	w.must(404, "GET", "/api/workflows/"+a.workflowID+"/runs/"+runID, "", a.keyAll)
}

// TestDeleteWorkflowWithRuns: the default (and ?runs=delete) deletes the
// runs, with their steps and outputs, together with the workflow.
func TestDeleteWorkflowWithRuns(t *testing.T) {
	t.Parallel()
	onBothEngines(t, worldOptions{}, testDeleteWorkflowWithRuns)
}

func testDeleteWorkflowWithRuns(t *testing.T, w *world) {
	for _, q := range []string{"", "?runs=delete"} {
		w.a.workflowID = w.must(201, "POST", "/api/workflows", `{"name":"Orders","description":"d"}`, w.a.keyAll).str(t, "id")
		w.a.versionID = w.submitVersion(w.a, w.a.workflowID, minimalIR)
		w.a.runID = ""
		runID := w.fixtureRun(w.a)
		w.must(200, "GET", "/api/runs/"+runID, "", w.a.keyAll)
		w.must(204, "DELETE", "/api/workflows/"+w.a.workflowID+q, "", w.a.keyAll)
		w.must(404, "GET", "/api/runs/"+runID, "", w.a.keyAll)
		if ids := runIDsOf(t, w.must(200, "GET", "/api/runs?q=A-1001", "", w.a.keyAll)); len(ids) != 0 {
			t.Errorf("DELETE%s: runs still found: %v", q, ids)
		}
		w.must(404, "GET", "/api/runs?workflowId="+w.a.workflowID, "", w.a.keyAll)
	}
}

// TestKeptRunsStayInTheirProject (attack): another organization, and
// another project of the same organization, cannot read, list or find a
// run kept after its workflow was deleted — by its id, by the deleted
// workflow's id or by its words; the twin request by the project answers
// the run.
func TestKeptRunsStayInTheirProject(t *testing.T) {
	t.Parallel()
	onBothEngines(t, worldOptions{}, testKeptRunsStayInTheirProject)
}

func testKeptRunsStayInTheirProject(t *testing.T, w *world) {
	a, b := w.a, w.b
	runID := w.fixtureRun(a)
	w.must(204, "DELETE", "/api/workflows/"+a.workflowID+"?runs=keep", "", a.keyAll)

	for name, c := range map[string]cred{"other organization's key": b.keyAll, "other organization's session": b.session,
		"other project's key": a.keyOtherProject} {
		r := w.do("GET", "/api/runs/"+runID, "", c)
		if r.status != 404 || strings.Contains(string(r.body), "A-1001") {
			t.Errorf("%s: GET /api/runs/:runId = %d %s", name, r.status, r.body)
		}
		r = w.do("GET", "/api/runs?workflowId="+a.workflowID, "", c)
		if r.status != 404 {
			t.Errorf("%s: GET /api/runs?workflowId= = %d %s", name, r.status, r.body)
		}
		if ids := runIDsOf(t, w.must(200, "GET", "/api/runs?q=A-1001", "", c)); len(ids) != 0 {
			t.Errorf("%s: finds the kept run: %v", name, ids)
		}
		w.must(404, "DELETE", "/api/workflows/"+a.workflowID+"?runs=delete", "", c)
	}
	// Twin: the project itself reads the run.
	if got := w.must(200, "GET", "/api/runs/"+runID, "", a.keyAll).str(t, "id"); got != runID {
		t.Errorf("twin: id = %q", got)
	}
}
