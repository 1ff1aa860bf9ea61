package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/auth"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ratelimit"
)

// streamEvent is one frame of a run stream.
type streamEvent struct {
	name, id string
	data     edgeflow.RunEvent
}

// openStream opens GET /api/runs/stream at base with key and returns its
// events as they arrive; the stream is closed when the test ends.
func openStream(t *testing.T, base, key, query string) <-chan streamEvent {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, "GET", base+"/api/runs/stream"+query, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("stream: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	out := make(chan streamEvent, 64)
	connected := make(chan struct{})
	go func() {
		defer close(out)
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		var ev streamEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == ": connected":
				close(connected)
			case strings.HasPrefix(line, "event: "):
				ev.name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "id: "):
				ev.id = strings.TrimPrefix(line, "id: ")
			case strings.HasPrefix(line, "data: "):
				json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &ev.data)
			case line == "" && ev.name != "":
				out <- ev
				ev = streamEvent{}
			}
		}
	}()
	select {
	case <-connected:
	case <-time.After(10 * time.Second):
		t.Fatal("the stream sent no first line")
	}
	return out
}

// nextEvent waits for the stream's next event (10 s at most: a generous
// bound, not the speed target).
func nextEvent(t *testing.T, ch <-chan streamEvent) streamEvent {
	t.Helper()
	select {
	case ev, ok := <-ch:
		if !ok {
			t.Fatal("the stream ended")
		}
		return ev
	case <-time.After(10 * time.Second):
		t.Fatal("no event on the stream")
	}
	return streamEvent{}
}

// TestRunStreamAcrossReplicas: a run changing state through replica A is
// seen on a stream opened at replica B, in order (creation, start,
// completion); a stream of another organization, opened at B too, sees
// none of it (attack) and sees its own organization's run (twin).
func TestRunStreamAcrossReplicas(t *testing.T) {
	t.Parallel()
	rs := startReplicas(t, 2)
	ctx := context.Background()
	wf := rs.newWorkflow(t, "streamed")

	// A second organization with its own key and workflow.
	u := &edgeflow.User{Email: "other@example.com", PasswordHash: []byte("x")}
	mustTB(t, rs.store.CreateUser(ctx, u))
	o := &edgeflow.Organization{Name: "Other", Slug: "other"}
	mustTB(t, rs.store.CreateOrganization(ctx, o, u.ID))
	p := &edgeflow.Project{OrganizationID: o.ID, Name: "Other", Slug: "other"}
	mustTB(t, rs.store.CreateProject(ctx, p))
	otherKey, prefix, hash := auth.NewAPIKey()
	mustTB(t, rs.store.CreateAPIKey(ctx, &edgeflow.APIKey{OrganizationID: o.ID, ProjectID: p.ID, UserID: u.ID, Name: "k",
		Prefix: prefix, Hash: hash, Scopes: []edgeflow.Scope{edgeflow.ScopeRead}}))
	otherWF := &edgeflow.Workflow{OrganizationID: o.ID, ProjectID: p.ID, Name: "theirs", Kind: edgeflow.KindWorkflow}
	mustTB(t, rs.store.CreateWorkflow(ctx, otherWF))

	mine := openStream(t, rs.urls[1], rs.key, "")
	theirs := openStream(t, rs.urls[1], otherKey, "")

	// Replica A (its store is the one it writes runs with) runs the run.
	r := &edgeflow.Run{WorkflowID: wf, Status: edgeflow.RunQueued}
	mustTB(t, rs.store.CreateRun(ctx, r))
	for _, st := range []string{edgeflow.RunRunning, edgeflow.RunComplete} {
		r.Status = st
		mustTB(t, rs.store.UpdateRun(ctx, r))
	}
	for _, want := range []string{edgeflow.RunQueued, edgeflow.RunRunning, edgeflow.RunComplete} {
		ev := nextEvent(t, mine)
		if ev.name != "run" || ev.data.ID != r.ID || ev.data.WorkflowID != wf || ev.data.ProjectID != rs.prj || ev.data.Status != want || ev.id == "" {
			t.Fatalf("event %+v, want run %s %s", ev, r.ID, want)
		}
	}

	// The other organization's stream: its own run is the first thing it sees.
	or := &edgeflow.Run{WorkflowID: otherWF.ID, Status: edgeflow.RunQueued}
	mustTB(t, rs.store.CreateRun(ctx, or))
	if ev := nextEvent(t, theirs); ev.data.ID != or.ID || ev.data.ProjectID != p.ID {
		t.Fatalf("the other organization's stream got %+v, want only its run %s", ev, or.ID)
	}
	select {
	case ev := <-mine:
		t.Fatalf("the first organization's stream got another organization's event %+v", ev)
	case <-time.After(time.Second):
	}
}

// TestRunStreamReplay: a client that reconnects with Last-Event-ID gets the
// changes it missed, then the live ones; bad parameters are refused.
func TestRunStreamReplay(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	first := openStream(t, w.srv.URL, w.a.keyRead.key, "")
	r := &edgeflow.Run{WorkflowID: w.a.workflowID, Status: edgeflow.RunQueued}
	mustTB(t, w.store.CreateRun(ctx, r))
	seen := nextEvent(t, first)
	r.Status = edgeflow.RunPaused
	r.StatusDetail = "waiting"
	mustTB(t, w.store.UpdateRun(ctx, r))
	// Tenant b's change between them is not replayed to a.
	mustTB(t, w.store.CreateRun(ctx, &edgeflow.Run{WorkflowID: w.b.workflowID}))

	again := openStream(t, w.srv.URL, w.a.keyRead.key, "?after="+seen.id)
	if ev := nextEvent(t, again); ev.data.ID != r.ID || ev.data.Status != edgeflow.RunPaused || ev.data.StatusDetail != "waiting" {
		t.Fatalf("replayed %+v, want the run paused (waiting)", ev)
	}
	r.Status, r.StatusDetail = edgeflow.RunErrored, ""
	r.Error = "boom"
	mustTB(t, w.store.UpdateRun(ctx, r))
	if ev := nextEvent(t, again); ev.data.Status != edgeflow.RunErrored || ev.data.Error != "boom" {
		t.Fatalf("live after replay %+v, want errored", ev)
	}

	checkError(t, w.do("GET", "/api/runs/stream?after=x", "", w.a.keyRead), 422, "validation_failed", "?after")
	checkError(t, w.do("GET", "/api/runs/stream?timeoutSeconds=0", "", w.a.keyRead), 422, "validation_failed", "?timeoutSeconds")
	// A bounded stream ends by itself.
	if r := w.do("GET", "/api/runs/stream?timeoutSeconds=1", "", w.a.keyRead); r.status != 200 || !strings.Contains(string(r.body), ": connected") {
		t.Fatalf("bounded stream: %d %s", r.status, r.body)
	}
}

// TestRunStreamShutdown: CloseStreams ends open streams.
func TestRunStreamShutdown(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ch := openStream(t, w.srv.URL, w.a.keyRead.key, "")
	w.api.CloseStreams()
	select {
	case _, ok := <-ch:
		if ok {
			t.Fatal("an event instead of the end")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the stream stayed open after CloseStreams")
	}
	checkError(t, w.do("GET", "/api/runs/stream", "", w.a.keyRead), 503, "unavailable", "")
}

// TestRunStreamHeartbeat: an idle stream sends comment lines, so that
// proxies keep it open.
func TestRunStreamHeartbeat(t *testing.T) {
	t.Parallel()
	w := newWorld(t, worldOptions{limits: ratelimit.Limits{Off: true}, config: func(c *api.Config) { c.StreamHeartbeat = 100 * time.Millisecond }})
	r := w.do("GET", "/api/runs/stream?timeoutSeconds=1", "", w.a.keyRead)
	if r.status != 200 || strings.Count(string(r.body), ": heartbeat\n\n") < 3 {
		t.Fatalf("an idle second of stream: %d %q", r.status, r.body)
	}
}
