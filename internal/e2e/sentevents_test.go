package e2e_test

import (
	"testing"
	"time"
)

// TestSendEventByType: on the local edge, an event sent by type (POST
// /api/events) completes the run waiting for it with its payload; the same
// type sent by another organization reaches none of this organization's
// runs (the attack, beside the owner's send, its twin); a replay of the
// event completes a run that started waiting afterwards.
func TestSendEventByType(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	wf, _ := s.workflow("Approval by type", "workflow", chain("Approval by type",
		step("request", "return { order: event.payload.order };"),
		node("approval", "wait_for_event", "approval", map[string]any{"eventType": "approval", "timeout": "1 hour"}),
		step("finish", "return { order: {{request.order}}, approved: {{approval.approved}} };"),
	))
	s.deploy(wf)
	waiting := func(r run) bool { return r.Status == "paused" && r.StatusDetail == "waiting" }
	id := s.trigger(wf, map[string]any{"order": 7})
	s.waitRun(wf, id, 30*time.Second, "waiting for the event", waiting)

	attacker := s.tenant("mallory@example.com")
	if runs := attacker.must(201, "POST", "/api/events", map[string]any{"type": "approval", "payload": map[string]any{"approved": false}}).obj()["runs"].([]any); len(runs) != 0 {
		t.Fatalf("another organization's event reached %v", runs)
	}

	sent := s.must(201, "POST", "/api/events", map[string]any{"type": "approval", "payload": map[string]any{"approved": true}}).obj()
	runs := sent["runs"].([]any)
	if len(runs) != 1 || runs[0].(map[string]any)["runId"] != id || runs[0].(map[string]any)["state"] != "delivered" {
		t.Fatalf("the event went to %v, want run %s delivered", runs, id)
	}
	done := s.waitStatus(wf, id, "complete", 30*time.Second)
	jsonEqual(t, done.Output, `{"order":7,"approved":true}`)

	// A replay reaches the run waiting now, and not the one that completed.
	next := s.trigger(wf, map[string]any{"order": 8})
	s.waitRun(wf, next, 30*time.Second, "waiting for the event", waiting)
	replay := s.must(201, "POST", "/api/events/"+sent["id"].(string)+"/replay", nil).obj()
	runs = replay["runs"].([]any)
	if replay["replayOf"] != sent["id"] || len(runs) != 1 || runs[0].(map[string]any)["runId"] != next {
		t.Fatalf("replay answered %v", replay)
	}
	jsonEqual(t, s.waitStatus(wf, next, "complete", 30*time.Second).Output, `{"order":8,"approved":true}`)
}
