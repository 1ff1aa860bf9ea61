package e2e_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/testenv"
)

// TestSleepingWorkflow: a run that sleeps is running (detail sleeping) while
// it sleeps, as docs/api.md keeps paused for an event wait and a manual pause;
// it is listed among the running runs and completes afterwards.
func TestSleepingWorkflow(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	wf, _ := s.workflow("Sleeper", "workflow", chain("Sleeper",
		step("before", "return { at: Date.now() };"),
		node("nap", "sleep", "nap", map[string]any{"duration": "10 seconds"}),
		step("after", "return { slept: Date.now() - {{before.at}} >= 9900 };"),
	))
	s.deploy(wf)
	id := s.trigger(wf, map[string]any{})
	s.waitRun(wf, id, 30*time.Second, "running in the sleep", func(r run) bool {
		return r.Status == "running" && r.StatusDetail == "sleeping"
	})
	if !slices.ContainsFunc(s.runsWith(wf, "running"), func(r run) bool { return r.ID == id && r.StatusDetail == "sleeping" }) {
		t.Fatal("the sleeping run is not among the running runs")
	}
	if slices.ContainsFunc(s.runsWith(wf, "paused"), func(r run) bool { return r.ID == id }) {
		t.Fatal("the sleeping run is among the paused runs")
	}
	// Resume applies to a manual pause only.
	wantError(t, s.do("POST", "/api/workflows/"+wf+"/runs/"+id+"/resume", nil), 409, "conflict")
	r := s.waitStatus(wf, id, "complete", 60*time.Second)
	jsonEqual(t, r.Output, `{"slept":true}`)
}

// TestWaitForEvent: a run waiting for an event is paused (detail waiting)
// and resumed through the trigger endpoint, which answers the run it
// reached.
func TestWaitForEvent(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	wf, _ := s.workflow("Approval", "workflow", chain("Approval",
		step("request", "return { order: event.payload.order };"),
		node("approval", "wait_for_event", "approval", map[string]any{"eventType": "approval", "timeout": "1 hour"}),
		step("finish", "return { order: {{request.order}}, approved: {{approval.approved}}, by: {{approval.by}} };"),
	))
	s.deploy(wf)
	id := s.trigger(wf, map[string]any{"order": 7})
	s.waitRun(wf, id, 30*time.Second, "waiting for the event", func(r run) bool {
		return r.Status == "paused" && r.StatusDetail == "waiting"
	})
	if !slices.ContainsFunc(s.runsWith(wf, "paused"), func(r run) bool { return r.ID == id && r.StatusDetail == "waiting" }) {
		t.Fatal("the run waiting for an event is not among the paused runs")
	}
	// Resume applies to a manual pause only: an event wait ends with the event.
	wantError(t, s.do("POST", "/api/workflows/"+wf+"/runs/"+id+"/resume", nil), 409, "conflict")
	before := len(s.runs(wf))
	r := s.must(202, "POST", "/api/workflows/"+wf+"/trigger", map[string]any{"connectionId": s.conn,
		"params": map[string]any{"instanceId": id, "eventType": "approval", "payload": map[string]any{"approved": true, "by": "ann"}}})
	m := r.obj()
	if m["id"] != id || m["instanceId"] != id || m["eventType"] != "approval" {
		t.Fatalf("event answer = %s", r.body)
	}
	done := s.waitStatus(wf, id, "complete", 30*time.Second)
	jsonEqual(t, done.Output, `{"order":7,"approved":true,"by":"ann"}`)
	if after := len(s.runs(wf)); after != before {
		t.Fatalf("the event created a run: %d runs, want %d", after, before)
	}
	// Events to unknown or finished runs are refused.
	wantError(t, s.do("POST", "/api/workflows/"+wf+"/trigger", map[string]any{"connectionId": s.conn,
		"params": map[string]any{"instanceId": "run_nope", "eventType": "approval", "payload": map[string]any{}}}), 404, "not_found")
	wantError(t, s.do("POST", "/api/workflows/"+wf+"/trigger", map[string]any{"connectionId": s.conn,
		"params": map[string]any{"instanceId": id, "eventType": "approval", "payload": map[string]any{}}}), 409, "conflict")
}

// TestPauseSleepingRun: a sleeping run is running, so it can be paused as
// docs/api.md allows for a running run; it is then paused (detail paused), and
// once resumed it sleeps on, running again; terminate ends it. (The sleep
// is long, so no step of the test races its end.)
func TestPauseSleepingRun(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	wf, _ := s.workflow("Napper", "workflow", chain("Napper",
		step("before", "return { n: 1 };"),
		node("nap", "sleep", "nap", map[string]any{"duration": "1 hour"}),
		step("after", "return { n: {{before.n}} + 1 };"),
	))
	s.deploy(wf)
	id := s.trigger(wf, map[string]any{})
	sleeping := func(r run) bool { return r.Status == "running" && r.StatusDetail == "sleeping" }
	s.waitRun(wf, id, 30*time.Second, "running in the sleep", sleeping)
	if p := s.must(200, "POST", "/api/workflows/"+wf+"/runs/"+id+"/pause", nil).obj(); p["status"] != "paused" || p["statusDetail"] != "paused" {
		t.Fatalf("pause answered %v", p)
	}
	s.waitRun(wf, id, 30*time.Second, "paused by hand", func(r run) bool { return r.Status == "paused" && r.StatusDetail == "paused" })
	s.must(200, "POST", "/api/workflows/"+wf+"/runs/"+id+"/resume", nil)
	s.waitRun(wf, id, 30*time.Second, "sleeping again", sleeping)
	if tr := s.must(200, "POST", "/api/workflows/"+wf+"/runs/"+id+"/terminate", nil).obj(); tr["status"] != "terminated" {
		t.Fatalf("terminate answered %v", tr)
	}
}

// runsWith lists the workflow's runs of one status.
func (s *server) runsWith(workflowID, status string) []run {
	s.t.Helper()
	var list struct {
		Data []run `json:"data"`
	}
	s.must(200, "GET", "/api/workflows/"+workflowID+"/runs?limit=100&status="+status, nil).into(&list)
	return list.Data
}

// TestRetryingRun: a run whose step failed and waits before its next
// attempt is running (detail retrying), not paused; it ends errored when the
// retries are used up.
func TestRetryingRun(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	failing := step("charge", "throw new Error('card declined');")
	failing["config"] = map[string]any{"retries": map[string]any{"limit": 1, "delay": "10 seconds", "backoff": "constant"}}
	wf, _ := s.workflow("Retrier", "workflow", chain("Retrier", failing))
	s.deploy(wf)
	id := s.trigger(wf, map[string]any{})
	s.waitRun(wf, id, 30*time.Second, "running before the retry", func(r run) bool {
		if r.Status == "paused" {
			t.Fatalf("the run waiting to retry is paused (%s)", r.StatusDetail)
		}
		return r.Status == "running" && r.StatusDetail == "retrying"
	})
	if !slices.ContainsFunc(s.runsWith(wf, "running"), func(r run) bool { return r.ID == id }) {
		t.Fatal("the retrying run is not among the running runs")
	}
	wantError(t, s.do("POST", "/api/workflows/"+wf+"/runs/"+id+"/resume", nil), 409, "conflict")
	r := s.waitStatus(wf, id, "errored", 60*time.Second)
	if !strings.Contains(r.Error, "card declined") || r.StatusDetail != "" {
		t.Fatalf("errored run = %+v", r)
	}
}

func (s *server) runs(workflowID string) []run {
	s.t.Helper()
	var list struct {
		Data []run `json:"data"`
	}
	s.must(200, "GET", "/api/workflows/"+workflowID+"/runs?limit=100", nil).into(&list)
	return list.Data
}

// TestErroredAfterRetries: a step that always throws ends errored after its
// retries, with the failure reason in error.
func TestErroredAfterRetries(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	failing := step("charge", "throw new Error('card declined for ' + event.payload.who);")
	failing["config"] = map[string]any{"retries": map[string]any{"limit": 2, "delay": "1 second", "backoff": "constant"}}
	wf, _ := s.workflow("Charge", "workflow", chain("Charge", failing))
	s.deploy(wf)
	id := s.trigger(wf, map[string]any{"who": "bob"})
	r := s.waitStatus(wf, id, "errored", 60*time.Second)
	if !strings.Contains(r.Error, "card declined for bob") || r.EndedAt == nil {
		t.Fatalf("errored run = %+v", r)
	}
	// Control of a finished run is refused.
	for _, op := range []string{"pause", "resume", "terminate"} {
		wantError(t, s.do("POST", "/api/workflows/"+wf+"/runs/"+id+"/"+op, nil), 409, "conflict")
	}
}

// stepState is the state of the run's step of node id, "" when the run has
// not reached it.
func stepState(r run, id string) string {
	for _, st := range r.Steps {
		if st.NodeID == id {
			return st.State
		}
	}
	return ""
}

// busy is a step that stays running for ms milliseconds.
func busy(id string, ms int) map[string]any {
	return step(id, "await new Promise((resolve) => setTimeout(resolve, "+strconv.Itoa(ms)+")); return { done: '"+id+"' };")
}

// TestPauseResumeTerminate: pause a running run, resume it, and it
// completes; terminate another; illegal transitions are 409.
func TestPauseResumeTerminate(t *testing.T) {
	// Not parallel: a step in flight when the shared edge restarts a
	// workerd (a deploy of another test placed in the same group) is lost
	// while its instance is paused and runs again only on resume, so the
	// step the pause waits for would never complete. Tests that are not
	// parallel run before the parallel ones start deploying.
	s := newServer(t, serverOptions{})
	wf, _ := s.workflow("Long", "workflow", chain("Long",
		busy("first", 1500),
		busy("second", 1500),
		step("last", "return { ok: true };"),
	))
	s.deploy(wf)

	id := s.trigger(wf, map[string]any{})
	s.waitStatus(wf, id, "running", 30*time.Second)
	wantError(t, s.do("POST", "/api/workflows/"+wf+"/runs/"+id+"/resume", nil), 409, "conflict")
	p := s.must(200, "POST", "/api/workflows/"+wf+"/runs/"+id+"/pause", nil).obj()
	if p["status"] != "paused" {
		t.Fatalf("pause answered %v", p)
	}
	s.waitRun(wf, id, 30*time.Second, "manually paused", func(r run) bool {
		return r.Status == "paused" && r.StatusDetail == "paused"
	})
	wantError(t, s.do("POST", "/api/workflows/"+wf+"/runs/"+id+"/pause", nil), 409, "conflict")
	// It stays paused where it stopped: the step in flight when it was
	// paused completes, and the next one does not start (the run's status
	// and steps as the provider reports them).
	r := s.waitRun(wf, id, 30*time.Second, "paused, its step in flight complete", func(r run) bool {
		return r.Status == "paused" && stepState(r, "first") == edgeflow.StepComplete
	})
	if st := stepState(r, "second"); st != "" || r.StatusDetail != "paused" {
		t.Fatalf("paused run is %s (%s) with step second %q; want it paused before step second", r.Status, r.StatusDetail, st)
	}
	s.must(200, "POST", "/api/workflows/"+wf+"/runs/"+id+"/resume", nil)
	r = s.waitStatus(wf, id, "complete", 60*time.Second)
	jsonEqual(t, r.Output, `{"ok":true}`)

	other := s.trigger(wf, map[string]any{})
	s.waitStatus(wf, other, "running", 30*time.Second)
	tr := s.must(200, "POST", "/api/workflows/"+wf+"/runs/"+other+"/terminate", nil).obj()
	if tr["status"] != "terminated" {
		t.Fatalf("terminate answered %v", tr)
	}
	s.waitRun(wf, other, 30*time.Second, "terminated with its end time", func(r run) bool {
		return r.Status == "terminated" && r.EndedAt != nil
	})
	wantError(t, s.do("POST", "/api/workflows/"+wf+"/runs/"+other+"/terminate", nil), 409, "conflict")

	// Terminate a paused run.
	third := s.trigger(wf, map[string]any{})
	s.waitStatus(wf, third, "running", 30*time.Second)
	s.must(200, "POST", "/api/workflows/"+wf+"/runs/"+third+"/pause", nil)
	s.must(200, "POST", "/api/workflows/"+wf+"/runs/"+third+"/terminate", nil)
	if r := s.run(wf, third); r.Status != "terminated" {
		t.Fatalf("terminated paused run = %+v", r)
	}
}

// TestBackgroundRefresher: with nobody reading the run, the list still
// shows it complete.
func TestBackgroundRefresher(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{refresherInterval: 200 * time.Millisecond})
	wf, _ := s.workflow("Quick", "workflow", chain("Quick", step("only", "return { v: 1 };")))
	s.deploy(wf)
	id := s.trigger(wf, map[string]any{})
	var listed run
	testenv.WaitFor(t, 30*time.Second, 200*time.Millisecond, "the list to show run "+id+" complete", func() (bool, string) {
		runs := s.runs(wf)
		for _, r := range runs {
			if r.ID == id && r.Status == "complete" {
				listed = r
				return true, ""
			}
		}
		return false, fmt.Sprintf("%+v", runs)
	})
	jsonEqual(t, listed.Output, `{"v":1}`)
}

// TestTriggerRules: params over 100 KB → 413, params not an object → 422,
// unknown connection → 404, not deployed → 409.
func TestTriggerRules(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	wf, _ := s.workflow("Rules", "workflow", chain("Rules", step("only", "return 1;")))
	wantError(t, s.do("POST", "/api/workflows/"+wf+"/trigger", map[string]any{"connectionId": s.conn}), 409, "conflict")
	s.deploy(wf)
	wantError(t, s.do("POST", "/api/workflows/"+wf+"/trigger", map[string]any{"connectionId": s.conn,
		"params": map[string]any{"blob": strings.Repeat("x", 101*1024)}}), 413, "payload_too_large")
	wantError(t, s.do("POST", "/api/workflows/"+wf+"/trigger", map[string]any{"connectionId": s.conn, "params": []int{1}}), 422, "validation_failed")
	wantError(t, s.do("POST", "/api/workflows/"+wf+"/trigger", map[string]any{"connectionId": "con_nope"}), 404, "not_found")
	wantError(t, s.do("POST", "/api/workflows/"+wf+"/trigger", map[string]any{}), 422, "validation_failed")
	// Just under the limit is fine.
	s.trigger(wf, map[string]any{"blob": strings.Repeat("x", 99*1024)})
}
