package storetest

import (
	"encoding/json"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// testDeleteWorkflowKeepingRuns: DELETE /api/workflows/:id?runs=keep at the
// store — the workflow, its versions and deployments go, its runs stay in
// the project (listed, searchable, found by id) with the workflow's name;
// the runs that were not final end as terminated; another project never sees
// them; deleting the project deletes them.
func testDeleteWorkflowKeepingRuns(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	a := newTenant(t, s)
	b := newTenant(t, s)
	w := newWorkflow(t, s, a.project.ID, "Invoices")
	other := newWorkflow(t, s, a.project.ID, "Other")
	v := newVersion(t, s, w.ID)
	done := &edgeflow.Run{WorkflowID: w.ID, VersionID: v.ID, Status: edgeflow.RunComplete,
		Params: json.RawMessage(`{"invoice":"INV-77"}`), Output: json.RawMessage(`{"sent":true}`)}
	must(t, s.CreateRun(ctx, done))
	running := &edgeflow.Run{WorkflowID: w.ID, VersionID: v.ID, Status: edgeflow.RunRunning}
	must(t, s.CreateRun(ctx, running))
	must(t, s.CreateRun(ctx, &edgeflow.Run{WorkflowID: other.ID}))

	must(t, s.DeleteWorkflowKeepingRuns(ctx, a.project.ID, w.ID))
	_, err := s.FindWorkflowByID(ctx, a.project.ID, w.ID)
	wantCode(t, "deleted workflow", err, edgeflow.ENotFound)
	vs, err := s.ListVersions(ctx, w.ID, edgeflow.ListOptions{})
	must(t, err)
	if len(vs.Items) != 0 {
		t.Errorf("versions of the deleted workflow: %d", len(vs.Items))
	}
	dw, err := s.FindDeletedWorkflow(ctx, a.project.ID, w.ID)
	must(t, err)
	if dw.Name != "Invoices" || dw.DeletedAt.IsZero() {
		t.Errorf("deleted workflow = %+v", dw)
	}
	_, err = s.FindDeletedWorkflow(ctx, b.project.ID, w.ID)
	wantCode(t, "deleted workflow in another project", err, edgeflow.ENotFound)

	got, err := s.FindRunInProject(ctx, a.project.ID, done.ID)
	must(t, err)
	if got.DeletedWorkflow == nil || got.DeletedWorkflow.Name != "Invoices" || got.Status != edgeflow.RunComplete ||
		string(got.Output) != `{"sent":true}` {
		t.Errorf("kept run = %+v (deleted workflow %+v)", got, got.DeletedWorkflow)
	}
	got, err = s.FindRunInProject(ctx, a.project.ID, running.ID)
	must(t, err)
	if got.Status != edgeflow.RunTerminated || got.StatusDetail != "the workflow was deleted" || got.EndedAt == nil ||
		got.NextRefreshAt != nil {
		t.Errorf("kept running run = %+v", got)
	}
	_, err = s.FindRunInProject(ctx, b.project.ID, done.ID)
	wantCode(t, "kept run from another project", err, edgeflow.ENotFound)

	list := func(f edgeflow.RunFilter) []edgeflow.Run {
		t.Helper()
		page, err := s.ListRuns(ctx, f, edgeflow.ListOptions{})
		must(t, err)
		return page.Items
	}
	runs := list(edgeflow.RunFilter{ProjectID: a.project.ID})
	if len(runs) != 3 {
		t.Fatalf("project runs after the delete: %d, want 3", len(runs))
	}
	for _, r := range runs {
		if (r.WorkflowID == w.ID) != (r.DeletedWorkflow != nil) {
			t.Errorf("run %s of %s: deleted workflow %+v", r.ID, r.WorkflowID, r.DeletedWorkflow)
		}
	}
	diff(t, "kept runs by workflow", ids(list(edgeflow.RunFilter{ProjectID: a.project.ID, WorkflowID: w.ID}),
		func(r edgeflow.Run) string { return r.ID }), []string{running.ID, done.ID})
	found := list(edgeflow.RunFilter{ProjectID: a.project.ID, Query: "INV-77"})
	if len(found) != 1 || found[0].ID != done.ID || found[0].DeletedWorkflow == nil {
		t.Errorf("search of kept runs: %+v", found)
	}
	if n := len(list(edgeflow.RunFilter{ProjectID: b.project.ID, Query: "INV-77"})); n != 0 {
		t.Errorf("another project finds %d kept runs", n)
	}
	// The other workflow's runs still go with it.
	must(t, s.DeleteWorkflow(ctx, a.project.ID, other.ID))
	diff(t, "runs after deleting the other workflow with its runs", ids(list(edgeflow.RunFilter{ProjectID: a.project.ID}),
		func(r edgeflow.Run) string { return r.ID }), []string{running.ID, done.ID})

	// Deleting the project deletes the kept runs and the name.
	must(t, s.DeleteProject(ctx, a.org.ID, a.project.ID))
	_, err = s.FindRunInProject(ctx, a.project.ID, done.ID)
	wantCode(t, "kept run of a deleted project", err, edgeflow.ENotFound)
	_, err = s.FindDeletedWorkflow(ctx, a.project.ID, w.ID)
	wantCode(t, "deleted workflow of a deleted project", err, edgeflow.ENotFound)
}

// testRunsCreationOrder: a word search pages through its matches newest
// first with no run lost or repeated, in the order of the project's list.
func testRunsCreationOrder(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	a := newTenant(t, s)
	w := newWorkflow(t, s, a.project.ID, "w")
	var made []edgeflow.Run
	for i := range 7 {
		r := &edgeflow.Run{WorkflowID: w.ID, Params: json.RawMessage(`{"tag":"bulk","i":` + string(rune('0'+i)) + `}`)}
		must(t, s.CreateRun(ctx, r))
		made = append(made, *r)
	}
	want := ids(byTime(true, runKey, made...), func(r edgeflow.Run) string { return r.ID })
	got := walk(t, func(o edgeflow.ListOptions) (edgeflow.Page[edgeflow.Run], error) {
		return s.ListRuns(ctx, edgeflow.RunFilter{ProjectID: a.project.ID, Query: "bulk"}, o)
	}, 2, func(r edgeflow.Run) string { return r.ID })
	diff(t, "word search across pages", got, want)
	all := walk(t, func(o edgeflow.ListOptions) (edgeflow.Page[edgeflow.Run], error) {
		return s.ListRuns(ctx, edgeflow.RunFilter{ProjectID: a.project.ID}, o)
	}, 3, func(r edgeflow.Run) string { return r.ID })
	diff(t, "project runs across pages", all, want)

}

// testDeleteWorkflowWithManyRuns: deleting a workflow deletes its runs
// however many there are (the store deletes them in batches), and only its
// own: the other workflow's runs stay.
func testDeleteWorkflowWithManyRuns(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	a := newTenant(t, s)
	w := newWorkflow(t, s, a.project.ID, "many")
	other := newWorkflow(t, s, a.project.ID, "other")
	const n = 2_050 // more than one batch
	for range n {
		must(t, s.CreateRun(ctx, &edgeflow.Run{WorkflowID: w.ID}))
	}
	kept := &edgeflow.Run{WorkflowID: other.ID}
	must(t, s.CreateRun(ctx, kept))
	must(t, s.DeleteWorkflow(ctx, a.project.ID, w.ID))
	page, err := s.ListRuns(ctx, edgeflow.RunFilter{ProjectID: a.project.ID}, edgeflow.ListOptions{})
	must(t, err)
	diff(t, "runs after the delete", ids(page.Items, func(r edgeflow.Run) string { return r.ID }), []string{kept.ID})
	_, err = s.FindWorkflowByID(ctx, a.project.ID, w.ID)
	wantCode(t, "the deleted workflow", err, edgeflow.ENotFound)
}
