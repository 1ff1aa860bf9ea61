package storetest

import (
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// testRunLogs: the logs kept with a run are stored, replaced and read back
// in order with their times; a run without any reads as no lines; they go
// with the run when it is pruned and when its workflow is deleted.
func testRunLogs(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	a := newTenant(t, s)
	w := newWorkflow(t, s, a.project.ID, "logs")
	r := &edgeflow.Run{WorkflowID: w.ID, Status: edgeflow.RunComplete}
	must(t, s.CreateRun(ctx, r))
	got, err := s.FindRunLogs(ctx, r.ID)
	must(t, err)
	if len(got.Lines) != 0 || got.Dropped != 0 {
		t.Fatalf("logs of a run without any = %+v", got)
	}
	t0 := time.Date(2026, 11, 27, 6, 40, 12, 201_000_000, time.UTC)
	first := edgeflow.RunLogs{Lines: []edgeflow.LogLine{
		{Timestamp: t0, Level: "log", Message: "loading order A-1001"},
		{Timestamp: t0.Add(time.Millisecond), Level: "error", Message: "TypeError: total is not a number — ünïcode"},
	}}
	must(t, s.PutRunLogs(ctx, r.ID, first))
	got, err = s.FindRunLogs(ctx, r.ID)
	must(t, err)
	if len(got.Lines) != 2 || got.Lines[1] != first.Lines[1] || !got.Lines[0].Timestamp.Equal(t0) {
		t.Fatalf("read back %+v, want %+v", got, first)
	}
	second := edgeflow.RunLogs{Lines: first.Lines[1:], Dropped: 1}
	must(t, s.PutRunLogs(ctx, r.ID, second))
	got, err = s.FindRunLogs(ctx, r.ID)
	must(t, err)
	if len(got.Lines) != 1 || got.Dropped != 1 {
		t.Fatalf("after replacing: %+v", got)
	}

	// Pruned with the run.
	must(t, s.SetRunRetention(ctx, a.org.ID, 1))
	if _, _, err := s.PruneRuns(ctx, time.Now().Add(48*time.Hour), 100); err != nil {
		t.Fatal(err)
	}
	got, err = s.FindRunLogs(ctx, r.ID)
	must(t, err)
	if len(got.Lines) != 0 {
		t.Fatalf("logs of a pruned run = %+v", got)
	}

	// Deleted with the workflow's runs.
	r2 := &edgeflow.Run{WorkflowID: w.ID, Status: edgeflow.RunRunning}
	must(t, s.CreateRun(ctx, r2))
	must(t, s.PutRunLogs(ctx, r2.ID, first))
	must(t, s.DeleteWorkflow(ctx, a.project.ID, w.ID))
	got, err = s.FindRunLogs(ctx, r2.ID)
	must(t, err)
	if len(got.Lines) != 0 {
		t.Fatalf("logs of a deleted workflow's run = %+v", got)
	}
}
