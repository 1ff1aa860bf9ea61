package deploy_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/google/go-cmp/cmp"
)

// readerProvider reads many instances at once (deploy.InstancesReader);
// every instance is complete with its id as output, except "gone", which it
// does not know. duringRead runs inside each read of several.
type readerProvider struct {
	deploy.Provider // not called
	mu              sync.Mutex
	single          []string
	together        [][]string
	duringRead      func()
}

func (p *readerProvider) instance(id string) *deploy.Instance {
	return &deploy.Instance{Status: "complete", Output: json.RawMessage(fmt.Sprintf(`{"id":%q}`, id))}
}

func (p *readerProvider) GetInstance(_ context.Context, _, id string) (*deploy.Instance, error) {
	p.mu.Lock()
	p.single = append(p.single, id)
	p.mu.Unlock()
	return p.instance(id), nil
}

func (p *readerProvider) GetInstances(_ context.Context, _ string, ids []string) ([]deploy.InstanceResult, error) {
	p.mu.Lock()
	p.together = append(p.together, append([]string(nil), ids...))
	during := p.duringRead
	p.mu.Unlock()
	if during != nil {
		during()
	}
	out := make([]deploy.InstanceResult, len(ids))
	for i, id := range ids {
		if id == "gone" {
			out[i].Err = &edgeflow.Error{Code: edgeflow.ENotFound, Message: "no such instance"}
			continue
		}
		out[i].Instance = p.instance(id)
	}
	return out, nil
}

// TestRefresherReadsTogether: the refresher reads the due runs of one
// workflow and connection in one request of a provider that can, applies
// each answer (an instance's error to its run alone), reads a run alone in
// its group by itself, and keeps a run written since it was taken as it was
// written.
func TestRefresherReadsTogether(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, org, prj := testOrg(t)
	prov := &readerProvider{}
	svc, err := deploy.New(deploy.Options{Store: st, Secrets: fixedSecrets{},
		NewProvider: func(deploy.ProviderConfig) (deploy.Provider, error) { return prov, nil }})
	if err != nil {
		t.Fatal(err)
	}
	conn := cfConnection(t, st, org)
	due := time.Now().Add(-time.Second)
	mkRun := func(wf *edgeflow.Workflow, instance string) *edgeflow.Run {
		r := &edgeflow.Run{WorkflowID: wf.ID, ProjectID: prj.ID, ConnectionID: conn.ID, WorkflowName: "wf-" + wf.Name,
			InstanceID: instance, Status: edgeflow.RunRunning, NextRefreshAt: &due}
		must(t, st.CreateRun(ctx, r))
		return r
	}
	many := &edgeflow.Workflow{ProjectID: prj.ID, Name: "many", Kind: "workflow"}
	must(t, st.CreateWorkflow(ctx, many))
	alone := &edgeflow.Workflow{ProjectID: prj.ID, Name: "alone", Kind: "workflow"}
	must(t, st.CreateWorkflow(ctx, alone))
	var runs []*edgeflow.Run
	for i := range 5 {
		runs = append(runs, mkRun(many, fmt.Sprintf("i-%d", i)))
	}
	gone := mkRun(many, "gone")
	written := mkRun(many, "written")
	single := mkRun(alone, "solo")
	// While the refresher reads, someone else (a client's GET) writes one
	// of the runs: an older read must not overwrite it.
	prov.duringRead = func() {
		r, err := st.FindRunByID(ctx, many.ID, written.ID)
		must(t, err)
		r.Status, r.StatusDetail = edgeflow.RunPaused, "seen paused by a newer read"
		if ok, err := st.UpdateRunIfUnchanged(ctx, r); err != nil || !ok {
			t.Errorf("write of the run during the read: %v, %v", ok, err)
		}
	}

	if n := svc.RefreshDue(ctx, 100, 8); n != 8 {
		t.Fatalf("refreshed %d runs, want 8", n)
	}
	if len(prov.together) != 1 {
		t.Fatalf("reads of several: %v, want one", prov.together)
	}
	got := append([]string(nil), prov.together[0]...)
	sort.Strings(got)
	if diff := cmp.Diff([]string{"gone", "i-0", "i-1", "i-2", "i-3", "i-4", "written"}, got); diff != "" {
		t.Errorf("instances read together (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"solo"}, prov.single); diff != "" {
		t.Errorf("instances read alone (-want +got):\n%s", diff)
	}
	for _, r := range append(runs, single) {
		cur, err := st.FindRunByID(ctx, r.WorkflowID, r.ID)
		must(t, err)
		if cur.Status != edgeflow.RunComplete || string(cur.Output) != fmt.Sprintf(`{"id":%q}`, r.InstanceID) {
			t.Errorf("run of %s: %s %s", r.InstanceID, cur.Status, cur.Output)
		}
	}
	cur, err := st.FindRunByID(ctx, many.ID, gone.ID)
	must(t, err)
	if cur.Status != edgeflow.RunRunning || cur.RefreshFailures != 1 {
		t.Errorf("run of an unknown instance: status %s, %d failures; want running with one failure", cur.Status, cur.RefreshFailures)
	}
	cur, err = st.FindRunByID(ctx, many.ID, written.ID)
	must(t, err)
	if cur.Status != edgeflow.RunPaused || cur.StatusDetail != "seen paused by a newer read" {
		t.Errorf("run written during the read: %s %q; want it as written", cur.Status, cur.StatusDetail)
	}
}
