package storetest

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

func testRuns(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	a := newTenant(t, s)
	b := newTenant(t, s)
	w := newWorkflow(t, s, a.project.ID, "w")
	w2 := newWorkflow(t, s, a.project.ID, "w2")
	v := newVersion(t, s, w.ID)
	c := newConnection(t, s, a.org.ID)
	d := deploy(t, s, w, v, c)
	next := time.Now().Add(time.Second).UTC().Truncate(time.Microsecond)
	r1 := &edgeflow.Run{WorkflowID: w.ID, VersionID: v.ID, ConnectionID: c.ID, DeploymentID: d.ID, WorkflowName: "ef-w",
		InstanceID: "inst-1", Params: json.RawMessage(`{"order": 1}`), NextRefreshAt: &next}
	must(t, s.CreateRun(ctx, r1))
	if r1.Status != edgeflow.RunQueued || r1.ProjectID != a.project.ID || !strings.HasPrefix(r1.ID, edgeflow.PrefixRun+"_") {
		t.Fatalf("CreateRun set %+v", r1)
	}
	got, err := s.FindRunByID(ctx, w.ID, r1.ID)
	must(t, err)
	diff(t, "FindRunByID", got, r1)
	got, err = s.FindRunByInstanceID(ctx, w.ID, "inst-1")
	must(t, err)
	diff(t, "FindRunByInstanceID", got, r1)
	_, err = s.FindRunByID(ctx, w2.ID, r1.ID)
	wantCode(t, "run of another workflow", err, edgeflow.ENotFound)
	_, err = s.FindRunByInstanceID(ctx, w.ID, "inst-x")
	wantCode(t, "unknown instance", err, edgeflow.ENotFound)
	wantCode(t, "run of unknown workflow", s.CreateRun(ctx, &edgeflow.Run{WorkflowID: "wf_missing"}), edgeflow.ENotFound)

	r2 := &edgeflow.Run{WorkflowID: w2.ID, InstanceID: "inst-2", Status: edgeflow.RunRunning}
	must(t, s.CreateRun(ctx, r2))
	r3 := &edgeflow.Run{WorkflowID: w.ID, InstanceID: "inst-3", Status: edgeflow.RunRunning}
	must(t, s.CreateRun(ctx, r3))

	list := func(f edgeflow.RunFilter) []string {
		t.Helper()
		return walk(t, func(o edgeflow.ListOptions) (edgeflow.Page[edgeflow.Run], error) { return s.ListRuns(ctx, f, o) },
			1, func(r edgeflow.Run) string { return r.ID })
	}
	newest := func(runs ...*edgeflow.Run) []string {
		var rs []edgeflow.Run
		for _, r := range runs {
			rs = append(rs, *r)
		}
		return ids(byTime(true, runKey, rs...), func(r edgeflow.Run) string { return r.ID })
	}
	diff(t, "ListRuns project", list(edgeflow.RunFilter{ProjectID: a.project.ID}), newest(r1, r2, r3))
	diff(t, "ListRuns workflow", list(edgeflow.RunFilter{ProjectID: a.project.ID, WorkflowID: w.ID}), newest(r1, r3))
	diff(t, "ListRuns status", list(edgeflow.RunFilter{ProjectID: a.project.ID, Status: edgeflow.RunRunning}), newest(r2, r3))
	diff(t, "ListRuns both", list(edgeflow.RunFilter{ProjectID: a.project.ID, WorkflowID: w.ID, Status: edgeflow.RunQueued}), []string{r1.ID})
	if got := list(edgeflow.RunFilter{ProjectID: b.project.ID}); len(got) != 0 {
		t.Errorf("other tenant sees runs %v", got)
	}

	started := time.Now().Add(-time.Minute).UTC().Truncate(time.Microsecond)
	ended := time.Now().UTC().Truncate(time.Microsecond)
	upd := *r1
	upd.Status, upd.StatusDetail, upd.Error = edgeflow.RunComplete, "complete", "boom"
	upd.Output = json.RawMessage(`{"ok":true}`)
	upd.Steps = json.RawMessage(`[{"name":"a"}]`)
	upd.StartedAt, upd.EndedAt, upd.NextRefreshAt, upd.RefreshFailures = &started, &ended, nil, 2
	upd.Params = json.RawMessage(`{"changed":true}`) // not written
	must(t, s.UpdateRun(ctx, &upd))
	got, err = s.FindRunByID(ctx, w.ID, r1.ID)
	must(t, err)
	want := upd
	want.Params = r1.Params
	want.UpdatedAt = got.UpdatedAt
	diff(t, "updated run", got, &want)
	diff(t, "UpdateRun result", &upd, got)
	missing := edgeflow.Run{WorkflowID: w2.ID, ID: r1.ID, Status: edgeflow.RunRunning}
	wantCode(t, "UpdateRun via other workflow", s.UpdateRun(ctx, &missing), edgeflow.ENotFound)

	// An instance is one run of its workflow (replicas recording a cron
	// instance race on this); the same instance id elsewhere, and runs
	// without an instance yet, are fine.
	wantCode(t, "second run of an instance", s.CreateRun(ctx, &edgeflow.Run{WorkflowID: w.ID, InstanceID: "inst-1"}), edgeflow.EConflict)
	must(t, s.CreateRun(ctx, &edgeflow.Run{WorkflowID: w2.ID, InstanceID: "inst-1"}))
	must(t, s.CreateRun(ctx, &edgeflow.Run{WorkflowID: w.ID}))
	must(t, s.CreateRun(ctx, &edgeflow.Run{WorkflowID: w.ID}))

	// A restarted run keeps where it came from and the steps it replayed,
	// outputs whole; an update leaves them as they are.
	restart := &edgeflow.Run{WorkflowID: w.ID, InstanceID: "inst-restart", RestartOf: r1.ID, FromStep: "charge",
		Replayed: []edgeflow.ReplayedStep{
			{NodeID: "load", Name: "Load", OriginalName: "Load", Type: "step", StartedAt: &started, EndedAt: &ended, Attempts: 2,
				Output: json.RawMessage(`{"big":"` + strings.Repeat("x", 100<<10) + `"}`)},
			{NodeID: "each", Name: "Each #1", OriginalName: "Each old #1", Type: "step", Attempts: 1, Output: json.RawMessage(`null`)},
		}}
	must(t, s.CreateRun(ctx, restart))
	got, err = s.FindRunByID(ctx, w.ID, restart.ID)
	must(t, err)
	diff(t, "restarted run", got, restart)
	upd = *got
	upd.Status = edgeflow.RunComplete
	must(t, s.UpdateRun(ctx, &upd))
	diff(t, "restarted run's origin after an update", []any{upd.RestartOf, upd.FromStep, upd.Replayed},
		[]any{restart.RestartOf, restart.FromStep, restart.Replayed})

	// A traced run keeps its trace context through updates; its trace id
	// is read from it. An untraced run has none.
	traced := &edgeflow.Run{WorkflowID: w.ID, InstanceID: "inst-traced", Trace: &edgeflow.RunTrace{
		TraceID: "4bf92f3577b34da6a3ce929d0e0e4736", SpanID: "00f067aa0ba902b7", ParentSpanID: "b7ad6b7169203331",
		Sampled: true, TraceState: "vendor=1", Name: "Payments"}}
	must(t, s.CreateRun(ctx, traced))
	if traced.TraceID != traced.Trace.TraceID {
		t.Errorf("created run's trace id %q", traced.TraceID)
	}
	upd = *traced
	upd.Status = edgeflow.RunRunning
	must(t, s.UpdateRun(ctx, &upd))
	got, err = s.FindRunByID(ctx, w.ID, traced.ID)
	must(t, err)
	diff(t, "traced run's trace after an update", []any{got.Trace, got.TraceID}, []any{traced.Trace, traced.Trace.TraceID})
	if got, _ := s.FindRunByID(ctx, w.ID, restart.ID); got.Trace != nil || got.TraceID != "" {
		t.Errorf("an untraced run reads with trace %+v %q", got.Trace, got.TraceID)
	}
}

func testRunsDueForRefresh(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	tn := newTenant(t, s)
	w := newWorkflow(t, s, tn.project.ID, "w")
	now := time.Now().UTC()
	at := func(d time.Duration) *time.Time { x := now.Add(d); return &x }
	mk := func(status string, next *time.Time) string {
		r := &edgeflow.Run{WorkflowID: w.ID, Status: status, NextRefreshAt: next}
		must(t, s.CreateRun(ctx, r))
		return r.ID
	}
	dueOld := mk(edgeflow.RunRunning, at(-time.Hour))
	dueNow := mk(edgeflow.RunQueued, at(0))
	duePaused := mk(edgeflow.RunPaused, at(-time.Minute))
	mk(edgeflow.RunRunning, at(time.Minute))     // not yet due
	mk(edgeflow.RunRunning, nil)                 // no refresh planned
	mk(edgeflow.RunComplete, at(-time.Hour))     // final
	mk(edgeflow.RunErrored, at(-2*time.Hour))    // final
	mk(edgeflow.RunTerminated, at(-3*time.Hour)) // final
	dueLast := mk(edgeflow.RunRunning, at(-time.Second))

	// Claimed two at a time: the due runs, oldest due first; a claimed run is
	// not claimed again while held.
	until := now.Add(time.Minute)
	runs, err := s.ClaimRunsForRefresh(ctx, now, until, 2)
	must(t, err)
	diff(t, "due runs limited", ids(runs, func(r edgeflow.Run) string { return r.ID }), []string{dueOld, duePaused})
	runs, err = s.ClaimRunsForRefresh(ctx, now, until, 10)
	must(t, err)
	diff(t, "the other due runs (oldest due first)", ids(runs, func(r edgeflow.Run) string { return r.ID }),
		[]string{dueLast, dueNow})
}
