package api_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// approvalIR waits for an event of type approval in its node "approve"
// (step name "Approve") and for one of type expr-typed whose type is an
// expression.
const approvalIR = `{"metadata":{"name":"Approvals"},
"nodes":[{"id":"start","type":"step","name":"Start","position":{"x":0,"y":0},"data":{"code":"return {ok: true};"}},
{"id":"approve","type":"wait_for_event","name":"Approve","position":{"x":0,"y":100},"data":{"eventType":"approval","timeout":"1 hour"}}],
"edges":[{"id":"e1","source":"start","target":"approve"}],"entryNodeId":"start"}`

// waitingRun stores a run of tn's workflow on version versionID paused in
// the waitForEvent step stepName, as the provider reports one, and returns
// its id.
func (w *world) waitingRun(tn *tenant, versionID, stepName string) string {
	w.t.Helper()
	steps, _ := json.Marshal([]map[string]any{
		{"name": "Start", "type": "step", "start": "2026-12-01T10:00:00Z", "end": "2026-12-01T10:00:01Z", "success": true, "output": map[string]any{"ok": true}},
		{"name": stepName, "type": "waitForEvent", "start": "2026-12-01T10:00:01Z", "end": nil, "finished": false},
	})
	r := &edgeflow.Run{WorkflowID: tn.workflowID, VersionID: versionID, ConnectionID: tn.connectionID, InstanceID: "i-" + stepName,
		Status: edgeflow.RunQueued}
	ctx := context.Background()
	if err := w.store.CreateRun(ctx, r); err != nil {
		w.t.Fatal(err)
	}
	r.Status, r.StatusDetail, r.Steps = edgeflow.RunPaused, "waiting", steps
	if err := w.store.UpdateRun(ctx, r); err != nil {
		w.t.Fatal(err)
	}
	return r.ID
}

type sentEvent struct {
	ID         string `json:"id"`
	Type       string `json:"type"`
	WorkflowID string `json:"workflowId"`
	ReplayOf   string `json:"replayOf"`
	Payload    json.RawMessage
	Runs       []struct {
		RunID, WorkflowID, State, Error string
	} `json:"runs"`
}

func (w *world) sendEvent(tn *tenant, body string) sentEvent {
	w.t.Helper()
	var e sentEvent
	if err := json.Unmarshal(w.must(201, "POST", "/api/events", body, tn.keyAll).body, &e); err != nil {
		w.t.Fatal(err)
	}
	return e
}

// TestSendEventByTypeStaysInItsOrganization: an event sent by type goes to
// the runs of the sender's project waiting for that type — the run paused
// on a wait_for_event node of the type, not one waiting for another type,
// nor one whose step ended — and never to another organization's runs
// waiting for the same type (the attack), while the owner's send reaches
// its run (the twin). The runs here have no deployment, so the delivery
// itself fails and says why; the e2e test TestSendEventByType delivers for
// real.
func TestSendEventByTypeStaysInItsOrganization(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	v := w.submitVersion(w.a, w.a.workflowID, approvalIR)
	waiting := w.waitingRun(w.a, v, "Approve")
	w.waitingRun(w.a, v, "Start") // an unfinished waitForEvent step of no wait_for_event node
	w.submitVersion(w.b, w.b.workflowID, approvalIR)

	// The attack: b sends approval; a's waiting run is not among its runs.
	attack := w.sendEvent(w.b, `{"type":"approval","payload":{"approved":true}}`)
	if len(attack.Runs) != 0 {
		t.Fatalf("another organization's send reached %+v", attack.Runs)
	}
	// Nor does b read, list or replay a's events.
	mine := w.sendEvent(w.a, `{"type":"approval","payload":{"approved":true,"by":"ann"}}`)
	w.must(404, "GET", "/api/events/"+mine.ID, "", w.b.keyAll)
	w.must(404, "POST", "/api/events/"+mine.ID+"/replay", "", w.b.keyAll)
	if strings.Contains(string(w.must(200, "GET", "/api/events", "", w.b.keyAll).body), mine.ID) {
		t.Fatal("another organization lists the event")
	}

	// The twin: a's send found its waiting run, and only it.
	if len(mine.Runs) != 1 || mine.Runs[0].RunID != waiting || mine.Runs[0].WorkflowID != w.a.workflowID {
		t.Fatalf("the owner's send went to %+v, want run %s", mine.Runs, waiting)
	}
	if r := mine.Runs[0]; r.State != edgeflow.SentEventFailed || !strings.Contains(r.Error, "no longer deployed") {
		t.Fatalf("a run without deployment: %+v", r)
	}
	if other := w.sendEvent(w.a, `{"type":"shipping"}`); len(other.Runs) != 0 || string(other.Payload) != "{}" {
		t.Fatalf("another type reached %+v (payload %s)", other.Runs, other.Payload)
	}
	if scoped := w.sendEvent(w.a, `{"type":"approval","workflowId":"`+w.a.workflowID+`"}`); len(scoped.Runs) != 1 {
		t.Fatalf("limited to the run's workflow: %+v", scoped.Runs)
	}

	// Listed newest first, read back, replayed with its type and payload.
	var list struct{ Data []sentEvent }
	if err := json.Unmarshal(w.must(200, "GET", "/api/events", "", w.a.keyAll).body, &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Data) < 3 || list.Data[2].ID != mine.ID {
		t.Fatalf("list %+v", list.Data)
	}
	var got sentEvent
	json.Unmarshal(w.must(200, "GET", "/api/events/"+mine.ID, "", w.a.keyAll).body, &got)
	if got.Type != "approval" || len(got.Runs) != 1 {
		t.Fatalf("read back %+v", got)
	}
	var replay sentEvent
	json.Unmarshal(w.must(201, "POST", "/api/events/"+mine.ID+"/replay", "", w.a.keyAll).body, &replay)
	if replay.ReplayOf != mine.ID || replay.Type != "approval" || string(replay.Payload) != `{"approved":true,"by":"ann"}` ||
		len(replay.Runs) != 1 || replay.Runs[0].RunID != waiting {
		t.Fatalf("replay %+v", replay)
	}
}

// TestSendEventBadInput: every bad field is named at once (422 with its
// path), a payload over 100 KB is refused (413), and nothing is stored.
func TestSendEventBadInput(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r := w.do("POST", "/api/events", `{"type":"needs approval","payload":[1],"workflowId":"`+w.b.workflowID+`"}`, w.a.keyAll)
	for _, path := range []string{"/type", "/payload", "/workflowId"} {
		checkError(t, r, 422, "validation_failed", path)
	}
	checkError(t, w.do("POST", "/api/events", `{"type":"`+strings.Repeat("a", 101)+`"}`, w.a.keyAll), 422, "validation_failed", "/type")
	big := `{"type":"approval","payload":{"blob":"` + strings.Repeat("x", 100*1024) + `"}}`
	checkError(t, w.do("POST", "/api/events", big, w.a.keyAll), 413, "payload_too_large", "/payload")
	// Under the cap it goes.
	w.sendEvent(w.a, `{"type":"approval","payload":{"blob":"`+strings.Repeat("x", 100*1024-20)+`"}}`)
	var list struct{ Data []sentEvent }
	json.Unmarshal(w.must(200, "GET", "/api/events", "", w.a.keyAll).body, &list)
	if len(list.Data) != 2 { // the fixture and the one under the cap
		t.Fatalf("stored %d events, want 2", len(list.Data))
	}
}
