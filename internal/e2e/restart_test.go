package e2e_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// counted is a step that adds one to its counter row in D1 (table
// counters) each time it executes, then runs code.
func counted(id, code string) map[string]any {
	s := step(id, fmt.Sprintf("await env.DB.prepare(\"INSERT INTO counters (step, n) VALUES ('%s', 1) ON CONFLICT(step) DO UPDATE SET n = n + 1\").run();\n%s", id, code))
	s["config"] = map[string]any{"retries": map[string]any{"limit": 0, "delay": "1 second", "backoff": "constant"}}
	return s
}

// counterWatch reads the counters table of D1 database db and compares it
// with its last reading: wantCounters fails when a step of same changed
// its counter or one of more did not. Counters are compared with the
// ones before each step of a test: a step in progress when the shared
// edge's workerd restarts (each deploy of the package's other tests may
// restart it) executes again, so only "not executed again" and
// "executed" are exact.
func counterWatch(t *testing.T, s *server, db string) (wantCounters func(what string, same, more []string)) {
	last := map[string]int{}
	return func(what string, same, more []string) {
		t.Helper()
		var rows d1Rows
		s.must(200, "POST", "/api/resources/d1/databases/"+db+"/query", map[string]any{"connectionId": s.conn,
			"sql": "SELECT step, n FROM counters ORDER BY step"}).into(&rows)
		got := map[string]int{}
		for _, r := range rows.Rows {
			got[r[0].(string)] = int(r[1].(float64))
		}
		for _, k := range same {
			if got[k] != last[k] {
				t.Fatalf("%s: step %s executed again: counters %v, before %v", what, k, got, last)
			}
		}
		for _, k := range more {
			if got[k] <= last[k] {
				t.Fatalf("%s: step %s did not execute: counters %v, before %v", what, k, got, last)
			}
		}
		last = got
	}
}

// projectD1 is the id of the D1 database the project's workflows bind as DB.
func (s *server) projectD1() string {
	s.t.Helper()
	var dbs struct {
		Data []struct{ ID, Name string } `json:"data"`
	}
	s.must(200, "GET", "/api/resources/d1/databases?connectionId="+s.conn, nil).into(&dbs)
	mark := strings.ReplaceAll(s.projID, "_", "-")
	for _, d := range dbs.Data {
		if strings.Contains(d.Name, mark) {
			return d.ID
		}
	}
	s.t.Fatalf("no D1 database of the project among %+v", dbs.Data)
	return ""
}

// TestRestartFromStep: a run fails at a step that reads a flag row in D1;
// with the flag fixed, a restart from that step completes, and the steps
// before it did not run again (their counters in D1 say so). A restart
// with "current" runs a newer version; each refusal creates no run.
func TestRestartFromStep(t *testing.T) {
	t.Parallel()
	requireEdge(t)
	s := newServer(t, serverOptions{})
	load := counted("load", "return { x: event.payload.x };")
	double := counted("double", "return { y: {{load.x}} * 2 };")
	check := counted("check", "const row = await env.DB.prepare('SELECT ok FROM flags').first();\nif (!row || row.ok !== 1) throw new Error('the flag is off');\nreturn { z: {{double.y}} + 1 };")
	done := counted("done", "return { total: {{check.z}}, version: 1 };")
	wf, _ := s.workflow("Restartable", "workflow", chain("Restartable", load, double, check, done))
	s.deploy(wf)
	db := s.projectD1()
	s.must(200, "POST", "/api/resources/d1/databases/"+db+"/query", map[string]any{"connectionId": s.conn,
		"sql": "CREATE TABLE counters (step TEXT PRIMARY KEY, n INTEGER); CREATE TABLE flags (ok INTEGER); INSERT INTO flags VALUES (0)"})
	wantCounters := counterWatch(t, s, db)
	runCount := func() int {
		t.Helper()
		var page struct {
			Data []json.RawMessage `json:"data"`
		}
		s.must(200, "GET", "/api/workflows/"+wf+"/runs?limit=100", nil).into(&page)
		return len(page.Data)
	}
	restart := func(runID string, body map[string]any) reply {
		return s.do("POST", "/api/workflows/"+wf+"/runs/"+runID+"/restart", body)
	}

	first := s.trigger(wf, map[string]any{"x": 20})
	failed := s.waitStatus(wf, first, "errored", 60*time.Second)
	if !strings.Contains(failed.Error, "the flag is off") {
		t.Fatalf("first run = %+v", failed)
	}
	states := func(r run) string {
		var b []string
		for _, st := range r.Steps {
			b = append(b, st.NodeID+":"+st.State)
		}
		return strings.Join(b, " ")
	}
	if got := states(failed); got != "load:complete double:complete check:errored" {
		t.Fatalf("steps of the failed run: %s", got)
	}
	if e := failed.Steps[2].Error; e == nil || !strings.Contains(e.Message, "the flag is off") {
		t.Fatalf("the failed step's error = %+v", e)
	}
	wantCounters("after the failed run", []string{"done"}, []string{"load", "double", "check"})

	// Refusals, each creating nothing.
	before := runCount()
	wantError(t, restart(first, map[string]any{"fromStep": "done"}), 409, "conflict")          // check did not complete
	wantError(t, restart(first, map[string]any{"fromStep": "nope"}), 422, "validation_failed") // no such step
	wantError(t, restart(first, map[string]any{"fromStep": "check", "version": "older"}), 422, "validation_failed")
	if n := runCount(); n != before {
		t.Fatalf("refused restarts created runs: %d, then %d", before, n)
	}

	// The flag fixed, a restart from check completes without running load
	// and double again.
	s.must(200, "POST", "/api/resources/d1/databases/"+db+"/query", map[string]any{"connectionId": s.conn, "sql": "UPDATE flags SET ok = 1"})
	var created run
	r := restart(first, map[string]any{"fromStep": "check"})
	if r.status != 201 {
		t.Fatalf("restart answered %d: %s", r.status, r.body)
	}
	r.into(&created)
	if created.RestartOf != first || created.FromStep != "check" || created.ID == first {
		t.Fatalf("restarted run = %s", r.body)
	}
	second := s.waitStatus(wf, created.ID, "complete", 60*time.Second)
	jsonEqual(t, second.Output, `{"total": 41, "version": 1}`)
	if got := states(second); got != "load:replayed double:replayed check:complete done:complete" {
		t.Fatalf("steps of the restarted run: %s", got)
	}
	jsonEqual(t, second.Steps[1].Output, `{"y": 40}`)
	wantCounters("after the restart", []string{"load", "double"}, []string{"check", "done"})

	// A new version deployed: "same" is refused with a pointer to
	// "current", which runs the new version from the chosen step.
	v2done := counted("done", "return { total: {{check.z}}, version: 2 };")
	v2 := s.version(wf, chain("Restartable", load, double, check, v2done))
	if d := s.deploy(wf); d.VersionID != v2 {
		t.Fatalf("deployed %s, want %s", d.VersionID, v2)
	}
	m := wantError(t, restart(first, map[string]any{"fromStep": "check"}), 409, "conflict")
	if !strings.Contains(fmt.Sprint(m["error"]), `"current"`) {
		t.Fatalf("the refusal of same does not point to current: %v", m["error"])
	}
	r = restart(first, map[string]any{"fromStep": "check", "version": "current"})
	if r.status != 201 {
		t.Fatalf("restart with current answered %d: %s", r.status, r.body)
	}
	r.into(&created)
	third := s.waitStatus(wf, created.ID, "complete", 60*time.Second)
	jsonEqual(t, third.Output, `{"total": 41, "version": 2}`)
	wantCounters("after the restart on version 2", []string{"load", "double"}, []string{"check", "done"})

	// A version without a step the restart would replay is refused.
	v3check := counted("check", "return { z: {{load.x}} + 1 };")
	v3done := counted("done", "return { total: {{check.z}}, version: 3 };")
	s.version(wf, chain("Restartable", load, v3check, v3done))
	s.deploy(wf)
	before = runCount()
	m = wantError(t, restart(first, map[string]any{"fromStep": "check", "version": "current"}), 409, "conflict")
	if !strings.Contains(fmt.Sprint(m["error"]), "double") {
		t.Fatalf("the refusal does not name the missing step: %v", m["error"])
	}
	if n := runCount(); n != before {
		t.Fatalf("a refused restart created a run: %d, then %d", before, n)
	}
	// From the start, the new version runs everything again.
	r = restart(first, map[string]any{"version": "current"})
	if r.status != 201 {
		t.Fatalf("restart from the start answered %d: %s", r.status, r.body)
	}
	r.into(&created)
	fourth := s.waitStatus(wf, created.ID, "complete", 60*time.Second)
	jsonEqual(t, fourth.Output, `{"total": 21, "version": 3}`)
	wantCounters("after a restart from the start", []string{"double"}, []string{"load", "check", "done"})

	// Params may not carry the replay key through a trigger.
	wantError(t, s.do("POST", "/api/workflows/"+wf+"/trigger", map[string]any{"connectionId": s.conn,
		"params": map[string]any{"__edgeflowReplay": map[string]any{"load": 1}}}), 422, "validation_failed")
}
