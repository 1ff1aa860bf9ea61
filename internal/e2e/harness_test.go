// Package e2e_test drives edgeflow end to end through its HTTP API against
// the real local edge (edge/, miniflare + workerd): deploy, deploy-stream,
// trigger, runs, events, run control, functions, takedown, resources, and
// faults of the edge. The tests skip when Node or the edge's npm packages are
// missing, unless CI=1.
package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/localedge"
	"github.com/edgeflow/edgeflow/internal/netguard"
	"github.com/edgeflow/edgeflow/internal/ratelimit"
	"github.com/edgeflow/edgeflow/internal/secret"
	"github.com/edgeflow/edgeflow/internal/sqlite"
	"github.com/edgeflow/edgeflow/internal/testenv"
	"github.com/edgeflow/edgeflow/internal/tracing"
	"golang.org/x/crypto/bcrypt"
)

// testSecretKey is the secret key of every test server (and the root of the shared edge's sealing key).
var testSecretKey = bytes.Repeat([]byte{7}, secret.KeySize)

// allowedHost is the loopback address test servers that steps call listen on: the shared edge's allow list
// opens it, while the rest of loopback (edgeflow's API, the edge's ports) stays closed to worker code.
const allowedHost = "127.0.0.42"

// shared is the one local edge and edgeflow server of the package's tests.
var shared struct {
	edge    *localedge.Edge
	skip    string // why the tests skip ("" when they run)
	dataDir string
}

func TestMain(m *testing.M) {
	code := func() int {
		dir, err := os.MkdirTemp(tmpRoot(), "edgeflow-e2e-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer os.RemoveAll(dir)
		shared.dataDir = dir
		script, why := edgeScript()
		if why != "" {
			if testenv.Strict() {
				fmt.Fprintln(os.Stderr, "e2e: "+why)
				return 1
			}
			shared.skip = why
			return m.Run()
		}
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		var logger *slog.Logger
		if os.Getenv("EDGEFLOW_E2E_EDGE_LOG") == "1" {
			logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
		}
		// Worker code may reach allowedHost (the test servers steps call), nothing else on loopback; the edge
		// seals its secrets with a key derived from the servers' secret key, as edgeflow serve does.
		allow, err := netguard.ParseAllowList(allowedHost)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		edge, err := localedge.Start(ctx, localedge.Options{Script: script, DataDir: filepath.Join(dir, "edge"), Logger: logger,
			AllowHosts: allow, SecretKey: testSecretKey})
		if err != nil {
			fmt.Fprintln(os.Stderr, "e2e: start the local edge:", err)
			return 1
		}
		defer edge.Close()
		shared.edge = edge
		return m.Run()
	}()
	os.Exit(code)
}

// tmpRoot puts the edge's data on tmpfs when there is one: instance
// throughput of the local edge is bound by disk writes.
func tmpRoot() string {
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		return "/dev/shm"
	}
	return ""
}

func edgeScript() (string, string) {
	if _, err := exec.LookPath("node"); err != nil {
		return "", "node is not installed"
	}
	script, err := localedge.FindScript()
	if err != nil {
		return "", err.Error()
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(script), "node_modules", "miniflare")); err != nil {
		return "", "the edge's npm packages are missing: run npm ci in edge/"
	}
	return script, ""
}

// server is one edgeflow API server on its own SQLite database, with one
// user whose API key has every scope, and a connection of provider local.
type server struct {
	t      testing.TB
	url    string
	key    string
	conn   string
	orgID  string
	projID string
	dep    *deploy.Service
	store  *sqlite.Store // for tests of records stored before a check existed
	http   *http.Client
}

type serverOptions struct {
	// edge replaces the local edge the deploy service talks to (a proxy in
	// front of it, for fault tests).
	edge deploy.LocalEdge
	// refresherInterval, when set, runs the background refresher.
	refresherInterval time.Duration
	// cloudflareBase replaces api.cloudflare.com for connections of
	// provider cloudflare.
	cloudflareBase string
	// allowHosts is the operator's --allow-hosts list (webhook URLs).
	allowHosts *netguard.AllowList
	// subscriptions is the refresher's bound of instance event streams
	// (deploy.RefresherOptions.Subscriptions; -1 polls every run).
	subscriptions int
	// localEdge replaces the shared edge for both the deploy service and
	// the API (its /readyz and /metrics): a test's own edge.
	localEdge *localedge.Edge
	// stuckAfter and stuckFailAfter are the stuck-queued rule's bounds
	// (deploy.Options); 0 keeps the defaults.
	stuckAfter, stuckFailAfter time.Duration
	// tracing exports the server's spans (nil: off); traceURLTemplate is
	// EDGEFLOW_TRACE_URL_TEMPLATE.
	tracing          *tracing.Tracing
	traceURLTemplate string
}

func requireEdge(t testing.TB) {
	t.Helper()
	if shared.skip != "" {
		testenv.Missing(t, "%s", shared.skip)
	}
}

// newServer starts an edgeflow API server for one test (or benchmark).
func newServer(t testing.TB, opts serverOptions) *server {
	t.Helper()
	requireEdge(t)
	ctx := context.Background()
	// The database sits beside the edge's data (tmpfs when there is one), so
	// that comparisons with the edge alone measure edgeflow, not the disk.
	dir, err := os.MkdirTemp(shared.dataDir, "server-")
	if err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(ctx, filepath.Join(dir, "edgeflow.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	sealer, err := secret.New(testSecretKey)
	if err != nil {
		t.Fatal(err)
	}
	own := shared.edge
	if opts.localEdge != nil {
		own = opts.localEdge
	}
	var edge deploy.LocalEdge = own
	if opts.edge != nil {
		edge = opts.edge
	}
	cfg := api.Config{SignUp: api.SignUpOpen, Store: st, Sealer: sealer, Limits: ratelimit.Limits{Off: true}, BcryptCost: bcrypt.MinCost,
		LocalEdge: own, AllowHosts: opts.allowHosts, Tracing: opts.tracing, TraceURLTemplate: opts.traceURLTemplate}
	dep, err := deploy.New(deploy.Options{Store: st, Secrets: deploy.SealerSecrets(sealer), LocalEdge: edge,
		Compiler: &deploy.CodegenCompiler{}, CloudflareBaseURL: opts.cloudflareBase,
		StuckAfter: opts.stuckAfter, StuckFailAfter: opts.stuckFailAfter})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Deployer = dep
	srv, err := api.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	dep.SetCompiler(&deploy.CodegenCompiler{Marketplace: srv.Marketplace})
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	if opts.refresherInterval > 0 {
		rctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			dep.RunRefresher(rctx, deploy.RefresherOptions{Interval: opts.refresherInterval, Subscriptions: opts.subscriptions})
		}()
		t.Cleanup(func() { cancel(); <-done })
	}
	s := &server{t: t, url: hs.URL, dep: dep, store: st, http: &http.Client{Timeout: 2 * time.Minute}}
	s.bootstrap("e2e@example.com")
	return s
}

// tenant signs up another user on the same server, as a stranger would, and
// answers a *server acting as that user: its own organization, project, API
// key (every scope) and connection of provider local. Attack tests use it as
// the attacker beside the server's first tenant.
func (s *server) tenant(email string) *server {
	s.t.Helper()
	o := &server{t: s.t, url: s.url, dep: s.dep, store: s.store, http: s.http}
	o.bootstrap(email)
	return o
}

// bootstrap signs up email, creates an API key with every scope and a
// connection of provider local, all through the API.
func (s *server) bootstrap(email string) {
	t := s.t
	t.Helper()
	body, _ := json.Marshal(map[string]string{"email": email, "password": "e2e-password-1"})
	req, _ := http.NewRequest("POST", s.url+"/api/auth/sign-up", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	res, err := s.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 201 {
		t.Fatalf("sign-up: %d %s", res.StatusCode, raw)
	}
	var signup struct {
		CSRFToken            string `json:"csrfToken"`
		ActiveOrganizationID string `json:"activeOrganizationId"`
		ActiveProjectID      string `json:"activeProjectId"`
	}
	json.Unmarshal(raw, &signup)
	s.orgID, s.projID = signup.ActiveOrganizationID, signup.ActiveProjectID
	var cookie *http.Cookie
	for _, c := range res.Cookies() {
		if c.Name == api.SessionCookie {
			cookie = c
		}
	}
	body, _ = json.Marshal(map[string]any{"name": "e2e", "projectId": s.projID, "scopes": []string{"read", "write", "deploy"}})
	req, _ = http.NewRequest("POST", s.url+"/api/api-keys", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(api.CSRFHeader, signup.CSRFToken)
	req.AddCookie(cookie)
	res, err = s.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ = io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 201 {
		t.Fatalf("create API key: %d %s", res.StatusCode, raw)
	}
	var key struct {
		Key string `json:"key"`
	}
	json.Unmarshal(raw, &key)
	s.key = key.Key
	s.conn = s.must(201, "POST", "/api/connections", map[string]any{"provider": "local", "name": "edge", "credentials": map[string]string{}}).str("id")
}

// reply is a response of the API.
type reply struct {
	t      testing.TB
	status int
	body   []byte
}

func (r reply) obj() map[string]any {
	r.t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		r.t.Fatalf("not a JSON object: %v: %s", err, r.body)
	}
	return m
}

func (r reply) str(key string) string {
	r.t.Helper()
	s, _ := r.obj()[key].(string)
	return s
}

func (r reply) into(v any) {
	r.t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		r.t.Fatalf("decode %T: %v: %s", v, err, r.body)
	}
}

// do sends an API request with the API key; body nil sends none.
func (s *server) do(method, path string, body any) reply {
	s.t.Helper()
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			s.t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, s.url+path, rd)
	if err != nil {
		s.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Bearer "+s.key)
	res, err := s.http.Do(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return reply{t: s.t, status: res.StatusCode, body: raw}
}

// must is do that fails the test unless the status is want.
func (s *server) must(want int, method, path string, body any) reply {
	s.t.Helper()
	r := s.do(method, path, body)
	if r.status != want {
		s.t.Fatalf("%s %s = %d, want %d: %s", method, path, r.status, want, r.body)
	}
	return r
}

// wantError checks an error reply's status and code.
func wantError(t testing.TB, r reply, status int, code string) map[string]any {
	t.Helper()
	if r.status != status {
		t.Fatalf("status = %d, want %d: %s", r.status, status, r.body)
	}
	m := r.obj()
	if m["code"] != code {
		t.Fatalf("code = %v, want %s: %s", m["code"], code, r.body)
	}
	return m
}

// workflow creates a workflow (kind "workflow" or "script") and submits ir
// as its first version; it returns the workflow and version ids.
func (s *server) workflow(name, kind string, ir map[string]any) (string, string) {
	s.t.Helper()
	id := s.must(201, "POST", "/api/workflows", map[string]any{"name": name, "kind": kind}).str("id")
	return id, s.version(id, ir)
}

func (s *server) version(workflowID string, ir map[string]any) string {
	s.t.Helper()
	return s.must(201, "POST", "/api/workflows/"+workflowID+"/versions", map[string]any{"ir": ir}).str("id")
}

type deployment struct {
	ID           string `json:"id"`
	VersionID    string `json:"versionId"`
	URL          string `json:"url"`
	ScriptName   string `json:"scriptName"`
	WorkflowName string `json:"workflowName"`
	Success      bool   `json:"success"`
}

func (s *server) deploy(workflowID string) deployment {
	s.t.Helper()
	var d deployment
	s.must(200, "POST", "/api/workflows/"+workflowID+"/deploy", map[string]any{"connectionId": s.conn}).into(&d)
	return d
}

// trigger starts a run and returns its id.
func (s *server) trigger(workflowID string, params any) string {
	s.t.Helper()
	r := s.must(201, "POST", "/api/workflows/"+workflowID+"/trigger", map[string]any{"connectionId": s.conn, "params": params})
	m := r.obj()
	if m["status"] != "queued" || m["instanceId"] == "" || m["id"] == "" {
		s.t.Fatalf("trigger answered %s", r.body)
	}
	return m["id"].(string)
}

type run struct {
	ID           string          `json:"id"`
	InstanceID   string          `json:"instanceId"`
	Status       string          `json:"status"`
	StatusDetail string          `json:"statusDetail"`
	Output       json.RawMessage `json:"output"`
	Error        string          `json:"error"`
	CreatedAt    time.Time       `json:"createdAt"`
	StartedAt    *time.Time      `json:"startedAt"`
	EndedAt      *time.Time      `json:"endedAt"`
	RestartOf    string          `json:"restartOf"`
	FromStep     string          `json:"fromStep"`
	Steps        []runStep       `json:"steps"`
	Usage        json.RawMessage `json:"usage"`
}

// runStep is one step of a run's detail (docs/api.md, GET a run).
type runStep struct {
	NodeID          string          `json:"nodeId"`
	Name            string          `json:"name"`
	State           string          `json:"state"`
	Attempts        int             `json:"attempts"`
	EndedAt         *string         `json:"endedAt"`
	Output          json.RawMessage `json:"output"`
	OutputTruncated bool            `json:"outputTruncated"`
	Error           *struct {
		Name    string `json:"name"`
		Message string `json:"message"`
	} `json:"error"`
}

func (s *server) run(workflowID, runID string) run {
	s.t.Helper()
	var r run
	s.must(200, "GET", "/api/workflows/"+workflowID+"/runs/"+runID, nil).into(&r)
	return r
}

// waitRun polls a run until cond holds or timeout passes.
func (s *server) waitRun(workflowID, runID string, timeout time.Duration, what string, cond func(run) bool) run {
	s.t.Helper()
	var last run
	var seen []string // the states the run went through, for the failure message
	testenv.WaitFor(s.t, timeout, 100*time.Millisecond, "run "+runID+": "+what, func() (bool, string) {
		last = s.run(workflowID, runID)
		if cond(last) {
			return true, ""
		}
		if st := last.Status + "/" + last.StatusDetail; len(seen) == 0 || seen[len(seen)-1] != st {
			seen = append(seen, st)
		}
		if edgeflow.RunIsFinal(last.Status) {
			s.t.Fatalf("run %s: waited for %s; states seen %v; last state %+v (output %s)", runID, what, seen, last, last.Output)
		}
		return false, fmt.Sprintf("states %v; last state %+v (output %s)", seen, last, last.Output)
	})
	return last
}

func (s *server) waitStatus(workflowID, runID, status string, timeout time.Duration) run {
	s.t.Helper()
	return s.waitRun(workflowID, runID, timeout, "status "+status, func(r run) bool { return r.Status == status })
}

// IR building.

func node(id, typ, name string, data map[string]any) map[string]any {
	return map[string]any{"id": id, "type": typ, "name": name, "position": map[string]any{"x": 0, "y": 0},
		"version": "1.0.0", "provider": "cloudflare", "data": data}
}

func step(id, code string) map[string]any {
	return node(id, "step", id, map[string]any{"code": code})
}

// chain is a workflow IR whose nodes run one after the other.
func chain(name string, nodes ...map[string]any) map[string]any {
	edges := []any{}
	for i := 1; i < len(nodes); i++ {
		edges = append(edges, map[string]any{"id": fmt.Sprintf("e%d", i), "source": nodes[i-1]["id"], "target": nodes[i]["id"]})
	}
	list := make([]any, len(nodes))
	for i, n := range nodes {
		list[i] = n
	}
	return map[string]any{
		"metadata":    map[string]any{"name": name, "version": 1, "createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-01-01T00:00:00Z"},
		"nodes":       list,
		"edges":       edges,
		"entryNodeId": nodes[0]["id"],
	}
}

// script is a function IR with an http trigger.
func script(name string, nodes ...map[string]any) map[string]any {
	ir := chain(name, nodes...)
	ir["kind"] = "script"
	ir["trigger"] = map[string]any{"type": "http", "method": "POST"}
	return ir
}

func jsonEqual(t testing.TB, got json.RawMessage, want string) {
	t.Helper()
	var a, b any
	if err := json.Unmarshal(got, &a); err != nil {
		t.Fatalf("output %q is not JSON: %v", got, err)
	}
	if err := json.Unmarshal([]byte(want), &b); err != nil {
		t.Fatal(err)
	}
	ga, _ := json.Marshal(a)
	gb, _ := json.Marshal(b)
	if !bytes.Equal(ga, gb) {
		t.Fatalf("output = %s, want %s", ga, gb)
	}
}

// post sends a request to a worker URL.
func post(t testing.TB, method, url, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return res.StatusCode, raw
}

// proxyEdge is a deploy.LocalEdge whose API and worker URLs go through a TCP
// proxy in front of the shared edge that a test can take down (connections
// refused) and bring back on the same port.
type proxyEdge struct {
	target string // host:port of the edge
	addr   string // host:port of the proxy

	mu    sync.Mutex
	ln    net.Listener
	conns map[net.Conn]bool
}

func newProxyEdge(t testing.TB) *proxyEdge {
	t.Helper()
	p := &proxyEdge{target: fmt.Sprintf("127.0.0.1:%d", shared.edge.Port()), conns: map[net.Conn]bool{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p.addr = ln.Addr().String()
	p.serve(ln)
	t.Cleanup(p.Down)
	return p
}

func (p *proxyEdge) serve(ln net.Listener) {
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.pipe(c)
		}
	}()
}

func (p *proxyEdge) pipe(c net.Conn) {
	u, err := net.Dial("tcp", p.target)
	if err != nil {
		c.Close()
		return
	}
	p.mu.Lock()
	p.conns[c], p.conns[u] = true, true
	p.mu.Unlock()
	done := make(chan struct{}, 2)
	go func() { io.Copy(u, c); done <- struct{}{} }()
	go func() { io.Copy(c, u); done <- struct{}{} }()
	<-done
	c.Close()
	u.Close()
	p.mu.Lock()
	delete(p.conns, c)
	delete(p.conns, u)
	p.mu.Unlock()
}

// Down closes the listener and every open connection.
func (p *proxyEdge) Down() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		c.Close()
	}
}

// Up listens again on the same port.
func (p *proxyEdge) Up(t testing.TB) {
	t.Helper()
	var ln net.Listener
	var err error
	testenv.WaitFor(t, time.Second, 20*time.Millisecond, "the proxy's port to be free again", func() (bool, string) {
		ln, err = net.Listen("tcp", p.addr)
		return err == nil, fmt.Sprint(err)
	})
	if err != nil {
		t.Fatal(err)
	}
	p.serve(ln)
}

func (p *proxyEdge) swap(u string) string {
	return strings.Replace(u, p.target, p.addr, 1)
}

func (p *proxyEdge) APIBaseURL() string     { return p.swap(shared.edge.APIBaseURL()) }
func (p *proxyEdge) WorkersBaseURL() string { return p.swap(shared.edge.WorkersBaseURL()) }
func (p *proxyEdge) AccountID() string      { return shared.edge.AccountID() }
func (p *proxyEdge) Token() string          { return shared.edge.Token() }

// ProvisionAccount fails like any request while the proxy is down.
func (p *proxyEdge) ProvisionAccount(ctx context.Context, ref, name string) (string, string, error) {
	p.mu.Lock()
	down := p.ln == nil
	p.mu.Unlock()
	if down {
		return "", "", errors.New("proxy edge is down: connection refused")
	}
	return shared.edge.ProvisionAccount(ctx, ref, name)
}

// describeSteps writes a run's steps one per line (node, name, state, attempts, end, error) for a failure message.
func describeSteps(steps []runStep) string {
	var b strings.Builder
	for _, st := range steps {
		end := "-"
		if st.EndedAt != nil {
			end = *st.EndedAt
		}
		fmt.Fprintf(&b, "  %s %q %s, %d attempts, ended %s", st.NodeID, st.Name, st.State, st.Attempts, end)
		if st.Error != nil {
			fmt.Fprintf(&b, ", error %s: %s", st.Error.Name, st.Error.Message)
		}
		b.WriteString("\n")
	}
	return b.String()
}
