package api_test

import (
	"context"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// TestRunUsage: GET /api/runs/usage sums the token usage of the runs the
// run search's filters select, per workflow; bad filters are refused with
// the field at fault.
func TestRunUsage(t *testing.T) {
	t.Parallel()
	onBothEngines(t, worldOptions{}, testRunUsage)
}

// usageRun stores a complete run of the tenant's workflow that spent
// tokens.
func (w *world) usageRun(tn *tenant, in, out int64) {
	ctx := context.Background()
	run := &edgeflow.Run{WorkflowID: tn.workflowID, VersionID: tn.versionID, Status: edgeflow.RunQueued}
	if err := w.store.CreateRun(ctx, run); err != nil {
		w.t.Fatal(err)
	}
	run.Status, run.Usage = edgeflow.RunComplete, &edgeflow.TokenUsage{InputTokens: in, OutputTokens: out}
	if err := w.store.UpdateRun(ctx, run); err != nil {
		w.t.Fatal(err)
	}
}

func testRunUsage(t *testing.T, w *world) {
	a := w.a
	w.usageRun(a, 120, 30)
	w.usageRun(a, 80, 20)
	w.fixtureRun(a) // no model calls
	for _, c := range []cred{a.keyRead, a.session} {
		got := w.must(200, "GET", "/api/runs/usage?workflowId="+a.workflowID, "", c).json(t)
		wf, _ := got["workflows"].([]any)
		first, _ := wf[0].(map[string]any)
		if got["inputTokens"] != 200.0 || got["outputTokens"] != 50.0 || got["runs"] != 2.0 || got["partial"] != false ||
			len(wf) != 1 || first["workflowId"] != a.workflowID || first["workflowName"] != "Orders" {
			t.Errorf("usage = %v", got)
		}
	}
	for q, field := range map[string]string{"status=done": "?status", "from=yesterday": "?from", "q=" + strings.Repeat("x", 201): "?q",
		"from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z": "?to"} {
		if r := w.must(422, "GET", "/api/runs/usage?"+q, "", a.keyRead); !strings.Contains(string(r.body), `"`+field+`"`) {
			t.Errorf("?%s: the refusal does not name %s: %s", q, field, r.body)
		}
	}
}

// TestRunUsageStaysInItsProject (attack): another organization, and another
// project of the same organization, get no sum of the project's runs — by
// the workflow's id it is not found, without it they sum their own (none);
// the twin request by the project answers its tokens.
func TestRunUsageStaysInItsProject(t *testing.T) {
	t.Parallel()
	onBothEngines(t, worldOptions{}, testRunUsageStaysInItsProject)
}

func testRunUsageStaysInItsProject(t *testing.T, w *world) {
	a, b := w.a, w.b
	w.usageRun(a, 120, 30)
	for name, c := range map[string]cred{"other organization's key": b.keyAll, "other organization's session": b.session,
		"other project's key": a.keyOtherProject} {
		if r := w.do("GET", "/api/runs/usage?workflowId="+a.workflowID, "", c); r.status != 404 {
			t.Errorf("%s: GET /api/runs/usage?workflowId= = %d %s", name, r.status, r.body)
		}
		if got := w.must(200, "GET", "/api/runs/usage", "", c).json(t); got["inputTokens"] != 0.0 || got["runs"] != 0.0 {
			t.Errorf("%s: sums the project's runs: %v", name, got)
		}
	}
	if got := w.must(200, "GET", "/api/runs/usage", "", a.keyRead).json(t); got["inputTokens"] != 120.0 {
		t.Errorf("twin: %v", got)
	}
}
