package e2e_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCLIRunOutputAndRestartInPlace: `edgeflow runs output` prints a
// step's full output (not cut as in `runs show`), one attempt with its
// error, a stream's bytes (to standard output or --out), and exits with
// the usual statuses on bad input; `runs restart --in-place` restarts the
// run itself from a step once its cause is fixed.
func TestCLIRunOutputAndRestartInPlace(t *testing.T) {
	// Not parallel: its attempts are compared one by one, and a step in
	// progress when the shared edge restarts a workerd (a deploy of another
	// test placed in the same group) runs again as another attempt. Tests
	// that are not parallel run before the parallel ones start deploying.
	requireEdge(t)
	s := newServer(t, serverOptions{})
	u := newCLIUser(t)
	if code, out, errOut := u.run(s.key+"\n", nil, "login", "--url", s.url+"/api", "--api-key-stdin"); code != 0 {
		t.Fatalf("login: exit %d\n%s%s", code, out, errOut)
	}
	// The tries are counted in D1, not in the isolate's globals: the
	// edge may start a fresh isolate between two attempts.
	flaky := step("flaky", "await env.DB.prepare('INSERT INTO tries VALUES (1)').run();\nconst { n } = await env.DB.prepare('SELECT count(*) AS n FROM tries').first();\nif (n === 1) throw new Error('first try fails');\nreturn { tries: n };")
	flaky["config"] = map[string]any{"retries": map[string]any{"limit": 2, "delay": "1 second", "backoff": "constant"}}
	gate := step("gate", "const row = await env.DB.prepare('SELECT ok FROM flags').first();\nif (!row || row.ok !== 1) throw new Error('the flag is off');\nreturn { open: true };")
	gate["config"] = map[string]any{"retries": map[string]any{"limit": 0, "delay": "1 second", "backoff": "constant"}}
	wf, _ := s.workflow("cliout", "workflow", chain("cliout",
		step("big", "return { text: 'x'.repeat(100000) };"),
		flaky,
		step("bytes", "return new Response('raw bytes').body;"),
		gate,
	))
	s.deploy(wf)
	db := s.projectD1()
	query := func(sql string) {
		s.must(200, "POST", "/api/resources/d1/databases/"+db+"/query", map[string]any{"connectionId": s.conn, "sql": sql})
	}
	query("CREATE TABLE flags (ok INTEGER); INSERT INTO flags VALUES (0); CREATE TABLE tries (x INTEGER)")
	id := s.trigger(wf, map[string]any{})
	s.waitStatus(wf, id, "errored", 60*time.Second)

	var big struct{ Text string }
	if err := json.Unmarshal([]byte(u.must(0, "runs", "output", id, "big")), &big); err != nil || len(big.Text) != 100000 {
		t.Fatalf("runs output big: %d characters (%v)", len(big.Text), err)
	}
	code, out, errOut := u.run("", nil, "runs", "output", id, "flaky", "--attempt", "1")
	if code != 0 || strings.TrimSpace(out) != "null" || !strings.Contains(errOut, "first try fails") {
		t.Fatalf("runs output flaky --attempt 1: exit %d\n%s\n%s", code, out, errOut)
	}
	var attempt struct {
		Attempt int
		State   string
		Output  json.RawMessage
	}
	json.Unmarshal([]byte(u.must(0, "runs", "output", id, "flaky", "--attempt", "2", "--json")), &attempt)
	if attempt.Attempt != 2 || attempt.State != "complete" {
		t.Fatalf("runs output flaky --attempt 2 --json: %+v", attempt)
	}
	jsonEqual(t, attempt.Output, `{"tries":2}`)
	if out := u.must(0, "runs", "output", id, "bytes"); out != "raw bytes" {
		t.Fatalf("runs output bytes = %q", out)
	}
	u.must(0, "runs", "output", id, "bytes", "--out", "bytes.bin")
	if b, err := os.ReadFile(filepath.Join(u.dir, "bytes.bin")); err != nil || string(b) != "raw bytes" {
		t.Fatalf("--out file: %q %v", b, err)
	}
	if code, _, errOut := u.run("", nil, "runs", "output", id, "nope"); code != 3 || !strings.Contains(errOut, "nodeId") {
		t.Fatalf("unknown step: exit %d %s", code, errOut)
	}
	if code, _, _ := u.run("", nil, "runs", "output", id, "flaky", "--attempt", "zero"); code != 2 {
		t.Fatalf("--attempt zero: exit %d, want 2", code)
	}

	// Restart in place: refused with --version current, done once fixed.
	if code, _, errOut := u.run("", nil, "runs", "restart", id, "--from-step", "gate", "--in-place", "--version", "current"); code != 2 || !strings.Contains(errOut, "--in-place") {
		t.Fatalf("--in-place --version current: exit %d %s", code, errOut)
	}
	query("UPDATE flags SET ok = 1")
	out = u.must(0, "runs", "restart", id, "--from-step", "gate", "--in-place", "--wait")
	if !strings.Contains(out, `"open": true`) {
		t.Fatalf("runs restart --in-place --wait:\n%s", out)
	}
	if r := s.run(wf, id); r.Status != "complete" {
		t.Fatalf("the run after its restart in place: %s", r.Status)
	}
}
