package deploy_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/sqlite"
)

// fakeProvider is a deploy.Provider that keeps Workflow instances in memory, as an edge account would, and
// records every call a run makes (create, read, pause, resume, terminate). The calls of deploys, resources and
// accounts are the embedded interface's, nil: a test that reaches one fails with a nil call.
type fakeProvider struct {
	deploy.Provider

	mu        sync.Mutex
	calls     []string
	times     []time.Time                 // of the calls, by the clock (a synctest bubble's in the refresher's test)
	instances map[string]*deploy.Instance // by instance id
	// listed is what ListInstances answers (its first page).
	listed []deploy.InstanceSummary
	// Failures, when set, are returned by the next calls of their kind instead of doing them.
	createErr, getErr, changeErr error
}

func newFakeProvider() *fakeProvider {
	return &fakeProvider{instances: map[string]*deploy.Instance{}}
}

func (p *fakeProvider) record(format string, args ...any) {
	p.calls = append(p.calls, fmt.Sprintf(format, args...))
	p.times = append(p.times, time.Now())
}

// take returns the calls since the last take.
func (p *fakeProvider) take() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.calls
	p.calls, p.times = nil, nil
	return out
}

// takeTimes returns the times of the calls since the last take.
func (p *fakeProvider) takeTimes() []time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.times
	p.calls, p.times = nil, nil
	return out
}

// failReads makes the reads of instances fail with err (nil: succeed again).
func (p *fakeProvider) failReads(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.getErr = err
}

// set makes instance id of the account be in status, with its steps.
func (p *fakeProvider) set(id, status string, steps json.RawMessage) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.instances[id] = &deploy.Instance{Status: status, Steps: steps}
}

func (p *fakeProvider) CreateInstance(_ context.Context, workflowName, id string, params json.RawMessage) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.record("create %s %s %s", workflowName, id, params)
	if p.createErr != nil {
		return p.createErr
	}
	if _, ok := p.instances[id]; ok {
		return &edgeflow.Error{Code: edgeflow.EConflict, Message: "instance " + id + " already exists"}
	}
	p.instances[id] = &deploy.Instance{Status: "queued"}
	return nil
}

// ListInstances answers listed on page 1, nothing after.
func (p *fakeProvider) ListInstances(_ context.Context, workflowName string, page, perPage int) ([]deploy.InstanceSummary, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.record("list %s %d", workflowName, page)
	if page > 1 {
		return nil, nil
	}
	return slices.Clone(p.listed), nil
}

// start makes the provider start instance id on its own (as a cron
// schedule does): running, listed newest first.
func (p *fakeProvider) start(id string, at time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.instances[id] = &deploy.Instance{Status: "running"}
	p.listed = append([]deploy.InstanceSummary{{ID: id, Status: "running", CreatedOn: &at}}, p.listed...)
}

func (p *fakeProvider) GetInstance(_ context.Context, workflowName, id string) (*deploy.Instance, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.record("get %s %s", workflowName, id)
	if p.getErr != nil {
		return nil, p.getErr
	}
	inst, ok := p.instances[id]
	if !ok {
		return nil, &edgeflow.Error{Code: edgeflow.ENotFound, Message: "no such instance"}
	}
	cp := *inst
	return &cp, nil
}

func (p *fakeProvider) ChangeInstanceStatus(_ context.Context, workflowName, id, action string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.record("%s %s %s", action, workflowName, id)
	if p.changeErr != nil {
		return p.changeErr
	}
	inst, ok := p.instances[id]
	if !ok {
		return &edgeflow.Error{Code: edgeflow.ENotFound, Message: "no such instance"}
	}
	inst.Status = map[string]string{"pause": "paused", "resume": "running", "terminate": "terminated"}[action]
	return nil
}

// runWorld is a SQLite store with a workflow of four steps deployed on a Cloudflare connection, and a service
// whose providers are prov.
type runWorld struct {
	st     *sqlite.Store
	svc    *deploy.Service
	prov   *fakeProvider
	tenant deploy.Tenant
	wf     *edgeflow.Workflow
	v1     *edgeflow.Version
	conn   *edgeflow.Connection
	dep    *edgeflow.Deployment
}

// stepsIR is an IR whose nodes are steps with these names, the first one's id being the entry.
func stepsIR(names ...string) json.RawMessage {
	var nodes []string
	for _, n := range names {
		id := strings.ToLower(strings.Fields(n)[0])
		nodes = append(nodes, fmt.Sprintf(`{"id":%q,"type":"step","name":%q,"data":{"code":"return 1;"}}`, id, n))
	}
	return json.RawMessage(`{"metadata":{"name":"orders"},"nodes":[` + strings.Join(nodes, ",") + `],"edges":[],"entryNodeId":"load"}`)
}

func newRunWorld(t *testing.T) *runWorld {
	t.Helper()
	ctx := context.Background()
	st, org, prj := testOrg(t)
	w := &runWorld{st: st, prov: newFakeProvider(), tenant: deploy.Tenant{OrganizationID: org.ID, ProjectID: prj.ID}}
	svc, err := deploy.New(deploy.Options{Store: st, Secrets: fixedSecrets{},
		NewProvider: func(deploy.ProviderConfig) (deploy.Provider, error) { return w.prov, nil }})
	if err != nil {
		t.Fatal(err)
	}
	w.svc = svc
	w.wf = &edgeflow.Workflow{ProjectID: prj.ID, Name: "orders", Kind: edgeflow.KindWorkflow}
	must(t, st.CreateWorkflow(ctx, w.wf))
	w.v1 = &edgeflow.Version{WorkflowID: w.wf.ID, IR: stepsIR("Load order", "Charge", "Ship", "Notify")}
	must(t, st.CreateVersion(ctx, w.v1))
	w.conn = cfConnection(t, st, org)
	w.dep = &edgeflow.Deployment{WorkflowID: w.wf.ID, ProjectID: prj.ID, VersionID: w.v1.ID, ConnectionID: w.conn.ID,
		ScriptName: "s", WorkflowName: "wf-orders"}
	must(t, st.RecordDeployment(ctx, w.dep))
	return w
}

// read is the tenant's workflow as the service reads it for a call.
func (w *runWorld) read(t *testing.T) *deploy.TenantWorkflow {
	t.Helper()
	tw, err := w.svc.ReadWorkflow(context.Background(), w.tenant, w.wf.ID)
	must(t, err)
	return tw
}

// run records a run of the deployment whose instance is in status with steps on the provider.
func (w *runWorld) run(t *testing.T, status, detail, providerStatus string, steps json.RawMessage) *edgeflow.Run {
	t.Helper()
	r := &edgeflow.Run{WorkflowID: w.wf.ID, VersionID: w.v1.ID, ConnectionID: w.conn.ID, DeploymentID: w.dep.ID,
		WorkflowName: w.dep.WorkflowName, Status: status, StatusDetail: detail, Params: json.RawMessage(`{"orderId":"A-1"}`),
		Steps: steps}
	r.ID = edgeflow.NewID(edgeflow.PrefixRun)
	r.InstanceID = r.ID
	must(t, w.st.CreateRun(context.Background(), r))
	w.prov.set(r.InstanceID, providerStatus, steps)
	return r
}

// runCount is how many runs the project holds.
func (w *runWorld) runCount(t *testing.T) int {
	t.Helper()
	page, err := w.st.ListRuns(context.Background(), edgeflow.RunFilter{ProjectID: w.tenant.ProjectID}, edgeflow.ListOptions{Limit: 100})
	must(t, err)
	return len(page.Items)
}

// wantErrorCode fails unless err is an *edgeflow.Error of code whose message holds inMessage.
func wantErrorCode(t *testing.T, err error, code, inMessage string) {
	t.Helper()
	var e *edgeflow.Error
	if !errorsAs(err, &e) || e.Code != code || !strings.Contains(e.Error(), inMessage) {
		t.Errorf("err = %v, want %s mentioning %q", err, code, inMessage)
	}
}
