package deploy_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

func TestDescribeSteps(t *testing.T) {
	t.Parallel()
	// Step names as codegen.StepNames gives them, inverted: two nodes named
	// "Send" (the second one's step carries its id), a node inside a loop.
	names := map[string]string{"Load": "load", "Send": "send", "Send (send2)": "send2", "Each": "each", "Wait": "wait"}
	big := `"` + strings.Repeat("é", edgeflow.MaxStepOutput) + `"`
	raw := `[
	 {"type":"step","name":"Load","start":"2026-11-27T06:40:12.2Z","end":"2026-11-27T06:40:12.3Z","success":true,"output":{"id":1},
	  "attempts":[{"start":"2026-11-27T06:40:12.2Z","end":"2026-11-27T06:40:12.25Z","success":false,"error":{"name":"Error","message":"flaky"}},
	              {"start":"2026-11-27T06:40:12.26Z","end":"2026-11-27T06:40:12.3Z","success":true}]},
	 {"type":"step","name":"Each #0","start":"2026-11-27T06:40:13Z","end":"2026-11-27T06:40:13Z","success":true,"output":` + big + `,"attempts":[{"success":true}]},
	 {"type":"step","name":"Each #1.2","success":null,"output":null,"attempts":[{"success":false,"error":{"name":"TypeError","message":"x is undefined"}}]},
	 {"type":"sleep","name":"Pause","start":"2026-11-27T06:40:14Z","end":"2026-11-27T06:40:15Z","finished":true},
	 {"type":"waitForEvent","name":"Wait","finished":false},
	 {"type":"step","name":"Send (send2)","success":false,"output":null,"attempts":[{"success":false,"error":{"name":"Error","message":"refused"}}]},
	 {"type":"termination","trigger":{"source":"api"}}
	]`
	replayed := []edgeflow.ReplayedStep{{NodeID: "first", Name: "First", OriginalName: "First", Type: "step", Attempts: 1,
		Output: json.RawMessage(`{"from":"original"}`)}}
	got := deploy.DescribeSteps(json.RawMessage(raw), names, replayed, edgeflow.RunRunning)
	type row struct {
		NodeID, Name, State string
		Attempts            int
		Truncated           bool
		Err                 string
	}
	var rows []row
	for _, s := range got {
		r := row{s.NodeID, s.Name, s.State, s.Attempts, s.OutputTruncated, ""}
		if s.Error != nil {
			r.Err = s.Error.Name + ": " + s.Error.Message
		}
		rows = append(rows, r)
	}
	want := []row{
		{"first", "First", edgeflow.StepReplayed, 1, false, ""},
		{"load", "Load", edgeflow.StepComplete, 2, false, ""},
		{"each", "Each #0", edgeflow.StepComplete, 1, true, ""},
		{"each", "Each #1.2", edgeflow.StepRetrying, 1, false, "TypeError: x is undefined"},
		{"", "Pause", edgeflow.StepComplete, 0, false, ""},
		{"wait", "Wait", edgeflow.StepWaiting, 0, false, ""},
		{"send2", "Send (send2)", edgeflow.StepErrored, 1, false, "Error: refused"},
	}
	if len(rows) != len(want) {
		t.Fatalf("steps = %+v, want %+v", rows, want)
	}
	for i := range want {
		if rows[i] != want[i] {
			t.Errorf("step %d = %+v, want %+v", i, rows[i], want[i])
		}
	}
	if string(got[1].Output) != `{"id":1}` || got[1].StartedAt == nil || !got[1].StartedAt.Equal(time.Date(2026, 11, 27, 6, 40, 12, 2e8, time.UTC)) {
		t.Errorf("Load output %s, startedAt %v", got[1].Output, got[1].StartedAt)
	}
	if string(got[0].Output) != `{"from":"original"}` {
		t.Errorf("replayed output %s", got[0].Output)
	}
	// A truncated output is its first 64 KiB, cut on a character boundary,
	// as a JSON string.
	var cut string
	if err := json.Unmarshal(got[2].Output, &cut); err != nil || len(cut) > edgeflow.MaxStepOutput || len(cut) < edgeflow.MaxStepOutput-3 ||
		!strings.HasPrefix(big, cut) {
		t.Errorf("truncated output: %d bytes, err %v", len(cut), err)
	}
	if string(got[4].Output) != "null" {
		t.Errorf("a sleep's output = %s, want null", got[4].Output)
	}

	// The same steps of a finished run: nothing is left running or waiting.
	for _, s := range deploy.DescribeSteps(json.RawMessage(raw), names, nil, edgeflow.RunTerminated) {
		if s.State == edgeflow.StepRunning || s.State == edgeflow.StepRetrying || s.State == edgeflow.StepWaiting {
			t.Errorf("terminated run: step %s is %s", s.Name, s.State)
		}
	}
	if got := deploy.DescribeSteps(json.RawMessage(`not json`), names, nil, edgeflow.RunRunning); len(got) != 0 {
		t.Errorf("unreadable steps described as %+v", got)
	}
}

// TestDescribeRollbackSteps: the provider's rollback steps (listed after the
// others, named after the step they undo) are rolled_back, or
// rollback_failed with their last attempt's error, and belong to the node
// they undo; an agent's result step belongs to the agent.
func TestDescribeRollbackSteps(t *testing.T) {
	t.Parallel()
	names := map[string]string{"Charge": "charge", "Reserve": "reserve", "Fail": "fail", "Triage": "triage"}
	raw := `[
	 {"type":"step","name":"Charge","success":true,"output":{"id":"ch_1"},"attempts":[{"success":true}]},
	 {"type":"step","name":"agent Triage result","success":true,"output":{"answer":"ok"},"attempts":[{"success":true}]},
	 {"type":"step","name":"Reserve","success":true,"output":{"id":"r_1"},"attempts":[{"success":true}]},
	 {"type":"step","name":"Fail","success":false,"output":null,"attempts":[{"success":false,"error":{"name":"Error","message":"out of stock"}}]},
	 {"type":"rollback","name":"Reserve","start":"2026-11-27T06:40:14Z","end":"2026-11-27T06:40:15Z","success":true,"output":null,"attempts":[{"success":true}]},
	 {"type":"rollback","name":"Charge","success":false,"output":null,
	  "attempts":[{"success":false,"error":{"name":"Error","message":"refund refused"}},{"success":false,"error":{"name":"Error","message":"refund refused again"}}]}
	]`
	got := deploy.DescribeSteps(json.RawMessage(raw), names, nil, edgeflow.RunErrored)
	var rows []string
	for _, s := range got {
		r := s.NodeID + " " + s.Name + " " + s.Type + " " + s.State
		if s.Error != nil {
			r += " " + s.Error.Message
		}
		rows = append(rows, r)
	}
	want := []string{
		"charge Charge step complete",
		"triage agent Triage result step complete",
		"reserve Reserve step complete",
		"fail Fail step errored out of stock",
		"reserve Reserve rollback rolled_back",
		"charge Charge rollback rollback_failed refund refused again",
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Fatalf("steps:\n%s\nwant:\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
	if got[4].StartedAt == nil || got[4].EndedAt == nil || got[4].Attempts != 1 {
		t.Fatalf("rollback times and attempts: %+v", got[4])
	}
	if outcome := edgeflow.RunRollback(json.RawMessage(raw)); outcome != edgeflow.RollbackFailed {
		t.Fatalf("RunRollback = %q, want failed", outcome)
	}
}
