package e2e_test

import (
	"bytes"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/testenv"
)

// syncBuffer is a bytes.Buffer a running command writes while the test
// reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestCLIWaitSaysWhatTheRunWaitsFor drives what a person at a terminal
// meets (issue 37 item 9): `--connection local` names the organization's
// local-edge connection whatever its name; `trigger --wait` prints the run's
// id and each change of its state on standard error — for a run waiting for
// an event, the event and the send-event command that ends the wait — while
// standard output keeps the output alone; `workflows ls` prints version
// counts and numbers, `runs show` the workflow's name, the version's number
// and the steps counted by state.
func TestCLIWaitSaysWhatTheRunWaitsFor(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	u := newCLIUser(t)
	if code, out, errOut := u.run(s.key+"\n", nil, "login", "--url", s.url+"/api", "--api-key-stdin"); code != 0 {
		t.Fatalf("login: exit %d\n%s%s", code, out, errOut)
	}
	wf, _ := s.workflow("approve", "workflow", chain("approve",
		node("approval", "wait_for_event", "approval", map[string]any{"eventType": "approval", "timeout": "1 hour"}),
		step("after", "return { approved: {{approval.ok}} };")))
	s.version(wf, chain("approve",
		node("approval", "wait_for_event", "approval", map[string]any{"eventType": "approval", "timeout": "1 hour"}),
		step("after", "return { approved: {{approval.ok}}, second: true };")))

	// The server's local-edge connection is named "edge": "local" finds it.
	u.must(0, "deploy", "approve", "--connection", "local")
	ls := u.must(0, "workflows", "ls")
	if !regexp.MustCompile(`(?m)^approve\s+wf_\S+\s+workflow\s+2\s+v2\s+v2\s`).MatchString(ls) {
		t.Errorf("workflows ls does not say 2 versions, v2 current and deployed:\n%s", ls)
	}

	cmd := exec.Command(u.bin, "trigger", "approve", "--wait")
	cmd.Dir, cmd.Env = u.dir, u.env
	var stdout, stderr syncBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() { cmd.Process.Kill() })

	waiting := regexp.MustCompile(`(run_\w+) paused: waiting for event "approval" — edgeflow send-event (run_\w+) --type approval`)
	var runID string
	testenv.WaitFor(t, 2*time.Minute, 100*time.Millisecond, "trigger --wait to say the run waits for approval", func() (bool, string) {
		m := waiting.FindStringSubmatch(stderr.String())
		if m == nil {
			return false, stderr.String()
		}
		if m[1] != m[2] {
			t.Fatalf("the waiting line names two runs: %q", m[0])
		}
		runID = m[1]
		return true, ""
	})
	if stdout.String() != "" {
		t.Errorf("trigger --wait wrote to standard output before the run ended: %q", stdout.String())
	}
	u.must(0, "send-event", runID, "--type", "approval", "--payload", `{"ok": true}`)
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("trigger --wait: %v\nstderr: %s", err, stderr.String())
		}
	case <-time.After(3 * time.Minute):
		t.Fatalf("trigger --wait did not end after the event; stderr:\n%s", stderr.String())
	}
	if !strings.Contains(stdout.String(), `"approved": true`) || !strings.Contains(stdout.String(), `"second": true`) {
		t.Errorf("trigger --wait output: %q", stdout.String())
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if last := lines[len(lines)-1]; last != runID+" complete" {
		t.Errorf("the last state line is %q, want %q (all: %q)", last, runID+" complete", lines)
	}
	for i := 1; i < len(lines); i++ {
		if lines[i] == lines[i-1] {
			t.Errorf("the state line %q is printed twice in a row", lines[i])
		}
	}

	show := u.must(0, "runs", "show", runID)
	for _, want := range []string{"approve (" + wf + ")", "v2 (", "2 complete"} {
		if !strings.Contains(show, want) {
			t.Errorf("runs show lacks %q:\n%s", want, show)
		}
	}
}
