package api_test

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

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ratelimit"
	"github.com/google/go-cmp/cmp"
)

// countingStore is the world's real SQLite store, counting the calls made to the records a trigger reads and
// writes (the workflow, the connection, the deployment, the run). Every other call goes to the store as it is.
type countingStore struct {
	edgeflow.Store
	mu    sync.Mutex
	calls map[string]int
}

func (c *countingStore) count(name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls[name]++
}

// take returns the counts since the last take and starts again from zero.
func (c *countingStore) take() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.calls
	c.calls = map[string]int{}
	return out
}

func (c *countingStore) FindWorkflowByID(ctx context.Context, projectID, id string) (*edgeflow.Workflow, error) {
	c.count("FindWorkflowByID")
	return c.Store.FindWorkflowByID(ctx, projectID, id)
}

func (c *countingStore) FindConnectionByID(ctx context.Context, organizationID, id string) (*edgeflow.Connection, error) {
	c.count("FindConnectionByID")
	return c.Store.FindConnectionByID(ctx, organizationID, id)
}

func (c *countingStore) FindActiveDeployment(ctx context.Context, workflowID, connectionID string) (*edgeflow.Deployment, error) {
	c.count("FindActiveDeployment")
	return c.Store.FindActiveDeployment(ctx, workflowID, connectionID)
}

func (c *countingStore) FindVersionByID(ctx context.Context, workflowID, id string) (*edgeflow.Version, error) {
	c.count("FindVersionByID")
	return c.Store.FindVersionByID(ctx, workflowID, id)
}

func (c *countingStore) CreateRun(ctx context.Context, r *edgeflow.Run) error {
	c.count("CreateRun")
	return c.Store.CreateRun(ctx, r)
}

func (c *countingStore) FindRunByID(ctx context.Context, workflowID, id string) (*edgeflow.Run, error) {
	c.count("FindRunByID")
	return c.Store.FindRunByID(ctx, workflowID, id)
}

// createStub is Cloudflare's instance creation for one account: it records each request and answers as
// Cloudflare does.
type createStub struct {
	mu       sync.Mutex
	requests []string
}

func (s *createStub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.requests = append(s.requests, r.Method+" "+r.URL.RequestURI()+" "+string(body))
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/instances/batch") {
		// The batch create: every instance is created.
		var in struct {
			Instances []struct {
				ID string `json:"instance_id"`
			} `json:"instances"`
		}
		_ = json.Unmarshal(body, &in)
		created := []string{}
		for _, i := range in.Instances {
			created = append(created, fmt.Sprintf(`{"id":%q,"status":"queued"}`, i.ID))
		}
		fmt.Fprintf(w, `{"success":true,"errors":[],"messages":[],"result":{"created":[%s],"errors":[]}}`, strings.Join(created, ","))
		return
	}
	var in struct {
		InstanceID string `json:"instance_id"`
	}
	if r.Method != http.MethodPost || json.Unmarshal(body, &in) != nil {
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"success":false,"errors":[{"code":10007,"message":"not found"}]}`)
		return
	}
	fmt.Fprintf(w, `{"success":true,"errors":[],"messages":[],"result":{"id":%q,"status":"queued","version_id":"v1","workflow_id":"w1"}}`, in.InstanceID)
}

func (s *createStub) take() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.requests
	s.requests = nil
	return out
}

// TestTriggerReadsTheWorkflowOnce: a trigger reads the workflow once (the deploy service's tenancy read, which
// the handler does not repeat), then the connection and the active deployment once each, creates the instance
// with one request and records one run. Another tenant's trigger stops at that one read (404) and sends nothing.
func TestTriggerReadsTheWorkflowOnce(t *testing.T) {
	t.Parallel()
	stub := &createStub{}
	cf := httptest.NewServer(stub)
	t.Cleanup(cf.Close)
	counter := &countingStore{calls: map[string]int{}}
	w := newWorld(t, worldOptions{limits: ratelimit.Limits{Off: true}, config: func(c *api.Config) {
		counter.Store = c.Store
		c.Store = counter
		c.CloudflareBaseURL = cf.URL
	}})
	ctx := context.Background()
	d := &edgeflow.Deployment{WorkflowID: w.a.workflowID, VersionID: w.a.versionID, ConnectionID: w.a.connectionID,
		ScriptName: "s", WorkflowName: "wf-orders"}
	if err := w.store.RecordDeployment(ctx, d); err != nil {
		t.Fatal(err)
	}
	body := fmt.Sprintf(`{"connectionId":%q,"params":{"orderId":"A-1"}}`, w.a.connectionID)
	path := "/api/workflows/" + w.a.workflowID + "/trigger"

	counter.take()
	r := w.must(201, "POST", path, body, w.a.keyAll)
	run := r.str(t, "id")
	want := map[string]int{"FindWorkflowByID": 1, "FindConnectionByID": 1, "FindActiveDeployment": 1, "CreateRun": 1}
	if diff := cmp.Diff(want, counter.take()); diff != "" {
		t.Errorf("store calls of one trigger (-want +got):\n%s", diff)
	}
	wantRequests := []string{fmt.Sprintf(`POST /accounts/%s/workflows/wf-orders/instances {"instance_id":%q,"params":{"orderId":"A-1"}}`,
		testAccountID(w.a.userID), run)}
	if diff := cmp.Diff(wantRequests, stub.take()); diff != "" {
		t.Errorf("Cloudflare requests of one trigger (-want +got):\n%s", diff)
	}

	checkError(t, w.do("POST", path, body, w.b.keyAll), 404, "not_found", "")
	if diff := cmp.Diff(map[string]int{"FindWorkflowByID": 1}, counter.take()); diff != "" {
		t.Errorf("store calls of another tenant's trigger (-want +got):\n%s", diff)
	}
	if got := stub.take(); len(got) != 0 {
		t.Errorf("another tenant's trigger sent %v", got)
	}
}
