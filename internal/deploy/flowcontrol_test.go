package deploy_test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	gocmp "github.com/google/go-cmp/cmp"
)

// holdRun stores a held run of the workflow's deployment (queued, held,
// no instance yet), as a trigger with queue: true over the limits does.
func holdRun(t *testing.T, w *runWorld, wf *edgeflow.Workflow, dep *edgeflow.Deployment, n int) *edgeflow.Run {
	t.Helper()
	r := &edgeflow.Run{WorkflowID: wf.ID, VersionID: dep.VersionID, ConnectionID: w.conn.ID, DeploymentID: dep.ID,
		WorkflowName: dep.WorkflowName, Status: edgeflow.RunQueued, StatusDetail: edgeflow.RunDetailHeld,
		Params: json.RawMessage(fmt.Sprintf(`{"n":%d}`, n))}
	r.ID = edgeflow.NewID(edgeflow.PrefixRun)
	r.InstanceID = r.ID
	must(t, w.st.CreateRun(context.Background(), r))
	return r
}

// TestHeldRunsBeyondAPage: with 250 runs held by a concurrency of 3, each
// round of StartHeldRuns starts the next 3 oldest once the earlier ones
// ended, until all 250 started, none twice and none passed over; a run
// held later by another workflow starts in the first round although 250
// older runs are held before it.
func TestHeldRunsBeyondAPage(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newRunWorld(t)
	w.wf.DeployConfig = &edgeflow.DeployConfig{Concurrency: 3}
	must(t, w.st.UpdateWorkflow(ctx, w.wf))
	other := &edgeflow.Workflow{ProjectID: w.wf.ProjectID, Name: "other", Kind: edgeflow.KindWorkflow,
		DeployConfig: &edgeflow.DeployConfig{Concurrency: 1}}
	must(t, w.st.CreateWorkflow(ctx, other))
	must(t, w.st.UpdateWorkflow(ctx, other))
	otherV := &edgeflow.Version{WorkflowID: other.ID, IR: stepsIR("Load order")}
	must(t, w.st.CreateVersion(ctx, otherV))
	otherDep := &edgeflow.Deployment{WorkflowID: other.ID, ProjectID: other.ProjectID, VersionID: otherV.ID, ConnectionID: w.conn.ID,
		ScriptName: "s2", WorkflowName: "wf-other"}
	must(t, w.st.RecordDeployment(ctx, otherDep))

	const held = 250
	var runs []*edgeflow.Run
	for i := range held {
		runs = append(runs, holdRun(t, w, w.wf, w.dep, i))
	}
	late := holdRun(t, w, other, otherDep, 0)
	// Oldest first: by creation time, then id (runs created in the same
	// microsecond).
	slices.SortFunc(runs, func(a, b *edgeflow.Run) int {
		return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), strings.Compare(a.ID, b.ID))
	})

	created := func() []string {
		var ids []string
		for _, c := range w.prov.take() {
			if f := strings.Fields(c); f[0] == "create" {
				ids = append(ids, f[1]+" "+f[2])
			}
		}
		return ids
	}
	w.svc.StartHeldRuns(ctx)
	first := created()
	want := []string{"wf-orders " + runs[0].ID, "wf-orders " + runs[1].ID, "wf-orders " + runs[2].ID, "wf-other " + late.ID}
	slices.Sort(first)
	slices.Sort(want)
	if diff := gocmp.Diff(want, first); diff != "" {
		t.Fatalf("first round's creates (-want +got):\n%s", diff)
	}
	for next := 3; next < held; {
		for _, r := range runs[next-3 : next] {
			end(t, w, r)
		}
		w.svc.StartHeldRuns(ctx)
		var want []string
		for _, r := range runs[next:min(next+3, held)] {
			want = append(want, "wf-orders "+r.ID)
		}
		if diff := gocmp.Diff(want, created()); diff != "" {
			t.Fatalf("round after %d runs started (-want +got):\n%s", next, diff)
		}
		next += len(want)
	}
	left, err := w.st.ListHeldRuns(ctx, edgeflow.HeldRunsFilter{})
	must(t, err)
	if len(left) != 0 {
		t.Fatalf("%d runs still held after every run started", len(left))
	}
}

// end makes the run complete, freeing its slot.
func end(t *testing.T, w *runWorld, r *edgeflow.Run) {
	t.Helper()
	got, err := w.st.FindRunByID(context.Background(), r.WorkflowID, r.ID)
	must(t, err)
	if got.StatusDetail == edgeflow.RunDetailHeld {
		t.Fatalf("run %s is still held when it should have started", r.ID)
	}
	got.Status = edgeflow.RunComplete
	must(t, w.st.UpdateRun(context.Background(), got))
}

// TestCronStartsUnderFlowControl: of two cron starts a discovery pass
// finds while the workflow's concurrency is 1, the earlier is recorded as
// a run in progress and the later is skipped: recorded terminated with
// statusDetail "skipped" and why, and its instance terminated. Once the
// first run ends, the next cron start is admitted.
func TestCronStartsUnderFlowControl(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newRunWorld(t)
	w.wf.DeployConfig = &edgeflow.DeployConfig{Concurrency: 1}
	must(t, w.st.UpdateWorkflow(ctx, w.wf))
	cronIR := strings.Replace(string(stepsIR("Load order")), `"entryNodeId":"load"`, `"entryNodeId":"load","trigger":{"type":"cron","expression":"*/5 * * * *"}`, 1)
	v := &edgeflow.Version{WorkflowID: w.wf.ID, IR: json.RawMessage(cronIR)}
	must(t, w.st.CreateVersion(ctx, v))
	dep := &edgeflow.Deployment{WorkflowID: w.wf.ID, ProjectID: w.wf.ProjectID, VersionID: v.ID, ConnectionID: w.conn.ID,
		ScriptName: "s", WorkflowName: "wf-orders"}
	must(t, w.st.RecordDeployment(ctx, dep))

	later := time.Now().Add(time.Hour)
	w.prov.start("cron-1", later)
	w.prov.start("cron-2", later.Add(5*time.Minute))
	if n := w.svc.DiscoverCronRuns(ctx); n != 2 {
		t.Fatalf("discovery recorded %d runs, want 2", n)
	}
	byInstance := func(id string) *edgeflow.Run {
		t.Helper()
		r, err := w.st.FindRunByInstanceID(ctx, w.wf.ID, id)
		must(t, err)
		return r
	}
	first, skipped := byInstance("cron-1"), byInstance("cron-2")
	if edgeflow.RunIsFinal(first.Status) || first.StatusDetail != "" {
		t.Fatalf("the earlier cron start is %s/%s, want in progress", first.Status, first.StatusDetail)
	}
	if skipped.Status != edgeflow.RunTerminated || skipped.StatusDetail != edgeflow.RunDetailSkipped ||
		!strings.Contains(skipped.Error, "concurrency") || skipped.EndedAt == nil {
		t.Fatalf("the later cron start is %s/%s %q, want terminated/skipped saying the concurrency", skipped.Status, skipped.StatusDetail, skipped.Error)
	}
	if !slices.Contains(w.prov.take(), "terminate wf-orders cron-2") {
		t.Fatal("the skipped cron start's instance was not terminated")
	}

	end(t, w, first)
	w.prov.start("cron-3", later.Add(10*time.Minute))
	if n := w.svc.DiscoverCronRuns(ctx); n != 1 {
		t.Fatalf("the next pass recorded %d runs, want 1", n)
	}
	if r := byInstance("cron-3"); edgeflow.RunIsFinal(r.Status) {
		t.Fatalf("the cron start after the first run ended is %s/%s, want in progress", r.Status, r.StatusDetail)
	}
	if calls := w.prov.take(); slices.ContainsFunc(calls, func(c string) bool { return strings.HasPrefix(c, "terminate") }) {
		t.Fatalf("an admitted cron start was terminated: %v", calls)
	}
}
