package e2e_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/testenv"
)

// TestDeletedRunsDeleteInstances: runs deleted by retention and by a forced
// workflow delete take their instances on the local edge with them (read
// back through the edge's REST API), while the forced delete leaves the
// Workflow itself in place.
func TestDeletedRunsDeleteInstances(t *testing.T) {
	t.Parallel()
	requireEdge(t)
	s := newServer(t, serverOptions{refresherInterval: 200 * time.Millisecond})
	wf, _ := s.workflow("Reaped", "workflow", chain("Reaped", step("one", "return 1;")))
	d := s.deploy(wf)
	acct := s.connectionAccount()
	instanceStatus := func(id string) int {
		return edgeStatus(t, "/accounts/"+acct+"/workflows/"+d.WorkflowName+"/instances/"+id)
	}
	waitGone := func(what, id string) {
		testenv.WaitFor(t, 30*time.Second, 50*time.Millisecond, what, func() (bool, string) {
			code := instanceStatus(id)
			return code == 404, fmt.Sprintf("GET instance %s: %d", id, code)
		})
	}

	// Retention: the pruning job (as serve runs it) deletes the old run
	// and hands its instance to the deployer.
	first := s.waitStatus(wf, s.trigger(wf, map[string]any{}), "complete", 60*time.Second)
	if code := instanceStatus(first.InstanceID); code != 200 {
		t.Fatalf("the finished run's instance: %d, want 200", code)
	}
	n, instances, err := s.store.PruneRuns(context.Background(), time.Now().Add(91*24*time.Hour), 100)
	if err != nil || n != 1 || len(instances) != 1 || instances[0].InstanceID != first.InstanceID {
		t.Fatalf("prune: %d runs, instances %+v, %v", n, instances, err)
	}
	s.dep.DeleteInstancesLater(instances)
	waitGone("the pruned run's instance deleted on the edge", first.InstanceID)

	// A forced workflow delete: the Workflow stays, its runs' instances go.
	second := s.waitStatus(wf, s.trigger(wf, map[string]any{}), "complete", 60*time.Second)
	s.must(204, "DELETE", "/api/workflows/"+wf+"?force=true", nil)
	waitGone("the deleted workflow's run instance deleted on the edge", second.InstanceID)
	if code := edgeStatus(t, "/accounts/"+acct+"/workflows/"+d.WorkflowName); code != 200 {
		t.Fatalf("the forced delete's Workflow: %d, want 200 (left running unmanaged)", code)
	}
}

// edgeStatus answers the status of a GET with the edge's root token.
func edgeStatus(t *testing.T, path string) int {
	t.Helper()
	req, _ := http.NewRequest("GET", shared.edge.APIBaseURL()+path, nil)
	req.Header.Set("Authorization", "Bearer "+shared.edge.Token())
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode
}
