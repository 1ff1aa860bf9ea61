package e2e_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// bulkJob is GET /api/runs/bulk/:id's answer.
type bulkJob struct {
	ID          string `json:"id"`
	State       string `json:"state"`
	Matched     int    `json:"matched"`
	Done        int    `json:"done"`
	FailedCount int    `json:"failedCount"`
	Failed      []struct {
		RunID string `json:"runId"`
		Error string `json:"error"`
	} `json:"failed"`
}

// TestBulkRestartAndReplay on the real local edge: 50 runs fail on a flag
// in D1; a dry run answers them and acts on nothing; a job cancelled
// before any replica took it acts on nothing; with the flag fixed, a bulk
// restart from the failing step completes all 50 without running the step
// before it again; the job is audited once with its filter and counts. A
// replay with other params runs them and records replayOf and
// paramsChanged; a bulk delete deletes the failed runs. The server runs no
// refresher here, so the test carries the jobs out itself (BulkTick), as
// serve's refresher does.
func TestBulkRestartAndReplay(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	load := counted("load", "return { i: event.payload.i };")
	check := counted("check", "const row = await env.DB.prepare('SELECT ok FROM flags').first();\n"+
		"if (!row || row.ok !== 1) throw new Error('the flag is off');\nreturn { i: {{load.i}}, tag: event.payload.tag ?? null };")
	wf, _ := s.workflow("Bulk", "workflow", chain("Bulk", load, check))
	s.deploy(wf)
	db := s.projectD1()
	sql := func(q string) d1Rows {
		t.Helper()
		var rows d1Rows
		s.must(200, "POST", "/api/resources/d1/databases/"+db+"/query", map[string]any{"connectionId": s.conn, "sql": q}).into(&rows)
		return rows
	}
	sql("CREATE TABLE counters (step TEXT PRIMARY KEY, n INTEGER); CREATE TABLE flags (ok INTEGER); INSERT INTO flags VALUES (0)")
	counter := func(step string) int {
		t.Helper()
		rows := sql("SELECT n FROM counters WHERE step = '" + step + "'")
		if len(rows.Rows) == 0 {
			return 0
		}
		return int(rows.Rows[0][0].(float64))
	}
	const n = 50
	var failed []string
	for i := range n {
		failed = append(failed, s.trigger(wf, map[string]any{"i": i}))
	}
	for _, id := range failed {
		s.waitStatus(wf, id, "errored", 120*time.Second)
	}
	runs := func() []run {
		t.Helper()
		var page struct {
			Data []run `json:"data"`
		}
		s.must(200, "GET", "/api/workflows/"+wf+"/runs?limit=100", nil).into(&page)
		return page.Data
	}
	filter := map[string]any{"workflowId": wf, "status": "errored"}
	tick := func() bool {
		t.Helper()
		did, err := s.dep.BulkTick(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return did
	}
	job := func(id string) bulkJob {
		t.Helper()
		var j bulkJob
		s.must(200, "GET", "/api/runs/bulk/"+id, nil).into(&j)
		return j
	}

	// A dry run answers the runs and acts on nothing.
	var dry struct {
		ID      string   `json:"id"`
		Matched int      `json:"matched"`
		DryRun  bool     `json:"dryRun"`
		RunIDs  []string `json:"runIds"`
	}
	s.must(202, "POST", "/api/runs/bulk", map[string]any{"action": "restart", "filter": filter, "fromStep": "check", "dryRun": true}).into(&dry)
	if dry.ID != "" || dry.Matched != n || !dry.DryRun || len(dry.RunIDs) != 20 || dry.RunIDs[0] != failed[n-1] {
		t.Fatalf("dry run = %+v", dry)
	}
	if tick() {
		t.Fatal("a dry run left a job to carry out")
	}
	if got := len(runs()); got != n {
		t.Fatalf("after the dry run: %d runs", got)
	}

	// Refusals name the field.
	wantError(t, s.do("POST", "/api/runs/bulk", map[string]any{"action": "explode", "filter": filter}), 422, "validation_failed")
	wantError(t, s.do("POST", "/api/runs/bulk", map[string]any{"action": "restart", "filter": map[string]any{"status": "broken"}}), 422, "validation_failed")
	wantError(t, s.do("POST", "/api/runs/bulk", map[string]any{"action": "delete", "filter": filter, "fromStep": "check"}), 422, "validation_failed")

	// A job cancelled before a replica takes it acts on nothing.
	var started struct {
		ID      string `json:"id"`
		Matched int    `json:"matched"`
	}
	s.must(202, "POST", "/api/runs/bulk", map[string]any{"action": "restart", "filter": filter, "fromStep": "check"}).into(&started)
	if started.ID == "" || started.Matched != n {
		t.Fatalf("bulk restart = %+v", started)
	}
	if j := job(started.ID); j.State != "running" || j.Done != 0 {
		t.Fatalf("a job not taken yet = %+v", j)
	}
	var cancelled bulkJob
	s.must(200, "DELETE", "/api/runs/bulk/"+started.ID, nil).into(&cancelled)
	if cancelled.State != "cancelled" || cancelled.Done != 0 {
		t.Fatalf("cancelled = %+v", cancelled)
	}
	if tick() {
		t.Fatal("a cancelled job was carried out")
	}
	if got := len(runs()); got != n {
		t.Fatalf("after the cancelled job: %d runs", got)
	}

	// The flag fixed, a bulk restart from check completes all 50, and load
	// does not run again.
	sql("UPDATE flags SET ok = 1")
	loads := counter("load")
	s.must(202, "POST", "/api/runs/bulk", map[string]any{"action": "restart", "filter": filter, "fromStep": "check"}).into(&started)
	if !tick() {
		t.Fatal("no job to carry out")
	}
	j := job(started.ID)
	if j.State != "complete" || j.Matched != n || j.Done != n || j.FailedCount != 0 {
		t.Fatalf("the bulk restart = %+v", j)
	}
	origin := map[string]bool{}
	for _, id := range failed {
		origin[id] = true
	}
	restarted := 0
	for _, r := range runs() {
		if r.RestartOf == "" {
			continue
		}
		if !origin[r.RestartOf] || r.FromStep != "check" {
			t.Fatalf("restarted run %+v", r)
		}
		restarted++
		done := s.waitStatus(wf, r.ID, "complete", 120*time.Second)
		if len(done.Steps) != 2 || done.Steps[0].State != "replayed" {
			t.Fatalf("steps of %s: %+v", r.ID, done.Steps)
		}
	}
	if restarted != n {
		t.Fatalf("%d restarted runs, want %d", restarted, n)
	}
	if got := counter("load"); got != loads {
		t.Fatalf("load executed again: %d, then %d", loads, got)
	}

	// Audited once per job, with the filter and the counts.
	var audit struct {
		Data []struct {
			Target  struct{ ID string } `json:"target"`
			Details json.RawMessage     `json:"details"`
		} `json:"data"`
	}
	s.must(200, "GET", "/api/audit?action=run.bulk", nil).into(&audit)
	entries := map[string]string{}
	for _, e := range audit.Data {
		if e.Target.ID == "" {
			continue // a request that started no job: a dry run, a refusal
		}
		if _, dup := entries[e.Target.ID]; dup {
			t.Fatalf("job %s audited twice", e.Target.ID)
		}
		entries[e.Target.ID] = string(e.Details)
	}
	if d := entries[started.ID]; !strings.Contains(d, `"done":50`) || !strings.Contains(d, `"matched":50`) || !strings.Contains(d, wf) ||
		!strings.Contains(d, `"state":"complete"`) {
		t.Fatalf("the job's audit entry: %s (entries %v)", d, entries)
	}
	if d := entries[cancelled.ID]; !strings.Contains(d, `"state":"cancelled"`) || !strings.Contains(d, `"done":0`) {
		t.Fatalf("the cancelled job's audit entry: %s", d)
	}

	// A replay with other params: a new run from the start with them.
	var replayed run
	r := s.do("POST", "/api/workflows/"+wf+"/runs/"+failed[0]+"/replay", map[string]any{"params": map[string]any{"i": 7, "tag": "fixed"}})
	if r.status != 201 {
		t.Fatalf("replay answered %d: %s", r.status, r.body)
	}
	r.into(&replayed)
	m := r.obj()
	if m["replayOf"] != failed[0] || m["paramsChanged"] != true || m["restartOf"] != nil {
		t.Fatalf("replayed run = %s", r.body)
	}
	done := s.waitStatus(wf, replayed.ID, "complete", 60*time.Second)
	jsonEqual(t, done.Output, `{"i": 7, "tag": "fixed"}`)
	same := s.do("POST", "/api/workflows/"+wf+"/runs/"+failed[1]+"/replay", map[string]any{"params": map[string]any{"i": 1}, "fromStep": "check"})
	if same.status != 201 || same.obj()["paramsChanged"] != nil {
		t.Fatalf("a replay with the same params answered %d: %s", same.status, same.body)
	}
	wantError(t, s.do("POST", "/api/workflows/"+wf+"/runs/"+failed[0]+"/replay", map[string]any{"params": []int{1}}), 422, "validation_failed")
	wantError(t, s.do("POST", "/api/workflows/"+wf+"/runs/"+failed[0]+"/replay", map[string]any{}), 422, "validation_failed")
	wantError(t, s.do("POST", "/api/workflows/"+wf+"/runs/"+failed[0]+"/replay",
		map[string]any{"params": map[string]any{"big": strings.Repeat("x", 101*1024)}}), 413, "payload_too_large")

	// A bulk delete deletes the 50 failed runs and nothing else.
	s.must(202, "POST", "/api/runs/bulk", map[string]any{"action": "delete", "filter": filter}).into(&started)
	if started.Matched != n || !tick() {
		t.Fatalf("bulk delete = %+v", started)
	}
	if j := job(started.ID); j.State != "complete" || j.Done != n || j.FailedCount != 0 {
		t.Fatalf("the bulk delete = %+v", j)
	}
	if got := len(runs()); got != n+2 { // the restarted runs and the two replays
		t.Fatalf("after the bulk delete: %d runs, want %d", got, n+2)
	}
	wantError(t, s.do("GET", "/api/workflows/"+wf+"/runs/"+failed[0], nil), 404, "not_found")
}
