package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ratelimit"
	"github.com/google/go-cmp/cmp"
)

// TestFlowControlRules: deployConfig.concurrency and rateLimit are refused
// out of their bounds with the field's path, and stored as sent.
func TestFlowControlRules(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.a
	path := "/api/workflows/" + a.workflowID
	for _, c := range []struct{ body, path string }{
		{`{"deployConfig":{"concurrency":-1}}`, "/deployConfig/concurrency"},
		{`{"deployConfig":{"concurrency":50001}}`, "/deployConfig/concurrency"},
		{`{"deployConfig":{"rateLimit":{"limit":0,"period":"1 minute"}}}`, "/deployConfig/rateLimit/limit"},
		{`{"deployConfig":{"rateLimit":{"limit":10}}}`, "/deployConfig/rateLimit/period"},
		{`{"deployConfig":{"rateLimit":{"limit":10,"period":"2 hours"}}}`, "/deployConfig/rateLimit/period"},
		{`{"deployConfig":{"rateLimit":{"limit":10,"period":"0.5"}}}`, "/deployConfig/rateLimit/period"},
		{`{"deployConfig":{"rateLimit":{"limit":10,"period":"60","key":"customer"}}}`, "/deployConfig/rateLimit/key"},
		{`{"deployConfig":{"rateLimit":{"limit":10,"period":"60","key":"{{env.SECRET}}"}}}`, "/deployConfig/rateLimit/key"},
		{`{"deployConfig":{"rateLimit":{"limit":10,"period":"60","key":"{{event.payload.a}"}}}`, "/deployConfig/rateLimit/key"},
		{`{"deployConfig":{"rateLimit":{"limit":10,"period":"60","key":"` + strings.Repeat("x", 190) + `{{event.payload.a}}"}}}`, "/deployConfig/rateLimit/key"},
	} {
		checkError(t, w.do("PATCH", path, c.body, a.keyAll), 422, "validation_failed", c.path)
	}
	r := w.must(200, "PATCH", path, `{"deployConfig":{"concurrency":2,"rateLimit":{"limit":10,"period":"1 minute","key":"{{event.payload.customer.id}}"}}}`, a.keyAll)
	if !strings.Contains(string(r.body), `"concurrency":2,"rateLimit":{"limit":10,"period":"1 minute","key":"{{event.payload.customer.id}}"}`) {
		t.Fatalf("stored deployConfig: %s", r.body)
	}
	r = w.must(200, "PATCH", path, `{"deployConfig":{}}`, a.keyAll)
	if strings.Contains(string(r.body), "concurrency") || strings.Contains(string(r.body), "rateLimit") {
		t.Fatalf("an empty deployConfig keeps flow control: %s", r.body)
	}
}

// flowWorld is a world whose tenant a's workflow is deployed on a
// Cloudflare connection answered by a stub that records the creates.
func flowWorld(t *testing.T, postgres bool) (*world, *createStub, string) {
	t.Helper()
	stub := &createStub{}
	cf := httptest.NewServer(stub)
	t.Cleanup(cf.Close)
	w := newWorld(t, worldOptions{postgres: postgres, limits: ratelimit.Limits{Off: true}, config: func(c *api.Config) {
		c.CloudflareBaseURL = cf.URL
	}})
	d := &edgeflow.Deployment{WorkflowID: w.a.workflowID, VersionID: w.a.versionID, ConnectionID: w.a.connectionID,
		ScriptName: "s", WorkflowName: "wf-orders"}
	if err := w.store.RecordDeployment(context.Background(), d); err != nil {
		t.Fatal(err)
	}
	return w, stub, "/api/workflows/" + w.a.workflowID + "/trigger"
}

// TestConcurrencyRefusesOrHolds: with concurrency 2, two triggers create
// their instances; the third is 429 with Retry-After and creates nothing,
// or, with queue: true, is stored held (201, statusDetail "held") with no
// instance created. A run that ends frees its slot.
func TestConcurrencyRefusesOrHolds(t *testing.T) {
	t.Parallel()
	bothEngines(t, func(t *testing.T, pg bool) {
		w, stub, path := flowWorld(t, pg)
		a := w.a
		w.must(200, "PATCH", "/api/workflows/"+a.workflowID, `{"deployConfig":{"concurrency":2}}`, a.keyAll)
		body := fmt.Sprintf(`{"connectionId":%q,"params":{"n":1}}`, a.connectionID)
		first := w.must(201, "POST", path, body, a.keyAll).str(t, "id")
		w.must(201, "POST", path, body, a.keyAll)
		if got := len(stub.take()); got != 2 {
			t.Fatalf("two admitted triggers sent %d creates, want 2", got)
		}
		r := w.do("POST", path, body, a.keyAll)
		checkError(t, r, 429, "rate_limited", "")
		if s, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || s < 1 {
			t.Fatalf("Retry-After = %q, want whole seconds", r.header.Get("Retry-After"))
		}
		held := w.must(201, "POST", path, fmt.Sprintf(`{"connectionId":%q,"params":{"n":3},"queue":true}`, a.connectionID), a.keyAll)
		if held.str(t, "status") != "queued" || held.str(t, "statusDetail") != "held" {
			t.Fatalf("queued trigger answered %s, want status queued, statusDetail held", held.body)
		}
		if got := stub.take(); len(got) != 0 {
			t.Fatalf("refused and held triggers sent %v", got)
		}
		run := w.must(200, "GET", "/api/runs/"+held.str(t, "id"), "", a.keyAll)
		if run.str(t, "statusDetail") != "held" {
			t.Fatalf("the held run reads %s", run.body)
		}

		// The first run ends: its slot is free for a new trigger.
		ctx := context.Background()
		r1, err := w.store.FindRunByID(ctx, a.workflowID, first)
		if err != nil {
			t.Fatal(err)
		}
		r1.Status = edgeflow.RunComplete
		if err := w.store.UpdateRun(ctx, r1); err != nil {
			t.Fatal(err)
		}
		w.must(201, "POST", path, body, a.keyAll)
		if got := len(stub.take()); got != 1 {
			t.Fatalf("a trigger after a run ended sent %d creates, want 1", got)
		}
	})
}

// TestRateLimitPerKey: a rate limit keyed by a params field limits each
// value on its own: the third start of customer A in the window is 429
// with Retry-After while customer B still starts; with queue: true it is
// held.
func TestRateLimitPerKey(t *testing.T) {
	t.Parallel()
	bothEngines(t, func(t *testing.T, pg bool) {
		w, stub, path := flowWorld(t, pg)
		a := w.a
		w.must(200, "PATCH", "/api/workflows/"+a.workflowID, `{"deployConfig":{"rateLimit":{"limit":2,"period":"1 hour","key":"{{event.payload.customerId}}"}}}`, a.keyAll)
		trigger := func(customer string, queue bool) response {
			return w.do("POST", path, fmt.Sprintf(`{"connectionId":%q,"params":{"customerId":%q},"queue":%t}`, a.connectionID, customer, queue), a.keyAll)
		}
		for range 2 {
			if r := trigger("A", false); r.status != 201 {
				t.Fatalf("customer A within the limit: %d %s", r.status, r.body)
			}
		}
		r := trigger("A", false)
		checkError(t, r, 429, "rate_limited", "")
		if s, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || s < 1 || s > 3600 {
			t.Fatalf("Retry-After = %q, want seconds until the window ends", r.header.Get("Retry-After"))
		}
		if r := trigger("B", false); r.status != 201 {
			t.Fatalf("customer B while A is limited: %d %s", r.status, r.body)
		}
		if r := trigger("A", true); r.status != 201 || r.str(t, "statusDetail") != "held" {
			t.Fatalf("customer A with queue: %d %s", r.status, r.body)
		}
		if got := len(stub.take()); got != 3 {
			t.Fatalf("creates sent = %d, want 3 (A twice, B once)", got)
		}
	})
}

// bothEngines runs f on SQLite and on PostgreSQL (the latter where the tests
// have one: onBothEngines' rule), each in a parallel subtest.
func bothEngines(t *testing.T, f func(t *testing.T, postgres bool)) {
	for _, pg := range []bool{false, true} {
		name := "sqlite"
		if pg {
			name = "postgres"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f(t, pg)
		})
	}
}

// batchAnswer is a batch trigger's answer reduced to what each index got:
// "created", "held", or its error code (with ">0" when it has a
// retryAfter).
func batchAnswer(t *testing.T, r response) map[int]string {
	t.Helper()
	if r.status != 201 {
		t.Fatalf("batch trigger: %d %s", r.status, r.body)
	}
	var b edgeflow.BatchTriggerResult
	if err := json.Unmarshal(r.body, &b); err != nil {
		t.Fatal(err)
	}
	got := map[int]string{}
	for _, c := range b.Created {
		got[c.Index] = "created"
		if c.StatusDetail == edgeflow.RunDetailHeld {
			got[c.Index] = "held"
		}
	}
	for _, e := range b.Errors {
		got[e.Index] = e.Code
		if e.RetryAfter > 0 {
			got[e.Index] += " retryAfter>0"
		}
	}
	return got
}

// TestBatchTriggerFlowControl: a batch trigger applies the workflow's
// concurrency and rate limit to each entry in order, as single triggers:
// with concurrency 2, of four valid entries two are created (in one batch
// create) and two refused rate_limited with retryAfter, beside an entry
// refused for its params; with queue: true the entries over the limit are
// created held with no instance. A rate limit per key refuses the second
// start of a customer in its window while another customer starts.
func TestBatchTriggerFlowControl(t *testing.T) {
	t.Parallel()
	bothEngines(t, func(t *testing.T, pg bool) {
		w, stub, path := flowWorld(t, pg)
		a := w.a
		path += "/batch"
		w.must(200, "PATCH", "/api/workflows/"+a.workflowID, `{"deployConfig":{"concurrency":2}}`, a.keyAll)
		got := batchAnswer(t, w.do("POST", path, fmt.Sprintf(`{"connectionId":%q,"runs":[
			{"params":{"n":0}},{"params":"x"},{"params":{"n":2}},{"params":{"n":3}},{"params":{"n":4}}]}`, a.connectionID), a.keyAll))
		want := map[int]string{0: "created", 1: "validation_failed", 2: "created", 3: "rate_limited retryAfter>0", 4: "rate_limited retryAfter>0"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("batch under concurrency 2 (-want +got):\n%s", diff)
		}
		creates := stub.take()
		if len(creates) != 1 || strings.Count(creates[0], `"instance_id"`) != 2 || !strings.Contains(creates[0], "/instances/batch") {
			t.Fatalf("provider requests = %v, want one batch create of 2 instances", creates)
		}
		got = batchAnswer(t, w.do("POST", path, fmt.Sprintf(`{"connectionId":%q,"queue":true,"runs":[{"params":{"n":5}},{"params":{"n":6}}]}`, a.connectionID), a.keyAll))
		if diff := cmp.Diff(map[int]string{0: "held", 1: "held"}, got); diff != "" {
			t.Fatalf("queued batch over the concurrency (-want +got):\n%s", diff)
		}
		if creates := stub.take(); len(creates) != 0 {
			t.Fatalf("held entries sent %v", creates)
		}
		held, err := w.store.ListHeldRuns(context.Background(), edgeflow.HeldRunsFilter{WorkflowID: a.workflowID, ConnectionID: a.connectionID})
		if err != nil || len(held) != 2 {
			t.Fatalf("held runs stored = %d (%v), want 2", len(held), err)
		}

		w.must(200, "PATCH", "/api/workflows/"+a.workflowID, `{"deployConfig":{"rateLimit":{"limit":1,"period":"1 hour","key":"{{event.payload.customerId}}"}}}`, a.keyAll)
		got = batchAnswer(t, w.do("POST", path, fmt.Sprintf(`{"connectionId":%q,"runs":[
			{"params":{"customerId":"A"}},{"params":{"customerId":"A"}},{"params":{"customerId":"B"}}]}`, a.connectionID), a.keyAll))
		if diff := cmp.Diff(map[int]string{0: "created", 1: "rate_limited retryAfter>0", 2: "created"}, got); diff != "" {
			t.Fatalf("batch under a rate limit per customer (-want +got):\n%s", diff)
		}
	})
}
