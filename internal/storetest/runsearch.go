package storetest

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// testRunSearch: the run filters of GET /api/runs — version, creation time
// range (from inclusive, to exclusive), words in params, output or error (step outputs: testRunSearchSteps) —
// alone and together, newest first across pages; a run's words follow its
// updates.
func testRunSearch(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	a := newTenant(t, s)
	b := newTenant(t, s)
	w := newWorkflow(t, s, a.project.ID, "w")
	w2 := newWorkflow(t, s, a.project.ID, "w2")
	v1 := newVersion(t, s, w.ID)
	v2 := newVersion(t, s, w.ID)
	mk := func(wf *edgeflow.Workflow, version, status, params, output, errText string) *edgeflow.Run {
		t.Helper()
		r := &edgeflow.Run{WorkflowID: wf.ID, VersionID: version, Status: status, Error: errText}
		if params != "" {
			r.Params = json.RawMessage(params)
		}
		if output != "" {
			r.Output = json.RawMessage(output)
		}
		must(t, s.CreateRun(ctx, r))
		time.Sleep(2 * time.Millisecond) // distinct creation times for the range checks
		return r
	}
	r1 := mk(w, v1.ID, edgeflow.RunComplete, `{"orderId":"A-1001","customer":"Ada Lovelace"}`, `{"sent":true}`, "")
	r2 := mk(w, v1.ID, edgeflow.RunErrored, `{"orderId":"A-1002"}`, "", "card declined by the issuer")
	r3 := mk(w, v2.ID, edgeflow.RunComplete, `{"orderId":"A-1003"}`, `{"note":"Declined earlier, paid now"}`, "")
	r4 := mk(w2, "", edgeflow.RunRunning, `{"customer":"Grace Hopper"}`, "", "")
	mk(&edgeflow.Workflow{ID: newWorkflow(t, s, b.project.ID, "other").ID}, "", edgeflow.RunComplete, `{"orderId":"A-1001"}`, "", "declined")

	list := func(f edgeflow.RunFilter) []string {
		t.Helper()
		f.ProjectID = a.project.ID
		return walk(t, func(o edgeflow.ListOptions) (edgeflow.Page[edgeflow.Run], error) { return s.ListRuns(ctx, f, o) },
			1, func(r edgeflow.Run) string { return r.ID })
	}
	newest := func(runs ...*edgeflow.Run) []string {
		var rs []edgeflow.Run
		for _, r := range runs {
			rs = append(rs, *r)
		}
		return ids(byTime(true, runKey, rs...), func(r edgeflow.Run) string { return r.ID })
	}
	diff(t, "version", list(edgeflow.RunFilter{VersionID: v1.ID}), newest(r1, r2))
	from, to := r2.CreatedAt, r4.CreatedAt
	diff(t, "from inclusive, to exclusive", list(edgeflow.RunFilter{From: &from, To: &to}), newest(r2, r3))
	diff(t, "from only", list(edgeflow.RunFilter{From: &to}), newest(r4))
	diff(t, "to only", list(edgeflow.RunFilter{To: &from}), newest(r1))
	diff(t, "a word of an error and of an output, any case", list(edgeflow.RunFilter{Query: "DECLINED"}), newest(r2, r3))
	diff(t, "every word must match", list(edgeflow.RunFilter{Query: "declined issuer"}), newest(r2))
	diff(t, "words of params", list(edgeflow.RunFilter{Query: "lovelace"}), newest(r1))
	diff(t, "an id with punctuation", list(edgeflow.RunFilter{Query: "A-1003"}), newest(r3))
	diff(t, "query syntax is plain text", list(edgeflow.RunFilter{Query: `"grace" -(hopper*`}), newest(r4))
	diff(t, "no word", list(edgeflow.RunFilter{Query: "!!"}), []string(nil))
	diff(t, "no match", list(edgeflow.RunFilter{Query: "nobody"}), []string(nil))
	diff(t, "all together", list(edgeflow.RunFilter{WorkflowID: w.ID, Status: edgeflow.RunComplete, VersionID: v2.ID,
		From: &from, To: &to, Query: "paid"}), newest(r3))

	// An update's output and error are searchable; the old words are gone.
	r4.Status, r4.Output, r4.Error = edgeflow.RunErrored, json.RawMessage(`{"partial":"shipment"}`), "warehouse closed"
	must(t, s.UpdateRun(ctx, r4))
	diff(t, "updated words", list(edgeflow.RunFilter{Query: "warehouse"}), newest(r4))
	diff(t, "updated output", list(edgeflow.RunFilter{Query: "shipment"}), newest(r4))
	diff(t, "params stay", list(edgeflow.RunFilter{Query: "hopper"}), newest(r4))

	// An update that leaves the searched text as it was (a refresh of a
	// running run) keeps the run found by its words, once.
	r3.StatusDetail = "checked again"
	must(t, s.UpdateRun(ctx, r3))
	must(t, s.UpdateRun(ctx, r3))
	diff(t, "unchanged text after updates", list(edgeflow.RunFilter{Query: "A-1003"}), newest(r3))
	diff(t, "unchanged output after updates", list(edgeflow.RunFilter{Query: "paid"}), newest(r3))
}
