package storetest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/google/go-cmp/cmp"
)

func testWorkflows(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	tn := newTenant(t, s)
	w := &edgeflow.Workflow{ProjectID: tn.project.ID, Name: "Orders", Description: "d", Kind: edgeflow.KindScript,
		EnvVars:      []edgeflow.WorkflowEnvVar{{Name: "A", Value: "1"}, {Name: "S", Value: "sealed", IsSecret: true}},
		TriggerCode:  "export default {}",
		Dependencies: map[string]string{"zod": "^3.0.0"},
		DeployConfig: &edgeflow.DeployConfig{Route: &edgeflow.Route{Pattern: "x.example.com/*", ZoneName: "example.com"}}}
	must(t, s.CreateWorkflow(ctx, w))
	if w.OrganizationID != tn.org.ID || !strings.HasPrefix(w.ID, edgeflow.PrefixWorkflow+"_") || !w.CreatedAt.Equal(w.UpdatedAt) {
		t.Fatalf("CreateWorkflow set %+v", w)
	}
	got, err := s.FindWorkflowByID(ctx, tn.project.ID, w.ID)
	must(t, err)
	diff(t, "FindWorkflowByID", got, w)

	empty := newWorkflow(t, s, tn.project.ID, "empty")
	got, err = s.FindWorkflowByID(ctx, tn.project.ID, empty.ID)
	must(t, err)
	diff(t, "workflow with empty fields", got, empty)

	upd := *w
	upd.Name, upd.Description, upd.TriggerCode = "Orders v2", "", ""
	upd.EnvVars = []edgeflow.WorkflowEnvVar{}
	upd.Dependencies = map[string]string{}
	upd.DeployConfig = nil
	upd.Kind = edgeflow.KindWorkflow // not written
	must(t, s.UpdateWorkflow(ctx, &upd))
	got, err = s.FindWorkflowByID(ctx, tn.project.ID, w.ID)
	must(t, err)
	want := *w
	want.Name, want.Description, want.TriggerCode = "Orders v2", "", ""
	want.EnvVars, want.Dependencies, want.DeployConfig = []edgeflow.WorkflowEnvVar{}, map[string]string{}, nil
	want.UpdatedAt = got.UpdatedAt
	diff(t, "updated workflow", got, &want)
	diff(t, "UpdateWorkflow result", &upd, got)
	if got.UpdatedAt.Before(w.UpdatedAt) {
		t.Errorf("UpdatedAt went back: %v < %v", got.UpdatedAt, w.UpdatedAt)
	}
	missing := edgeflow.Workflow{ProjectID: tn.project.ID, ID: "wf_missing"}
	wantCode(t, "UpdateWorkflow unknown", s.UpdateWorkflow(ctx, &missing), edgeflow.ENotFound)
	wantCode(t, "CreateWorkflow unknown project", s.CreateWorkflow(ctx, &edgeflow.Workflow{ProjectID: "prj_missing",
		Name: "x", Kind: edgeflow.KindWorkflow}), edgeflow.ENotFound)
}

func testWorkflowTenancy(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	a := newTenant(t, s)
	b := newTenant(t, s)
	sibling := newProject(t, s, a.org.ID)
	w := newWorkflow(t, s, a.project.ID, "w")
	for _, p := range []string{b.project.ID, sibling.ID, "prj_missing"} {
		_, err := s.FindWorkflowByID(ctx, p, w.ID)
		wantCode(t, "FindWorkflowByID in "+p, err, edgeflow.ENotFound)
		other := *w
		other.ProjectID = p
		wantCode(t, "UpdateWorkflow in "+p, s.UpdateWorkflow(ctx, &other), edgeflow.ENotFound)
		wantCode(t, "DeleteWorkflow in "+p, s.DeleteWorkflow(ctx, p, w.ID), edgeflow.ENotFound)
		wantCode(t, "MoveWorkflow from "+p, s.MoveWorkflow(ctx, p, w.ID, sibling.ID), edgeflow.ENotFound)
		page, err := s.ListWorkflows(ctx, p, edgeflow.ListOptions{})
		must(t, err)
		if len(page.Items) != 0 {
			t.Errorf("ListWorkflows(%s) shows %v", p, ids(page.Items, workflowID))
		}
	}
	if _, err := s.FindWorkflowByID(ctx, a.project.ID, w.ID); err != nil {
		t.Fatalf("workflow lost after refused operations: %v", err)
	}
}

func testWorkflowPagination(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	tn := newTenant(t, s)
	var created []string
	for i := range 120 {
		created = append(created, newWorkflow(t, s, tn.project.ID, fmt.Sprintf("w%03d", i)).ID)
	}
	other := newTenant(t, s)
	newWorkflow(t, s, other.project.ID, "elsewhere")

	// Newest first: reverse creation order, ties broken by id the same way
	// on every page. Inserts between pages must not shift what follows.
	first, err := s.ListWorkflows(ctx, tn.project.ID, edgeflow.ListOptions{Limit: 100})
	must(t, err)
	rest, err := s.ListWorkflows(ctx, tn.project.ID, edgeflow.ListOptions{Limit: 100, Cursor: first.NextCursor})
	must(t, err)
	items := append(first.Items, rest.Items...)
	want := ids(items, workflowID)
	if rest.NextCursor != "" || len(want) != 120 {
		t.Fatalf("two pages of 100: %d items, cursor %q", len(want), rest.NextCursor)
	}
	if d := cmp.Diff(setOf(created), setOf(want)); d != "" {
		t.Fatalf("listed set differs:\n%s", d)
	}
	for i := 1; i < len(items); i++ {
		if items[i].CreatedAt.After(items[i-1].CreatedAt) {
			t.Fatalf("item %d newer than item %d", i, i-1)
		}
	}

	var got []string
	opts := edgeflow.ListOptions{Limit: 25}
	for page := 0; ; page++ {
		p, err := s.ListWorkflows(ctx, tn.project.ID, opts)
		must(t, err)
		got = append(got, ids(p.Items, workflowID)...)
		if p.NextCursor == "" {
			break
		}
		newWorkflow(t, s, tn.project.ID, fmt.Sprintf("inserted-%d", page))
		opts.Cursor = p.NextCursor
	}
	diff(t, "walk with inserts between pages", got, want)
}

func testMoveWorkflow(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	a := newTenant(t, s)
	b := newTenant(t, s)
	to := newProject(t, s, a.org.ID)
	w := newWorkflow(t, s, a.project.ID, "w")
	v := newVersion(t, s, w.ID)
	c := newConnection(t, s, a.org.ID)
	d := deploy(t, s, w, v, c)
	r := &edgeflow.Run{WorkflowID: w.ID, VersionID: v.ID, ConnectionID: c.ID, DeploymentID: d.ID, InstanceID: "i1"}
	must(t, s.CreateRun(ctx, r))

	wantCode(t, "move to another org", s.MoveWorkflow(ctx, a.project.ID, w.ID, b.project.ID), edgeflow.ENotFound)
	wantCode(t, "move to unknown project", s.MoveWorkflow(ctx, a.project.ID, w.ID, "prj_missing"), edgeflow.ENotFound)
	must(t, s.MoveWorkflow(ctx, a.project.ID, w.ID, to.ID))

	_, err := s.FindWorkflowByID(ctx, a.project.ID, w.ID)
	wantCode(t, "workflow in old project", err, edgeflow.ENotFound)
	got, err := s.FindWorkflowByID(ctx, to.ID, w.ID)
	must(t, err)
	if got.ProjectID != to.ID || got.CurrentVersionID != v.ID || got.ActiveVersionID != v.ID {
		t.Errorf("moved workflow %+v", got)
	}
	runs, err := s.ListRuns(ctx, edgeflow.RunFilter{ProjectID: to.ID}, edgeflow.ListOptions{})
	must(t, err)
	if len(runs.Items) != 1 || runs.Items[0].ProjectID != to.ID {
		t.Errorf("runs in new project: %+v", runs.Items)
	}
	runs, err = s.ListRuns(ctx, edgeflow.RunFilter{ProjectID: a.project.ID}, edgeflow.ListOptions{})
	must(t, err)
	if len(runs.Items) != 0 {
		t.Errorf("runs left in old project: %+v", runs.Items)
	}
	deps, err := s.ListDeployments(ctx, edgeflow.DeploymentFilter{ProjectID: to.ID}, edgeflow.ListOptions{})
	must(t, err)
	if len(deps.Items) != 1 || deps.Items[0].ProjectID != to.ID {
		t.Errorf("deployments in new project: %+v", deps.Items)
	}
	deps, err = s.ListDeployments(ctx, edgeflow.DeploymentFilter{ProjectID: a.project.ID}, edgeflow.ListOptions{})
	must(t, err)
	if len(deps.Items) != 0 {
		t.Errorf("deployments left in old project: %+v", deps.Items)
	}
}

func testDeleteWorkflowCascades(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	tn := newTenant(t, s)
	w := newWorkflow(t, s, tn.project.ID, "doomed")
	keep := newWorkflow(t, s, tn.project.ID, "kept")
	c := newConnection(t, s, tn.org.ID)
	for _, wf := range []*edgeflow.Workflow{w, keep} {
		v := newVersion(t, s, wf.ID, "http-request@1.0.0")
		must(t, s.SetVersionLocked(ctx, wf.ID, v.ID, true))
		d := deploy(t, s, wf, v, c)
		must(t, s.CreateRun(ctx, &edgeflow.Run{WorkflowID: wf.ID, VersionID: v.ID, DeploymentID: d.ID, ConnectionID: c.ID}))
	}
	must(t, s.DeleteWorkflow(ctx, tn.project.ID, w.ID))
	_, err := s.FindWorkflowByID(ctx, tn.project.ID, w.ID)
	wantCode(t, "deleted workflow", err, edgeflow.ENotFound)
	vs, err := s.ListVersions(ctx, w.ID, edgeflow.ListOptions{})
	must(t, err)
	runs, err := s.ListRuns(ctx, edgeflow.RunFilter{ProjectID: tn.project.ID}, edgeflow.ListOptions{})
	must(t, err)
	deps, err := s.ListDeployments(ctx, edgeflow.DeploymentFilter{ProjectID: tn.project.ID}, edgeflow.ListOptions{})
	must(t, err)
	if len(vs.Items) != 0 || len(runs.Items) != 1 || len(deps.Items) != 1 ||
		runs.Items[0].WorkflowID != keep.ID || deps.Items[0].WorkflowID != keep.ID {
		t.Errorf("after delete: %d versions, runs %+v, deployments %+v", len(vs.Items), runs.Items, deps.Items)
	}
	_, err = s.FindActiveDeployment(ctx, w.ID, "")
	wantCode(t, "deployment of deleted workflow", err, edgeflow.ENotFound)
	using, err := s.ListWorkflowsUsingNode(ctx, tn.org.ID, "http-request")
	must(t, err)
	diff(t, "workflows using node after delete", ids(using, workflowID), []string{keep.ID})
	// The connection is free once the deleted workflow's deployment is gone
	// and the other one is taken down.
	_, err = s.RemoveDeployment(ctx, keep.ID, c.ID, time.Now())
	must(t, err)
	must(t, s.DeleteConnection(ctx, tn.org.ID, c.ID))
	wantCode(t, "DeleteWorkflow again", s.DeleteWorkflow(ctx, tn.project.ID, w.ID), edgeflow.ENotFound)
}
