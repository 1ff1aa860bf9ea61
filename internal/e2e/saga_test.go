package e2e_test

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/testenv"
)

// TestSagaRollsBackInReverseOrder: a three-step saga whose third step fails
// runs the rollbacks of the first two in the reverse order of their start,
// each with its step's output and the error that failed the run (the D1
// rows they write prove it); the run lists them as rolled_back steps after
// its other steps, and the run stream gets run.rolled_back after
// run.errored.
func TestSagaRollsBackInReverseOrder(t *testing.T) {
	// Not parallel: its D1 rows count each step's executions, and a step in
	// progress when the shared edge restarts a workerd (a deploy of another
	// test placed in the same group) runs again. Tests that are not parallel
	// run before the parallel ones start deploying.
	requireEdge(t)
	s := newServer(t, serverOptions{})
	logRow := func(what string) string {
		return "await env.DB.prepare('INSERT INTO saga (what) VALUES (?)').bind(" + what + ").run();"
	}
	charge := step("charge", logRow("'do charge'")+"\nreturn { id: 'ch_1' };")
	charge["config"] = map[string]any{"rollback": map[string]any{
		"code": logRow("'undo charge ' + output.id + ' after ' + error.message"), "retries": map[string]any{"limit": 1, "delay": "1 second"}}}
	reserve := step("reserve", logRow("'do reserve'")+"\nreturn { id: 'r_1' };")
	reserve["config"] = map[string]any{"rollback": map[string]any{"code": logRow("'undo reserve ' + output.id + ' try ' + {{step.attempt}}")}}
	ship := step("ship", logRow("'do ship'")+"\nthrow new Error('out of stock');")
	ship["config"] = map[string]any{"retries": map[string]any{"limit": 0, "delay": "1 second"}}
	wf, _ := s.workflow("saga", "workflow", chain("saga", charge, reserve, ship))
	s.deploy(wf)
	db := s.projectD1()
	s.must(200, "POST", "/api/resources/d1/databases/"+db+"/query", map[string]any{"connectionId": s.conn,
		"sql": "CREATE TABLE saga (id INTEGER PRIMARY KEY AUTOINCREMENT, what TEXT)"})
	start, err := s.store.LastEventSeq(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	id := s.trigger(wf, map[string]any{})
	r := s.waitStatus(wf, id, "errored", 90*time.Second)

	var q struct {
		Rows [][]any `json:"rows"`
	}
	s.must(200, "POST", "/api/resources/d1/databases/"+db+"/query", map[string]any{"connectionId": s.conn,
		"sql": "SELECT what FROM saga ORDER BY id"}).into(&q)
	var rows []string
	for _, row := range q.Rows {
		rows = append(rows, fmt.Sprint(row[0]))
	}
	want := []string{"do charge", "do reserve", "do ship", "undo reserve r_1 try 1", "undo charge ch_1 after out of stock"}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Fatalf("D1 rows:\n%s\nwant:\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}

	var steps []string
	for _, st := range r.Steps {
		steps = append(steps, st.NodeID+" "+st.State)
	}
	wantSteps := []string{"charge complete", "reserve complete", "ship errored", "reserve rolled_back", "charge rolled_back"}
	if strings.Join(steps, ", ") != strings.Join(wantSteps, ", ") {
		t.Fatalf("run steps: %v, want %v", steps, wantSteps)
	}

	var types []string
	testenv.WaitFor(t, 10*time.Second, 100*time.Millisecond, "the run's events", func() (bool, string) {
		events, err := s.store.ListEventsAfter(t.Context(), start, 1000)
		if err != nil {
			return false, err.Error()
		}
		types = types[:0]
		for _, e := range events {
			var data edgeflow.RunEvent
			if json.Unmarshal(e.Data, &data) == nil && data.ID == id {
				types = append(types, e.Type+data.Rollback)
			}
		}
		return len(types) > 0 && types[len(types)-1] == edgeflow.EventRunRolledBack+edgeflow.RollbackComplete, fmt.Sprint(types)
	})
	if n := len(types); n < 2 || types[n-2] != edgeflow.EventRunErrored {
		t.Fatalf("run events %v: want run.errored, then run.rolled_back", types)
	}
}

// TestRetryAfterAndStepContext: an http_request node whose retries wait
// "retry-after" waits the 15 seconds a 429's Retry-After asks for (measured
// between the two requests the local server received; without the header
// the wait would be the 10 s backoff: the Retry-After is the longer one, so
// that a loaded machine, which only makes waits longer, cannot pass a
// retry that ignored it off as one that honoured it), and its header
// "{{run.id}}-{{step.attempt}}" reaches the server as the run's instance id
// and each attempt's number.
func TestRetryAfterAndStepContext(t *testing.T) {
	// Not parallel: it counts the service's requests, and a step in progress
	// when the shared edge restarts a workerd (a deploy of another test placed
	// in the same group) runs again from its first attempt. Tests that are not
	// parallel run before the parallel ones start deploying.
	type hit struct {
		at  time.Time
		key string
	}
	var mu sync.Mutex
	var hits []hit
	ln, err := net.Listen("tcp", allowedHost+":0")
	if err != nil {
		t.Fatalf("listen on %s: %v", allowedHost, err)
	}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits = append(hits, hit{time.Now(), r.Header.Get("Idempotency-Key")})
		n := len(hits)
		mu.Unlock()
		if n == 1 {
			w.Header().Set("Retry-After", "15")
			http.Error(w, "slow down", http.StatusTooManyRequests)
			return
		}
		fmt.Fprint(w, "ok")
	})}}
	srv.Start()
	defer srv.Close()
	s := newServer(t, serverOptions{})
	call := node("call", "http_request", "call", map[string]any{"url": srv.URL + "/charge", "method": "POST",
		"headers": `{"Idempotency-Key": "{{run.id}}-{{step.attempt}}"}`, "body": `{"amount": 5}`})
	call["config"] = map[string]any{"retries": map[string]any{"limit": 2, "delay": "retry-after", "backoff": "constant"}}
	wf, _ := s.workflow("retryafter", "workflow", chain("retryafter", call))
	s.deploy(wf)
	id := s.trigger(wf, map[string]any{})
	r := s.waitStatus(wf, id, "complete", 3*time.Minute)
	mu.Lock()
	defer mu.Unlock()
	if len(hits) != 2 {
		t.Fatalf("the server got %d requests, want 2: %+v", len(hits), hits)
	}
	if want := []string{r.InstanceID + "-1", r.InstanceID + "-2"}; hits[0].key != want[0] || hits[1].key != want[1] {
		t.Fatalf("Idempotency-Key headers %q, %q; want %q", hits[0].key, hits[1].key, want)
	}
	if gap := hits[1].at.Sub(hits[0].at); gap < 14900*time.Millisecond {
		t.Fatalf("the retry came %v after the 429, want the 15 s of its Retry-After (the backoff would be 10 s)", gap)
	}
	if len(r.Steps) != 1 || r.Steps[0].Attempts != 2 {
		t.Fatalf("steps %+v", r.Steps)
	}
}

// TestRetryAfterFromMarketplaceNode: a marketplace node (slack-message
// 2.2.0, whose error names the response's Retry-After) with retries.delay
// "retry-after" against a service answering 429 with Retry-After: 15 sends
// its second request 15 s after the first at the earliest (measured between
// the server's two requests), not after the 10 s of its backoff.
func TestRetryAfterFromMarketplaceNode(t *testing.T) {
	// Not parallel: it counts the service's requests, and a step in progress
	// when the shared edge restarts a workerd (a deploy of another test placed
	// in the same group) runs again from its first attempt. Tests that are not
	// parallel run before the parallel ones start deploying.
	requireEdge(t)
	var mu sync.Mutex
	var hits []time.Time
	ln, err := net.Listen("tcp", allowedHost+":0")
	if err != nil {
		t.Fatalf("listen on %s: %v", allowedHost, err)
	}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits = append(hits, time.Now())
		n := len(hits)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if n == 1 {
			w.Header().Set("Retry-After", "15")
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprint(w, `{"ok": false, "error": "ratelimited"}`)
			return
		}
		fmt.Fprint(w, `{"ok": true, "channel": "C1", "ts": "1700000000.000100"}`)
	})}}
	srv.Start()
	defer srv.Close()
	s := newServer(t, serverOptions{})
	s.must(201, "POST", "/api/marketplace/install", map[string]any{"nodeId": "slack-message", "version": "2.2.0"})
	notify := node("notify", "slack-message", "Notify", map[string]any{"channel": "C1", "text": "hello", "baseUrl": srv.URL})
	notify["version"] = "2.2.0"
	notify["config"] = map[string]any{"retries": map[string]any{"limit": 2, "delay": "retry-after", "backoff": "constant"}}
	wf, _ := s.workflow("mp-retryafter", "workflow", chain("mp-retryafter", notify))
	s.must(200, "PATCH", "/api/workflows/"+wf, map[string]any{"envVars": []map[string]any{
		{"name": "SLACK_BOT_TOKEN", "value": "xoxb-e2e", "isSecret": true}}})
	s.deploy(wf)
	id := s.trigger(wf, map[string]any{})
	r := s.waitStatus(wf, id, "complete", 3*time.Minute)
	mu.Lock()
	defer mu.Unlock()
	if len(hits) != 2 {
		t.Fatalf("the service got %d requests, want 2", len(hits))
	}
	if gap := hits[1].Sub(hits[0]); gap < 14900*time.Millisecond {
		t.Fatalf("the retry came %v after the 429, want the 15 s of its Retry-After (the backoff would be 10 s)", gap)
	}
	if len(r.Steps) != 1 || r.Steps[0].Attempts != 2 {
		t.Fatalf("steps %+v", r.Steps)
	}
}

// TestSagaRollbackFails: a rollback that keeps failing is rollback_failed
// with its error once its retries are spent, and run.rolled_back says the
// rollback failed.
func TestSagaRollbackFails(t *testing.T) {
	t.Parallel()
	requireEdge(t)
	s := newServer(t, serverOptions{})
	book := step("book", "return { seat: '12A' };")
	book["config"] = map[string]any{"rollback": map[string]any{
		"code": "throw new Error('cannot free seat ' + output.seat);", "retries": map[string]any{"limit": 1, "delay": "1 second"}}}
	pay := step("pay", "throw new Error('card declined');")
	pay["config"] = map[string]any{"retries": map[string]any{"limit": 0, "delay": "1 second"}}
	wf, _ := s.workflow("saga-fails", "workflow", chain("saga-fails", book, pay))
	s.deploy(wf)
	start, err := s.store.LastEventSeq(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	id := s.trigger(wf, map[string]any{})
	r := s.waitStatus(wf, id, "errored", 90*time.Second)
	if n := len(r.Steps); n != 3 || r.Steps[2].NodeID != "book" || r.Steps[2].State != "rollback_failed" ||
		r.Steps[2].Attempts != 2 || r.Steps[2].Error == nil || !strings.Contains(r.Steps[2].Error.Message, "cannot free seat 12A") {
		t.Fatalf("steps %+v", r.Steps)
	}
	testenv.WaitFor(t, 10*time.Second, 100*time.Millisecond, "run.rolled_back", func() (bool, string) {
		events, err := s.store.ListEventsAfter(t.Context(), start, 1000)
		if err != nil {
			return false, err.Error()
		}
		for _, e := range events {
			var data edgeflow.RunEvent
			if e.Type == edgeflow.EventRunRolledBack && json.Unmarshal(e.Data, &data) == nil && data.ID == id {
				return data.Rollback == edgeflow.RollbackFailed, "outcome " + data.Rollback
			}
		}
		return false, "no run.rolled_back"
	})
}

// TestRestartedRunRollsBackReplayedStep: a run restarted from its failed
// step takes the step before it from the first run without running it
// again, and when the failed step fails again the replayed step is still
// rolled back (D1 rows: the charge ran once, its rollback twice).
func TestRestartedRunRollsBackReplayedStep(t *testing.T) {
	t.Parallel()
	requireEdge(t)
	s := newServer(t, serverOptions{})
	logRow := func(what string) string {
		return "await env.DB.prepare('INSERT INTO saga (what) VALUES (?)').bind(" + what + ").run();"
	}
	charge := step("charge", logRow("'do charge'")+"\nreturn { id: 'ch_1' };")
	charge["config"] = map[string]any{"rollback": map[string]any{"code": logRow("'undo charge ' + output.id")}}
	ship := step("ship", logRow("'do ship'")+"\nthrow new Error('out of stock');")
	ship["config"] = map[string]any{"retries": map[string]any{"limit": 0, "delay": "1 second"}}
	wf, _ := s.workflow("saga-restart", "workflow", chain("saga-restart", charge, ship))
	s.deploy(wf)
	db := s.projectD1()
	s.must(200, "POST", "/api/resources/d1/databases/"+db+"/query", map[string]any{"connectionId": s.conn,
		"sql": "CREATE TABLE saga (id INTEGER PRIMARY KEY AUTOINCREMENT, what TEXT)"})
	first := s.trigger(wf, map[string]any{})
	r0 := s.waitStatus(wf, first, "errored", 90*time.Second)
	again := s.must(201, "POST", "/api/workflows/"+wf+"/runs/"+first+"/restart", map[string]any{"fromStep": "ship"}).str("id")
	r := s.waitStatus(wf, again, "errored", 90*time.Second)

	var q struct {
		Rows [][]any `json:"rows"`
	}
	s.must(200, "POST", "/api/resources/d1/databases/"+db+"/query", map[string]any{"connectionId": s.conn,
		"sql": "SELECT what FROM saga ORDER BY id"}).into(&q)
	var rows []string
	for _, row := range q.Rows {
		rows = append(rows, fmt.Sprint(row[0]))
	}
	want := []string{"do charge", "do ship", "undo charge ch_1", "do ship", "undo charge ch_1"}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Fatalf("D1 rows:\n%s\nwant:\n%s\nthe first run's steps:\n%s\nthe restarted run's steps:\n%s", strings.Join(rows, "\n"),
			strings.Join(want, "\n"), describeSteps(r0.Steps), describeSteps(r.Steps))
	}
	var rolledBack bool
	for _, st := range r.Steps {
		rolledBack = rolledBack || st.NodeID == "charge" && st.State == "rolled_back"
	}
	if !rolledBack {
		t.Fatalf("the restarted run's steps %+v have no rolled back charge", r.Steps)
	}
}
