package storetest

import (
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
	mk := func(w *edgeflow.Workflow, status string) string {
		r := &edgeflow.Run{WorkflowID: w.ID, Status: status}
		must(t, s.CreateRun(ctx, r))
		return r.ID
	}
	// Runs are created now; pruning "now + N days" makes them N days old.
	aOld := []string{mk(wa, edgeflow.RunComplete), mk(wa, edgeflow.RunErrored), mk(wa, edgeflow.RunTerminated)}
	aRunning := mk(wa, edgeflow.RunRunning)
	bDone := mk(wb, edgeflow.RunComplete)
	bPaused := mk(wb, edgeflow.RunPaused)

	n, err := s.PruneRuns(ctx, time.Now().Add(30*24*time.Hour), 100)
	must(t, err)
	if n != 1 {
		t.Fatalf("pruned %d runs 30 days on, want 1 (B's finished run)", n)
	}
	_, err = s.FindRunByID(ctx, wb.ID, bDone)
	wantCode(t, "B's old finished run", err, edgeflow.ENotFound)
	for _, id := range append([]string{aRunning}, aOld...) {
		_, err := s.FindRunByID(ctx, wa.ID, id)
		must(t, err)
	}

	later := time.Now().Add(100 * 24 * time.Hour)
	n, err = s.PruneRuns(ctx, later, 2)
	must(t, err)
	if n != 2 {
		t.Fatalf("first batch pruned %d, want 2", n)
	}
	n, err = s.PruneRuns(ctx, later, 2)
	must(t, err)
	if n != 1 {
		t.Fatalf("second batch pruned %d, want 1", n)
	}
	n, err = s.PruneRuns(ctx, later, 2)
	must(t, err)
	if n != 0 {
		t.Fatalf("third batch pruned %d, want 0", n)
	}
	for _, c := range []struct{ w, id string }{{wa.ID, aRunning}, {wb.ID, bPaused}} {
		if _, err := s.FindRunByID(ctx, c.w, c.id); err != nil {
			t.Errorf("a run not final was pruned: %v", err)
		}
	}
}
