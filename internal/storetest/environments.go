package storetest

import (
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// testEnvironments: a project starts with production bound to nothing;
// environments are created, bound (one connection per environment of a
// project), protected, listed by name and deleted; a deleted connection
// leaves its environments bound to nothing; deployments, runs and global
// variables keep their environment fields.
func testEnvironments(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	a := newTenant(t, s)
	envs, err := s.ListEnvironments(ctx, a.project.ID)
	must(t, err)
	if len(envs) != 1 || envs[0].Name != edgeflow.DefaultEnvironment || envs[0].ConnectionID != "" || envs[0].Protected {
		t.Fatalf("a new project's environments: %+v", envs)
	}
	c1 := &edgeflow.Connection{OrganizationID: a.org.ID, Provider: edgeflow.ProviderLocal, Name: "one"}
	c2 := &edgeflow.Connection{OrganizationID: a.org.ID, Provider: edgeflow.ProviderLocal, Name: "two"}
	must(t, s.CreateConnection(ctx, c1))
	must(t, s.CreateConnection(ctx, c2))
	staging := &edgeflow.Environment{ProjectID: a.project.ID, Name: "staging", ConnectionID: c1.ID}
	must(t, s.CreateEnvironment(ctx, staging))
	if err := s.CreateEnvironment(ctx, &edgeflow.Environment{ProjectID: a.project.ID, Name: "staging"}); !edgeflow.IsConflict(err) {
		t.Errorf("a taken name: err = %v, want a conflict", err)
	}
	if err := s.CreateEnvironment(ctx, &edgeflow.Environment{ProjectID: a.project.ID, Name: "qa", ConnectionID: c1.ID}); !edgeflow.IsConflict(err) {
		t.Errorf("a connection bound to another environment: err = %v, want a conflict", err)
	}
	if err := s.CreateEnvironment(ctx, &edgeflow.Environment{ProjectID: "prj_missing", Name: "qa"}); !edgeflow.IsNotFound(err) {
		t.Errorf("an unknown project: err = %v, want not found", err)
	}
	prod := &edgeflow.Environment{ProjectID: a.project.ID, Name: edgeflow.DefaultEnvironment, ConnectionID: c2.ID, Protected: true}
	must(t, s.UpdateEnvironment(ctx, prod))
	if !prod.Protected || prod.ConnectionID != c2.ID || prod.CreatedAt.IsZero() {
		t.Errorf("updated production: %+v", prod)
	}
	got, err := s.FindEnvironmentByConnection(ctx, a.project.ID, c2.ID)
	must(t, err)
	if got.Name != edgeflow.DefaultEnvironment {
		t.Errorf("the environment of connection two: %+v", got)
	}
	if _, err := s.FindEnvironmentByConnection(ctx, a.project.ID, ""); !edgeflow.IsNotFound(err) {
		t.Errorf("no connection: err = %v, want not found", err)
	}
	prod.ConnectionID = c1.ID
	if err := s.UpdateEnvironment(ctx, prod); !edgeflow.IsConflict(err) {
		t.Errorf("binding staging's connection to production: err = %v, want a conflict", err)
	}
	envs, err = s.ListEnvironments(ctx, a.project.ID)
	must(t, err)
	if len(envs) != 2 || envs[0].Name != "production" || envs[1].Name != "staging" {
		t.Fatalf("environments by name: %+v", envs)
	}
	// Another project does not see them.
	other := newProject(t, s, a.org.ID)
	if _, err := s.FindEnvironment(ctx, other.ID, "staging"); !edgeflow.IsNotFound(err) {
		t.Errorf("another project's staging: err = %v, want not found", err)
	}
	must(t, s.DeleteConnection(ctx, a.org.ID, c1.ID))
	got, err = s.FindEnvironment(ctx, a.project.ID, "staging")
	must(t, err)
	if got.ConnectionID != "" {
		t.Errorf("staging after its connection was deleted: %+v", got)
	}
	must(t, s.DeleteEnvironment(ctx, a.project.ID, "staging"))
	if err := s.DeleteEnvironment(ctx, a.project.ID, "staging"); !edgeflow.IsNotFound(err) {
		t.Errorf("deleting it again: err = %v, want not found", err)
	}

	// Values per environment of a global variable.
	v := &edgeflow.EnvVar{OrganizationID: a.org.ID, ProjectID: a.project.ID, Name: "API_URL", Value: "",
		Values: map[string]string{"staging": "https://staging.example"}, OnlyEnvironments: true}
	must(t, s.CreateEnvVar(ctx, v))
	gv, err := s.FindEnvVarByID(ctx, a.org.ID, v.ID)
	must(t, err)
	diff(t, "values", gv.Values, v.Values)
	if !gv.OnlyEnvironments {
		t.Errorf("onlyEnvironments lost: %+v", gv)
	}
	gv.Values, gv.OnlyEnvironments = nil, false
	must(t, s.UpdateEnvVar(ctx, gv))
	if gv.Values != nil || gv.OnlyEnvironments {
		t.Errorf("values cleared: %+v", gv)
	}

	// Deployments and runs record their environment.
	w := newWorkflow(t, s, a.project.ID, "envs")
	ver := newVersion(t, s, w.ID)
	d := &edgeflow.Deployment{WorkflowID: w.ID, VersionID: ver.ID, ConnectionID: c2.ID, Environment: "production"}
	must(t, s.RecordDeployment(ctx, d))
	gd, err := s.FindActiveDeployment(ctx, w.ID, c2.ID)
	must(t, err)
	if gd.Environment != "production" {
		t.Errorf("the deployment's environment: %q", gd.Environment)
	}
	r := &edgeflow.Run{WorkflowID: w.ID, Status: edgeflow.RunQueued, Environment: "production"}
	must(t, s.CreateRun(ctx, r))
	must(t, s.CreateRun(ctx, &edgeflow.Run{WorkflowID: w.ID, Status: edgeflow.RunQueued}))
	page, err := s.ListRuns(ctx, edgeflow.RunFilter{ProjectID: a.project.ID, Environment: "production"}, edgeflow.ListOptions{})
	must(t, err)
	if len(page.Items) != 1 || page.Items[0].ID != r.ID || page.Items[0].Environment != "production" {
		t.Errorf("the runs of production: %+v", page.Items)
	}
}

// MigrationEnvironments: migration 22 gives every existing project its
// production environment, bound to nothing, and leaves deployments and
// runs made before it without one. unmigrate undoes migration 22 on the
// closed store.
func MigrationEnvironments(t *testing.T, open func(t *testing.T) edgeflow.Store, unmigrate func(t *testing.T)) {
	ctx := t.Context()
	s := open(t)
	a := newTenant(t, s)
	w := newWorkflow(t, s, a.project.ID, "before")
	r := &edgeflow.Run{WorkflowID: w.ID, Status: edgeflow.RunQueued}
	must(t, s.CreateRun(ctx, r))
	must(t, s.Close())
	unmigrate(t)

	s = open(t)
	defer s.Close()
	envs, err := s.ListEnvironments(ctx, a.project.ID)
	must(t, err)
	if len(envs) != 1 || envs[0].Name != edgeflow.DefaultEnvironment || envs[0].ConnectionID != "" || envs[0].Protected {
		t.Fatalf("the project's environments after migration 22: %+v", envs)
	}
	got, err := s.FindRunByID(ctx, w.ID, r.ID)
	must(t, err)
	if got.Environment != "" {
		t.Errorf("a run made before migration 22 has environment %q", got.Environment)
	}
}
