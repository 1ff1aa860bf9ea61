package e2e_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestLegitStepCallsFunctionURL: worker code reaches a function's url on the local edge's workers gateway, as a
// worker on Cloudflare may fetch another worker's workers.dev URL; no --allow-hosts is needed (the shared edge
// allows 127.0.0.42 only). The twin attack test follows.
func TestLegitStepCallsFunctionURL(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	fn, _ := s.workflow("echo", "script", script("Echo", node("echo", "step", "EXPORT_echo", map[string]any{"code": "return 'echo ' + event.payload.word;"})))
	d := s.deploy(fn)
	if !strings.HasPrefix(d.URL, shared.edge.WorkersBaseURL()+"/") {
		t.Fatalf("function url %s is not on the gateway %s", d.URL, shared.edge.WorkersBaseURL())
	}
	call := `const res = await fetch(event.payload.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ word: "hi" }) });
return { status: res.status, body: await res.json() };`
	wf, _ := s.workflow("caller", "workflow", chain("Caller", step("call", call)))
	s.deploy(wf)
	r := s.waitStatus(wf, s.trigger(wf, map[string]any{"url": d.URL}), "complete", 90*time.Second)
	jsonEqual(t, r.Output, `{"status":200,"body":{"echo":"echo hi"}}`)
}

// TestAttackStepReachesEdgeBesidesGateway: the gateway's opening is its worker URLs only. A step deployed
// through the public API tries the rest of the edge's port (its Cloudflare API, its admin routes, paths that
// climb out of /workers/), the gateway under other names, the edge's other ports and edgeflow's API with a /workers/
// path: every fetch is refused.
func TestAttackStepReachesEdgeBesidesGateway(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	mallory := s.tenant("mallory@example.com")
	edge := fmt.Sprintf("127.0.0.1:%d", shared.edge.Port())
	api, _ := url.Parse(s.url)
	account := shared.edge.AccountID()
	targets := []target{
		{Name: "edge api", URL: "http://" + edge + "/client/v4/accounts/" + account + "/workers/scripts"},
		{Name: "edge verify", URL: "http://" + edge + "/client/v4/user/tokens/verify"},
		{Name: "edge admin", URL: "http://" + edge + "/__edge/accounts"},
		{Name: "edge health", URL: "http://" + edge + "/healthz"},
		{Name: "dot-dot", URL: "http://" + edge + "/workers/../client/v4/accounts"},
		{Name: "encoded dot-dot", URL: "http://" + edge + "/workers/%2e%2e/__edge/accounts"},
		{Name: "localhost", URL: fmt.Sprintf("http://localhost:%d/workers/x/", shared.edge.Port())},
		{Name: "ipv6", URL: fmt.Sprintf("http://[::1]:%d/workers/x/", shared.edge.Port())},
		{Name: "edgeflow api", URL: "http://127.0.0.1:" + api.Port() + "/workers/../api/workflows"},
		{Name: "edgeflow workers path", URL: "http://127.0.0.1:" + api.Port() + "/workers/x/"},
	}
	for _, p := range edgePorts(t) {
		if p != shared.edge.Port() {
			targets = append(targets, target{Name: fmt.Sprintf("edge port %d", p), URL: fmt.Sprintf("http://127.0.0.1:%d/workers/x/", p)})
		}
	}
	out := mallory.probe(t, targets)
	for _, tg := range targets {
		got := out[tg.Name]
		if !strings.HasPrefix(got, "error: ") || !strings.Contains(got, "edgeflow refused the request") || !strings.Contains(got, "loopback") {
			t.Errorf("%s (%s): %q, want a refusal", tg.Name, tg.URL, got)
		}
	}
}
