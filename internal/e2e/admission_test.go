package e2e_test

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/testenv"
)

// TestCronAdmissionGateOnTheLocalEdge: a cron workflow with concurrency 1
// is compiled with the admission gate (decisions 770-774). Its one step
// calls a local server. While a triggered run holds the slot (its call held
// by the server), a start fired by the edge's scheduler is skipped and its
// call never reaches the server: it waited at the gate until edgeflow
// terminated it. Once the slot is free, the next fired start is admitted
// (edgeflow sends it the admission event) and runs to completion, and its
// restart runs without waiting again; a batch entry with a chosen
// instance id is sent the event when created and completes. The
// reserved admission event cannot be sent through the public API, beside
// its legitimate twin, an ordinary event type, which is accepted.
func TestCronAdmissionGateOnTheLocalEdge(t *testing.T) {
	requireEdge(t)
	t.Parallel()
	var mu sync.Mutex
	held, cronCalls := 0, 0
	release, stop := make(chan struct{}), make(chan struct{})
	ln, err := net.Listen("tcp", allowedHost+":0")
	if err != nil {
		t.Fatalf("listen on %s: %v", allowedHost, err)
	}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if !strings.Contains(string(body), `"hold":"yes"`) {
			mu.Lock()
			cronCalls++
			mu.Unlock()
			fmt.Fprint(w, "ok")
			return
		}
		mu.Lock()
		held++
		mu.Unlock()
		select {
		case <-release:
		case <-stop:
		case <-r.Context().Done():
		}
		fmt.Fprint(w, "ok")
	})}}
	srv.Start()
	defer srv.Close()
	defer close(stop)
	calls := func() (int, int) {
		mu.Lock()
		defer mu.Unlock()
		return held, cronCalls
	}

	s := newServer(t, serverOptions{refresherInterval: 100 * time.Millisecond})
	call := node("call", "http_request", "call", map[string]any{"url": srv.URL + "/work", "method": "POST", "body": `{"hold":"{{event.payload.hold}}"}`})
	call["config"] = map[string]any{"retries": map[string]any{"limit": 0, "delay": "1 second"}, "timeout": "5 minutes"}
	ir := chain("gated", call)
	// 01:07 on January 2nd: fired by the test with a fake time only (other
	// tests fire other minutes).
	const expr = "7 1 2 1 *"
	const at = "2026-01-02T01:07:00Z"
	ir["trigger"] = map[string]any{"type": "cron", "expression": expr}
	wf, _ := s.workflow("gated", "workflow", ir)
	s.must(200, "PATCH", "/api/workflows/"+wf, map[string]any{"deployConfig": map[string]any{"concurrency": 1}})
	d := s.deploy(wf)

	// A triggered run (its id is edgeflow's: no gate) takes the slot.
	holder := s.must(201, "POST", "/api/workflows/"+wf+"/trigger", map[string]any{"connectionId": s.conn, "params": map[string]any{"hold": "yes"}}).obj()
	holderID, holderInstance := holder["id"].(string), holder["instanceId"].(string)
	testenv.WaitFor(t, 2*time.Minute, 50*time.Millisecond, "the holding run's call to reach the server", func() (bool, string) {
		h, _ := calls()
		return h >= 1, fmt.Sprintf("held calls %d", h)
	})

	// The attack: the reserved admission event through both send-event
	// routes is refused with its path; the same requests with an ordinary
	// event type are accepted.
	for _, typ := range []string{"edgeflow-admission", "EDGEFLOW-ADMISSION"} {
		r := s.do("POST", "/api/workflows/"+wf+"/trigger", map[string]any{"connectionId": s.conn,
			"params": map[string]any{"instanceId": holderInstance, "eventType": typ, "payload": map[string]any{}}})
		if m := wantError(t, r, 422, "validation_failed"); !strings.Contains(string(r.body), `"path":"/params/eventType"`) {
			t.Fatalf("send-event to a run with type %s: want the path /params/eventType: %v", typ, m)
		}
		r = s.do("POST", "/api/events", map[string]any{"type": typ, "workflowId": wf, "payload": map[string]any{}})
		if m := wantError(t, r, 422, "validation_failed"); !strings.Contains(string(r.body), `"path":"/type"`) {
			t.Fatalf("send-event by type %s: want the path /type: %v", typ, m)
		}
	}
	if r := s.do("POST", "/api/workflows/"+wf+"/trigger", map[string]any{"connectionId": s.conn,
		"params": map[string]any{"instanceId": holderInstance, "eventType": "nudge", "payload": map[string]any{}}}); r.status >= 300 {
		t.Fatalf("send-event to a run with an ordinary type = %d: %s", r.status, r.body)
	}
	s.must(201, "POST", "/api/events", map[string]any{"type": "nudge", "workflowId": wf, "payload": map[string]any{}})

	// A start fired while the slot is taken is skipped, and its step never
	// runs.
	if started := fireCron(t, at); !strings.Contains(started, d.WorkflowName) {
		t.Fatalf("the scheduler at %s started %s, want an instance of %s", at, started, d.WorkflowName)
	}
	var skipped run
	testenv.WaitFor(t, time.Minute, 100*time.Millisecond, "the fired start to be recorded skipped", func() (bool, string) {
		for _, r := range s.runs(wf) {
			if r.ID != holderID {
				skipped = r
			}
		}
		return skipped.StatusDetail == "skipped", fmt.Sprintf("%+v", skipped)
	})
	if skipped.Status != "terminated" || !strings.Contains(skipped.Error, "concurrency") {
		t.Fatalf("skipped start = %+v, want terminated with the concurrency named", skipped)
	}
	skipped = s.run(wf, skipped.ID)
	for _, st := range skipped.Steps {
		if st.Name == "call" {
			t.Fatalf("the skipped start lists the step call (%s): it ran a user step", st.State)
		}
	}

	// The slot frees; the next fired start is admitted and completes.
	// Every held call returns: a restart of the group by another test's
	// deploy re-runs the holding step (at least once), and each attempt
	// waits here.
	close(release)
	s.waitStatus(wf, holderID, "complete", 2*time.Minute)
	if _, c := calls(); c != 0 {
		t.Fatalf("a skipped cron start called the server %d times, want 0", c)
	}
	if started := fireCron(t, at); !strings.Contains(started, d.WorkflowName) {
		t.Fatalf("the scheduler at %s started %s, want an instance of %s", at, started, d.WorkflowName)
	}
	var admitted run
	testenv.WaitFor(t, time.Minute, 100*time.Millisecond, "the second fired start to be recorded", func() (bool, string) {
		for _, r := range s.runs(wf) {
			if r.ID != holderID && r.ID != skipped.ID {
				admitted = r
			}
		}
		return admitted.ID != "", "runs: " + fmt.Sprint(len(s.runs(wf)))
	})
	done := s.waitStatus(wf, admitted.ID, "complete", 2*time.Minute)
	if _, c := calls(); c != 1 {
		t.Fatalf("the admitted cron start called the server %d times, want 1", c)
	}
	names := []string{}
	for _, st := range done.Steps {
		names = append(names, st.Name)
	}
	if len(names) != 2 || names[0] != "edgeflow admission" || names[1] != "call" {
		t.Fatalf("steps of the admitted start = %v, want [edgeflow admission call]", names)
	}
	// A restart of the admitted start (an instance edgeflow creates) does
	// not wait at the gate again.
	restarted := s.must(201, "POST", "/api/workflows/"+wf+"/runs/"+admitted.ID+"/restart", map[string]any{}).str("id")
	again := s.waitStatus(wf, restarted, "complete", 2*time.Minute)
	for _, st := range again.Steps {
		if st.Name == "edgeflow admission" {
			t.Fatalf("the restarted run waited at the gate again: %+v", again.Steps)
		}
	}
	if _, c := calls(); c != 2 {
		t.Fatalf("after the restart the server had %d calls of cron runs, want 2", c)
	}
	// A batch entry that chooses its instance id (not of edgeflow's form)
	// is sent the admission event as it is created, and completes.
	b := s.must(201, "POST", "/api/workflows/"+wf+"/trigger/batch", map[string]any{"connectionId": s.conn,
		"runs": []any{map[string]any{"id": "order-42", "params": map[string]any{}}}}).obj()
	created, _ := b["created"].([]any)
	if len(created) != 1 {
		t.Fatalf("batch with a chosen id: %v", b)
	}
	chosen := s.waitStatus(wf, created[0].(map[string]any)["id"].(string), "complete", 2*time.Minute)
	if chosen.InstanceID != "order-42" || len(chosen.Steps) != 2 || chosen.Steps[0].Name != "edgeflow admission" {
		t.Fatalf("batch run with a chosen id = %+v", chosen)
	}
	// The skipped start stays skipped, its instance ended.
	if r := s.run(wf, skipped.ID); r.Status != "terminated" || r.StatusDetail != "skipped" {
		t.Fatalf("skipped start later = %s/%s", r.Status, r.StatusDetail)
	}
}
