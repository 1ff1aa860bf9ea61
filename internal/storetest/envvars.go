package storetest

import (
	"sort"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

func testEnvVars(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	a := newTenant(t, s)
	b := newTenant(t, s)
	p2 := newProject(t, s, a.org.ID)
	mk := func(project, name string, secret bool) *edgeflow.EnvVar {
		v := &edgeflow.EnvVar{OrganizationID: a.org.ID, ProjectID: project, Name: name, Value: "v-" + name, IsSecret: secret}
		must(t, s.CreateEnvVar(ctx, v))
		return v
	}
	orgB := mk("", "B_VAR", false)
	orgAPI := mk("", "API_KEY", true)
	projAPI := mk(a.project.ID, "API_KEY", false) // same name, other scope
	projZ := mk(a.project.ID, "Z", false)
	p2A := mk(p2.ID, "A", false)

	wantCode(t, "duplicate org var", s.CreateEnvVar(ctx, &edgeflow.EnvVar{OrganizationID: a.org.ID, Name: "B_VAR"}), edgeflow.EConflict)
	wantCode(t, "duplicate project var", s.CreateEnvVar(ctx, &edgeflow.EnvVar{OrganizationID: a.org.ID,
		ProjectID: a.project.ID, Name: "Z"}), edgeflow.EConflict)
	wantCode(t, "var in another org's project", s.CreateEnvVar(ctx, &edgeflow.EnvVar{OrganizationID: b.org.ID,
		ProjectID: a.project.ID, Name: "X"}), edgeflow.ENotFound)
	must(t, s.CreateEnvVar(ctx, &edgeflow.EnvVar{OrganizationID: b.org.ID, Name: "B_VAR"}))

	got, err := s.FindEnvVarByID(ctx, a.org.ID, orgAPI.ID)
	must(t, err)
	diff(t, "FindEnvVarByID", got, orgAPI)
	_, err = s.FindEnvVarByID(ctx, b.org.ID, orgAPI.ID)
	wantCode(t, "var of other org", err, edgeflow.ENotFound)

	apiFirst := []string{orgAPI.ID, projAPI.ID}
	sort.Strings(apiFirst)
	all := walk(t, func(o edgeflow.ListOptions) (edgeflow.Page[edgeflow.EnvVar], error) {
		return s.ListEnvVars(ctx, a.org.ID, a.project.ID, o)
	}, 1, func(v edgeflow.EnvVar) string { return v.ID })
	diff(t, "ListEnvVars org+project by name", all, append(apiFirst, orgB.ID, projZ.ID))
	page, err := s.ListEnvVars(ctx, a.org.ID, "", edgeflow.ListOptions{})
	must(t, err)
	diff(t, "ListEnvVars org only", page.Items, []edgeflow.EnvVar{*orgAPI, *orgB})
	page, err = s.ListEnvVars(ctx, a.org.ID, p2.ID, edgeflow.ListOptions{})
	must(t, err)
	diff(t, "ListEnvVars p2", ids(page.Items, func(v edgeflow.EnvVar) string { return v.ID }), []string{p2A.ID, orgAPI.ID, orgB.ID})

	upd := *projZ
	upd.Value, upd.IsSecret = "new", true
	must(t, s.UpdateEnvVar(ctx, &upd))
	got, err = s.FindEnvVarByID(ctx, a.org.ID, projZ.ID)
	must(t, err)
	diff(t, "UpdateEnvVar", got, &upd)
	if got.Value != "new" || !got.IsSecret || !got.CreatedAt.Equal(projZ.CreatedAt) {
		t.Errorf("updated var %+v", got)
	}
	rename := *projZ
	rename.Name = "API_KEY"
	wantCode(t, "rename onto taken name", s.UpdateEnvVar(ctx, &rename), edgeflow.EConflict)
	foreign := *projZ
	foreign.OrganizationID = b.org.ID
	wantCode(t, "update from other org", s.UpdateEnvVar(ctx, &foreign), edgeflow.ENotFound)
	wantCode(t, "delete from other org", s.DeleteEnvVar(ctx, b.org.ID, projZ.ID), edgeflow.ENotFound)
	must(t, s.DeleteEnvVar(ctx, a.org.ID, projZ.ID))
	_, err = s.FindEnvVarByID(ctx, a.org.ID, projZ.ID)
	wantCode(t, "deleted var", err, edgeflow.ENotFound)
	wantCode(t, "delete again", s.DeleteEnvVar(ctx, a.org.ID, projZ.ID), edgeflow.ENotFound)
}
