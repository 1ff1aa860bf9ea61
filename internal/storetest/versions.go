package storetest

import (
	"encoding/json"
	"errors"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

func testVersions(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	tn := newTenant(t, s)
	w := newWorkflow(t, s, tn.project.ID, "w")
	other := newWorkflow(t, s, tn.project.ID, "other")
	ir := json.RawMessage(`{"version":1, "nodes": [ {"id":"a"} ]}`)
	v1 := &edgeflow.Version{WorkflowID: w.ID, IR: ir, Code: "code 1", NodeTypes: []string{"slack-message@2.0.0"}, CreatedBy: tn.user.ID}
	must(t, s.CreateVersion(ctx, v1))
	v2 := newVersion(t, s, w.ID)
	ov := newVersion(t, s, other.ID)
	if v1.Number != 1 || v2.Number != 2 || ov.Number != 1 {
		t.Fatalf("numbers %d, %d, other %d; want 1, 2, 1", v1.Number, v2.Number, ov.Number)
	}
	got, err := s.FindVersionByID(ctx, w.ID, v1.ID)
	must(t, err)
	diff(t, "FindVersionByID", got, v1)
	if string(got.IR) != string(ir) {
		t.Errorf("IR not kept byte for byte: %s", got.IR)
	}
	_, err = s.FindVersionByID(ctx, other.ID, v1.ID)
	wantCode(t, "version of another workflow", err, edgeflow.ENotFound)

	wf, err := s.FindWorkflowByID(ctx, tn.project.ID, w.ID)
	must(t, err)
	if wf.CurrentVersionID != v2.ID || wf.ActiveVersionID != "" {
		t.Errorf("current %q active %q, want current %q", wf.CurrentVersionID, wf.ActiveVersionID, v2.ID)
	}

	page, err := s.ListVersions(ctx, w.ID, edgeflow.ListOptions{})
	must(t, err)
	sum1, sum2 := *v1, *v2
	sum1.IR, sum1.Code, sum2.IR, sum2.Code = nil, "", nil, ""
	diff(t, "ListVersions (highest first, summaries)", page.Items, []edgeflow.Version{sum2, sum1})
	var all []string
	for range 3 {
		all = append(all, newVersion(t, s, w.ID).ID)
	}
	got2 := walk(t, func(o edgeflow.ListOptions) (edgeflow.Page[edgeflow.Version], error) {
		return s.ListVersions(ctx, w.ID, o)
	}, 2, func(v edgeflow.Version) string { return v.ID })
	diff(t, "ListVersions walk", got2, []string{all[2], all[1], all[0], v2.ID, v1.ID})

	must(t, s.SetVersionLocked(ctx, w.ID, v1.ID, true))
	got, err = s.FindVersionByID(ctx, w.ID, v1.ID)
	must(t, err)
	if !got.Locked {
		t.Error("version not locked")
	}
	wantCode(t, "lock version of another workflow", s.SetVersionLocked(ctx, other.ID, v1.ID, true), edgeflow.ENotFound)
	wantCode(t, "CreateVersion unknown workflow", s.CreateVersion(ctx, &edgeflow.Version{WorkflowID: "wf_missing"}),
		edgeflow.ENotFound)
}

func testVersionNumberingConcurrent(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	tn := newTenant(t, s)
	w := newWorkflow(t, s, tn.project.ID, "w")
	const n = 20
	var wg sync.WaitGroup
	nums := make([]int, n)
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			v := &edgeflow.Version{WorkflowID: w.ID, IR: json.RawMessage(`{}`)}
			errs[i] = s.CreateVersion(ctx, v)
			nums[i] = v.Number
		})
	}
	wg.Wait()
	must(t, errors.Join(errs...))
	sort.Ints(nums)
	for i, got := range nums {
		if got != i+1 {
			t.Fatalf("numbers %v, want 1..%d", nums, n)
		}
	}
	page, err := s.ListVersions(ctx, w.ID, edgeflow.ListOptions{Limit: 1})
	must(t, err)
	wf, err := s.FindWorkflowByID(ctx, tn.project.ID, w.ID)
	must(t, err)
	if page.Items[0].Number != n || wf.CurrentVersionID != page.Items[0].ID {
		t.Errorf("current version %q, highest %+v", wf.CurrentVersionID, page.Items[0])
	}
}

func testDeleteVersionRules(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	tn := newTenant(t, s)
	w := newWorkflow(t, s, tn.project.ID, "w")
	other := newWorkflow(t, s, tn.project.ID, "other")
	ca := newConnection(t, s, tn.org.ID)
	cb := newConnection(t, s, tn.org.ID)
	v1 := newVersion(t, s, w.ID) // deployed on ca
	v2 := newVersion(t, s, w.ID) // locked
	v3 := newVersion(t, s, w.ID) // deployed on cb: the active version
	v4 := newVersion(t, s, w.ID)
	v5 := newVersion(t, s, w.ID) // current
	deploy(t, s, w, v1, ca)
	deploy(t, s, w, v3, cb)
	must(t, s.SetVersionLocked(ctx, w.ID, v2.ID, true))

	wantCode(t, "delete locked", s.DeleteVersion(ctx, w.ID, v2.ID), edgeflow.EConflict)
	wantCode(t, "delete active version", s.DeleteVersion(ctx, w.ID, v3.ID), edgeflow.EConflict)
	wantCode(t, "delete version of active deployment", s.DeleteVersion(ctx, w.ID, v1.ID), edgeflow.EConflict)
	wantCode(t, "delete via other workflow", s.DeleteVersion(ctx, other.ID, v4.ID), edgeflow.ENotFound)

	// The current version (the active version of docs/api.md), deployed or not.
	wantCode(t, "delete current version", s.DeleteVersion(ctx, w.ID, v5.ID), edgeflow.EConflict)
	if _, err := s.FindVersionByID(ctx, w.ID, v5.ID); err != nil {
		t.Fatalf("refused delete lost the current version: %v", err)
	}
	// Once a newer version is current, it can go.
	v6 := newVersion(t, s, w.ID)
	must(t, s.DeleteVersion(ctx, w.ID, v5.ID))
	wf, err := s.FindWorkflowByID(ctx, tn.project.ID, w.ID)
	must(t, err)
	if wf.CurrentVersionID != v6.ID {
		t.Errorf("after deleting v5: current %q, want v6 %q", wf.CurrentVersionID, v6.ID)
	}
	must(t, s.DeleteVersion(ctx, w.ID, v4.ID))
	_, err = s.FindVersionByID(ctx, w.ID, v4.ID)
	wantCode(t, "deleted version", err, edgeflow.ENotFound)
	wantCode(t, "delete again", s.DeleteVersion(ctx, w.ID, v4.ID), edgeflow.ENotFound)

	// A new version becomes current; the one before it can then go, and no
	// number is ever given again.
	v7 := newVersion(t, s, w.ID)
	if v7.Number != 7 {
		t.Errorf("number after deletions %d, want 7 (never reused)", v7.Number)
	}
	wantCode(t, "delete current v7", s.DeleteVersion(ctx, w.ID, v7.ID), edgeflow.EConflict)
	wantCode(t, "delete via other workflow", s.DeleteVersion(ctx, other.ID, v6.ID), edgeflow.ENotFound)
	must(t, s.DeleteVersion(ctx, w.ID, v6.ID))
	wf, err = s.FindWorkflowByID(ctx, tn.project.ID, w.ID)
	must(t, err)
	if wf.CurrentVersionID != v7.ID {
		t.Errorf("after deleting v6: current %q, want v7 %q", wf.CurrentVersionID, v7.ID)
	}
	// Unlocked and taken down, the versions can go.
	must(t, s.SetVersionLocked(ctx, w.ID, v2.ID, false))
	must(t, s.DeleteVersion(ctx, w.ID, v2.ID))
	_, err = s.RemoveDeployment(ctx, w.ID, ca.ID, time.Now())
	must(t, err)
	must(t, s.DeleteVersion(ctx, w.ID, v1.ID))
}
