package storetest

import (
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

func testConnections(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	a := newTenant(t, s)
	b := newTenant(t, s)
	c1 := &edgeflow.Connection{OrganizationID: a.org.ID, Provider: edgeflow.ProviderCloudflare, Name: "prod",
		AccountID: "acc-1", SealedCredentials: []byte{0, 1, 2, 255}}
	must(t, s.CreateConnection(ctx, c1))
	c2 := newConnection(t, s, a.org.ID)
	got, err := s.FindConnectionByID(ctx, a.org.ID, c1.ID)
	must(t, err)
	diff(t, "FindConnectionByID", got, c1)
	_, err = s.FindConnectionByID(ctx, b.org.ID, c1.ID)
	wantCode(t, "connection of another org", err, edgeflow.ENotFound)
	page, err := s.ListConnections(ctx, a.org.ID, "", edgeflow.ListOptions{})
	must(t, err)
	diff(t, "ListConnections", page.Items, byTime(true, connectionKey, *c1, *c2))
	page, err = s.ListConnections(ctx, b.org.ID, "", edgeflow.ListOptions{})
	must(t, err)
	if len(page.Items) != 0 {
		t.Errorf("other org lists connections %+v", page.Items)
	}

	upd := &edgeflow.Connection{ID: c1.ID, OrganizationID: a.org.ID, Provider: edgeflow.ProviderCloudflare, Name: "renamed",
		AccountID: "acc-2", SealedCredentials: []byte{9}, Plan: edgeflow.PlanFree, Limits: &edgeflow.PlanLimits{Steps: 1000, CPUMs: 5}}
	must(t, s.UpdateConnection(ctx, upd))
	got, err = s.FindConnectionByID(ctx, a.org.ID, c1.ID)
	must(t, err)
	diff(t, "UpdateConnection", got, upd)
	if !got.CreatedAt.Equal(c1.CreatedAt) || got.Name != "renamed" || string(got.SealedCredentials) != "\x09" ||
		got.Plan != edgeflow.PlanFree || got.Limits == nil || *got.Limits != (edgeflow.PlanLimits{Steps: 1000, CPUMs: 5}) {
		t.Errorf("updated connection %+v", got)
	}
	// The plan's limits cleared: none read back.
	upd.Limits = nil
	must(t, s.UpdateConnection(ctx, upd))
	if got, err = s.FindConnectionByID(ctx, a.org.ID, c1.ID); err != nil || got.Limits != nil || got.Plan != edgeflow.PlanFree {
		t.Errorf("limits cleared: %+v, %v", got, err)
	}
	wantCode(t, "UpdateConnection other org", s.UpdateConnection(ctx, &edgeflow.Connection{ID: c1.ID,
		OrganizationID: b.org.ID, Provider: edgeflow.ProviderLocal, Name: "x"}), edgeflow.ENotFound)

	w := newWorkflow(t, s, a.project.ID, "w")
	deploy(t, s, w, newVersion(t, s, w.ID), c1)
	wantCode(t, "delete connection in use", s.DeleteConnection(ctx, a.org.ID, c1.ID), edgeflow.EConflict)
	wantCode(t, "delete connection of other org", s.DeleteConnection(ctx, b.org.ID, c2.ID), edgeflow.ENotFound)
	must(t, s.DeleteConnection(ctx, a.org.ID, c2.ID))
	_, err = s.RemoveDeployment(ctx, w.ID, c1.ID, time.Now())
	must(t, err)
	must(t, s.DeleteConnection(ctx, a.org.ID, c1.ID))
	_, err = s.FindConnectionByID(ctx, a.org.ID, c1.ID)
	wantCode(t, "deleted connection", err, edgeflow.ENotFound)
	// The removed deployment still names the deleted connection.
	deps, err := s.ListDeployments(ctx, edgeflow.DeploymentFilter{ProjectID: a.project.ID}, edgeflow.ListOptions{})
	must(t, err)
	if len(deps.Items) != 1 || deps.Items[0].ConnectionID != c1.ID {
		t.Errorf("deployment history after connection delete: %+v", deps.Items)
	}
}

// testConnectionProjects: a connection owned by a project is listed with
// that project only, keeps its owner through updates and goes with its
// project (not while an active deployment uses it).
func testConnectionProjects(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	a := newTenant(t, s)
	p2 := newProject(t, s, a.org.ID)
	orgWide := newConnection(t, s, a.org.ID)
	own := &edgeflow.Connection{OrganizationID: a.org.ID, ProjectID: a.project.ID, Provider: edgeflow.ProviderLocal,
		Name: "mine", AccountID: "acc", SealedCredentials: []byte{7}}
	must(t, s.CreateConnection(ctx, own))
	other := &edgeflow.Connection{OrganizationID: a.org.ID, ProjectID: p2.ID, Provider: edgeflow.ProviderLocal,
		Name: "theirs", AccountID: "acc", SealedCredentials: []byte{8}}
	must(t, s.CreateConnection(ctx, other))

	got, err := s.FindConnectionByID(ctx, a.org.ID, own.ID)
	must(t, err)
	diff(t, "FindConnectionByID (project-owned)", got, own)
	list := func(project string) []string {
		t.Helper()
		page, err := s.ListConnections(ctx, a.org.ID, project, edgeflow.ListOptions{})
		must(t, err)
		return ids(page.Items, func(c edgeflow.Connection) string { return c.ID })
	}
	diff(t, "ListConnections organization only", list(""), []string{orgWide.ID})
	diff(t, "ListConnections of project 1", list(a.project.ID), ids(byTime(true, connectionKey, *orgWide, *own), func(c edgeflow.Connection) string { return c.ID }))
	diff(t, "ListConnections of project 2", list(p2.ID), ids(byTime(true, connectionKey, *orgWide, *other), func(c edgeflow.Connection) string { return c.ID }))

	upd := *own
	upd.ProjectID, upd.Name = "", "renamed"
	must(t, s.UpdateConnection(ctx, &upd))
	if upd.ProjectID != a.project.ID || upd.Name != "renamed" {
		t.Errorf("UpdateConnection changed the owner or dropped the name: %+v", upd)
	}

	// A workflow moved out of project 2 keeps its deployment on project 2's
	// connection: project 2 cannot go while that deployment is active.
	w := newWorkflow(t, s, p2.ID, "w")
	deploy(t, s, w, newVersion(t, s, w.ID), other)
	must(t, s.MoveWorkflow(ctx, p2.ID, w.ID, a.project.ID))
	wantCode(t, "DeleteProject with a connection in use", s.DeleteProject(ctx, a.org.ID, p2.ID), edgeflow.EConflict)
	_, err = s.RemoveDeployment(ctx, w.ID, other.ID, time.Now())
	must(t, err)
	must(t, s.DeleteProject(ctx, a.org.ID, p2.ID))
	_, err = s.FindConnectionByID(ctx, a.org.ID, other.ID)
	wantCode(t, "connection of a deleted project", err, edgeflow.ENotFound)
	diff(t, "ListConnections after the project went", list(a.project.ID), ids(byTime(true, connectionKey, *orgWide, upd), func(c edgeflow.Connection) string { return c.ID }))
}
