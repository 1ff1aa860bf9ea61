package storetest

import (
	"sort"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

func testOrganizations(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	a := newTenant(t, s)
	b := newTenant(t, s)

	got, err := s.FindOrganizationByID(ctx, a.org.ID)
	must(t, err)
	diff(t, "FindOrganizationByID", got, a.org)
	_, err = s.FindOrganizationByID(ctx, "org_missing")
	wantCode(t, "FindOrganizationByID unknown", err, edgeflow.ENotFound)
	wantCode(t, "duplicate org slug", s.CreateOrganization(ctx, &edgeflow.Organization{Name: "x", Slug: a.org.Slug}, a.user.ID),
		edgeflow.EConflict)
	wantCode(t, "org of unknown user", s.CreateOrganization(ctx, &edgeflow.Organization{Name: "x", Slug: "s-" + suffix()}, "usr_missing"),
		edgeflow.ENotFound)

	m, err := s.FindMembership(ctx, a.org.ID, a.user.ID)
	must(t, err)
	if m.Role != edgeflow.RoleOwner {
		t.Errorf("creator role %q, want owner", m.Role)
	}
	_, err = s.FindMembership(ctx, a.org.ID, b.user.ID)
	wantCode(t, "non-member", err, edgeflow.ENotFound)

	second := &edgeflow.Organization{Name: "Second", Slug: "second-" + suffix()}
	must(t, s.CreateOrganization(ctx, second, a.user.ID))
	add := &edgeflow.Membership{OrganizationID: b.org.ID, UserID: a.user.ID, Role: edgeflow.RoleMember}
	must(t, s.AddMember(ctx, add))
	created := add.CreatedAt
	must(t, s.AddMember(ctx, &edgeflow.Membership{OrganizationID: b.org.ID, UserID: a.user.ID, Role: edgeflow.RoleAdmin}))
	m, err = s.FindMembership(ctx, b.org.ID, a.user.ID)
	must(t, err)
	diff(t, "changed membership", m, &edgeflow.Membership{OrganizationID: b.org.ID, UserID: a.user.ID,
		Role: edgeflow.RoleAdmin, CreatedAt: created})
	wantCode(t, "AddMember unknown user", s.AddMember(ctx, &edgeflow.Membership{OrganizationID: b.org.ID,
		UserID: "usr_missing", Role: edgeflow.RoleMember}), edgeflow.ENotFound)

	orgs, err := s.ListOrganizationsForUser(ctx, a.user.ID)
	must(t, err)
	want := []edgeflow.OrganizationMembership{
		{Organization: *a.org, Role: edgeflow.RoleOwner},
		{Organization: *b.org, Role: edgeflow.RoleAdmin},
		{Organization: *second, Role: edgeflow.RoleOwner},
	}
	sort.SliceStable(want, func(i, j int) bool { return orgLess(want[i].Organization, want[j].Organization) })
	diff(t, "ListOrganizationsForUser", orgs, want)
	orgs, err = s.ListOrganizationsForUser(ctx, "usr_missing")
	must(t, err)
	if len(orgs) != 0 {
		t.Errorf("orgs of unknown user: %v", orgs)
	}
}

func orgLess(a, b edgeflow.Organization) bool {
	if !a.CreatedAt.Equal(b.CreatedAt) {
		return a.CreatedAt.Before(b.CreatedAt)
	}
	return a.ID < b.ID
}

func testProjects(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	a := newTenant(t, s)
	b := newTenant(t, s)

	got, err := s.FindProjectByID(ctx, a.org.ID, a.project.ID)
	must(t, err)
	diff(t, "FindProjectByID", got, a.project)
	got, err = s.FindProjectBySlug(ctx, a.org.ID, a.project.Slug)
	must(t, err)
	diff(t, "FindProjectBySlug", got, a.project)
	_, err = s.FindProjectByID(ctx, b.org.ID, a.project.ID)
	wantCode(t, "project of another org", err, edgeflow.ENotFound)
	_, err = s.FindProjectBySlug(ctx, b.org.ID, a.project.Slug)
	wantCode(t, "project slug of another org", err, edgeflow.ENotFound)

	wantCode(t, "duplicate slug in org", s.CreateProject(ctx, &edgeflow.Project{OrganizationID: a.org.ID, Name: "x",
		Slug: a.project.Slug}), edgeflow.EConflict)
	must(t, s.CreateProject(ctx, &edgeflow.Project{OrganizationID: b.org.ID, Name: "x", Slug: a.project.Slug}))
	wantCode(t, "project of unknown org", s.CreateProject(ctx, &edgeflow.Project{OrganizationID: "org_missing",
		Name: "x", Slug: "y"}), edgeflow.ENotFound)

	upd := &edgeflow.Project{ID: a.project.ID, OrganizationID: a.org.ID, Name: "Renamed", Slug: "ignored", Description: "new"}
	must(t, s.UpdateProject(ctx, upd))
	got, err = s.FindProjectByID(ctx, a.org.ID, a.project.ID)
	must(t, err)
	if got.Name != "Renamed" || got.Description != "new" || got.Slug != a.project.Slug || got.UpdatedAt.Before(a.project.UpdatedAt) {
		t.Errorf("UpdateProject stored %+v", got)
	}
	diff(t, "UpdateProject result", upd, got)
	wantCode(t, "UpdateProject other org", s.UpdateProject(ctx, &edgeflow.Project{ID: a.project.ID,
		OrganizationID: b.org.ID, Name: "x"}), edgeflow.ENotFound)

	w := newWorkflow(t, s, a.project.ID, "w")
	wantCode(t, "DeleteProject with workflows", s.DeleteProject(ctx, a.org.ID, a.project.ID), edgeflow.EConflict)
	wantCode(t, "DeleteProject other org", s.DeleteProject(ctx, b.org.ID, a.project.ID), edgeflow.ENotFound)
	must(t, s.DeleteWorkflow(ctx, a.project.ID, w.ID))
	must(t, s.CreateEnvVar(ctx, &edgeflow.EnvVar{OrganizationID: a.org.ID, ProjectID: a.project.ID, Name: "P", Value: "1"}))
	must(t, s.DeleteProject(ctx, a.org.ID, a.project.ID))
	_, err = s.FindProjectByID(ctx, a.org.ID, a.project.ID)
	wantCode(t, "deleted project", err, edgeflow.ENotFound)
	vars, err := s.ListEnvVars(ctx, a.org.ID, a.project.ID, edgeflow.ListOptions{})
	must(t, err)
	if len(vars.Items) != 0 {
		t.Errorf("variables of deleted project remain: %+v", vars.Items)
	}
	wantCode(t, "DeleteProject again", s.DeleteProject(ctx, a.org.ID, a.project.ID), edgeflow.ENotFound)
}

func testProjectPagination(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	tn := newTenant(t, s)
	projects := []edgeflow.Project{*tn.project}
	for range 6 {
		projects = append(projects, *newProject(t, s, tn.org.ID))
	}
	want := ids(byTime(false, projectKey, projects...), func(p edgeflow.Project) string { return p.ID })
	newTenant(t, s) // another organization's project must not show
	got := walk(t, func(o edgeflow.ListOptions) (edgeflow.Page[edgeflow.Project], error) {
		return s.ListProjects(ctx, tn.org.ID, o)
	}, 4, func(p edgeflow.Project) string { return p.ID })
	diff(t, "ListProjects (oldest first)", got, want)
}
