// Package storetest is the conformance suite every edgeflow.Store
// implementation passes. Run it from the implementation's tests with a
// function that opens a fresh, empty store for each subtest.
package storetest

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/google/go-cmp/cmp"
)

// Run runs every conformance case as a parallel subtest. open must return a
// fresh, empty store and arrange for it to be closed when the test ends.
func Run(t *testing.T, open func(t *testing.T) edgeflow.Store) {
	cases := []struct {
		name string
		fn   func(t *testing.T, s edgeflow.Store)
	}{
		{"Ping", testPing},
		{"Users", testUsers},
		{"Sessions", testSessions},
		{"Organizations", testOrganizations},
		{"Projects", testProjects},
		{"ProjectPagination", testProjectPagination},
		{"APIKeys", testAPIKeys},
		{"Workflows", testWorkflows},
		{"WorkflowTenancy", testWorkflowTenancy},
		{"WorkflowPagination", testWorkflowPagination},
		{"PageLimits", testPageLimits},
		{"BadCursor", testBadCursor},
		{"MoveWorkflow", testMoveWorkflow},
		{"DeleteWorkflowCascades", testDeleteWorkflowCascades},
		{"Versions", testVersions},
		{"VersionNumberingConcurrent", testVersionNumberingConcurrent},
		{"SubmitVersion", testSubmitVersion},
		{"DeleteVersionRules", testDeleteVersionRules},
		{"Deployments", testDeployments},
		{"DeploymentSecrets", testDeploymentSecrets},
		{"ListWorkflowsUsingNode", testListWorkflowsUsingNode},
		{"Runs", testRuns},
		{"RunsDueForRefresh", testRunsDueForRefresh},
		{"RunStateVersion", testRunStateVersion},
		{"RunClaims", testRunClaims},
		{"Connections", testConnections},
		{"ConnectionProjects", testConnectionProjects},
		{"EnvVars", testEnvVars},
		{"InstalledNodes", testInstalledNodes},
		{"Hit", testHit},
		{"SignInFailures", testSignInFailures},
		{"TimePrecision", testTimePrecision},
		{"SealedSamples", testSealedSamples},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.fn(t, open(t))
		})
	}
}

// tenant is one user with an organization and a project.
type tenant struct {
	user    *edgeflow.User
	org     *edgeflow.Organization
	project *edgeflow.Project
}

func suffix() string { return strings.TrimPrefix(edgeflow.NewID("x"), "x_")[:10] }

func newTenant(t *testing.T, s edgeflow.Store) tenant {
	t.Helper()
	ctx := t.Context()
	u := &edgeflow.User{Email: "user-" + suffix() + "@example.com", Name: "User", PasswordHash: []byte("hash")}
	must(t, s.CreateUser(ctx, u))
	o := &edgeflow.Organization{Name: "Org", Slug: "org-" + suffix()}
	must(t, s.CreateOrganization(ctx, o, u.ID))
	return tenant{user: u, org: o, project: newProject(t, s, o.ID)}
}

func newProject(t *testing.T, s edgeflow.Store, orgID string) *edgeflow.Project {
	t.Helper()
	p := &edgeflow.Project{OrganizationID: orgID, Name: "Project", Slug: "prj-" + suffix(), Description: "d"}
	must(t, s.CreateProject(t.Context(), p))
	return p
}

func newWorkflow(t *testing.T, s edgeflow.Store, projectID, name string) *edgeflow.Workflow {
	t.Helper()
	w := &edgeflow.Workflow{ProjectID: projectID, Name: name, Kind: edgeflow.KindWorkflow}
	must(t, s.CreateWorkflow(t.Context(), w))
	return w
}

func newVersion(t *testing.T, s edgeflow.Store, workflowID string, nodeTypes ...string) *edgeflow.Version {
	t.Helper()
	v := &edgeflow.Version{WorkflowID: workflowID, IR: json.RawMessage(`{"nodes":[]}`), Code: "export {}", NodeTypes: nodeTypes}
	must(t, s.CreateVersion(t.Context(), v))
	return v
}

func newConnection(t *testing.T, s edgeflow.Store, orgID string) *edgeflow.Connection {
	t.Helper()
	c := &edgeflow.Connection{OrganizationID: orgID, Provider: edgeflow.ProviderLocal, Name: "local-" + suffix(),
		AccountID: "acc", SealedCredentials: []byte{1, 2, 3}}
	must(t, s.CreateConnection(t.Context(), c))
	return c
}

func deploy(t *testing.T, s edgeflow.Store, w *edgeflow.Workflow, v *edgeflow.Version, c *edgeflow.Connection) *edgeflow.Deployment {
	t.Helper()
	d := &edgeflow.Deployment{WorkflowID: w.ID, VersionID: v.ID, ConnectionID: c.ID, URL: "http://x", ScriptName: "s"}
	must(t, s.RecordDeployment(t.Context(), d))
	return d
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// wantCode fails unless err carries the domain error code.
func wantCode(t *testing.T, what string, err error, code string) {
	t.Helper()
	if got := edgeflow.ErrorCode(err); got != code {
		t.Errorf("%s: error code %q (%v), want %q", what, got, err, code)
	}
}

func diff(t *testing.T, what string, got, want any) {
	t.Helper()
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", what, d)
	}
}

func ids[T any](items []T, id func(T) string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = id(it)
	}
	return out
}

func workflowID(w edgeflow.Workflow) string { return w.ID }

// byTime returns items sorted by (creation time, id), newest first when
// desc: the order of every time-ordered list, ties included.
func byTime[T any](desc bool, key func(T) (time.Time, string), items ...T) []T {
	out := append([]T(nil), items...)
	sort.SliceStable(out, func(i, j int) bool {
		ti, ii := key(out[i])
		tj, ij := key(out[j])
		less := ti.Before(tj) || (ti.Equal(tj) && ii < ij)
		if desc {
			return !less && !(ti.Equal(tj) && ii == ij)
		}
		return less
	})
	return out
}

func projectKey(p edgeflow.Project) (time.Time, string)       { return p.CreatedAt, p.ID }
func apiKeyKey(k edgeflow.APIKey) (time.Time, string)         { return k.CreatedAt, k.ID }
func connectionKey(c edgeflow.Connection) (time.Time, string) { return c.CreatedAt, c.ID }
func deploymentKey(d edgeflow.Deployment) (time.Time, string) { return d.CreatedAt, d.ID }
func runKey(r edgeflow.Run) (time.Time, string)               { return r.CreatedAt, r.ID }

func testPing(t *testing.T, s edgeflow.Store) {
	must(t, s.Ping(t.Context()))
}

func testUsers(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	u := &edgeflow.User{Email: "Ada@Example.com", Name: "Ada", PasswordHash: []byte("$2a$hash")}
	must(t, s.CreateUser(ctx, u))
	if !strings.HasPrefix(u.ID, edgeflow.PrefixUser+"_") || u.CreatedAt.IsZero() {
		t.Fatalf("CreateUser did not set ID/CreatedAt: %+v", u)
	}
	got, err := s.FindUserByID(ctx, u.ID)
	must(t, err)
	diff(t, "FindUserByID", got, u)
	got, err = s.FindUserByEmail(ctx, "ada@example.COM")
	must(t, err)
	diff(t, "FindUserByEmail", got, u)

	wantCode(t, "duplicate email", s.CreateUser(ctx, &edgeflow.User{Email: "ADA@example.com"}), edgeflow.EConflict)
	_, err = s.FindUserByID(ctx, "usr_missing")
	wantCode(t, "FindUserByID unknown", err, edgeflow.ENotFound)
	_, err = s.FindUserByEmail(ctx, "nobody@example.com")
	wantCode(t, "FindUserByEmail unknown", err, edgeflow.ENotFound)
}

func testSessions(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	tn := newTenant(t, s)
	now := time.Now().UTC()
	live := &edgeflow.Session{UserID: tn.user.ID, TokenHash: []byte("live-hash"), CSRFToken: "csrf",
		ActiveOrganizationID: tn.org.ID, ActiveProjectID: tn.project.ID, ExpiresAt: now.Add(time.Hour)}
	must(t, s.CreateSession(ctx, live))
	expired := &edgeflow.Session{UserID: tn.user.ID, TokenHash: []byte("old-hash"), ExpiresAt: now.Add(-time.Second)}
	must(t, s.CreateSession(ctx, expired))

	got, err := s.FindSessionByTokenHash(ctx, []byte("live-hash"), now)
	must(t, err)
	diff(t, "FindSessionByTokenHash", got, live)
	_, err = s.FindSessionByTokenHash(ctx, []byte("old-hash"), now)
	wantCode(t, "expired session", err, edgeflow.ENotFound)
	_, err = s.FindSessionByTokenHash(ctx, []byte("live-hash"), now.Add(2*time.Hour))
	wantCode(t, "session after expiry", err, edgeflow.ENotFound)
	_, err = s.FindSessionByTokenHash(ctx, []byte("unknown"), now)
	wantCode(t, "unknown session", err, edgeflow.ENotFound)

	p2 := newProject(t, s, tn.org.ID)
	must(t, s.SetSessionActive(ctx, live.ID, tn.org.ID, p2.ID))
	got, err = s.FindSessionByTokenHash(ctx, []byte("live-hash"), now)
	must(t, err)
	if got.ActiveProjectID != p2.ID || got.ActiveOrganizationID != tn.org.ID {
		t.Errorf("SetSessionActive: got org %q project %q", got.ActiveOrganizationID, got.ActiveProjectID)
	}
	wantCode(t, "SetSessionActive unknown", s.SetSessionActive(ctx, "ses_missing", "", ""), edgeflow.ENotFound)

	must(t, s.RevokeSession(ctx, live.ID, now))
	_, err = s.FindSessionByTokenHash(ctx, []byte("live-hash"), now)
	wantCode(t, "revoked session", err, edgeflow.ENotFound)
	wantCode(t, "RevokeSession unknown", s.RevokeSession(ctx, "ses_missing", now), edgeflow.ENotFound)
	wantCode(t, "duplicate token hash", s.CreateSession(ctx, &edgeflow.Session{UserID: tn.user.ID,
		TokenHash: []byte("live-hash"), ExpiresAt: now}), edgeflow.EConflict)

	// Purging removes the expired and the revoked session, not a live one.
	// Other cases run in parallel on the same store, so count at least.
	fresh := &edgeflow.Session{UserID: tn.user.ID, TokenHash: []byte("fresh-hash"), ExpiresAt: now.Add(time.Hour)}
	must(t, s.CreateSession(ctx, fresh))
	n, err := s.PurgeSessions(ctx, now)
	must(t, err)
	if n < 2 {
		t.Errorf("PurgeSessions deleted %d sessions, want at least the expired and the revoked one", n)
	}
	got, err = s.FindSessionByTokenHash(ctx, []byte("fresh-hash"), now)
	must(t, err)
	diff(t, "live session after PurgeSessions", got, fresh)
	wantCode(t, "RevokeSession of a purged session", s.RevokeSession(ctx, live.ID, now), edgeflow.ENotFound)
}

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

// walk reads all pages of a list with the given page size.
func walk[T any](t *testing.T, list func(edgeflow.ListOptions) (edgeflow.Page[T], error), limit int, id func(T) string) []string {
	t.Helper()
	var out []string
	opts := edgeflow.ListOptions{Limit: limit}
	for range 1000 {
		p, err := list(opts)
		must(t, err)
		if len(p.Items) > limit {
			t.Fatalf("page of %d items, limit %d", len(p.Items), limit)
		}
		out = append(out, ids(p.Items, id)...)
		if p.NextCursor == "" {
			return out
		}
		opts.Cursor = p.NextCursor
	}
	t.Fatal("pagination does not end")
	return nil
}

func testAPIKeys(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	a := newTenant(t, s)
	b := newTenant(t, s)
	exp := time.Now().Add(24 * time.Hour).UTC().Truncate(time.Microsecond)
	k1 := &edgeflow.APIKey{OrganizationID: a.org.ID, ProjectID: a.project.ID, UserID: a.user.ID, Name: "ci",
		Prefix: "ask_abcd", Hash: []byte("hash-1"), Scopes: []edgeflow.Scope{edgeflow.ScopeRead, edgeflow.ScopeWrite}, ExpiresAt: &exp}
	must(t, s.CreateAPIKey(ctx, k1))
	k2 := &edgeflow.APIKey{OrganizationID: a.org.ID, ProjectID: a.project.ID, UserID: a.user.ID, Name: "deploy",
		Prefix: "ask_efgh", Hash: []byte("hash-2"), Scopes: []edgeflow.Scope{edgeflow.ScopeDeploy}}
	must(t, s.CreateAPIKey(ctx, k2))
	wantCode(t, "duplicate hash", s.CreateAPIKey(ctx, &edgeflow.APIKey{OrganizationID: a.org.ID, ProjectID: a.project.ID,
		UserID: a.user.ID, Prefix: "x", Hash: []byte("hash-1"), Scopes: []edgeflow.Scope{edgeflow.ScopeRead}}), edgeflow.EConflict)

	got, err := s.FindAPIKeyByHash(ctx, []byte("hash-1"))
	must(t, err)
	diff(t, "FindAPIKeyByHash", got, k1)
	_, err = s.FindAPIKeyByHash(ctx, []byte("nope"))
	wantCode(t, "unknown key", err, edgeflow.ENotFound)

	page, err := s.ListAPIKeys(ctx, a.org.ID, edgeflow.ListOptions{})
	must(t, err)
	diff(t, "ListAPIKeys (newest first)", page.Items, byTime(true, apiKeyKey, *k1, *k2))
	page, err = s.ListAPIKeys(ctx, b.org.ID, edgeflow.ListOptions{})
	must(t, err)
	if len(page.Items) != 0 {
		t.Errorf("other org lists keys: %v", page.Items)
	}

	used := time.Now().UTC()
	must(t, s.TouchAPIKey(ctx, k1.ID, used))
	got, err = s.FindAPIKeyByHash(ctx, []byte("hash-1"))
	must(t, err)
	if got.LastUsedAt == nil || !got.LastUsedAt.Equal(used.Truncate(time.Microsecond)) {
		t.Errorf("LastUsedAt %v, want %v", got.LastUsedAt, used)
	}

	wantCode(t, "revoke other org", s.RevokeAPIKey(ctx, b.org.ID, k1.ID, used), edgeflow.ENotFound)
	must(t, s.RevokeAPIKey(ctx, a.org.ID, k1.ID, used))
	got, err = s.FindAPIKeyByHash(ctx, []byte("hash-1"))
	must(t, err)
	if got.RevokedAt == nil || !got.RevokedAt.Equal(used.Truncate(time.Microsecond)) {
		t.Errorf("RevokedAt %v, want %v", got.RevokedAt, used)
	}
	must(t, s.RevokeAPIKey(ctx, a.org.ID, k1.ID, used.Add(time.Hour)))
	got, err = s.FindAPIKeyByHash(ctx, []byte("hash-1"))
	must(t, err)
	if !got.RevokedAt.Equal(used.Truncate(time.Microsecond)) {
		t.Errorf("second revocation moved RevokedAt to %v", got.RevokedAt)
	}
}

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

func setOf(ids []string) map[string]bool {
	m := map[string]bool{}
	for _, id := range ids {
		m[id] = true
	}
	return m
}

func testPageLimits(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	tn := newTenant(t, s)
	for i := range 110 {
		newWorkflow(t, s, tn.project.ID, fmt.Sprint(i))
	}
	for _, c := range []struct{ limit, want int }{{0, 50}, {1, 1}, {100, 100}, {101, 100}, {1000, 100}} {
		p, err := s.ListWorkflows(ctx, tn.project.ID, edgeflow.ListOptions{Limit: c.limit})
		must(t, err)
		if len(p.Items) != c.want || p.NextCursor == "" {
			t.Errorf("limit %d: %d items (cursor %q), want %d and a cursor", c.limit, len(p.Items), p.NextCursor, c.want)
		}
	}
}

func testBadCursor(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	tn := newTenant(t, s)
	w := newWorkflow(t, s, tn.project.ID, "w")
	lists := map[string]func(edgeflow.ListOptions) error{
		"ListWorkflows": func(o edgeflow.ListOptions) error { _, err := s.ListWorkflows(ctx, tn.project.ID, o); return err },
		"ListProjects":  func(o edgeflow.ListOptions) error { _, err := s.ListProjects(ctx, tn.org.ID, o); return err },
		"ListAPIKeys":   func(o edgeflow.ListOptions) error { _, err := s.ListAPIKeys(ctx, tn.org.ID, o); return err },
		"ListVersions":  func(o edgeflow.ListOptions) error { _, err := s.ListVersions(ctx, w.ID, o); return err },
		"ListRuns": func(o edgeflow.ListOptions) error {
			_, err := s.ListRuns(ctx, edgeflow.RunFilter{ProjectID: tn.project.ID}, o)
			return err
		},
		"ListDeployments": func(o edgeflow.ListOptions) error {
			_, err := s.ListDeployments(ctx, edgeflow.DeploymentFilter{ProjectID: tn.project.ID}, o)
			return err
		},
		"ListConnections":    func(o edgeflow.ListOptions) error { _, err := s.ListConnections(ctx, tn.org.ID, "", o); return err },
		"ListEnvVars":        func(o edgeflow.ListOptions) error { _, err := s.ListEnvVars(ctx, tn.org.ID, "", o); return err },
		"ListInstalledNodes": func(o edgeflow.ListOptions) error { _, err := s.ListInstalledNodes(ctx, tn.org.ID, o); return err },
	}
	for name, list := range lists {
		for _, cursor := range []string{"!!!", "bm9zZXBhcmF0b3I", "eHl6H2lk" /* "xyz\x1fid": non-numeric key */} {
			err := list(edgeflow.ListOptions{Cursor: cursor})
			if name == "ListEnvVars" || name == "ListInstalledNodes" {
				if cursor == "eHl6H2lk" {
					continue // string sort keys: any text is a valid key
				}
			}
			var e *edgeflow.Error
			if !errors.As(err, &e) || e.Code != edgeflow.EInvalid {
				t.Errorf("%s cursor %q: %v, want %s", name, cursor, err, edgeflow.EInvalid)
				continue
			}
			diff(t, name+" cursor error details", e.Details, []edgeflow.FieldError{{Path: "/cursor", Message: e.Message}})
		}
	}
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

func testDeployments(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	a := newTenant(t, s)
	b := newTenant(t, s)
	w := newWorkflow(t, s, a.project.ID, "w")
	other := newWorkflow(t, s, a.project.ID, "other")
	v1 := newVersion(t, s, w.ID)
	v2 := newVersion(t, s, w.ID)
	ov := newVersion(t, s, other.ID)
	ca := newConnection(t, s, a.org.ID)
	cb := newConnection(t, s, a.org.ID)

	wantCode(t, "deploy version of another workflow", s.RecordDeployment(ctx, &edgeflow.Deployment{WorkflowID: w.ID,
		VersionID: ov.ID, ConnectionID: ca.ID}), edgeflow.ENotFound)
	wantCode(t, "deploy unknown workflow", s.RecordDeployment(ctx, &edgeflow.Deployment{WorkflowID: "wf_missing",
		VersionID: v1.ID, ConnectionID: ca.ID}), edgeflow.ENotFound)
	_, err := s.FindActiveDeployment(ctx, w.ID, "")
	wantCode(t, "nothing deployed", err, edgeflow.ENotFound)

	d1 := &edgeflow.Deployment{WorkflowID: w.ID, VersionID: v1.ID, ConnectionID: ca.ID, URL: "http://a/1",
		ScriptName: "ef-w", WorkflowName: "ef-w-wf", CreatedBy: a.user.ID}
	must(t, s.RecordDeployment(ctx, d1))
	if d1.Status != edgeflow.DeploymentActive || d1.ProjectID != a.project.ID || d1.RemovedAt != nil {
		t.Fatalf("RecordDeployment set %+v", d1)
	}
	got, err := s.FindActiveDeployment(ctx, w.ID, ca.ID)
	must(t, err)
	diff(t, "FindActiveDeployment", got, d1)
	activeVersion(t, s, a.project.ID, w.ID, v1.ID)

	d2 := deploy(t, s, w, v2, ca)
	activeVersion(t, s, a.project.ID, w.ID, v2.ID)
	d3 := deploy(t, s, w, v1, cb)
	activeVersion(t, s, a.project.ID, w.ID, v1.ID)
	got, err = s.FindActiveDeployment(ctx, w.ID, "")
	must(t, err)
	diff(t, "newest active deployment", *got, byTime(true, deploymentKey, *d2, *d3)[0])
	got, err = s.FindActiveDeployment(ctx, w.ID, ca.ID)
	must(t, err)
	diff(t, "active on ca", got, d2)

	page, err := s.ListDeployments(ctx, edgeflow.DeploymentFilter{ProjectID: a.project.ID, WorkflowID: w.ID}, edgeflow.ListOptions{})
	must(t, err)
	replaced := *d1
	replaced.Status = edgeflow.DeploymentReplaced
	diff(t, "ListDeployments", page.Items, byTime(true, deploymentKey, replaced, *d2, *d3))
	page, err = s.ListDeployments(ctx, edgeflow.DeploymentFilter{ProjectID: b.project.ID}, edgeflow.ListOptions{})
	must(t, err)
	if len(page.Items) != 0 {
		t.Errorf("other tenant sees deployments: %+v", page.Items)
	}
	page, err = s.ListDeployments(ctx, edgeflow.DeploymentFilter{ProjectID: a.project.ID, WorkflowID: other.ID}, edgeflow.ListOptions{})
	must(t, err)
	if len(page.Items) != 0 {
		t.Errorf("deployments of other workflow: %+v", page.Items)
	}

	active, err := s.ListActiveDeployments(ctx)
	must(t, err)
	diff(t, "ListActiveDeployments", active, []edgeflow.Deployment{*d2, *d3})

	at := time.Now().UTC()
	removed, err := s.RemoveDeployment(ctx, w.ID, cb.ID, at)
	must(t, err)
	if removed.ID != d3.ID || removed.Status != edgeflow.DeploymentRemoved || removed.RemovedAt == nil ||
		!removed.RemovedAt.Equal(at.Truncate(time.Microsecond)) {
		t.Errorf("RemoveDeployment returned %+v", removed)
	}
	activeVersion(t, s, a.project.ID, w.ID, v2.ID) // still deployed on ca
	_, err = s.RemoveDeployment(ctx, w.ID, cb.ID, at)
	wantCode(t, "remove twice", err, edgeflow.ENotFound)
	_, err = s.RemoveDeployment(ctx, w.ID, ca.ID, at)
	must(t, err)
	activeVersion(t, s, a.project.ID, w.ID, "")
	_, err = s.FindActiveDeployment(ctx, w.ID, "")
	wantCode(t, "all removed", err, edgeflow.ENotFound)

	d4 := deploy(t, s, w, v1, ca)
	activeVersion(t, s, a.project.ID, w.ID, v1.ID)
	got, err = s.FindActiveDeployment(ctx, w.ID, ca.ID)
	must(t, err)
	diff(t, "redeployed", got, d4)
	active, err = s.ListActiveDeployments(ctx)
	must(t, err)
	diff(t, "ListActiveDeployments after removals", active, []edgeflow.Deployment{*d4})
}

func testDeploymentSecrets(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	a := newTenant(t, s)
	w := newWorkflow(t, s, a.project.ID, "w")
	v1 := newVersion(t, s, w.ID)
	c := newConnection(t, s, a.org.ID)

	d1 := &edgeflow.Deployment{WorkflowID: w.ID, VersionID: v1.ID, ConnectionID: c.ID, URL: "http://a/1", ScriptName: "ef-w",
		WorkflowName: "ef-w-wf", SealedWorkerToken: "sealed-token-1", SealedTriggerSecret: "sealed-secret-1"}
	must(t, s.RecordDeployment(ctx, d1))
	got, err := s.FindActiveDeployment(ctx, w.ID, c.ID)
	must(t, err)
	diff(t, "recorded secrets", got, d1)

	must(t, s.SetDeploymentSecrets(ctx, d1.ID, "sealed-token-2", ""))
	got, err = s.FindActiveDeployment(ctx, w.ID, c.ID)
	must(t, err)
	want := *d1
	want.SealedWorkerToken, want.SealedTriggerSecret = "sealed-token-2", ""
	diff(t, "rotated secrets", got, &want)
	page, err := s.ListDeployments(ctx, edgeflow.DeploymentFilter{ProjectID: a.project.ID}, edgeflow.ListOptions{})
	must(t, err)
	diff(t, "listed secrets", page.Items, []edgeflow.Deployment{want})

	d2 := deploy(t, s, w, v1, c)
	wantCode(t, "set secrets of a replaced deployment", s.SetDeploymentSecrets(ctx, d1.ID, "x", "y"), edgeflow.ENotFound)
	wantCode(t, "set secrets of an unknown deployment", s.SetDeploymentSecrets(ctx, "dep_missing", "x", "y"), edgeflow.ENotFound)
	got, err = s.FindActiveDeployment(ctx, w.ID, c.ID)
	must(t, err)
	diff(t, "the new deployment keeps its own (none)", got, d2)
}

func activeVersion(t *testing.T, s edgeflow.Store, projectID, workflowID, want string) {
	t.Helper()
	w, err := s.FindWorkflowByID(t.Context(), projectID, workflowID)
	must(t, err)
	if w.ActiveVersionID != want {
		t.Errorf("ActiveVersionID %q, want %q", w.ActiveVersionID, want)
	}
}

func testListWorkflowsUsingNode(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	a := newTenant(t, s)
	b := newTenant(t, s)
	ca := newConnection(t, s, a.org.ID)
	cb := newConnection(t, s, b.org.ID)

	deployed := newWorkflow(t, s, a.project.ID, "deployed")
	deploy(t, s, deployed, newVersion(t, s, deployed.ID, "slack-message@2.0.0", "http-request@1.0.0"), ca)
	// Uses the node only in a version that is not deployed.
	undeployed := newWorkflow(t, s, a.project.ID, "undeployed")
	deploy(t, s, undeployed, newVersion(t, s, undeployed.ID, "http-request@1.0.0"), ca)
	newVersion(t, s, undeployed.ID, "slack-message@2.0.0")
	// Deployed, then taken down.
	removed := newWorkflow(t, s, a.project.ID, "removed")
	deploy(t, s, removed, newVersion(t, s, removed.ID, "slack-message@1.0.0"), ca)
	_, err := s.RemoveDeployment(ctx, removed.ID, ca.ID, time.Now())
	must(t, err)
	// Replaced by a version without the node.
	replaced := newWorkflow(t, s, a.project.ID, "replaced")
	deploy(t, s, replaced, newVersion(t, s, replaced.ID, "slack-message@2.0.0"), ca)
	deploy(t, s, replaced, newVersion(t, s, replaced.ID), ca)
	// Prefix of another node id must not match.
	prefix := newWorkflow(t, s, a.project.ID, "prefix")
	deploy(t, s, prefix, newVersion(t, s, prefix.ID, "slack-message-v2@1.0.0", "slack@1.0.0"), ca)
	// Another project of the same org counts; another org does not.
	p2 := newProject(t, s, a.org.ID)
	sibling := newWorkflow(t, s, p2.ID, "sibling")
	deploy(t, s, sibling, newVersion(t, s, sibling.ID, "slack-message@1.1.0"), ca)
	foreign := newWorkflow(t, s, b.project.ID, "foreign")
	deploy(t, s, foreign, newVersion(t, s, foreign.ID, "slack-message@2.0.0"), cb)

	got, err := s.ListWorkflowsUsingNode(ctx, a.org.ID, "slack-message")
	must(t, err)
	diff(t, "workflows using slack-message", setOf(ids(got, workflowID)), setOf([]string{deployed.ID, sibling.ID}))
	for _, w := range got {
		if w.ID == deployed.ID {
			diff(t, "listed workflow", w.Name, "deployed")
		}
	}
	got, err = s.ListWorkflowsUsingNode(ctx, a.org.ID, "unused")
	must(t, err)
	if len(got) != 0 {
		t.Errorf("unused node: %v", ids(got, workflowID))
	}
}

func testRuns(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	a := newTenant(t, s)
	b := newTenant(t, s)
	w := newWorkflow(t, s, a.project.ID, "w")
	w2 := newWorkflow(t, s, a.project.ID, "w2")
	v := newVersion(t, s, w.ID)
	c := newConnection(t, s, a.org.ID)
	d := deploy(t, s, w, v, c)
	next := time.Now().Add(time.Second).UTC().Truncate(time.Microsecond)
	r1 := &edgeflow.Run{WorkflowID: w.ID, VersionID: v.ID, ConnectionID: c.ID, DeploymentID: d.ID, WorkflowName: "ef-w",
		InstanceID: "inst-1", Params: json.RawMessage(`{"order": 1}`), NextRefreshAt: &next}
	must(t, s.CreateRun(ctx, r1))
	if r1.Status != edgeflow.RunQueued || r1.ProjectID != a.project.ID || !strings.HasPrefix(r1.ID, edgeflow.PrefixRun+"_") {
		t.Fatalf("CreateRun set %+v", r1)
	}
	got, err := s.FindRunByID(ctx, w.ID, r1.ID)
	must(t, err)
	diff(t, "FindRunByID", got, r1)
	got, err = s.FindRunByInstanceID(ctx, w.ID, "inst-1")
	must(t, err)
	diff(t, "FindRunByInstanceID", got, r1)
	_, err = s.FindRunByID(ctx, w2.ID, r1.ID)
	wantCode(t, "run of another workflow", err, edgeflow.ENotFound)
	_, err = s.FindRunByInstanceID(ctx, w.ID, "inst-x")
	wantCode(t, "unknown instance", err, edgeflow.ENotFound)
	wantCode(t, "run of unknown workflow", s.CreateRun(ctx, &edgeflow.Run{WorkflowID: "wf_missing"}), edgeflow.ENotFound)

	r2 := &edgeflow.Run{WorkflowID: w2.ID, InstanceID: "inst-2", Status: edgeflow.RunRunning}
	must(t, s.CreateRun(ctx, r2))
	r3 := &edgeflow.Run{WorkflowID: w.ID, InstanceID: "inst-3", Status: edgeflow.RunRunning}
	must(t, s.CreateRun(ctx, r3))

	list := func(f edgeflow.RunFilter) []string {
		t.Helper()
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
	diff(t, "ListRuns project", list(edgeflow.RunFilter{ProjectID: a.project.ID}), newest(r1, r2, r3))
	diff(t, "ListRuns workflow", list(edgeflow.RunFilter{ProjectID: a.project.ID, WorkflowID: w.ID}), newest(r1, r3))
	diff(t, "ListRuns status", list(edgeflow.RunFilter{ProjectID: a.project.ID, Status: edgeflow.RunRunning}), newest(r2, r3))
	diff(t, "ListRuns both", list(edgeflow.RunFilter{ProjectID: a.project.ID, WorkflowID: w.ID, Status: edgeflow.RunQueued}), []string{r1.ID})
	if got := list(edgeflow.RunFilter{ProjectID: b.project.ID}); len(got) != 0 {
		t.Errorf("other tenant sees runs %v", got)
	}

	started := time.Now().Add(-time.Minute).UTC().Truncate(time.Microsecond)
	ended := time.Now().UTC().Truncate(time.Microsecond)
	upd := *r1
	upd.Status, upd.StatusDetail, upd.Error = edgeflow.RunComplete, "complete", "boom"
	upd.Output = json.RawMessage(`{"ok":true}`)
	upd.Steps = json.RawMessage(`[{"name":"a"}]`)
	upd.StartedAt, upd.EndedAt, upd.NextRefreshAt, upd.RefreshFailures = &started, &ended, nil, 2
	upd.Params = json.RawMessage(`{"changed":true}`) // not written
	must(t, s.UpdateRun(ctx, &upd))
	got, err = s.FindRunByID(ctx, w.ID, r1.ID)
	must(t, err)
	want := upd
	want.Params = r1.Params
	want.UpdatedAt = got.UpdatedAt
	diff(t, "updated run", got, &want)
	diff(t, "UpdateRun result", &upd, got)
	missing := edgeflow.Run{WorkflowID: w2.ID, ID: r1.ID, Status: edgeflow.RunRunning}
	wantCode(t, "UpdateRun via other workflow", s.UpdateRun(ctx, &missing), edgeflow.ENotFound)

	// An instance is one run of its workflow (replicas recording a cron
	// instance race on this); the same instance id elsewhere, and runs
	// without an instance yet, are fine.
	wantCode(t, "second run of an instance", s.CreateRun(ctx, &edgeflow.Run{WorkflowID: w.ID, InstanceID: "inst-1"}), edgeflow.EConflict)
	must(t, s.CreateRun(ctx, &edgeflow.Run{WorkflowID: w2.ID, InstanceID: "inst-1"}))
	must(t, s.CreateRun(ctx, &edgeflow.Run{WorkflowID: w.ID}))
	must(t, s.CreateRun(ctx, &edgeflow.Run{WorkflowID: w.ID}))
}

func testRunsDueForRefresh(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	tn := newTenant(t, s)
	w := newWorkflow(t, s, tn.project.ID, "w")
	now := time.Now().UTC()
	at := func(d time.Duration) *time.Time { x := now.Add(d); return &x }
	mk := func(status string, next *time.Time) string {
		r := &edgeflow.Run{WorkflowID: w.ID, Status: status, NextRefreshAt: next}
		must(t, s.CreateRun(ctx, r))
		return r.ID
	}
	dueOld := mk(edgeflow.RunRunning, at(-time.Hour))
	dueNow := mk(edgeflow.RunQueued, at(0))
	duePaused := mk(edgeflow.RunPaused, at(-time.Minute))
	mk(edgeflow.RunRunning, at(time.Minute))     // not yet due
	mk(edgeflow.RunRunning, nil)                 // no refresh planned
	mk(edgeflow.RunComplete, at(-time.Hour))     // final
	mk(edgeflow.RunErrored, at(-2*time.Hour))    // final
	mk(edgeflow.RunTerminated, at(-3*time.Hour)) // final
	dueLast := mk(edgeflow.RunRunning, at(-time.Second))

	// Claimed two at a time: the due runs, oldest due first; a claimed run is
	// not claimed again while held.
	until := now.Add(time.Minute)
	runs, err := s.ClaimRunsForRefresh(ctx, now, until, 2)
	must(t, err)
	diff(t, "due runs limited", ids(runs, func(r edgeflow.Run) string { return r.ID }), []string{dueOld, duePaused})
	runs, err = s.ClaimRunsForRefresh(ctx, now, until, 10)
	must(t, err)
	diff(t, "the other due runs (oldest due first)", ids(runs, func(r edgeflow.Run) string { return r.ID }),
		[]string{dueLast, dueNow})
}

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
		AccountID: "acc-2", SealedCredentials: []byte{9}}
	must(t, s.UpdateConnection(ctx, upd))
	got, err = s.FindConnectionByID(ctx, a.org.ID, c1.ID)
	must(t, err)
	diff(t, "UpdateConnection", got, upd)
	if !got.CreatedAt.Equal(c1.CreatedAt) || got.Name != "renamed" || string(got.SealedCredentials) != "\x09" {
		t.Errorf("updated connection %+v", got)
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

func testInstalledNodes(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	a := newTenant(t, s)
	b := newTenant(t, s)
	mk := func(org, node string) *edgeflow.InstalledNode {
		n := &edgeflow.InstalledNode{OrganizationID: org, NodeID: node, Version: "1.0.0",
			Definition: json.RawMessage(`{"id": "` + node + `"}`), Template: "export default () => {}", Checksum: "sha256-x",
			InstalledBy: a.user.ID}
		must(t, s.InstallNode(ctx, n))
		return n
	}
	slack := mk(a.org.ID, "slack-message")
	http := mk(a.org.ID, "http-request")
	mk(b.org.ID, "slack-message")
	wantCode(t, "install twice", s.InstallNode(ctx, &edgeflow.InstalledNode{OrganizationID: a.org.ID,
		NodeID: "slack-message", Version: "2.0.0"}), edgeflow.EConflict)

	got, err := s.FindInstalledNode(ctx, a.org.ID, "slack-message")
	must(t, err)
	diff(t, "FindInstalledNode", got, slack)
	_, err = s.FindInstalledNode(ctx, a.org.ID, "nope")
	wantCode(t, "not installed", err, edgeflow.ENotFound)

	page, err := s.ListInstalledNodes(ctx, a.org.ID, edgeflow.ListOptions{Limit: 1})
	must(t, err)
	diff(t, "ListInstalledNodes page 1", page.Items, []edgeflow.InstalledNode{*http})
	page, err = s.ListInstalledNodes(ctx, a.org.ID, edgeflow.ListOptions{Limit: 1, Cursor: page.NextCursor})
	must(t, err)
	diff(t, "ListInstalledNodes page 2", page.Items, []edgeflow.InstalledNode{*slack})
	if page.NextCursor != "" {
		t.Errorf("cursor after last page: %q", page.NextCursor)
	}

	upd := *slack
	upd.Version, upd.Definition, upd.Template, upd.Checksum = "2.0.0", json.RawMessage(`{"v":2}`), "t2", "sha256-y"
	must(t, s.UpdateInstalledNode(ctx, &upd))
	got, err = s.FindInstalledNode(ctx, a.org.ID, "slack-message")
	must(t, err)
	diff(t, "UpdateInstalledNode", got, &upd)
	if got.Version != "2.0.0" || !got.InstalledAt.Equal(slack.InstalledAt) {
		t.Errorf("updated node %+v", got)
	}
	other, err := s.FindInstalledNode(ctx, b.org.ID, "slack-message")
	must(t, err)
	if other.Version != "1.0.0" {
		t.Errorf("update leaked to other org: %+v", other)
	}
	missing := upd
	missing.NodeID = "nope"
	wantCode(t, "update not installed", s.UpdateInstalledNode(ctx, &missing), edgeflow.ENotFound)
	must(t, s.UninstallNode(ctx, a.org.ID, "slack-message"))
	_, err = s.FindInstalledNode(ctx, a.org.ID, "slack-message")
	wantCode(t, "uninstalled", err, edgeflow.ENotFound)
	wantCode(t, "uninstall twice", s.UninstallNode(ctx, a.org.ID, "slack-message"), edgeflow.ENotFound)
	if _, err := s.FindInstalledNode(ctx, b.org.ID, "slack-message"); err != nil {
		t.Errorf("uninstall removed other org's node: %v", err)
	}
}

func testHit(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	w1 := time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC)
	w2 := w1.Add(time.Minute)
	hit := func(key string, w time.Time) int {
		t.Helper()
		n, err := s.Hit(ctx, key, w)
		must(t, err)
		return n
	}
	for i := 1; i <= 3; i++ {
		if n := hit("ip:1", w1); n != i {
			t.Errorf("hit %d in window 1: count %d", i, n)
		}
	}
	if n := hit("ip:2", w1); n != 1 {
		t.Errorf("other key: count %d", n)
	}
	if n := hit("ip:1", w2); n != 1 {
		t.Errorf("next window: count %d", n)
	}
	// Windows long gone are pruned without disturbing current counts.
	if n := hit("ip:1", w2.Add(3*time.Hour)); n != 1 {
		t.Errorf("much later window: count %d", n)
	}
	if n := hit("ip:1", w2.Add(3*time.Hour)); n != 2 {
		t.Errorf("much later window, second hit: count %d", n)
	}

	const workers, each = 10, 5
	var wg sync.WaitGroup
	errs := make([]error, workers)
	w3 := w1.Add(24 * time.Hour)
	for i := range workers {
		wg.Go(func() {
			for range each {
				if _, err := s.Hit(ctx, "user:x", w3); err != nil {
					errs[i] = err
				}
			}
		})
	}
	wg.Wait()
	must(t, errors.Join(errs...))
	if n := hit("user:x", w3); n != workers*each+1 {
		t.Errorf("after %d concurrent hits: count %d", workers*each, n)
	}
}

func testTimePrecision(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	tn := newTenant(t, s)
	for _, c := range []*edgeflow.Organization{tn.org} {
		if c.CreatedAt.Location() != time.UTC {
			t.Errorf("CreatedAt location %v", c.CreatedAt.Location())
		}
	}
	loc := time.FixedZone("X", 5*3600+1800)
	exp := time.Date(2030, 5, 6, 7, 8, 9, 123456789, loc)
	ses := &edgeflow.Session{UserID: tn.user.ID, TokenHash: []byte("tp"), ExpiresAt: exp}
	must(t, s.CreateSession(ctx, ses))
	got, err := s.FindSessionByTokenHash(ctx, []byte("tp"), exp.Add(-time.Hour))
	must(t, err)
	want := time.Date(2030, 5, 6, 1, 38, 9, 123456000, time.UTC)
	if got.ExpiresAt != want || ses.ExpiresAt != want {
		t.Errorf("ExpiresAt stored %v returned %v, want %v (UTC, microseconds)", ses.ExpiresAt, got.ExpiresAt, want)
	}
	if got.CreatedAt.Location() != time.UTC || got.CreatedAt != ses.CreatedAt {
		t.Errorf("CreatedAt %v, want %v in UTC", got.CreatedAt, ses.CreatedAt)
	}
	// Exactly at expiry the session is gone.
	_, err = s.FindSessionByTokenHash(ctx, []byte("tp"), want)
	wantCode(t, "session at expiry", err, edgeflow.ENotFound)
	_, err = s.FindSessionByTokenHash(ctx, []byte("tp"), want.Add(-time.Microsecond))
	must(t, err)
}

func testSignInFailures(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 123456789, time.UTC)
	f, err := s.FindSignInFailures(ctx, "k1")
	must(t, err)
	if f.Count != 0 {
		t.Fatalf("no failures yet: %+v", f)
	}
	for i := 1; i <= 3; i++ {
		f, err = s.RecordSignInFailure(ctx, "k1", t0.Add(time.Duration(i)*time.Second), t0.Add(-time.Hour))
		must(t, err)
		if f.Count != i {
			t.Errorf("failure %d: count %d", i, f.Count)
		}
	}
	_, err = s.RecordSignInFailure(ctx, "k2", t0, t0.Add(-time.Hour))
	must(t, err)
	f, err = s.FindSignInFailures(ctx, "k1")
	must(t, err)
	if want := t0.Add(3 * time.Second).Truncate(time.Microsecond); f.Count != 3 || !f.LastFailedAt.Equal(want) || f.LastFailedAt.Location() != time.UTC {
		t.Errorf("k1 = %+v, want 3 at %v", f, want)
	}
	// A success clears one key only.
	must(t, s.ClearSignInFailures(ctx, "k1"))
	must(t, s.ClearSignInFailures(ctx, "never-failed"))
	if f, err = s.FindSignInFailures(ctx, "k1"); err != nil || f.Count != 0 {
		t.Errorf("k1 after clear = %+v, %v", f, err)
	}
	if f, err = s.FindSignInFailures(ctx, "k2"); err != nil || f.Count != 1 {
		t.Errorf("k2 after clearing k1 = %+v, %v", f, err)
	}
	// Failures older than forgetBefore are forgotten: the count starts again.
	later := t0.Add(48 * time.Hour)
	f, err = s.RecordSignInFailure(ctx, "k2", later, later.Add(-24*time.Hour))
	must(t, err)
	if f.Count != 1 {
		t.Errorf("stale count not restarted: %+v", f)
	}

	const workers, each = 10, 5
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for i := range workers {
		wg.Go(func() {
			for range each {
				if _, err := s.RecordSignInFailure(ctx, "k3", later, later.Add(-time.Hour)); err != nil {
					errs[i] = err
				}
			}
		})
	}
	wg.Wait()
	must(t, errors.Join(errs...))
	if f, err = s.FindSignInFailures(ctx, "k3"); err != nil || f.Count != workers*each {
		t.Errorf("after %d concurrent failures: %+v, %v", workers*each, f, err)
	}
}
