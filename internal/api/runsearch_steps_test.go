package api_test

import (
	"context"
	"encoding/json"
	"net/url"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// stepsRun stores a complete run of tenant tn's workflow with steps as the
// refresher records them (created, then updated with the provider's step
// list), and returns its id.
func (w *world) stepsRun(tn *tenant, steps string) string {
	w.t.Helper()
	ctx := context.Background()
	run := &edgeflow.Run{WorkflowID: tn.workflowID, VersionID: tn.versionID, Status: edgeflow.RunRunning,
		Params: json.RawMessage(`{"orderId":"B-1"}`)}
	if err := w.store.CreateRun(ctx, run); err != nil {
		w.t.Fatal(err)
	}
	run.Status, run.Steps = edgeflow.RunComplete, json.RawMessage(steps)
	if err := w.store.UpdateRun(ctx, run); err != nil {
		w.t.Fatal(err)
	}
	return run.ID
}

// TestRunSearchFindsStepOutputs: GET /api/runs?q= and GET
// /api/workflows/:id/runs?q= find a run by the words of its step outputs
// and of the event payload its waitForEvent step received, together with
// its params; never by a sensitive step's output.
func TestRunSearchFindsStepOutputs(t *testing.T) {
	t.Parallel()
	onBothEngines(t, worldOptions{}, testRunSearchFindsStepOutputs)
}

func testRunSearchFindsStepOutputs(t *testing.T, w *world) {
	a := w.a
	runID := w.stepsRun(a, `[{"name":"ship","type":"step","success":true,"output":{"tracking":"TRK-5521","carrier":"Zephyr"}},
		{"name":"approval","type":"waitForEvent","finished":true,"output":{"type":"approval","payload":{"approvedBy":"marguerite"}}},
		{"name":"token","type":"step","success":true,"config":{"sensitive":"output"},"output":"[REDACTED]"},
		{"name":"card","type":"step","success":true,"config":{"sensitive":"output"},"output":{"pan":"sekritcardvalue"}}]`)
	for _, q := range []string{"zephyr", "TRK-5521", "Marguerite", "B-1 zephyr marguerite"} {
		for _, path := range []string{"/api/runs", "/api/workflows/" + a.workflowID + "/runs"} {
			if ids := runIDsOf(t, w.must(200, "GET", path+"?q="+url.QueryEscape(q), "", a.keyRead)); len(ids) != 1 || ids[0] != runID {
				t.Errorf("GET %s?q=%s = %v, want the run", path, q, ids)
			}
		}
	}
	for _, q := range []string{"sekritcardvalue", "REDACTED", "zephyr nobody"} {
		if ids := runIDsOf(t, w.must(200, "GET", "/api/runs?q="+url.QueryEscape(q), "", a.keyRead)); len(ids) != 0 {
			t.Errorf("GET /api/runs?q=%s = %v, want none", q, ids)
		}
	}
}

// TestRunSearchStepWordsStayInTheirOrganization (attack): another
// organization searching for the words of a run's step output or event
// payload finds nothing, with a key or a session, on either runs list;
// the twin search by the run's own project finds it.
func TestRunSearchStepWordsStayInTheirOrganization(t *testing.T) {
	t.Parallel()
	onBothEngines(t, worldOptions{}, testRunSearchStepWordsStayInTheirOrganization)
}

func testRunSearchStepWordsStayInTheirOrganization(t *testing.T, w *world) {
	a, b := w.a, w.b
	runID := w.stepsRun(a, `[{"name":"s","type":"step","output":{"note":"quokkasecretword"}},
		{"name":"e","type":"waitForEvent","output":{"payload":{"code":"wombatpayload"}}}]`)
	w.fixtureRun(b) // the other organization has runs of its own
	for _, q := range []string{"quokkasecretword", "wombatpayload"} {
		for name, c := range map[string]cred{"other organization's key": b.keyAll, "other organization's session": b.session,
			"other project's key": a.keyOtherProject} {
			if ids := runIDsOf(t, w.must(200, "GET", "/api/runs?q="+q, "", c)); len(ids) != 0 {
				t.Errorf("%s: GET /api/runs?q=%s = %v", name, q, ids)
			}
		}
		if ids := runIDsOf(t, w.must(200, "GET", "/api/workflows/"+b.workflowID+"/runs?q="+q, "", b.keyAll)); len(ids) != 0 {
			t.Errorf("other organization: GET its own workflow's runs?q=%s = %v", q, ids)
		}
		// The other organization naming the run's workflow is refused.
		w.must(404, "GET", "/api/workflows/"+a.workflowID+"/runs?q="+q, "", b.keyAll)
		// Twin: the project finds its run.
		if ids := runIDsOf(t, w.must(200, "GET", "/api/runs?q="+q, "", a.keyRead)); len(ids) != 1 || ids[0] != runID {
			t.Errorf("twin: GET /api/runs?q=%s = %v", q, ids)
		}
	}
}
