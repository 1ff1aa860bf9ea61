package e2e_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestStepOutputs: a run's step outputs read from the local edge's step
// endpoint: a large output in full (cut in the run's detail), each attempt
// of a retried step with its error, a stream's bytes as
// application/octet-stream, and clear errors with the field at fault.
func TestStepOutputs(t *testing.T) {
	// Not parallel: its attempts are compared one by one, and a step in
	// progress when the shared edge restarts a workerd (a deploy of another
	// test placed in the same group) runs again as another attempt. Tests
	// that are not parallel run before the parallel ones start deploying.
	requireEdge(t)
	s := newServer(t, serverOptions{})
	// The tries are counted in D1, not in the isolate's globals: the
	// edge may start a fresh isolate between two attempts.
	flaky := step("flaky", "await env.DB.prepare('INSERT INTO tries VALUES (1)').run();\nconst { n } = await env.DB.prepare('SELECT count(*) AS n FROM tries').first();\nif (n === 1) throw new Error('first try fails');\nreturn { tries: n };")
	flaky["config"] = map[string]any{"retries": map[string]any{"limit": 2, "delay": "1 second", "backoff": "constant"}}
	wf, _ := s.workflow("Outputs", "workflow", chain("Outputs",
		step("big", "return { text: 'x'.repeat(100000) };"),
		flaky,
		step("bytes", "return new Response('raw \\u0000 bytes').body;"),
		step("end", "return { ok: true };"),
	))
	s.deploy(wf)
	s.must(200, "POST", "/api/resources/d1/databases/"+s.projectD1()+"/query", map[string]any{"connectionId": s.conn, "sql": "CREATE TABLE tries (x INTEGER)"})
	id := s.trigger(wf, map[string]any{})
	r := s.waitStatus(wf, id, "complete", 60*time.Second)
	if len(r.Steps) != 4 {
		t.Fatalf("the run has %d steps, want 4", len(r.Steps))
	}
	for _, st := range r.Steps {
		if st.NodeID == "big" && !st.OutputTruncated {
			t.Fatalf("the run's detail does not cut the large output: %d bytes", len(st.Output))
		}
	}
	base := "/api/workflows/" + wf + "/runs/" + id + "/steps/"
	var out struct {
		RunID, NodeID, Name, State, Source string
		Attempt                            int
		Error                              *struct{ Name, Message string }
		Output                             json.RawMessage
	}
	s.must(200, "GET", base+"big/output", nil).into(&out)
	var big struct{ Text string }
	if err := json.Unmarshal(out.Output, &big); err != nil || len(big.Text) != 100000 || out.Source != "provider" || out.State != "complete" {
		t.Fatalf("big: %d characters, source %q, state %q (%v)", len(big.Text), out.Source, out.State, err)
	}
	out = struct {
		RunID, NodeID, Name, State, Source string
		Attempt                            int
		Error                              *struct{ Name, Message string }
		Output                             json.RawMessage
	}{}
	s.must(200, "GET", base+"flaky/output?attempt=1", nil).into(&out)
	if out.State != "errored" || out.Error == nil || !strings.Contains(out.Error.Message, "first try fails") || string(out.Output) != "null" {
		t.Fatalf("flaky attempt 1: %+v (output %s)", out, out.Output)
	}
	out.Error = nil
	s.must(200, "GET", base+"flaky/output?attempt=2", nil).into(&out)
	if out.State != "complete" || out.Error != nil || out.Attempt != 2 {
		t.Fatalf("flaky attempt 2: %+v", out)
	}
	jsonEqual(t, out.Output, `{"tries":2}`)

	// A stream output: its bytes.
	req, _ := http.NewRequest("GET", s.url+base+"bytes/output", nil)
	req.Header.Set("Authorization", "Bearer "+s.key)
	res, err := s.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/octet-stream" || string(body) != "raw \x00 bytes" {
		t.Fatalf("bytes: %d %s %q", res.StatusCode, res.Header.Get("Content-Type"), body)
	}

	// Errors name the field at fault.
	wantPath(t, s.do("GET", base+"flaky/output?attempt=9", nil), 404, "not_found", "?attempt", "")
	wantPath(t, s.do("GET", base+"flaky/output?attempt=0", nil), 422, "validation_failed", "?attempt", "")
	wantPath(t, s.do("GET", base+"nope/output", nil), 404, "not_found", "/nodeId", "")
	wantPath(t, s.do("GET", base+"big/output?iteration=x", nil), 422, "validation_failed", "?iteration", "")
	wantError(t, s.do("GET", "/api/workflows/"+wf+"/runs/run_nope/steps/big/output", nil), 404, "not_found")
	// Another tenant cannot read them.
	other := s.tenant("other-outputs@example.com")
	wantError(t, other.do("GET", base+"big/output", nil), 404, "not_found")
}

// TestRestartInPlace: mode in-place restarts the run's own instance from a
// step through the edge's native restart (the same run, the steps before
// it not run again), while replay stays the default; in place is refused
// once another version is deployed.
func TestRestartInPlace(t *testing.T) {
	t.Parallel()
	requireEdge(t)
	s := newServer(t, serverOptions{})
	load := counted("load", "return { x: 20 };")
	check := counted("check", "const row = await env.DB.prepare('SELECT ok FROM flags').first();\nif (!row || row.ok !== 1) throw new Error('the flag is off');\nreturn { z: {{load.x}} + 1 };")
	wf, _ := s.workflow("InPlace", "workflow", chain("InPlace", load, check))
	s.deploy(wf)
	db := s.projectD1()
	query := func(sql string) {
		s.must(200, "POST", "/api/resources/d1/databases/"+db+"/query", map[string]any{"connectionId": s.conn, "sql": sql})
	}
	query("CREATE TABLE counters (step TEXT PRIMARY KEY, n INTEGER); CREATE TABLE flags (ok INTEGER); INSERT INTO flags VALUES (0)")
	id := s.trigger(wf, map[string]any{})
	s.waitStatus(wf, id, "errored", 60*time.Second)
	wantCounters := counterWatch(t, s, db)
	wantCounters("the failed run", nil, []string{"load", "check"})
	restart := "/api/workflows/" + wf + "/runs/" + id + "/restart"
	wantPath(t, s.do("POST", restart, map[string]any{"fromStep": "check", "mode": "sideways"}), 422, "validation_failed", "/mode", "")
	wantPath(t, s.do("POST", restart, map[string]any{"fromStep": "check", "mode": "in-place", "version": "current"}), 422, "validation_failed", "/version", "")
	wantPath(t, s.do("POST", restart, map[string]any{"fromStep": "ghost", "mode": "in-place"}), 422, "validation_failed", "/fromStep", "")

	query("UPDATE flags SET ok = 1")
	var got run
	s.must(201, "POST", restart, map[string]any{"fromStep": "check", "mode": "in-place"}).into(&got)
	if got.ID != id || got.Status != "running" || got.EndedAt != nil || got.RestartOf != "" {
		t.Fatalf("restarted in place: %+v", got)
	}
	r := s.waitStatus(wf, id, "complete", 60*time.Second)
	jsonEqual(t, r.Output, `{"z":21}`)
	// load kept its result; check executed again (counterWatch: a workerd
	// restart mid-step may execute a step more than once)
	wantCounters("the restart in place", []string{"load"}, []string{"check"})

	// Another version deployed: in place is refused, replay still works.
	s.version(wf, chain("InPlace", counted("load", "return { x: 30 };"), check))
	s.deploy(wf)
	r409 := wantError(t, s.do("POST", restart, map[string]any{"fromStep": "check", "mode": "in-place"}), 409, "conflict")
	if msg, _ := r409["error"].(string); !strings.Contains(msg, "no longer the one deployed") {
		t.Fatalf("in place with another version deployed: %v", r409)
	}
	replayed := s.must(201, "POST", restart, map[string]any{"fromStep": "check", "version": "current"}).str("id")
	if replayed == id {
		t.Fatal("a replay restarted the run in place")
	}
	s.waitStatus(wf, replayed, "complete", 60*time.Second)
}
