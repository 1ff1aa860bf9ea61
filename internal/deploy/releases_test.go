package deploy_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/edgeflow/edgeflow/internal/codegen"
	"github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// cfRecorder is Cloudflare's API for deploys and retirement: it records
// every request (method and path) and answers each the way Cloudflare
// does.
type cfRecorder struct {
	mu      sync.Mutex
	got     []string
	scripts int // how many workers the account holds
}

func (c *cfRecorder) setScripts(n int) {
	c.mu.Lock()
	c.scripts = n
	c.mu.Unlock()
}

func (c *cfRecorder) take() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.got
	c.got = nil
	return out
}

func (c *cfRecorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, r.Body)
	path := strings.TrimPrefix(r.URL.Path, "/client/v4")
	c.mu.Lock()
	c.got = append(c.got, r.Method+" "+path)
	c.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	ok := func(result string) {
		fmt.Fprintf(w, `{"success":true,"errors":[],"messages":[],"result":%s}`, result)
	}
	switch {
	case r.Method == http.MethodGet && strings.HasSuffix(path, "/workers/scripts"):
		c.mu.Lock()
		list := make([]string, c.scripts)
		c.mu.Unlock()
		for i := range list {
			list[i] = fmt.Sprintf(`{"id":"w%d"}`, i)
		}
		ok("[" + strings.Join(list, ",") + "]")
	case strings.HasSuffix(path, "/tokens/verify"):
		ok(`{"id":"t","status":"active"}`)
	case strings.HasSuffix(path, "/secrets"):
		ok(`[]`)
	case strings.HasSuffix(path, "/workers/subdomain"):
		ok(`{"subdomain":"acme"}`)
	case strings.HasSuffix(path, "/subdomain"):
		ok(`{"enabled":true}`)
	case r.Method == http.MethodPut && strings.Contains(path, "/workflows/"):
		name := path[strings.LastIndex(path, "/")+1:]
		ok(`{"id":"00000000-0000-0000-0000-000000000001","name":"` + name + `"}`)
	default:
		ok(`{}`)
	}
}

// TestCloudflarePinnedDeployAndRetirement (docs/releases.md): through the
// Cloudflare client, a deploy while a run of v1 is in flight uploads v2 as
// a worker and Workflow of its own (ef-<id>-v2) and leaves v1's alone; the
// retirer leaves v1 while its run is in flight and, once it ended, deletes
// v1's Workflow and worker. A deploy with nothing in flight goes over the
// active version. The stub checks the exact requests.
func TestCloudflarePinnedDeployAndRetirement(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, org, prj := testOrg(t)
	rec := &cfRecorder{}
	hs := httptest.NewServer(rec)
	t.Cleanup(hs.Close)
	svc, err := deploy.New(deploy.Options{Store: st, Secrets: fixedSecrets{}, Compiler: &deploy.CodegenCompiler{},
		CloudflareBaseURL: hs.URL + "/client/v4", HTTPClient: hs.Client(), MaxScripts: 3})
	must(t, err)
	conn := cfConnection(t, st, org)
	wf := &edgeflow.Workflow{OrganizationID: org.ID, ProjectID: prj.ID, Name: "orders", Kind: edgeflow.KindWorkflow}
	must(t, st.CreateWorkflow(ctx, wf))
	version := func(names ...string) *edgeflow.Version {
		v := &edgeflow.Version{WorkflowID: wf.ID, IR: chainIR(names...)}
		must(t, st.CreateVersion(ctx, v))
		return v
	}
	deployVersion := func(v *edgeflow.Version, inFlight string) *edgeflow.Deployment {
		t.Helper()
		p, err := svc.PrepareDeploy(ctx, deploy.DeployRequest{OrganizationID: org.ID, ProjectID: prj.ID, WorkflowID: wf.ID,
			ConnectionID: conn.ID, VersionID: v.ID, InFlight: inFlight})
		must(t, err)
		d, err := svc.Deploy(ctx, p, nil)
		must(t, err)
		return d
	}
	base, v2name := codegen.ScriptName(wf.ID), deploy.VersionedName(wf.ID, 2)
	acct := "/accounts/acct"
	upload := func(script string) []string {
		return []string{"GET " + acct + "/workers/scripts/" + script + "/secrets", "PUT " + acct + "/workers/scripts/" + script}
	}
	expose := func(script string) []string {
		return []string{"POST " + acct + "/workers/scripts/" + script + "/subdomain", "GET " + acct + "/workers/subdomain"}
	}
	deployCalls := func(script string) []string {
		out := []string{"GET /user/tokens/verify"}
		out = append(out, upload(script)...)
		out = append(out, "PUT "+acct+"/workflows/"+script)
		return append(out, expose(script)...)
	}

	v1 := version("Load order", "Charge")
	d1 := deployVersion(v1, "")
	if d1.ScriptName != base || d1.WorkflowName != base {
		t.Fatalf("the first deploy: %+v", d1)
	}
	if diff := cmp.Diff(deployCalls(base), rec.take()); diff != "" {
		t.Fatalf("requests of the first deploy (-want +got):\n%s", diff)
	}
	run := &edgeflow.Run{ID: edgeflow.NewID(edgeflow.PrefixRun), WorkflowID: wf.ID, VersionID: v1.ID, ConnectionID: conn.ID,
		DeploymentID: d1.ID, WorkflowName: d1.WorkflowName, Status: edgeflow.RunPaused, StatusDetail: "waiting", Params: json.RawMessage(`{}`)}
	run.InstanceID = run.ID
	must(t, st.CreateRun(ctx, run))

	// The account is full: a version beside the run is refused before any upload.
	v2 := version("Load the order", "Charge")
	rec.setScripts(3)
	p, err := svc.PrepareDeploy(ctx, deploy.DeployRequest{OrganizationID: org.ID, ProjectID: prj.ID, WorkflowID: wf.ID,
		ConnectionID: conn.ID, VersionID: v2.ID})
	must(t, err)
	_, err = svc.Deploy(ctx, p, nil)
	if e, ok := errors.AsType[*edgeflow.Error](err); !ok || e.Code != edgeflow.EConflict ||
		!strings.Contains(e.Message, "limit on scripts per account (3)") {
		t.Fatalf("a deploy past the script limit: %v", err)
	}
	if diff := cmp.Diff([]string{"GET /user/tokens/verify", "GET " + acct + "/workers/scripts"}, rec.take()); diff != "" {
		t.Fatalf("requests of the refused deploy (-want +got):\n%s", diff)
	}

	rec.setScripts(2)
	d2 := deployVersion(v2, "")
	if d2.ScriptName != v2name || d2.WorkflowName != v2name {
		t.Fatalf("v2 beside the run of v1: %+v", d2)
	}
	pinned := append([]string{"GET /user/tokens/verify", "GET " + acct + "/workers/scripts"}, deployCalls(v2name)[1:]...)
	if diff := cmp.Diff(pinned, rec.take()); diff != "" {
		t.Fatalf("requests of the pinned deploy (-want +got):\n%s", diff)
	}
	if n := svc.RetireDrained(ctx); n != 0 {
		t.Fatalf("retired %d deployments while v1's run is in flight", n)
	}
	if got := rec.take(); len(got) != 0 {
		t.Fatalf("requests while v1 drains: %v", got)
	}

	run.Status, run.StatusDetail = edgeflow.RunComplete, ""
	must(t, st.UpdateRun(ctx, run))
	if n := svc.RetireDrained(ctx); n != 1 {
		t.Fatalf("retired %d deployments once v1's run ended", n)
	}
	want := []string{"DELETE " + acct + "/workflows/" + base, "DELETE " + acct + "/workers/scripts/" + base}
	if diff := cmp.Diff(want, rec.take()); diff != "" {
		t.Fatalf("requests of the retirement (-want +got):\n%s", diff)
	}
	page, err := st.ListDeployments(ctx, edgeflow.DeploymentFilter{ProjectID: prj.ID, WorkflowID: wf.ID}, edgeflow.ListOptions{})
	must(t, err)
	must(t, deploy.FillDeploymentStates(ctx, st, page.Items))
	states := map[string]string{}
	for _, d := range page.Items {
		states[d.ScriptName] = d.State
	}
	if diff := cmp.Diff(map[string]string{base: "retired", v2name: "active"}, states); diff != "" {
		t.Fatalf("states (-want +got):\n%s", diff)
	}

	// Nothing in flight: v3 goes over v2, which is retired at once.
	v3 := version("Load the order", "Charge", "Ship")
	d3 := deployVersion(v3, "")
	if d3.ScriptName != v2name {
		t.Fatalf("v3 with nothing in flight: %+v", d3)
	}
	if diff := cmp.Diff(deployCalls(v2name), rec.take()); diff != "" {
		t.Fatalf("requests of the deploy in place (-want +got):\n%s", diff)
	}
	if n := svc.RetireDrained(ctx); n != 1 {
		t.Fatalf("retired %d deployments after the deploy in place", n)
	}
	if got := rec.take(); len(got) != 0 {
		t.Fatalf("a deployment whose names serve v3 was deleted: %v", got)
	}

	// A takedown deletes the active version and the draining ones.
	run3 := &edgeflow.Run{ID: edgeflow.NewID(edgeflow.PrefixRun), WorkflowID: wf.ID, VersionID: v3.ID, ConnectionID: conn.ID,
		DeploymentID: d3.ID, WorkflowName: d3.WorkflowName, Status: edgeflow.RunRunning, Params: json.RawMessage(`{}`)}
	run3.InstanceID = run3.ID
	must(t, st.CreateRun(ctx, run3))
	v4name := deploy.VersionedName(wf.ID, 4)
	if d4 := deployVersion(version("Load the order", "Charge", "Ship", "Notify"), ""); d4.ScriptName != v4name {
		t.Fatalf("v4 beside the run of v3: %+v", d4)
	}
	rec.take()
	tw, err := svc.ReadWorkflow(ctx, deploy.Tenant{OrganizationID: org.ID, ProjectID: prj.ID}, wf.ID)
	must(t, err)
	if _, err := svc.Takedown(ctx, tw, conn.ID); err != nil {
		t.Fatal(err)
	}
	want = []string{"DELETE " + acct + "/workflows/" + v4name, "DELETE " + acct + "/workers/scripts/" + v4name,
		"DELETE " + acct + "/workflows/" + v2name, "DELETE " + acct + "/workers/scripts/" + v2name}
	if diff := cmp.Diff(want, rec.take()); diff != "" {
		t.Fatalf("requests of the takedown (-want +got):\n%s", diff)
	}
}

// chainIR is a workflow IR of code steps named names that run one after the
// other; the i-th has id "s<i>", so a new name is a renamed step.
func chainIR(names ...string) json.RawMessage {
	var nodes, edges []string
	for i, n := range names {
		nodes = append(nodes, fmt.Sprintf(`{"id":"s%d","type":"step","name":%q,"position":{"x":0,"y":0},"version":"1.0.0",`+
			`"provider":"cloudflare","data":{"code":"return %d;"}}`, i, n, i))
		if i > 0 {
			edges = append(edges, fmt.Sprintf(`{"id":"e%d","source":"s%d","target":"s%d"}`, i, i-1, i))
		}
	}
	return json.RawMessage(`{"metadata":{"name":"orders","version":1,"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z"},` +
		`"nodes":[` + strings.Join(nodes, ",") + `],"edges":[` + strings.Join(edges, ",") + `],"entryNodeId":"s0"}`)
}
