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

	"github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/google/go-cmp/cmp"
)

// instanceStub is Cloudflare's instance creation: it records each request
// with its body and answers as Cloudflare does.
type instanceStub struct {
	mu       sync.Mutex
	requests []string
}

func (c *instanceStub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	c.mu.Lock()
	c.requests = append(c.requests, r.Method+" "+r.URL.RequestURI()+" "+string(body))
	c.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if r.Header.Get("Authorization") != "Bearer tok" {
		w.WriteHeader(401)
		return
	}
	if r.Method == "POST" && r.URL.Path == "/accounts/acct/workflows/wf-orders/instances" {
		var in struct {
			InstanceID string `json:"instance_id"`
		}
		json.Unmarshal(body, &in)
		fmt.Fprintf(w, `{"success":true,"errors":[],"messages":[],"result":{"id":%q,"status":"queued","version_id":"v1","workflow_id":"w1"}}`, in.InstanceID)
		return
	}
	w.WriteHeader(404)
	fmt.Fprint(w, `{"success":false,"errors":[{"code":10007,"message":"not found"}]}`)
}

func (c *instanceStub) take() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.requests
	c.requests = nil
	return out
}

// TestRestartCloudflare restarts a run through the Cloudflare client: the
// one request is the instance creation whose params are the original
// params with the replay map (the outputs of the steps before fromStep, by
// step name); refusals send nothing and record nothing.
func TestRestartCloudflare(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, org, prj := testOrg(t)
	stub := &instanceStub{}
	hs := httptest.NewServer(stub)
	t.Cleanup(hs.Close)
	svc, err := deploy.New(deploy.Options{Store: st, Secrets: fixedSecrets{}, CloudflareBaseURL: hs.URL})
	if err != nil {
		t.Fatal(err)
	}
	wf := &edgeflow.Workflow{ProjectID: prj.ID, Name: "orders", Kind: "workflow"}
	must(t, st.CreateWorkflow(ctx, wf))
	irOf := func(names ...string) json.RawMessage {
		var nodes []string
		for _, n := range names {
			id := strings.ToLower(strings.Fields(n)[0])
			nodes = append(nodes, fmt.Sprintf(`{"id":%q,"type":"step","name":%q,"data":{"code":"return 1;"}}`, id, n))
		}
		return json.RawMessage(`{"metadata":{"name":"orders"},"nodes":[` + strings.Join(nodes, ",") + `],"edges":[],"entryNodeId":"load"}`)
	}
	v1 := &edgeflow.Version{WorkflowID: wf.ID, IR: irOf("Load order", "Charge", "Ship", "Notify")}
	must(t, st.CreateVersion(ctx, v1))
	conn := &edgeflow.Connection{OrganizationID: org.ID, Provider: edgeflow.ProviderCloudflare, Name: "cf", AccountID: "acct", SealedCredentials: []byte{1}}
	must(t, st.CreateConnection(ctx, conn))
	dep := &edgeflow.Deployment{ID: edgeflow.NewID(edgeflow.PrefixDeployment), WorkflowID: wf.ID, ProjectID: prj.ID, VersionID: v1.ID,
		ConnectionID: conn.ID, Status: edgeflow.DeploymentActive, ScriptName: "s", WorkflowName: "wf-orders"}
	must(t, st.RecordDeployment(ctx, dep))
	orig := &edgeflow.Run{WorkflowID: wf.ID, VersionID: v1.ID, ConnectionID: conn.ID, DeploymentID: dep.ID, WorkflowName: "wf-orders",
		InstanceID: "inst-1", Status: edgeflow.RunErrored, Params: json.RawMessage(`{"orderId":"A-1"}`), Error: "declined",
		Steps: json.RawMessage(`[
		 {"type":"step","name":"Load order","success":true,"output":{"id":"A-1","total":42},"attempts":[{"success":true}]},
		 {"type":"step","name":"Charge","success":true,"output":"ch_1","attempts":[{"success":true}]},
		 {"type":"step","name":"Ship","success":false,"output":null,"attempts":[{"success":false,"error":{"name":"Error","message":"declined"}}]}]`)}
	must(t, st.CreateRun(ctx, orig))
	tw, err := svc.ReadWorkflow(ctx, deploy.Tenant{OrganizationID: org.ID, ProjectID: prj.ID}, wf.ID)
	must(t, err)
	req := func(from, version string) deploy.RestartRequest {
		return deploy.RestartRequest{RunID: orig.ID, FromStep: from, Version: version}
	}

	got, err := svc.Restart(ctx, tw, req("ship", ""))
	must(t, err)
	want := []string{`POST /accounts/acct/workflows/wf-orders/instances {"instance_id":"` + got.ID + `","params":{"__edgeflowReplay":{"Charge":"ch_1","Load order":{"id":"A-1","total":42}},"orderId":"A-1"}}`}
	if diff := cmp.Diff(want, stub.take()); diff != "" {
		t.Fatalf("requests of the restart (-want +got):\n%s", diff)
	}
	if got.RestartOf != orig.ID || got.FromStep != "ship" || got.Status != edgeflow.RunQueued || string(got.Params) != `{"orderId":"A-1"}` ||
		len(got.StepDetail) != 2 || got.StepDetail[0].State != edgeflow.StepReplayed || got.StepDetail[1].NodeID != "charge" {
		t.Fatalf("restarted run = %+v", got)
	}
	stored, err := st.FindRunByID(ctx, wf.ID, got.ID)
	must(t, err)
	if len(stored.Replayed) != 2 || string(stored.Replayed[0].Output) != `{"id":"A-1","total":42}` {
		t.Fatalf("stored replayed steps = %+v", stored.Replayed)
	}

	// Refusals: nothing sent, nothing recorded.
	countRuns := func() int {
		page, err := st.ListRuns(ctx, edgeflow.RunFilter{ProjectID: prj.ID}, edgeflow.ListOptions{Limit: 100})
		must(t, err)
		return len(page.Items)
	}
	before := countRuns()
	refuse := func(what string, r deploy.RestartRequest, code, inMessage string) {
		t.Helper()
		_, err := svc.Restart(ctx, tw, r)
		var e *edgeflow.Error
		if !errorsAs(err, &e) || e.Code != code || !strings.Contains(e.Error(), inMessage) {
			t.Errorf("%s: err = %v, want %s mentioning %q", what, err, code, inMessage)
		}
	}
	refuse("a step before fromStep failed", req("notify", ""), edgeflow.EConflict, "Ship")
	refuse("unknown step", req("nope", ""), edgeflow.EInvalid, "unknown step")
	refuse("bad version word", req("ship", "older"), edgeflow.EInvalid, "version")
	v2 := &edgeflow.Version{WorkflowID: wf.ID, IR: irOf("Load order", "Ship", "Notify")}
	must(t, st.CreateVersion(ctx, v2))
	dep2 := *dep
	dep2.ID, dep2.VersionID = edgeflow.NewID(edgeflow.PrefixDeployment), v2.ID
	must(t, st.RecordDeployment(ctx, &dep2))
	refuse("same while another version is deployed", req("ship", "same"), edgeflow.EConflict, `"current"`)
	refuse("current lacks a replayed step", req("ship", "current"), edgeflow.EConflict, "charge")
	if reqs := stub.take(); len(reqs) != 0 {
		t.Fatalf("refused restarts sent %v", reqs)
	}
	if n := countRuns(); n != before {
		t.Fatalf("refused restarts recorded runs: %d, then %d", before, n)
	}
	// With current and a step the new version keeps, the replay map uses
	// the new version's step names.
	got, err = svc.Restart(ctx, tw, req("load", "current"))
	must(t, err)
	want = []string{`POST /accounts/acct/workflows/wf-orders/instances {"instance_id":"` + got.ID + `","params":{"orderId":"A-1"}}`}
	if diff := cmp.Diff(want, stub.take()); diff != "" {
		t.Fatalf("requests of the restart from the first step (-want +got):\n%s", diff)
	}
	if got.VersionID != v2.ID {
		t.Fatalf("restart with current ran version %s, want %s", got.VersionID, v2.ID)
	}
}

func errorsAs(err error, target **edgeflow.Error) bool { return errors.As(err, target) }
