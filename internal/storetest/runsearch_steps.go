package storetest

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// testRunSearchSteps: the run search also finds the words of step outputs
// and of the event payloads a run received (its waitForEvent steps'
// outputs), written as the steps are recorded; a sensitive step's output
// is never found, whether the provider redacted it or not; each output
// adds only its first words (sqlstore.MaxStepWordsPerOutput); another
// organization's run words are never found; deleted and pruned runs leave
// nothing behind.
func testRunSearchSteps(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	a := newTenant(t, s)
	b := newTenant(t, s)
	w := newWorkflow(t, s, a.project.ID, "w")
	list := func(q string) []string {
		t.Helper()
		f := edgeflow.RunFilter{ProjectID: a.project.ID, Query: q}
		return walk(t, func(o edgeflow.ListOptions) (edgeflow.Page[edgeflow.Run], error) { return s.ListRuns(ctx, f, o) },
			2, func(r edgeflow.Run) string { return r.ID })
	}
	long := "alpha " + strings.Repeat("filler ", 400) + "omega" // "omega" is past the first 2 KiB
	steps := mustJSON(t, []map[string]any{
		{"name": "charge", "type": "step", "success": true,
			"output": map[string]any{"receipt": "R-7731", "carrier": "Zephyr Freight", "weight": 12.5}},
		{"name": "approval", "type": "waitForEvent", "finished": true,
			"output": map[string]any{"type": "approval", "payload": map[string]any{"approvedBy": "Marguerite"}}},
		// A provider that ignored the option: the output is still kept
		// out of the index by the step's config.
		{"name": "fetch token", "type": "step", "success": true, "config": map[string]any{"sensitive": "output"},
			"output": "tok_sekritvalue"},
		{"name": "read card", "type": "step", "success": true, "config": map[string]any{"sensitive": "output"},
			"output": map[string]any{"card": "4242cardnumber"}},
		{"name": "long", "type": "step", "success": true, "output": long},
		{"name": "nap", "type": "sleep", "finished": true},
	})

	// Recorded as a refresh records them: the run is created without
	// steps, which an update writes.
	r1 := &edgeflow.Run{WorkflowID: w.ID, Status: edgeflow.RunRunning, Params: json.RawMessage(`{"orderId":"A-2001"}`)}
	must(t, s.CreateRun(ctx, r1))
	diff(t, "before the steps are written", list("zephyr"), []string(nil))
	r1.Status, r1.Steps = edgeflow.RunComplete, json.RawMessage(steps)
	must(t, s.UpdateRun(ctx, r1))
	// Stored with its steps from the start (a test run, an import).
	r2 := &edgeflow.Run{WorkflowID: w.ID, Status: edgeflow.RunComplete,
		Steps: json.RawMessage(`[{"name":"notify","type":"step","output":{"channel":"zephyr-ops"}}]`)}
	must(t, s.CreateRun(ctx, r2))
	// The other organization's run holds the same words and one of its own.
	other := &edgeflow.Run{WorkflowID: newWorkflow(t, s, b.project.ID, "other").ID, Status: edgeflow.RunComplete,
		Steps: json.RawMessage(`[{"name":"s","type":"step","output":{"carrier":"Zephyr","secretword":"quokkabravo"}},` +
			`{"name":"e","type":"waitForEvent","output":{"payload":{"approvedBy":"Marguerite"}}}]`)}
	must(t, s.CreateRun(ctx, other))

	diff(t, "a word of a step output", list("freight"), []string{r1.ID})
	diff(t, "a word of two runs' step outputs, newest first", list("ZEPHYR"),
		ids(byTime(true, runKey, *r1, *r2), func(r edgeflow.Run) string { return r.ID }))
	diff(t, "an id with punctuation in an output", list("R-7731"), []string{r1.ID})
	diff(t, "a number in an output", list("12.5"), []string{r1.ID})
	diff(t, "a key of an output", list("receipt"), []string{r1.ID})
	diff(t, "a word of an event payload", list("marguerite"), []string{r1.ID})
	diff(t, "words of params and of an output together", list("A-2001 zephyr"), []string{r1.ID})
	diff(t, "the start of a long output", list("alpha"), []string{r1.ID})
	diff(t, "past the first words of a long output", list("omega"), []string(nil))
	for _, q := range []string{"sekritvalue", "tok_sekritvalue", "4242cardnumber", "card"} {
		diff(t, "a sensitive output: "+q, list(q), []string(nil))
	}
	diff(t, "another organization's words", list("quokkabravo"), []string(nil))
	f := edgeflow.RunFilter{ProjectID: b.project.ID, Query: "quokkabravo"}
	page, err := s.ListRuns(ctx, f, edgeflow.ListOptions{})
	must(t, err)
	diff(t, "the other organization finds its own", ids(page.Items, func(r edgeflow.Run) string { return r.ID }),
		[]string{other.ID})

	// New steps replace the words of the old ones; an update that writes
	// the same steps again keeps the run found, once.
	r2.Steps = json.RawMessage(`[{"name":"notify","type":"step","output":{"channel":"pager"}}]`)
	must(t, s.UpdateRun(ctx, r2))
	must(t, s.UpdateRun(ctx, r2))
	diff(t, "new step words", list("pager"), []string{r2.ID})
	diff(t, "old step words gone", list("zephyr"), []string{r1.ID})

	// Deleted and pruned runs leave no words: a run stored afterwards
	// (which may take a deleted run's place in the index) is not found by
	// them.
	deleted, _, err := s.DeleteRuns(ctx, a.project.ID, []string{r1.ID})
	must(t, err)
	diff(t, "deleted", deleted, []string{r1.ID})
	r3 := &edgeflow.Run{WorkflowID: w.ID, Status: edgeflow.RunComplete}
	must(t, s.CreateRun(ctx, r3))
	for _, q := range []string{"freight", "marguerite", "alpha", "A-2001"} {
		diff(t, "after the delete: "+q, list(q), []string(nil))
	}
	n, _, err := s.PruneRuns(ctx, time.Now().Add(400*24*time.Hour), 100)
	must(t, err)
	if n != 3 {
		t.Fatalf("pruned %d runs, want 3", n)
	}
	diff(t, "after the prune", list("pager"), []string(nil))
	page, err = s.ListRuns(ctx, f, edgeflow.ListOptions{})
	must(t, err)
	diff(t, "after the prune, the other organization's", len(page.Items), 0)
}

// testRunSearchManyMatches: a word every run holds together with a
// status pages through all such runs newest first, and a word only an old
// run holds is found behind more than 500 newer runs of the same status
// (on SQLite, past what the search checks one by one before it walks the
// full-text index; sqlstore.listRunsProbed).
func testRunSearchManyMatches(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	a := newTenant(t, s)
	w := newWorkflow(t, s, a.project.ID, "w")
	mk := func(status, steps string) edgeflow.Run {
		t.Helper()
		r := &edgeflow.Run{WorkflowID: w.ID, Status: status, Steps: json.RawMessage(steps)}
		must(t, s.CreateRun(ctx, r))
		return *r
	}
	var errored []edgeflow.Run
	errored = append(errored, mk(edgeflow.RunErrored, `[{"type":"waitForEvent","output":{"type":"approval","payload":{"code":"quetzal"}}}]`))
	for i := range 520 {
		if i%3 == 0 {
			mk(edgeflow.RunComplete, `[{"type":"waitForEvent","output":{"type":"approval"}}]`)
		}
		errored = append(errored, mk(edgeflow.RunErrored, `[{"type":"waitForEvent","output":{"type":"approval"}}]`))
	}
	list := func(f edgeflow.RunFilter, limit int) []string {
		t.Helper()
		f.ProjectID = a.project.ID
		return walk(t, func(o edgeflow.ListOptions) (edgeflow.Page[edgeflow.Run], error) { return s.ListRuns(ctx, f, o) },
			limit, func(r edgeflow.Run) string { return r.ID })
	}
	newest := ids(byTime(true, runKey, errored...), func(r edgeflow.Run) string { return r.ID })
	diff(t, "a common word and a status, by pages of 100", list(edgeflow.RunFilter{Status: edgeflow.RunErrored, Query: "approval"}, 100), newest)
	diff(t, "a rare word and a status", list(edgeflow.RunFilter{Status: edgeflow.RunErrored, Query: "quetzal"}, 50), []string{errored[0].ID})
	diff(t, "a rare word and a status that does not hold", list(edgeflow.RunFilter{Status: edgeflow.RunComplete, Query: "quetzal"}, 50), []string(nil))
}
