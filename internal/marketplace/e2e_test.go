package marketplace_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/crypto/bcrypt"

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/localedge"
	"github.com/edgeflow/edgeflow/internal/netguard"
	"github.com/edgeflow/edgeflow/internal/ratelimit"
	"github.com/edgeflow/edgeflow/internal/secret"
	"github.com/edgeflow/edgeflow/internal/sqlite"
	"github.com/edgeflow/edgeflow/internal/testenv"
)

// startEdge starts the local edge for one test; without Node or the edge's
// npm packages it skips, or fails under CI (internal/testenv).
func startEdge(t *testing.T) *localedge.Edge {
	t.Helper()
	script, err := localedge.FindScript()
	if err != nil {
		testenv.Missing(t, "%v", err)
	}
	testenv.NodeModules(t, filepath.Dir(script), "miniflare")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// the fakes of Slack, OpenAI and Discord listen on 127.0.0.42 (allowedHost), which the edge lets worker code reach
	allow, err := netguard.ParseAllowList(allowedHost)
	if err != nil {
		t.Fatal(err)
	}
	edge, err := localedge.Start(ctx, localedge.Options{Script: script, DataDir: filepath.Join(t.TempDir(), "edge"), AllowHosts: allow})
	if err != nil {
		t.Fatalf("start the local edge: %v", err)
	}
	t.Cleanup(func() { edge.Close() })
	return edge
}

// allowedHost is the loopback address of the test servers that worker code may reach (the edge's allow list);
// the rest of loopback stays closed to it.
const allowedHost = "127.0.0.42"

// allowedServer starts an HTTP test server on allowedHost.
func allowedServer(t *testing.T, h http.Handler) *httptest.Server {
	t.Helper()
	ln, err := net.Listen("tcp", allowedHost+":0")
	if err != nil {
		t.Fatalf("listen on %s: %v", allowedHost, err)
	}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: h}}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

// client talks to an edgeflow API server with an API key.
type client struct {
	t    *testing.T
	base string
	key  string
	http *http.Client
}

func (c *client) do(method, path string, body any) (int, map[string]any) {
	c.t.Helper()
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			c.t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Bearer "+c.key)
	res, err := c.http.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		c.t.Fatalf("%s %s = %d, not a JSON object: %s", method, path, res.StatusCode, raw)
	}
	return res.StatusCode, m
}

func (c *client) must(want int, method, path string, body any) map[string]any {
	c.t.Helper()
	status, m := c.do(method, path, body)
	if status != want {
		c.t.Fatalf("%s %s = %d, want %d: %v", method, path, status, want, m)
	}
	return m
}

// fakeServices answers Slack's chat.postMessage, OpenAI's chat completions
// and a Discord webhook, and records every request after checking its
// method, path, credentials and body.
type fakeServices struct {
	t *testing.T

	mu       sync.Mutex
	requests []string
	problems []string
}

func (f *fakeServices) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var got map[string]any
	_ = json.Unmarshal(body, &got)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests = append(f.requests, r.Method+" "+r.URL.Path)
	expect := func(cond bool, format string, args ...any) {
		if !cond {
			f.problems = append(f.problems, r.URL.Path+": "+fmt.Sprintf(format, args...))
		}
	}
	w.Header().Set("Content-Type", "application/json")
	switch r.URL.Path {
	case "/openai/chat/completions":
		expect(r.Method == "POST", "method %s", r.Method)
		expect(r.Header.Get("Authorization") == "Bearer sk-e2e-openai", "authorization %q", r.Header.Get("Authorization"))
		want := map[string]any{"model": "gpt-4o-mini", "messages": []any{map[string]any{"role": "user", "content": "Summarize order 42 for Ada"}}}
		expect(cmp.Equal(want, got), "body %s", body)
		io.WriteString(w, `{"id":"c1","model":"gpt-4o-mini","choices":[{"index":0,"message":{"role":"assistant","content":"Order 42: 3 books"},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":4,"total_tokens":9}}`)
	case "/slack/chat.postMessage":
		expect(r.Method == "POST", "method %s", r.Method)
		expect(r.Header.Get("Authorization") == "Bearer xoxb-e2e-slack", "authorization %q", r.Header.Get("Authorization"))
		expect(got["channel"] == "C0E2E" && got["text"] == "Summary: Order 42: 3 books", "body %s", body)
		io.WriteString(w, `{"ok":true,"channel":"C0E2E","ts":"1700000000.000100"}`)
	case "/discord/api/webhooks/42/e2e-token":
		expect(r.Method == "POST" && r.URL.Query().Get("wait") == "true", "method %s query %s", r.Method, r.URL.RawQuery)
		expect(got["content"] == "Posted to Slack at 1700000000.000100", "body %s", body)
		io.WriteString(w, `{"id":"990","channel_id":"880","content":"x"}`)
	default:
		expect(false, "unexpected request")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"error":"not found"}`)
	}
}

func mnode(id, typ, version string, data map[string]any) map[string]any {
	return map[string]any{"id": id, "type": typ, "name": id, "position": map[string]any{"x": 0, "y": 0},
		"version": version, "provider": "cloudflare", "data": data}
}

// TestWorkflowWithThreeMarketplaceNodes installs three marketplace nodes,
// submits a workflow that chains them (OpenAI → Slack → Discord), checks
// that deploy refuses while their secrets are missing, then deploys it to
// the local edge with the secrets set, triggers it and waits for the run to
// complete with the values each node returned from a fake of its service.
func TestWorkflowWithThreeMarketplaceNodes(t *testing.T) {
	t.Parallel()
	edge := startEdge(t)
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "edgeflow.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	sealer, err := secret.New(bytes.Repeat([]byte{3}, secret.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := api.New(api.Config{SignUp: api.SignUpOpen, Store: st, Sealer: sealer, Limits: ratelimit.Limits{Off: true}, BcryptCost: bcrypt.MinCost, LocalEdge: edge})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	fake := &fakeServices{t: t}
	fs := allowedServer(t, fake)

	c := &client{t: t, base: hs.URL, http: &http.Client{Timeout: 2 * time.Minute}}
	c.key = bootstrapKey(t, hs.URL)
	conn := c.must(201, "POST", "/api/connections", map[string]any{"provider": "local", "name": "edge", "credentials": map[string]string{}})["id"].(string)

	for _, n := range []map[string]any{{"nodeId": "openai-chat", "version": "1.1.0"}, {"nodeId": "slack-message", "version": "2.0.0"}, {"nodeId": "discord-webhook", "version": "1.0.0"}} {
		c.must(201, "POST", "/api/marketplace/install", n)
	}
	ir := map[string]any{
		"metadata": map[string]any{"name": "Order digest", "version": 1, "createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-01-01T00:00:00Z"},
		"nodes": []any{
			mnode("start", "step", "1.0.0", map[string]any{"code": "return { order: event.payload.order, customer: event.payload.customer };"}),
			mnode("ask", "openai-chat", "1.1.0", map[string]any{"prompt": "Summarize order {{start.order}} for {{start.customer}}", "baseUrl": fs.URL + "/openai"}),
			mnode("notify", "slack-message", "2.0.0", map[string]any{"channel": "C0E2E", "text": "Summary: {{ask.text}}", "baseUrl": fs.URL + "/slack"}),
			mnode("announce", "discord-webhook", "1.0.0", map[string]any{"content": "Posted to Slack at {{notify.ts}}"}),
			mnode("done", "step", "1.0.0", map[string]any{"code": "return { summary: {{ask.text}}, ts: {{notify.ts}}, message: {{announce.id}} };"}),
		},
		"edges": []any{
			map[string]any{"id": "e1", "source": "start", "target": "ask"},
			map[string]any{"id": "e2", "source": "ask", "target": "notify"},
			map[string]any{"id": "e3", "source": "notify", "target": "announce"},
			map[string]any{"id": "e4", "source": "announce", "target": "done"},
		},
		"entryNodeId": "start",
	}
	wf := c.must(201, "POST", "/api/workflows", map[string]any{"name": "Order digest"})["id"].(string)
	v := c.must(201, "POST", "/api/workflows/"+wf+"/versions", map[string]any{"ir": ir})
	if fmt.Sprint(v["nodeTypes"]) != "[discord-webhook@1.0.0 openai-chat@1.1.0 slack-message@2.0.0]" {
		t.Fatalf("nodeTypes = %v", v["nodeTypes"])
	}

	// Deploy refuses while the nodes' secrets are missing, naming them.
	status, refused := c.do("POST", "/api/workflows/"+wf+"/deploy", map[string]any{"connectionId": conn})
	msg := fmt.Sprint(refused)
	if status != 400 || !strings.Contains(msg, "SLACK_BOT_TOKEN") || !strings.Contains(msg, "OPENAI_API_KEY") || !strings.Contains(msg, "DISCORD_WEBHOOK_URL") {
		t.Fatalf("deploy without secrets = %d %v", status, refused)
	}

	c.must(200, "PATCH", "/api/workflows/"+wf, map[string]any{"envVars": []any{
		map[string]any{"name": "OPENAI_API_KEY", "value": "sk-e2e-openai", "isSecret": true},
		map[string]any{"name": "SLACK_BOT_TOKEN", "value": "xoxb-e2e-slack", "isSecret": true},
		map[string]any{"name": "DISCORD_WEBHOOK_URL", "value": fs.URL + "/discord/api/webhooks/42/e2e-token", "isSecret": true},
	}})
	c.must(200, "POST", "/api/workflows/"+wf+"/deploy", map[string]any{"connectionId": conn})
	runID := c.must(201, "POST", "/api/workflows/"+wf+"/trigger", map[string]any{"connectionId": conn,
		"params": map[string]any{"order": 42, "customer": "Ada"}})["id"].(string)

	var run map[string]any
	testenv.WaitFor(t, 90*time.Second, 200*time.Millisecond, "run "+runID+" to end", func() (bool, string) {
		run = c.must(200, "GET", "/api/workflows/"+wf+"/runs/"+runID, nil)
		s, _ := run["status"].(string)
		return s == "complete" || s == "errored" || s == "terminated", "status " + s
	})
	if run["status"] != "complete" {
		t.Fatalf("run = %v\nrequests %v\nproblems %v", run, fake.requests, fake.problems)
	}
	want := map[string]any{"summary": "Order 42: 3 books", "ts": "1700000000.000100", "message": "990"}
	if diff := cmp.Diff(want, run["output"]); diff != "" {
		t.Errorf("run output (-want +got):\n%s", diff)
	}
	fake.mu.Lock()
	defer fake.mu.Unlock()
	if len(fake.problems) > 0 {
		t.Errorf("requests the nodes sent were wrong: %v", fake.problems)
	}
	wantReqs := []string{"POST /openai/chat/completions", "POST /slack/chat.postMessage", "POST /discord/api/webhooks/42/e2e-token"}
	if diff := cmp.Diff(wantReqs, fake.requests); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}

	// The deployed version's nodes cannot be uninstalled.
	status, m := c.do("POST", "/api/marketplace/uninstall", map[string]any{"nodeId": "slack-message"})
	if status != 409 || !strings.Contains(fmt.Sprint(m["error"]), wf) {
		t.Fatalf("uninstall of a deployed node = %d %v", status, m)
	}
}

// bootstrapKey signs up through the API and returns an API key with every
// scope for the user's default project.
func bootstrapKey(t *testing.T, base string) string {
	t.Helper()
	res, err := http.Post(base+"/api/auth/sign-up", "application/json", strings.NewReader(`{"email":"e2e@example.com","password":"password-1"}`))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 201 {
		t.Fatalf("sign-up: %d %s", res.StatusCode, raw)
	}
	var signup struct {
		CSRFToken       string `json:"csrfToken"`
		ActiveProjectID string `json:"activeProjectId"`
	}
	if err := json.Unmarshal(raw, &signup); err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("POST", base+"/api/api-keys", strings.NewReader(
		`{"name":"e2e","projectId":"`+signup.ActiveProjectID+`","scopes":["read","write","deploy"]}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(api.CSRFHeader, signup.CSRFToken)
	for _, ck := range res.Cookies() {
		req.AddCookie(ck)
	}
	res, err = http.DefaultClient.Do(req)
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
	if err := json.Unmarshal(raw, &key); err != nil {
		t.Fatal(err)
	}
	return key.Key
}
