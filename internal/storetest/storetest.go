// Package storetest is the conformance suite every edgeflow.Store
// implementation passes. Run it from the implementation's tests with a
// function that opens a fresh, empty store for each subtest.
package storetest

import (
	"encoding/json"
	"sort"
	"strings"
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
		{"SessionManagement", testSessionManagement},
		{"Audit", testAudit},
		{"AuditProjectFilter", testAuditProjectFilter},
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
		{"DeleteWorkflowKeepingRuns", testDeleteWorkflowKeepingRuns},
		{"Versions", testVersions},
		{"VersionNumberingConcurrent", testVersionNumberingConcurrent},
		{"SubmitVersion", testSubmitVersion},
		{"DeleteVersionRules", testDeleteVersionRules},
		{"Deployments", testDeployments},
		{"DeploymentSecrets", testDeploymentSecrets},
		{"ListWorkflowsUsingNode", testListWorkflowsUsingNode},
		{"Runs", testRuns},
		{"RunsDueForRefresh", testRunsDueForRefresh},
		{"RunSearch", testRunSearch},
		{"RunSearchSteps", testRunSearchSteps},
		{"RunSearchManyMatches", testRunSearchManyMatches},
		{"RunUsage", testRunUsage},
		{"RunsCreationOrder", testRunsCreationOrder},
		{"DeleteWorkflowWithManyRuns", testDeleteWorkflowWithManyRuns},
		{"RunRetention", testRunRetention},
		{"RunLogs", testRunLogs},
		{"PinnedOutputs", testPinnedOutputs},
		{"BulkJobs", testBulkJobs},
		{"SentEvents", testSentEvents},
		{"RunStateVersion", testRunStateVersion},
		{"RunClaims", testRunClaims},
		{"HeldRunsPaged", testHeldRunsPaged},
		{"RunEvents", testRunEvents},
		{"RunRolledBackEvent", testRunRolledBackEvent},
		{"Webhooks", testWebhooks},
		{"Connections", testConnections},
		{"ConnectionProjects", testConnectionProjects},
		{"EnvVars", testEnvVars},
		{"Environments", testEnvironments},
		{"InstalledNodes", testInstalledNodes},
		{"Hit", testHit},
		{"SignInFailures", testSignInFailures},
		{"TimePrecision", testTimePrecision},
		{"SealedSamples", testSealedSamples},
		{"SetupTokens", testSetupTokens},
		{"Members", testMembers},
		{"OrganizationLifeCycle", testOrganizationLifeCycle},
		{"Invitations", testInvitations},
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

func setOf(ids []string) map[string]bool {
	m := map[string]bool{}
	for _, id := range ids {
		m[id] = true
	}
	return m
}
