package storetest

import (
	"slices"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// testBulkJobs: a bulk job is stored with its run ids and read back by its
// project only; one claim holds it until its lease ends (a second claim
// meanwhile gets nothing, one after the lease gets it again); progress is
// saved while it runs and refused once it is cancelled; DeleteRuns deletes
// only the project's final runs among the ids, answering their instances;
// an audit entry keeps its details.
func testBulkJobs(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	a := newTenant(t, s)
	other := newTenant(t, s)
	from := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	j := &edgeflow.BulkJob{ID: edgeflow.NewID(edgeflow.PrefixBulkJob), OrganizationID: a.org.ID, ProjectID: a.project.ID,
		Action: edgeflow.BulkRestart, Filter: edgeflow.BulkFilter{Status: edgeflow.RunErrored, From: &from, Q: "A-1001"},
		FromStep: "check", Version: "same", State: edgeflow.BulkRunning, Matched: 3, RunIDs: []string{"run_a", "run_b", "run_c"},
		Actor: edgeflow.AuditActor{Type: "key", ID: "key_1"}, RequestID: "req-1"}
	must(t, s.CreateBulkJob(ctx, j))
	got, err := s.FindBulkJob(ctx, a.project.ID, j.ID)
	must(t, err)
	if got.Action != j.Action || got.Filter.Q != "A-1001" || !got.Filter.From.Equal(from) || !slices.Equal(got.RunIDs, j.RunIDs) ||
		got.Matched != 3 || got.State != edgeflow.BulkRunning || got.Actor != j.Actor || got.RequestID != "req-1" || got.OrganizationID != a.org.ID {
		t.Fatalf("read back %+v", got)
	}
	if _, err := s.FindBulkJob(ctx, other.project.ID, j.ID); !edgeflow.IsNotFound(err) {
		t.Fatalf("another project's read: %v", err)
	}

	now := time.Now()
	c, err := s.ClaimBulkJob(ctx, now, now.Add(time.Minute))
	must(t, err)
	if c == nil || c.ID != j.ID {
		t.Fatalf("claim = %+v", c)
	}
	if c2, err := s.ClaimBulkJob(ctx, now.Add(time.Second), now.Add(time.Minute)); err != nil || c2 != nil {
		t.Fatalf("a second claim within the lease = %+v, %v", c2, err)
	}
	c.Done, c.Next, c.FailedCount = 2, 2, 1
	c.Failed = []edgeflow.BulkFailure{{RunID: "run_b", Error: "not deployed"}}
	ok, err := s.SaveBulkJobProgress(ctx, c)
	must(t, err)
	if !ok {
		t.Fatal("progress of a running job not saved")
	}
	c3, err := s.ClaimBulkJob(ctx, now.Add(2*time.Minute), now.Add(3*time.Minute))
	must(t, err)
	if c3 == nil || c3.Next != 2 || c3.Done != 2 || len(c3.Failed) != 1 || c3.Failed[0].RunID != "run_b" {
		t.Fatalf("a claim after the lease = %+v", c3)
	}
	cancelled, err := s.CancelBulkJob(ctx, a.project.ID, j.ID, now)
	must(t, err)
	if cancelled.State != edgeflow.BulkCancelled || cancelled.EndedAt == nil {
		t.Fatalf("cancelled = %+v", cancelled)
	}
	c3.Done, c3.State = 3, edgeflow.BulkComplete
	if ok, err := s.SaveBulkJobProgress(ctx, c3); err != nil || ok {
		t.Fatalf("progress of a cancelled job: running %v, %v", ok, err)
	}
	if got, err := s.FindBulkJob(ctx, a.project.ID, j.ID); err != nil || got.State != edgeflow.BulkCancelled || got.Done != 3 {
		t.Fatalf("a cancelled job's last batch: %+v %v", got, err)
	}
	if c4, err := s.ClaimBulkJob(ctx, now.Add(time.Hour), now.Add(2*time.Hour)); err != nil || c4 != nil {
		t.Fatalf("a cancelled job claimed: %+v %v", c4, err)
	}

	w := newWorkflow(t, s, a.project.ID, "bulk")
	done := &edgeflow.Run{WorkflowID: w.ID, Status: edgeflow.RunErrored, ConnectionID: "con_1", WorkflowName: "wf-x", InstanceID: "i-1"}
	live := &edgeflow.Run{WorkflowID: w.ID, Status: edgeflow.RunRunning}
	must(t, s.CreateRun(ctx, done))
	must(t, s.CreateRun(ctx, live))
	if ids, _, err := s.DeleteRuns(ctx, other.project.ID, []string{done.ID}); err != nil || len(ids) != 0 {
		t.Fatalf("another project deleted %v, %v", ids, err)
	}
	ids, inst, err := s.DeleteRuns(ctx, a.project.ID, []string{done.ID, live.ID})
	must(t, err)
	if !slices.Equal(ids, []string{done.ID}) || len(inst) != 1 || inst[0].InstanceID != "i-1" || inst[0].OrganizationID != a.org.ID {
		t.Fatalf("deleted %v, instances %+v", ids, inst)
	}
	if _, err := s.FindRunByID(ctx, w.ID, live.ID); err != nil {
		t.Fatalf("the running run was deleted: %v", err)
	}

	must(t, s.RecordAudit(ctx, []edgeflow.AuditEntry{{OrganizationID: a.org.ID, ProjectID: a.project.ID, Action: "run.bulk",
		Target: edgeflow.AuditTarget{Type: "run", ID: j.ID}, Outcome: 202, Details: cancelled.BulkDetails()}}))
	page, err := s.ListAudit(ctx, a.org.ID, edgeflow.AuditFilter{Action: "run.bulk"}, edgeflow.ListOptions{})
	must(t, err)
	if len(page.Items) != 1 || len(page.Items[0].Details) == 0 {
		t.Fatalf("audit = %+v", page.Items)
	}
}
