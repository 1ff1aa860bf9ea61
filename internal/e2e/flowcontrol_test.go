package e2e_test

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/testenv"
)

// TestConcurrencyOnTheLocalEdge: a workflow with deployConfig.concurrency 2
// triggered 6 times with queue: true never has more than 2 runs executing
// at once, and all 6 complete. Each run's one step calls a local server
// that holds the request until the test lets one go; the test lets one go
// only once as many requests as may be in flight (2, or the runs left) are
// held, so a third run executing beside two would be seen by the server.
func TestConcurrencyOnTheLocalEdge(t *testing.T) {
	t.Parallel()
	requireEdge(t)
	var mu sync.Mutex
	inFlight, most, served := 0, 0, 0
	release, stop := make(chan struct{}), make(chan struct{})
	ln, err := net.Listen("tcp", allowedHost+":0")
	if err != nil {
		t.Fatalf("listen on %s: %v", allowedHost, err)
	}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		inFlight++
		most = max(most, inFlight)
		mu.Unlock()
		select {
		case <-release:
		case <-stop:
		case <-r.Context().Done():
		}
		mu.Lock()
		inFlight--
		served++
		mu.Unlock()
		fmt.Fprint(w, "ok")
	})}}
	srv.Start()
	defer srv.Close()
	defer close(stop)
	// The refresher sees runs end and starts the held ones.
	s := newServer(t, serverOptions{refresherInterval: 200 * time.Millisecond})
	call := node("call", "http_request", "call", map[string]any{"url": srv.URL + "/work", "method": "POST", "body": `{"run": "{{run.id}}"}`})
	call["config"] = map[string]any{"retries": map[string]any{"limit": 0, "delay": "1 second"}, "timeout": "5 minutes"}
	wf, _ := s.workflow("limited", "workflow", chain("limited", call))
	s.must(200, "PATCH", "/api/workflows/"+wf, map[string]any{"deployConfig": map[string]any{"concurrency": 2}})
	s.deploy(wf)

	const runs = 6
	ids := make([]string, 0, runs)
	held := 0
	for range runs {
		m := s.must(201, "POST", "/api/workflows/"+wf+"/trigger", map[string]any{"connectionId": s.conn, "params": map[string]any{}, "queue": true}).obj()
		ids = append(ids, m["id"].(string))
		if m["statusDetail"] == "held" {
			held++
		}
	}
	if held < runs-2 {
		t.Fatalf("%d of %d triggers were held, want at least %d", held, runs, runs-2)
	}
	for left := runs; left > 0; left-- {
		want := min(2, left)
		testenv.WaitFor(t, 2*time.Minute, 50*time.Millisecond, fmt.Sprintf("%d requests in flight", want), func() (bool, string) {
			mu.Lock()
			defer mu.Unlock()
			seen := "in flight " + strconv.Itoa(inFlight) + ", served " + strconv.Itoa(served) + "; runs:"
			for _, id := range ids {
				r := s.run(wf, id)
				seen += " " + r.Status + "/" + r.StatusDetail
			}
			return inFlight >= want, seen
		})
		release <- struct{}{}
	}
	for _, id := range ids {
		s.waitStatus(wf, id, "complete", 2*time.Minute)
	}
	mu.Lock()
	defer mu.Unlock()
	if most > 2 || served != runs {
		t.Fatalf("at most %d requests were in flight at once (want 2) and %d served (want %d)", most, served, runs)
	}
}

// TestRateLimitPerKeyOnTheLocalEdge: with a rate limit of one start per
// hour for each customerId, customer A's second trigger is 429 with
// Retry-After while customer B's starts and completes; with queue: true
// A's is held and does not start.
func TestRateLimitPerKeyOnTheLocalEdge(t *testing.T) {
	t.Parallel()
	requireEdge(t)
	s := newServer(t, serverOptions{})
	wf, _ := s.workflow("perkey", "workflow", chain("perkey", step("work", "return event.payload.customerId;")))
	s.must(200, "PATCH", "/api/workflows/"+wf, map[string]any{"deployConfig": map[string]any{
		"rateLimit": map[string]any{"limit": 1, "period": "1 hour", "key": "{{event.payload.customerId}}"}}})
	s.deploy(wf)
	trigger := func(customer string, queue bool) reply {
		return s.do("POST", "/api/workflows/"+wf+"/trigger", map[string]any{"connectionId": s.conn, "params": map[string]any{"customerId": customer}, "queue": queue})
	}
	a := trigger("A", false)
	if a.status != 201 {
		t.Fatalf("A's first trigger: %d %s", a.status, a.body)
	}
	wantError(t, trigger("A", false), 429, "rate_limited")
	b := trigger("B", false)
	if b.status != 201 {
		t.Fatalf("B's trigger while A is limited: %d %s", b.status, b.body)
	}
	heldA := trigger("A", true)
	if heldA.status != 201 || heldA.str("statusDetail") != "held" {
		t.Fatalf("A's trigger with queue: %d %s", heldA.status, heldA.body)
	}
	s.waitStatus(wf, a.str("id"), "complete", 2*time.Minute)
	s.waitStatus(wf, b.str("id"), "complete", 2*time.Minute)
	if r := s.run(wf, heldA.str("id")); r.Status != "queued" || r.StatusDetail != "held" {
		t.Fatalf("A's held run is %s %s, want queued held until the hour's window ends", r.Status, r.StatusDetail)
	}
}
