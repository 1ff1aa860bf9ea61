package storetest

import (
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// testRunUsage: the token usage a run's write carries is kept with it, read
// back by the run's reads and lists, and summed per workflow over the run
// search's filters, most tokens first; runs without model calls, other
// projects and runs past the limit are not counted, and Partial says so.
func testRunUsage(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	a := newTenant(t, s)
	b := newTenant(t, s)
	w := newWorkflow(t, s, a.project.ID, "triage")
	w2 := newWorkflow(t, s, a.project.ID, "summarize")
	mk := func(wf *edgeflow.Workflow, status string, in, out int64) *edgeflow.Run {
		t.Helper()
		r := &edgeflow.Run{WorkflowID: wf.ID, Status: edgeflow.RunQueued}
		must(t, s.CreateRun(ctx, r))
		r.Status = status
		if in >= 0 {
			r.Usage = &edgeflow.TokenUsage{InputTokens: in, OutputTokens: out}
		}
		must(t, s.UpdateRun(ctx, r))
		time.Sleep(2 * time.Millisecond) // distinct creation times for the range
		return r
	}
	r1 := mk(w, edgeflow.RunComplete, 100, 10)
	mk(w, edgeflow.RunErrored, 40, 4)
	mk(w, edgeflow.RunComplete, -1, 0) // no model call
	r4 := mk(w2, edgeflow.RunComplete, 500, 50)
	mk(&edgeflow.Workflow{ID: newWorkflow(t, s, b.project.ID, "other").ID}, edgeflow.RunComplete, 9000, 900)

	got, err := s.FindRunByID(ctx, w.ID, r1.ID)
	must(t, err)
	diff(t, "a run's usage read back", got.Usage, &edgeflow.TokenUsage{InputTokens: 100, OutputTokens: 10})
	page, err := s.ListRuns(ctx, edgeflow.RunFilter{ProjectID: a.project.ID, WorkflowID: w2.ID}, edgeflow.ListOptions{})
	must(t, err)
	if len(page.Items) != 1 || page.Items[0].Usage == nil || page.Items[0].Usage.InputTokens != 500 {
		t.Fatalf("a listed run's usage: %+v", page.Items)
	}

	sum, err := s.SumRunUsage(ctx, edgeflow.RunFilter{ProjectID: a.project.ID}, 1000)
	must(t, err)
	diff(t, "the project's usage", sum, edgeflow.RunUsage{InputTokens: 640, OutputTokens: 64, Runs: 3, Workflows: []edgeflow.WorkflowUsage{
		{WorkflowID: w2.ID, WorkflowName: "summarize", InputTokens: 500, OutputTokens: 50, Runs: 1},
		{WorkflowID: w.ID, WorkflowName: "triage", InputTokens: 140, OutputTokens: 14, Runs: 2},
	}})
	sum, err = s.SumRunUsage(ctx, edgeflow.RunFilter{ProjectID: a.project.ID, WorkflowID: w.ID, Status: edgeflow.RunComplete}, 1000)
	must(t, err)
	diff(t, "one workflow's complete runs", sum, edgeflow.RunUsage{InputTokens: 100, OutputTokens: 10, Runs: 1, Workflows: []edgeflow.WorkflowUsage{
		{WorkflowID: w.ID, WorkflowName: "triage", InputTokens: 100, OutputTokens: 10, Runs: 1},
	}})
	to := r4.CreatedAt
	sum, err = s.SumRunUsage(ctx, edgeflow.RunFilter{ProjectID: a.project.ID, To: &to}, 1000)
	must(t, err)
	if sum.InputTokens != 140 || sum.Runs != 2 || sum.Partial {
		t.Fatalf("before the last run: %+v", sum)
	}
	sum, err = s.SumRunUsage(ctx, edgeflow.RunFilter{ProjectID: a.project.ID}, 2)
	must(t, err)
	if sum.Runs != 2 || !sum.Partial || sum.InputTokens != 540 {
		t.Fatalf("the newest two runs of three: %+v", sum)
	}
	sum, err = s.SumRunUsage(ctx, edgeflow.RunFilter{ProjectID: a.project.ID}, 3)
	must(t, err)
	if sum.Runs != 3 || sum.Partial {
		t.Fatalf("exactly the limit: %+v", sum)
	}
	sum, err = s.SumRunUsage(ctx, edgeflow.RunFilter{ProjectID: newTenant(t, s).project.ID}, 1000)
	must(t, err)
	diff(t, "a project without runs", sum, edgeflow.RunUsage{Workflows: []edgeflow.WorkflowUsage{}})
}

// MigrationRunUsage checks migration 18 on an engine: the runs stored
// before it get their usage summed from their step lists (the successful
// "agent <node> turn N" steps only), a run without model calls and a run
// whose step list does not parse are left without usage. open opens the
// one database again each time; unmigrate takes it back to the schema
// before migration 18 (the statements run in order on a raw connection).
func MigrationRunUsage(t *testing.T, open func(t *testing.T) edgeflow.Store, unmigrate func(t *testing.T, broken string)) {
	ctx := t.Context()
	s := open(t)
	a := newTenant(t, s)
	w := newWorkflow(t, s, a.project.ID, "triage")
	mk := func(steps string) *edgeflow.Run {
		t.Helper()
		r := &edgeflow.Run{WorkflowID: w.ID, Status: edgeflow.RunQueued}
		must(t, s.CreateRun(ctx, r))
		r.Status, r.Steps = edgeflow.RunComplete, []byte(steps)
		must(t, s.UpdateRun(ctx, r))
		return r
	}
	agent := mk(`[{"name":"agent triage turn 1","type":"step","success":true,"output":{"answer":"x","usage":{"inputTokens":120,"outputTokens":30}}},
		{"name":"agent triage turn 2","type":"step","success":false,"output":null},
		{"name":"agent triage tool search 1","type":"step","success":true,"output":{"usage":{"inputTokens":999,"outputTokens":999}}},
		{"name":"agent triage turn 2","type":"step","success":true,"output":{"usage":{"inputTokens":80,"outputTokens":20}}},
		{"name":"sleep","type":"sleep","success":true}]`)
	plain := mk(`[{"name":"charge","type":"step","success":true,"output":{"ok":true}}]`)
	broken := mk(`[{"name":"agent triage turn 1","type":"step","success":true,"output":{"usage":{"inputTokens":5}}}]`)
	_ = s.Close()
	unmigrate(t, broken.ID)

	s = open(t)
	defer s.Close()
	for _, c := range []struct {
		run  *edgeflow.Run
		want *edgeflow.TokenUsage
	}{
		{agent, &edgeflow.TokenUsage{InputTokens: 200, OutputTokens: 50}},
		{plain, nil},
		{broken, nil},
	} {
		got, err := s.FindRunByID(ctx, w.ID, c.run.ID)
		must(t, err)
		diff(t, "usage of run "+c.run.ID+" after migration 18", got.Usage, c.want)
	}
	sum, err := s.SumRunUsage(ctx, edgeflow.RunFilter{ProjectID: a.project.ID}, 1000)
	must(t, err)
	if sum.Runs != 1 || sum.InputTokens != 200 || sum.OutputTokens != 50 {
		t.Fatalf("the sum after migration 18: %+v", sum)
	}
}
