package storetest

import (
	"slices"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// testHeldRunsPaged: the pairs with held runs are listed oldest held run
// first, and more held runs of one pair than a page are read page after
// page from a position, oldest first (creation time, then id), each once;
// an admitted run is no longer listed.
func testHeldRunsPaged(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	tn := newTenant(t, s)
	w1 := newWorkflow(t, s, tn.project.ID, "w1")
	w2 := newWorkflow(t, s, tn.project.ID, "w2")
	c := newConnection(t, s, tn.org.ID)
	hold := func(w *edgeflow.Workflow) *edgeflow.Run {
		r := &edgeflow.Run{WorkflowID: w.ID, ConnectionID: c.ID, Status: edgeflow.RunQueued, StatusDetail: edgeflow.RunDetailHeld}
		must(t, s.CreateRun(ctx, r))
		return r
	}
	const n = 230
	var want []string
	for range n {
		want = append(want, hold(w1).ID)
	}
	late := hold(w2)
	must(t, s.CreateRun(ctx, &edgeflow.Run{WorkflowID: w1.ID, ConnectionID: c.ID, Status: edgeflow.RunQueued}))

	groups, err := s.ListHeldGroups(ctx, 0)
	must(t, err)
	var mine []string
	for _, g := range groups {
		if g.ProjectID == tn.project.ID {
			if g.ConnectionID != c.ID {
				t.Fatalf("group %+v names another connection", g)
			}
			mine = append(mine, g.WorkflowID)
		}
	}
	diff(t, "pairs with held runs", mine, []string{w1.ID, w2.ID})

	var got []string
	var sizes []int
	var last time.Time
	f := edgeflow.HeldRunsFilter{WorkflowID: w1.ID, ConnectionID: c.ID, Limit: 100}
	for {
		page, err := s.ListHeldRuns(ctx, f)
		must(t, err)
		sizes = append(sizes, len(page))
		for _, r := range page {
			if r.CreatedAt.Before(last) || r.StatusDetail != edgeflow.RunDetailHeld || r.WorkflowID != w1.ID {
				t.Fatalf("run %s (%s, %s) out of order or not held", r.ID, r.CreatedAt, r.StatusDetail)
			}
			last = r.CreatedAt
			got = append(got, r.ID)
			f.AfterCreatedAt, f.AfterID = r.CreatedAt, r.ID
		}
		if len(page) < f.Limit {
			break
		}
	}
	diff(t, "page sizes", sizes, []int{100, 100, 30})
	slices.Sort(got)
	slices.Sort(want)
	diff(t, "held runs read page by page", got, want)

	other, err := s.ListHeldRuns(ctx, edgeflow.HeldRunsFilter{WorkflowID: w2.ID, ConnectionID: c.ID})
	must(t, err)
	if len(other) != 1 || other[0].ID != late.ID {
		t.Fatalf("held runs of w2 = %v, want only %s", other, late.ID)
	}
	first, err := s.ListHeldRuns(ctx, edgeflow.HeldRunsFilter{WorkflowID: w1.ID, ConnectionID: c.ID, Limit: 1})
	must(t, err)
	ok, err := s.AdmitHeldRun(ctx, &first[0], 0, time.Now())
	must(t, err)
	if !ok {
		t.Fatal("the oldest held run was not admitted without a concurrency")
	}
	next, err := s.ListHeldRuns(ctx, edgeflow.HeldRunsFilter{WorkflowID: w1.ID, ConnectionID: c.ID, Limit: 1})
	must(t, err)
	if len(next) != 1 || next[0].ID == first[0].ID {
		t.Fatalf("after admitting %s the oldest held run is %v", first[0].ID, next)
	}
}
