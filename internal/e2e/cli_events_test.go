package e2e_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestCLIEventsByTypeAndTakedown drives what an operator does from a
// terminal without a run id at hand: `send-event --type` wakes every run of
// the workflow waiting for the type and lists them, `events ls`/`show`
// read it back and `events replay` sends it again (to nobody: the runs
// went on); then `takedown` asks before it deletes, refuses without an
// answer, and with --yes takes the deployment down so that a trigger is
// refused, while the workflow and its runs stay.
func TestCLIEventsByTypeAndTakedown(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	u := newCLIUser(t)
	if code, out, errOut := u.run(s.key+"\n", nil, "login", "--url", s.url+"/api", "--api-key-stdin"); code != 0 {
		t.Fatalf("login: exit %d\n%s%s", code, out, errOut)
	}
	wf, _ := s.workflow("settle", "workflow", chain("settle",
		node("paid", "wait_for_event", "paid", map[string]any{"eventType": "payment-settled", "timeout": "1 hour"}),
		step("after", "return { order: {{event.payload.order}}, amount: {{paid.amount}} };")))
	u.must(0, "deploy", "settle", "--connection", "local")

	// Bad input first: a type is required, and --workflow goes with a send by type only.
	if code, _, errOut := u.run("", nil, "send-event"); code != 2 || !strings.Contains(errOut, "--type is required") {
		t.Fatalf("send-event without --type: exit %d, %q", code, errOut)
	}
	if code, _, errOut := u.run("", nil, "send-event", "run_x", "--type", "a", "--workflow", "settle"); code != 2 || !strings.Contains(errOut, "--workflow goes with a send by type") {
		t.Fatalf("send-event RUN --workflow: exit %d, %q", code, errOut)
	}

	ids := []string{s.trigger(wf, map[string]any{"order": 1}), s.trigger(wf, map[string]any{"order": 2})}
	for _, id := range ids {
		s.waitRun(wf, id, 2*time.Minute, "waiting for the payment", func(r run) bool { return r.Status == "paused" && r.StatusDetail == "waiting" })
	}
	out := u.must(0, "send-event", "--type", "payment-settled", "--workflow", "settle", "--payload", `{"amount": 42}`)
	m := regexp.MustCompile(`Sent event "payment-settled" \((evt_\w+)\) to 2 runs:`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("send-event --type printed:\n%s", out)
	}
	eventID := m[1]
	for _, id := range ids {
		if !regexp.MustCompile(`(?m)^` + id + `\s+settle\s+delivered$`).MatchString(out) {
			t.Errorf("send-event --type does not list %s as delivered:\n%s", id, out)
		}
	}
	for i, id := range ids {
		r := s.waitStatus(wf, id, "complete", 2*time.Minute)
		var got map[string]any
		if err := json.Unmarshal(r.Output, &got); err != nil || got["amount"] != float64(42) || got["order"] != float64(i+1) {
			t.Errorf("run %s output %s, want order %d and amount 42", id, r.Output, i+1)
		}
	}

	ls := u.must(0, "events", "ls")
	if !regexp.MustCompile(`(?m)^` + eventID + `\s+payment-settled\s+\S+ \S+\s+2\s+-$`).MatchString(ls) {
		t.Errorf("events ls:\n%s", ls)
	}
	show := u.must(0, "events", "show", eventID)
	for _, want := range []string{`Payload: {"amount":42}`, ids[0], ids[1]} {
		if !strings.Contains(show, want) {
			t.Errorf("events show lacks %q:\n%s", want, show)
		}
	}
	if code, _, errOut := u.run("", nil, "events", "show", "evt_doesnotexist"); code != 3 || !strings.Contains(errOut, "not_found") {
		t.Errorf("events show of an unknown event: exit %d, %q", code, errOut)
	}
	replay := u.must(0, "events", "replay", eventID)
	if !strings.Contains(replay, `Replayed event "payment-settled"`) || !strings.Contains(replay, "no run was waiting for it") {
		t.Errorf("events replay:\n%s", replay)
	}
	if ls := u.must(0, "events", "ls"); !strings.Contains(ls, eventID) || !regexp.MustCompile(`(?m)\s0\s+`+eventID+`$`).MatchString(ls) {
		t.Errorf("events ls after the replay does not list it as a replay of %s:\n%s", eventID, ls)
	}

	// takedown asks first: no answer on standard input refuses, "n" keeps it.
	if code, _, errOut := u.run("", nil, "takedown", "settle", "--connection", "local"); code != 2 || !strings.Contains(errOut, "add --yes") {
		t.Fatalf("takedown without an answer: exit %d, %q", code, errOut)
	}
	if code, _, errOut := u.run("n\n", nil, "takedown", "settle", "--connection", "local"); code != 1 || !strings.Contains(errOut, "not taken down") {
		t.Fatalf("takedown answered n: exit %d, %q", code, errOut)
	}
	s.trigger(wf, map[string]any{"order": 3})
	if out := u.must(0, "takedown", "settle", "--connection", "local", "--yes"); !strings.Contains(out, `Took "settle" down from "`) {
		t.Errorf("takedown printed %q", out)
	}
	s.must(409, "POST", "/api/workflows/"+wf+"/trigger", map[string]any{"connectionId": s.conn, "params": map[string]any{}})
	if code, _, errOut := u.run("", nil, "takedown", "settle", "--connection", "local", "--yes"); code != 1 || !strings.Contains(errOut, "conflict") {
		t.Errorf("a second takedown: exit %d, %q", code, errOut)
	}
	if n := len(s.runs(wf)); n != 3 {
		t.Errorf("the workflow has %d runs after the takedown, want its 3", n)
	}
}
