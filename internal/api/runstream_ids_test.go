package api_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// TestAttackRunStreamIDs: the ids of a run stream's events tell nothing of
// other tenants' activity. They were positions in the events table, which
// every organization's run changes advance, so the gap between two of a
// tenant's ids counted everyone else's changes. Now an id is an opaque
// token: not a number, the same for the same event on every stream, and a
// guessed or altered one is refused. Twin: resuming after an id replays
// exactly the tenant's changes it missed, whatever other tenants did
// meanwhile, and "0" replays every change still kept. Both stores.
func TestAttackRunStreamIDs(t *testing.T) {
	t.Parallel()
	engines(t, worldOptions{}, func(t *testing.T, w *world) {
		ctx := context.Background()
		live := openStream(t, w.srv.URL, w.a.keyRead.key, "")
		r := &edgeflow.Run{WorkflowID: w.a.workflowID, Status: edgeflow.RunQueued}
		mustTB(t, w.store.CreateRun(ctx, r))
		first := nextEvent(t, live)
		// Tenant b's runs change many times between a's two changes.
		for range 5 {
			theirs := &edgeflow.Run{WorkflowID: w.b.workflowID, Status: edgeflow.RunQueued}
			mustTB(t, w.store.CreateRun(ctx, theirs))
			theirs.Status = edgeflow.RunComplete
			mustTB(t, w.store.UpdateRun(ctx, theirs))
		}
		r.Status = edgeflow.RunComplete
		mustTB(t, w.store.UpdateRun(ctx, r))
		second := nextEvent(t, live)
		if second.data.ID != r.ID || second.data.Status != edgeflow.RunComplete {
			t.Fatalf("second event %+v", second)
		}
		for _, id := range []string{first.id, second.id} {
			if _, err := strconv.ParseInt(id, 10, 64); err == nil || len(id) != 22 {
				t.Fatalf("event id %q is a number or not an opaque token", id)
			}
		}
		if first.id == second.id {
			t.Fatal("two events with one id")
		}

		// Guessed and altered ids are refused, so ids cannot be probed.
		flip := []byte(second.id)
		flip[3] ^= 1
		for _, bad := range []string{"1", "42", string(flip), second.id + "x", "-1"} {
			checkError(t, w.do("GET", "/api/runs/stream?timeoutSeconds=1&after="+bad, "", w.a.keyRead), 422, "validation_failed", "?after")
		}

		// Twin: resuming after the first id replays the second change only,
		// with the id the live stream showed; "0" replays both.
		again := openStream(t, w.srv.URL, w.a.keyRead.key, "?after="+first.id)
		if ev := nextEvent(t, again); ev.id != second.id || ev.data.ID != r.ID || ev.data.Status != edgeflow.RunComplete {
			t.Fatalf("replayed %+v, want %s (%s complete)", ev, second.id, r.ID)
		}
		all := openStream(t, w.srv.URL, w.a.keyRead.key, "?after=0")
		for _, want := range []string{first.id, second.id} {
			ev := nextEvent(t, all)
			for ev.data.ID != r.ID { // the world's fixture runs of tenant a come first
				ev = nextEvent(t, all)
			}
			if ev.id != want {
				t.Fatalf("replay from 0: id %s, want %s", ev.id, want)
			}
		}
	})
}

// TestRunStreamResumeAcrossReplicas: an event id a stream got at one replica
// resumes a stream at another (they share the secret key), on PostgreSQL.
func TestRunStreamResumeAcrossReplicas(t *testing.T) {
	t.Parallel()
	rs := startReplicas(t, 2)
	ctx := context.Background()
	wf := rs.newWorkflow(t, "resumed")
	atA := openStream(t, rs.urls[0], rs.key, "")
	r := &edgeflow.Run{WorkflowID: wf, Status: edgeflow.RunQueued}
	mustTB(t, rs.store.CreateRun(ctx, r))
	seen := nextEvent(t, atA)
	r.Status = edgeflow.RunRunning
	mustTB(t, rs.store.UpdateRun(ctx, r))
	missed := nextEvent(t, atA)
	atB := openStream(t, rs.urls[1], rs.key, "?after="+seen.id)
	if ev := nextEvent(t, atB); ev.id != missed.id || ev.data.Status != edgeflow.RunRunning {
		t.Fatalf("replica B replayed %+v, want %s (running)", ev, missed.id)
	}
}
