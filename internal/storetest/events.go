package storetest

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// testRunEvents: creating a run and changing its state record events in
// seq order, once per visible change; a write that changes no state records
// none; PruneEvents drops old events.
func testRunEvents(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	tn := newTenant(t, s)
	w := newWorkflow(t, s, tn.project.ID, "w")
	start, err := s.LastEventSeq(ctx)
	must(t, err)
	r := &edgeflow.Run{WorkflowID: w.ID}
	must(t, s.CreateRun(ctx, r))
	r.Status = edgeflow.RunRunning
	must(t, s.UpdateRun(ctx, r))
	r.RefreshFailures = 2 // no state change: no event
	must(t, s.UpdateRun(ctx, r))
	r.Status = edgeflow.RunComplete
	ok, err := s.UpdateRunIfUnchanged(ctx, r)
	must(t, err)
	if !ok {
		t.Fatal("compare-and-set refused")
	}
	stale := *r
	stale.StateVersion--
	stale.Status = edgeflow.RunErrored
	if ok, _ := s.UpdateRunIfUnchanged(ctx, &stale); ok {
		t.Fatal("a stale write succeeded")
	}
	events, err := s.ListEventsAfter(ctx, start, 10)
	must(t, err)
	var types []string
	for i, e := range events {
		var data edgeflow.RunEvent
		must(t, json.Unmarshal(e.Data, &data))
		if e.ProjectID != tn.project.ID || data.ID != r.ID || data.WorkflowID != w.ID || (i > 0 && e.Seq <= events[i-1].Seq) {
			t.Fatalf("event %d: %+v %s", i, e, e.Data)
		}
		types = append(types, e.Type)
	}
	diff(t, "event types", types, []string{edgeflow.EventRunQueued, edgeflow.EventRunStarted, edgeflow.EventRunCompleted})
	last, err := s.LastEventSeq(ctx)
	must(t, err)
	if last != events[len(events)-1].Seq {
		t.Fatalf("LastEventSeq %d, want %d", last, events[len(events)-1].Seq)
	}
	n, err := s.PruneEvents(ctx, time.Now().Add(time.Hour))
	must(t, err)
	if n < 3 {
		t.Fatalf("pruned %d events, want at least 3", n)
	}
	if events, _ := s.ListEventsAfter(ctx, start, 10); len(events) != 0 {
		t.Fatalf("events left after pruning: %+v", events)
	}
}

// testRunRolledBackEvent: a run that ends errored with rollback steps in
// its step list records run.errored, then run.rolled_back with the
// rollbacks' outcome; a run that ends errored without any records only
// run.errored.
func testRunRolledBackEvent(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	tn := newTenant(t, s)
	w := newWorkflow(t, s, tn.project.ID, "saga")
	plain := &edgeflow.Run{WorkflowID: w.ID}
	must(t, s.CreateRun(ctx, plain))
	saga := &edgeflow.Run{WorkflowID: w.ID}
	must(t, s.CreateRun(ctx, saga))
	start, err := s.LastEventSeq(ctx)
	must(t, err)
	plain.Status, plain.Steps = edgeflow.RunErrored, json.RawMessage(`[{"name": "a", "type": "step", "success": false}]`)
	must(t, s.UpdateRun(ctx, plain))
	saga.Status, saga.Error = edgeflow.RunErrored, "out of stock"
	saga.Steps = json.RawMessage(`[{"name": "charge", "type": "step", "success": true}, {"name": "fail", "type": "step", "success": false},
		{"name": "charge", "type": "rollback", "success": true}]`)
	must(t, s.UpdateRun(ctx, saga))
	events, err := s.ListEventsAfter(ctx, start, 10)
	must(t, err)
	var got []string
	for _, e := range events {
		var data edgeflow.RunEvent
		must(t, json.Unmarshal(e.Data, &data))
		got = append(got, data.ID+" "+e.Type+" "+data.Rollback)
	}
	diff(t, "events", got, []string{
		plain.ID + " " + edgeflow.EventRunErrored + " ",
		saga.ID + " " + edgeflow.EventRunErrored + " ",
		saga.ID + " " + edgeflow.EventRunRolledBack + " " + edgeflow.RollbackComplete,
	})
}
