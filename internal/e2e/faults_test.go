package e2e_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/testenv"
)

// TestEdgeUnreachable: with the edge unreachable, deploy, deploy-stream,
// trigger and the refresh of a run answer a clear 502 and record nothing;
// once it is back the same requests succeed, and a failed deploy leaves the
// previous deployment active and serving.
func TestEdgeUnreachable(t *testing.T) {
	t.Parallel()
	requireEdge(t)
	proxy := newProxyEdge(t)
	s := newServer(t, serverOptions{edge: proxy})
	wf, v1 := s.workflow("Flaky edge", "workflow", chain("Flaky edge",
		step("first", "return 'v1';"),
		node("nap", "sleep", "nap", map[string]any{"duration": "2 seconds"}),
		step("last", "return {{first}};"),
	))

	proxy.Down()
	m := wantError(t, s.do("POST", "/api/workflows/"+wf+"/deploy", map[string]any{"connectionId": s.conn}), 502, "provider_unavailable")
	if !strings.Contains(m["error"].(string), "INITIALIZING") || strings.Contains(m["error"].(string), shared.edge.Token()) {
		t.Fatalf("deploy error: %v", m["error"])
	}
	status, frames := s.deployStream(wf, map[string]any{"connectionId": s.conn}, nil)
	if len(frames) > 0 && frames[0].event == "plan" {
		frames = frames[1:] // the deploy plan comes first (docs/releases.md)
	}
	if status != 200 || len(frames) < 2 || frames[0].event != "progress" || frames[len(frames)-1].event != "error" ||
		!strings.Contains(frames[len(frames)-1].data, `"code":"provider_unavailable"`) {
		t.Fatalf("deploy-stream with the edge down: %d %+v", status, frames)
	}
	for _, f := range frames[:len(frames)-1] {
		if f.event != "progress" {
			t.Fatalf("frames: %+v", frames)
		}
	}
	full := s.must(200, "GET", "/api/workflows/"+wf+"/full", nil).obj()
	if full["activeDeployment"] != nil {
		t.Fatalf("a failed deploy recorded %v", full["activeDeployment"])
	}

	proxy.Up(t)
	d1 := s.deploy(wf)
	if d1.VersionID != v1 {
		t.Fatalf("deployment = %+v", d1)
	}

	// A failed deploy of v2 leaves v1 active and serving.
	v2 := s.version(wf, chain("Flaky edge", step("first", "return 'v2';")))
	proxy.Down()
	wantError(t, s.do("POST", "/api/workflows/"+wf+"/deploy", map[string]any{"connectionId": s.conn, "versionId": v2}), 502, "provider_unavailable")
	wantError(t, s.do("POST", "/api/workflows/"+wf+"/trigger", map[string]any{"connectionId": s.conn}), 502, "provider_unavailable")
	if runs := s.runs(wf); len(runs) != 0 {
		t.Fatalf("a failed trigger recorded runs: %+v", runs)
	}
	proxy.Up(t)
	full = s.must(200, "GET", "/api/workflows/"+wf+"/full", nil).obj()
	if a := full["activeDeployment"].(map[string]any); a["id"] != d1.ID || a["versionId"] != v1 {
		t.Fatalf("active deployment after the failed deploy = %v", a)
	}
	id := s.trigger(wf, map[string]any{})
	s.waitRun(wf, id, 30*time.Second, "sleeping", func(r run) bool { return r.Status == "running" && r.StatusDetail == "sleeping" })

	// Refresh of a non-final run with the edge down: 502, the record stays.
	proxy.Down()
	wantError(t, s.do("GET", "/api/workflows/"+wf+"/runs/"+id, nil), 502, "provider_unavailable")
	var list struct {
		Data []run `json:"data"`
	}
	s.must(200, "GET", "/api/workflows/"+wf+"/runs", nil).into(&list)
	if len(list.Data) != 1 || list.Data[0].Status != "running" || list.Data[0].StatusDetail != "sleeping" {
		t.Fatalf("runs while the edge is down: %+v", list.Data)
	}
	proxy.Up(t)
	r := s.waitStatus(wf, id, "complete", 30*time.Second)
	jsonEqual(t, r.Output, `"v1"`)
	// And the retried deploy of v2 now succeeds.
	if d2 := s.must(200, "POST", "/api/workflows/"+wf+"/deploy", map[string]any{"connectionId": s.conn, "versionId": v2}).str("versionId"); d2 != v2 {
		t.Fatalf("deploy of v2 = %s", d2)
	}
}

// TestEdgeRestartMidRun kills the edge (SIGKILL) while a run sleeps; the
// supervisor starts it again, and the run completes with the right status
// and output. It runs alone (not parallel): the other tests share the edge.
func TestEdgeRestartMidRun(t *testing.T) {
	s := newServer(t, serverOptions{})
	wf, _ := s.workflow("Survivor", "workflow", chain("Survivor",
		step("first", "return { n: event.payload.n };"),
		node("nap", "sleep", "nap", map[string]any{"duration": "4 seconds"}),
		step("last", "return { n: {{first.n}} + 1 };"),
	))
	s.deploy(wf)
	id := s.trigger(wf, map[string]any{"n": 1})
	s.waitRun(wf, id, 30*time.Second, "sleeping", func(r run) bool { return r.Status == "running" && r.StatusDetail == "sleeping" })

	restarts, pid := shared.edge.Restarts(), shared.edge.Pid()
	if pid == 0 {
		t.Fatal("the edge has no pid")
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitEdgeRestarted(t, restarts, pid)
	var last run
	testenv.WaitFor(t, 60*time.Second, 200*time.Millisecond, "the run to complete after the restart", func() (bool, string) {
		r := s.do("GET", "/api/workflows/"+wf+"/runs/"+id, nil)
		if r.status == 200 {
			json.Unmarshal(r.body, &last)
			if last.Status == "errored" || last.Status == "terminated" {
				t.Fatalf("run after the restart: %+v", last)
			}
			return last.Status == "complete", fmt.Sprintf("%+v", last)
		} else if r.status != 502 {
			t.Fatalf("GET run during the restart: %d %s", r.status, r.body)
		}
		return false, fmt.Sprintf("GET run: %d %s", r.status, r.body)
	})
	jsonEqual(t, last.Output, `{"n":2}`)
}

// waitEdgeRestarted waits for the supervisor to have started the shared edge again after pid was killed.
func waitEdgeRestarted(t *testing.T, restarts, pid int) {
	t.Helper()
	testenv.WaitFor(t, 60*time.Second, 100*time.Millisecond, "the edge to be restarted", func() (bool, string) {
		now := shared.edge.Pid()
		return shared.edge.Restarts() != restarts && now != 0 && now != pid, fmt.Sprintf("%d restarts, pid %d", shared.edge.Restarts(), now)
	})
}

// TestEdgeKilledMidDeploy kills the edge (SIGKILL) while a deploy through
// edgeflow is under way; the supervisor starts it again, the deploy
// answers (completed or a clear error, never a 500), the same deploy sent
// again succeeds, and a run of it completes. Not parallel: it kills the
// shared edge.
func TestEdgeKilledMidDeploy(t *testing.T) {
	s := newServer(t, serverOptions{})
	wf, _ := s.workflow("MidDeploy", "workflow", chain("MidDeploy",
		step("first", "return { n: event.payload.n };"),
		step("last", "return { n: {{first.n}} + 1 };"),
	))
	restarts, pid := shared.edge.Restarts(), shared.edge.Pid()
	done := make(chan reply, 1)
	go func() {
		done <- s.do("POST", "/api/workflows/"+wf+"/deploy", map[string]any{"connectionId": s.conn})
	}()
	time.Sleep(300 * time.Millisecond)
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.status >= 500 && r.status != 502 && r.status != 503 {
		t.Fatalf("deploy while the edge died: %d %s", r.status, r.body)
	}
	t.Logf("the deploy the kill interrupted answered %d", r.status)
	waitEdgeRestarted(t, restarts, pid)
	s.deploy(wf)
	id := s.trigger(wf, map[string]any{"n": 1})
	last := s.waitRun(wf, id, 60*time.Second, "complete", func(r run) bool { return r.Status == "complete" })
	jsonEqual(t, last.Output, `{"n":2}`)
}

// TestDeployStreamDisconnect: a client that goes away after the first
// frame leaves the deployment either wholly recorded (and serving) or not
// at all; here the deploy carries on and completes.
func TestDeployStreamDisconnect(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	wf, ver := s.workflow("Impatient", "workflow", chain("Impatient", step("only", "return 'done';")))
	_, frames := s.deployStream(wf, map[string]any{"connectionId": s.conn}, func(sseFrame) bool { return false })
	if len(frames) != 1 {
		t.Fatalf("frames before the disconnect: %+v", frames)
	}
	testenv.WaitFor(t, 30*time.Second, 100*time.Millisecond, "the deployment to be recorded", func() (bool, string) {
		full := s.must(200, "GET", "/api/workflows/"+wf+"/full", nil).obj()
		a, ok := full["activeDeployment"].(map[string]any)
		if ok && (a["versionId"] != ver || full["workflow"].(map[string]any)["activeVersionId"] != ver) {
			t.Fatalf("half-recorded deployment: %v", full)
		}
		return ok, "no active deployment"
	})
	id := s.trigger(wf, map[string]any{})
	jsonEqual(t, s.waitStatus(wf, id, "complete", 30*time.Second).Output, `"done"`)
}

// failingEdge is a deploy.LocalEdge behind an HTTP proxy that answers 500
// to the requests fail selects.
type failingEdge struct {
	srv  *httptest.Server
	mu   sync.Mutex
	fail func(*http.Request) bool
}

func newFailingEdge(t testing.TB) *failingEdge {
	t.Helper()
	target, _ := url.Parse(fmt.Sprintf("http://127.0.0.1:%d", shared.edge.Port()))
	rp := httputil.NewSingleHostReverseProxy(target)
	f := &failingEdge{}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		fail := f.fail != nil && f.fail(r)
		f.mu.Unlock()
		if fail {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(500)
			io.WriteString(w, `{"success":false,"errors":[{"code":10013,"message":"injected failure"}],"messages":[],"result":null}`)
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *failingEdge) set(fail func(*http.Request) bool) {
	f.mu.Lock()
	f.fail = fail
	f.mu.Unlock()
}

func (f *failingEdge) swap(u string) string {
	return strings.Replace(u, fmt.Sprintf("http://127.0.0.1:%d", shared.edge.Port()), f.srv.URL, 1)
}

func (f *failingEdge) APIBaseURL() string     { return f.swap(shared.edge.APIBaseURL()) }
func (f *failingEdge) WorkersBaseURL() string { return f.swap(shared.edge.WorkersBaseURL()) }
func (f *failingEdge) AccountID() string      { return shared.edge.AccountID() }
func (f *failingEdge) Token() string          { return shared.edge.Token() }
func (f *failingEdge) ProvisionAccount(ctx context.Context, ref, name string) (string, string, error) {
	return shared.edge.ProvisionAccount(ctx, ref, name)
}

// TestFailureAfterUpload: when the Workflow update fails after the new
// worker was uploaded, the previous version is uploaded again, so the
// previous deployment stays recorded and serving.
func TestFailureAfterUpload(t *testing.T) {
	t.Parallel()
	requireEdge(t)
	edge := newFailingEdge(t)
	s := newServer(t, serverOptions{edge: edge})
	wf, v1 := s.workflow("Restore", "workflow", chain("Restore", step("only", "return 'v1';")))
	d1 := s.deploy(wf)
	v2 := s.version(wf, chain("Restore", step("only", "return 'v2';")))
	edge.set(func(r *http.Request) bool {
		return r.Method == "PUT" && strings.Contains(r.URL.Path, "/workflows/")
	})
	m := wantError(t, s.do("POST", "/api/workflows/"+wf+"/deploy", map[string]any{"connectionId": s.conn, "versionId": v2}), 502, "provider_error")
	if !strings.Contains(m["error"].(string), "UPDATING_WORKFLOW") || !strings.Contains(m["error"].(string), "injected failure") {
		t.Fatalf("error = %v", m["error"])
	}
	edge.set(nil)
	full := s.must(200, "GET", "/api/workflows/"+wf+"/full", nil).obj()
	if a := full["activeDeployment"].(map[string]any); a["id"] != d1.ID || a["versionId"] != v1 {
		t.Fatalf("active deployment = %v", a)
	}
	id := s.trigger(wf, map[string]any{})
	jsonEqual(t, s.waitStatus(wf, id, "complete", 30*time.Second).Output, `"v1"`)
}

// TestSlowD1Query: a D1 query that would run for minutes, sent through
// edgeflow's API, holds up neither the edge nor other databases (a query on
// another database and a KV listing answer while it runs); the edge stops
// it at 30 s, edgeflow shows the database's own answer (not a timeout of
// its own), and the database answers the next query at once with its data
// as before.
func TestSlowD1Query(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	account := s.connectionAccount()
	slowDB := newD1Database(t, account, "faults-slow-query")
	fastDB := newD1Database(t, account, "faults-fast-query")
	s.must(200, "POST", "/api/resources/d1/databases/"+slowDB+"/query", map[string]any{"connectionId": s.conn,
		"sql": "CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1)"})

	type answer struct {
		status int
		body   string
		err    error
	}
	slow := make(chan answer, 1)
	go func() {
		body, _ := json.Marshal(map[string]any{"connectionId": s.conn,
			"sql": "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000000000) SELECT count(*) FROM c"})
		req, _ := http.NewRequest("POST", s.url+"/api/resources/d1/databases/"+slowDB+"/query", strings.NewReader(string(body)))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+s.key)
		res, err := s.http.Do(req)
		if err != nil {
			slow <- answer{err: err}
			return
		}
		defer res.Body.Close()
		raw, _ := io.ReadAll(res.Body)
		slow <- answer{status: res.StatusCode, body: string(raw)}
	}()
	time.Sleep(1500 * time.Millisecond) // the slow query is running now

	stillRunning := func(what string) {
		t.Helper()
		select {
		case a := <-slow:
			t.Fatalf("%s answered only after the slow query ended (%d %s %v)", what, a.status, a.body, a.err)
		default:
		}
	}
	var rows d1Rows
	s.must(200, "POST", "/api/resources/d1/databases/"+fastDB+"/query", map[string]any{"connectionId": s.conn,
		"sql": "SELECT 41 + 1 AS n"}).into(&rows)
	if len(rows.Rows) != 1 || rows.Rows[0][0] != float64(42) {
		t.Fatalf("query on the other database = %+v", rows)
	}
	stillRunning("a query on another database")
	s.must(200, "GET", "/api/resources/kv/namespaces?connectionId="+s.conn, nil)
	stillRunning("a KV listing")

	a := <-slow
	if a.err != nil {
		t.Fatalf("slow query: %v", a.err)
	}
	if a.status != 422 || !strings.Contains(a.body, `"validation_failed"`) || !strings.Contains(a.body, "exceeded the 30 s limit") {
		t.Fatalf("slow query = %d %s, want 422 validation_failed naming the 30 s limit", a.status, a.body)
	}
	s.must(200, "POST", "/api/resources/d1/databases/"+slowDB+"/query", map[string]any{"connectionId": s.conn,
		"sql": "SELECT x FROM t"}).into(&rows)
	if len(rows.Rows) != 1 || rows.Rows[0][0] != float64(1) {
		t.Fatalf("the stopped database after the stop = %+v", rows)
	}
}
