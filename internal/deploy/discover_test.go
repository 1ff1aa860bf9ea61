package deploy_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/sqlite"
	"github.com/google/go-cmp/cmp"
)

type fixedSecrets struct{}

func (fixedSecrets) OpenConnection(*edgeflow.Connection) (map[string]string, error) {
	return map[string]string{"apiToken": "tok", "accountId": "acct"}, nil
}
func (fixedSecrets) SealConnection(*edgeflow.Connection, map[string]string) error { return nil }
func (fixedSecrets) OpenWorkflowSecret(*edgeflow.Workflow, edgeflow.WorkflowEnvVar) (string, error) {
	return "", nil
}
func (fixedSecrets) OpenEnvVar(*edgeflow.EnvVar) (string, error) { return "", nil }
func (fixedSecrets) SealDeploymentSecret(_, _, value string) string {
	return value
}
func (fixedSecrets) OpenDeploymentSecret(_, _, sealed string) (string, error) { return sealed, nil }

// cfStub is the Cloudflare Workflows API: a list of instances (one older
// than the deployment, one newer) and the newer one's status; it fails the
// list while failing is set, and records every request.
type cfStub struct {
	mu       sync.Mutex
	failing  bool
	requests []string
}

func (c *cfStub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	c.requests = append(c.requests, r.Method+" "+r.URL.RequestURI())
	failing := c.failing
	c.mu.Unlock()
	if r.Header.Get("Authorization") != "Bearer tok" {
		w.WriteHeader(401)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	switch r.URL.Path {
	case "/accounts/acct/workflows/wf-cron/instances":
		if failing {
			// Retry at once: the back-off under test is discovery's, not
			// the client's retries of a 503.
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(503)
			fmt.Fprint(w, `{"success":false,"errors":[{"code":10000,"message":"down"}]}`)
			return
		}
		now := time.Now().UTC()
		fmt.Fprintf(w, `{"success":true,"errors":[],"result":[
			{"id":"new-1","status":"running","created_on":%q},
			{"id":"old-1","status":"complete","created_on":%q}]}`,
			now.Add(time.Hour).Format(time.RFC3339), now.Add(-time.Hour).Format(time.RFC3339))
	case "/accounts/acct/workflows/wf-cron/instances/new-1":
		fmt.Fprint(w, `{"success":true,"errors":[],"result":{"status":"complete","params":{"cron":"*/5 * * * *"},"output":{"fired":true}}}`)
	default:
		w.WriteHeader(404)
		fmt.Fprint(w, `{"success":false,"errors":[{"code":10007,"message":"not found"}]}`)
	}
}

func (c *cfStub) take() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.requests
	c.requests = nil
	return out
}

// TestDiscoverCronRuns: instances of a cron deployment created after it
// become runs once; older ones are ignored; a failing provider backs off.
func TestDiscoverCronRuns(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, org, prj := testOrg(t)
	stub := &cfStub{}
	hs := httptest.NewServer(stub)
	t.Cleanup(hs.Close)
	clock := time.Now()
	var clockMu sync.Mutex
	now := func() time.Time { clockMu.Lock(); defer clockMu.Unlock(); return clock }
	svc, err := deploy.New(deploy.Options{Store: st, Secrets: fixedSecrets{}, CloudflareBaseURL: hs.URL, Now: now})
	if err != nil {
		t.Fatal(err)
	}

	wf := &edgeflow.Workflow{ProjectID: prj.ID, Name: "cron", Kind: "workflow"}
	must(t, st.CreateWorkflow(ctx, wf))
	ver := &edgeflow.Version{WorkflowID: wf.ID,
		IR: json.RawMessage(`{"metadata":{"name":"cron"},"nodes":[],"edges":[],"entryNodeId":"","trigger":{"type":"cron","expression":"*/5 * * * *"}}`)}
	must(t, st.CreateVersion(ctx, ver))
	conn := cfConnection(t, st, org)
	dep := &edgeflow.Deployment{ID: edgeflow.NewID(edgeflow.PrefixDeployment), WorkflowID: wf.ID, ProjectID: prj.ID, VersionID: ver.ID,
		ConnectionID: conn.ID, Status: edgeflow.DeploymentActive, ScriptName: "s", WorkflowName: "wf-cron"}
	must(t, st.RecordDeployment(ctx, dep))

	// The deployment was recorded without this Service (as after a restart):
	// the first pass finds it among the store's active deployments.
	if n := svc.DiscoverCronRuns(ctx); n != 1 {
		t.Fatalf("first pass recorded %d runs, want 1", n)
	}
	wantFirst := []string{
		"GET /accounts/acct/workflows/wf-cron/instances?page=1&per_page=100",
		"GET /accounts/acct/workflows/wf-cron/instances/new-1",
	}
	if diff := cmp.Diff(wantFirst, stub.take()); diff != "" {
		t.Fatalf("requests of the first pass (-want +got):\n%s", diff)
	}
	if n := svc.DiscoverCronRuns(ctx); n != 0 {
		t.Fatalf("second pass recorded %d runs, want 0", n)
	}
	stub.take()
	runs, err := st.ListRuns(ctx, edgeflow.RunFilter{ProjectID: prj.ID}, edgeflow.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs.Items) != 1 {
		t.Fatalf("runs = %+v, want exactly one", runs.Items)
	}
	r := runs.Items[0]
	got := []string{r.InstanceID, r.VersionID, r.ConnectionID, r.DeploymentID, r.Status, string(r.Params), string(r.Output)}
	want := []string{"new-1", ver.ID, conn.ID, dep.ID, edgeflow.RunComplete, `{"cron":"*/5 * * * *"}`, `{"fired":true}`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("discovered run (-want +got):\n%s", diff)
	}

	// A failing list backs off: no request until the delay has passed.
	stub.mu.Lock()
	stub.failing = true
	stub.mu.Unlock()
	svc.DiscoverCronRuns(ctx)
	if n := len(stub.take()); n == 0 {
		t.Fatal("the failing pass sent no request")
	}
	svc.DiscoverCronRuns(ctx)
	if got := stub.take(); len(got) != 0 {
		t.Fatalf("a pass during the back-off sent %v", got)
	}
	clockMu.Lock()
	clock = clock.Add(2 * time.Second)
	clockMu.Unlock()
	svc.DiscoverCronRuns(ctx)
	if n := len(stub.take()); n == 0 {
		t.Fatal("no request after the back-off")
	}
}

// testOrg opens a store in a temporary directory holding a user, an
// organization of theirs and a project of it.
func testOrg(t *testing.T) (*sqlite.Store, *edgeflow.Organization, *edgeflow.Project) {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "edgeflow.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	u := &edgeflow.User{Email: "a@example.com"}
	must(t, st.CreateUser(ctx, u))
	org := &edgeflow.Organization{Name: "o", Slug: "o"}
	must(t, st.CreateOrganization(ctx, org, u.ID))
	prj := &edgeflow.Project{OrganizationID: org.ID, Name: "p", Slug: "p"}
	must(t, st.CreateProject(ctx, prj))
	return st, org, prj
}

// cfConnection stores a Cloudflare connection of org to account "acct"
// (fixedSecrets opens its credentials).
func cfConnection(t *testing.T, st *sqlite.Store, org *edgeflow.Organization) *edgeflow.Connection {
	t.Helper()
	conn := &edgeflow.Connection{OrganizationID: org.ID, Provider: edgeflow.ProviderCloudflare, Name: "cf", AccountID: "acct", SealedCredentials: []byte{1}}
	must(t, st.CreateConnection(context.Background(), conn))
	return conn
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
