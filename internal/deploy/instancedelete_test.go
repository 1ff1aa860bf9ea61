package deploy_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/testenv"
	"github.com/google/go-cmp/cmp"
)

// batchDeleteStub is Cloudflare's batch delete of instances: Workflow
// wf-orders refuses the token once (403, not retried by the client), then
// deletes each id but "gone-1", which it does not know (code 10400);
// Workflow wf-gone does not exist (404).
type batchDeleteStub struct {
	mu       sync.Mutex
	requests []string
	refused  bool
}

func (c *batchDeleteStub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.requests = append(c.requests, r.Method+" "+r.URL.RequestURI()+" "+string(body))
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.Header.Get("Authorization") != "Bearer tok":
		w.WriteHeader(401)
	case r.Method == "POST" && r.URL.Path == "/accounts/acct/workflows/wf-orders/instances/batch/delete":
		if !c.refused {
			c.refused = true
			w.WriteHeader(403)
			fmt.Fprint(w, `{"success":false,"errors":[{"code":10000,"message":"Authentication error"}]}`)
			return
		}
		var in struct{ Instances []string }
		json.Unmarshal(body, &in)
		var deleted, errs []string
		for _, id := range in.Instances {
			if id == "gone-1" {
				errs = append(errs, `{"id":"gone-1","code":10400,"message":"instance not found"}`)
			} else {
				deleted = append(deleted, fmt.Sprintf(`{"id":%q}`, id))
			}
		}
		fmt.Fprintf(w, `{"success":true,"errors":[],"messages":[],"result":{"deleted":[%s],"errors":[%s]}}`,
			strings.Join(deleted, ","), strings.Join(errs, ","))
	default:
		w.WriteHeader(404)
		fmt.Fprint(w, `{"success":false,"errors":[{"code":10200,"message":"workflow not found"}]}`)
	}
}

func (c *batchDeleteStub) take() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.requests
	c.requests = nil
	return out
}

// TestDeleteInstancesLater: the instances of deleted runs are deleted on
// Cloudflare in batches of at most 100 per Workflow, in the background; a
// refused batch is tried again later, an instance the provider no longer
// knows is not an error, a Workflow that no longer exists and a deleted
// connection drop their instances without another try.
func TestDeleteInstancesLater(t *testing.T) {
	t.Parallel()
	st, org, _ := testOrg(t)
	stub := &batchDeleteStub{}
	hs := httptest.NewServer(stub)
	t.Cleanup(hs.Close)
	svc, err := deploy.New(deploy.Options{Store: st, Secrets: fixedSecrets{}, CloudflareBaseURL: hs.URL})
	must(t, err)
	conn := cfConnection(t, st, org)

	ri := func(conn, wf, id string) edgeflow.RunInstance {
		return edgeflow.RunInstance{OrganizationID: org.ID, ConnectionID: conn, WorkflowName: wf, InstanceID: id}
	}
	var ids []string
	var instances []edgeflow.RunInstance
	for i := range 149 {
		ids = append(ids, fmt.Sprintf("inst-%03d", i))
		instances = append(instances, ri(conn.ID, "wf-orders", ids[i]))
	}
	ids = append(ids, "gone-1")
	instances = append(instances, ri(conn.ID, "wf-orders", "gone-1"),
		ri(conn.ID, "wf-gone", "x-1"),
		ri("conn_deleted", "wf-orders", "y-1"),
		ri(conn.ID, "wf-orders", "")) // a run that never reached the provider
	svc.DeleteInstancesLater(instances)
	if n := svc.PendingInstanceDeletes(); n != 152 {
		t.Fatalf("pending = %d, want 152 (the run without an instance skipped)", n)
	}

	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		svc.RunRefresher(ctx, deploy.RefresherOptions{Interval: time.Hour, InstanceDeleteRetry: 20 * time.Millisecond})
	}()
	t.Cleanup(func() { stop(); <-done })
	testenv.WaitFor(t, 10*time.Second, 10*time.Millisecond, "every instance deleted or dropped", func() (bool, string) {
		n := svc.PendingInstanceDeletes()
		return n == 0, fmt.Sprintf("%d pending", n)
	})
	batch := func(wf string, ids []string) string {
		b, _ := json.Marshal(map[string]any{"instances": ids})
		return "POST /accounts/acct/workflows/" + wf + "/instances/batch/delete " + string(b)
	}
	want := []string{
		batch("wf-gone", []string{"x-1"}), // 404: the Workflow is gone, not tried again
		batch("wf-orders", ids[:100]),     // 403: tried again later
		batch("wf-orders", ids[:100]),     // the same batch, then the rest
		batch("wf-orders", ids[100:]),     // 50 ids, "gone-1" among them
	}
	if diff := cmp.Diff(want, stub.take()); diff != "" {
		t.Fatalf("requests (-want +got):\n%s", diff)
	}

	// Deleting runs later wakes the loop at once, whatever its retry.
	svc.DeleteInstancesLater([]edgeflow.RunInstance{ri(conn.ID, "wf-orders", "late-1")})
	testenv.WaitFor(t, 10*time.Second, 10*time.Millisecond, "the late instance deleted", func() (bool, string) {
		return svc.PendingInstanceDeletes() == 0, ""
	})
	if diff := cmp.Diff([]string{batch("wf-orders", []string{"late-1"})}, stub.take()); diff != "" {
		t.Fatalf("requests for the late instance (-want +got):\n%s", diff)
	}
}
