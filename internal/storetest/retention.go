package storetest

import (
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// testRunRetention: retention defaults to 90 days and is set per
// organization; pruning deletes final runs older than their organization's
// retention, in batches of at most limit, and nothing else.
func testRunRetention(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	a := newTenant(t, s)
	b := newTenant(t, s)
	days, err := s.FindRunRetention(ctx, a.org.ID)
	must(t, err)
	if days != 90 {
		t.Fatalf("default retention = %d days, want 90", days)
	}
	must(t, s.SetRunRetention(ctx, b.org.ID, 7))
	days, err = s.FindRunRetention(ctx, b.org.ID)
	must(t, err)
	if days != 7 {
		t.Fatalf("retention = %d days, want 7", days)
	}
	_, err = s.FindRunRetention(ctx, "org_missing")
	wantCode(t, "unknown organization", err, edgeflow.ENotFound)
	wantCode(t, "set for unknown organization", s.SetRunRetention(ctx, "org_missing", 3), edgeflow.ENotFound)

	wa := newWorkflow(t, s, a.project.ID, "w")
	wb := newWorkflow(t, s, b.project.ID, "w")
	mk := func(w *edgeflow.Workflow, status, instance string) string {
		r := &edgeflow.Run{WorkflowID: w.ID, Status: status}
		if instance != "" {
			r.ConnectionID, r.WorkflowName, r.InstanceID = "conn_"+w.ProjectID, "wf-"+w.Name, instance
		}
		must(t, s.CreateRun(ctx, r))
		return r.ID
	}
	// Runs are created now; pruning "now + N days" makes them N days old.
	// The errored one never reached the provider (no instance).
	aOld := []string{mk(wa, edgeflow.RunComplete, "a-1"), mk(wa, edgeflow.RunErrored, ""), mk(wa, edgeflow.RunTerminated, "a-3")}
	aRunning := mk(wa, edgeflow.RunRunning, "a-4")
	bDone := mk(wb, edgeflow.RunComplete, "b-1")
	bPaused := mk(wb, edgeflow.RunPaused, "b-2")

	n, instances, err := s.PruneRuns(ctx, time.Now().Add(30*24*time.Hour), 100)
	must(t, err)
	if n != 1 {
		t.Fatalf("pruned %d runs 30 days on, want 1 (B's finished run)", n)
	}
	want := []edgeflow.RunInstance{{OrganizationID: b.org.ID, ConnectionID: "conn_" + b.project.ID, WorkflowName: "wf-w", InstanceID: "b-1"}}
	if !reflect.DeepEqual(instances, want) {
		t.Fatalf("pruned instances = %+v, want %+v", instances, want)
	}
	_, err = s.FindRunByID(ctx, wb.ID, bDone)
	wantCode(t, "B's old finished run", err, edgeflow.ENotFound)
	for _, id := range append([]string{aRunning}, aOld...) {
		_, err := s.FindRunByID(ctx, wa.ID, id)
		must(t, err)
	}

	later := time.Now().Add(100 * 24 * time.Hour)
	var all []string
	for i, wantN := range []int{2, 1, 0} {
		n, instances, err = s.PruneRuns(ctx, later, 2)
		must(t, err)
		if n != wantN {
			t.Fatalf("batch %d pruned %d, want %d", i+1, n, wantN)
		}
		for _, ri := range instances {
			if ri.OrganizationID != a.org.ID || ri.ConnectionID != "conn_"+a.project.ID || ri.WorkflowName != "wf-w" {
				t.Fatalf("pruned instance %+v, want one of A's workflow", ri)
			}
			all = append(all, ri.InstanceID)
		}
	}
	sort.Strings(all)
	if !reflect.DeepEqual(all, []string{"a-1", "a-3"}) {
		t.Fatalf("instances of A's pruned runs = %v, want [a-1 a-3] (the errored run had none)", all)
	}
	for _, c := range []struct{ w, id string }{{wa.ID, aRunning}, {wb.ID, bPaused}} {
		if _, err := s.FindRunByID(ctx, c.w, c.id); err != nil {
			t.Errorf("a run not final was pruned: %v", err)
		}
	}
}
