package mcp_test

import (
	"bufio"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/ratelimit"
	"github.com/edgeflow/edgeflow/internal/testenv"
)

// TestToolsCountAgainstTheAPILimits: a tool's requests are the API's, so
// they count against the caller's limits of the routes they call: past the
// write limit create_workflow is a tool error saying so, while the tools
// that read go on; and every write a tool makes is in the audit log.
func TestToolsCountAgainstTheAPILimits(t *testing.T) {
	t.Parallel()
	w := newWorld(t, func(c *api.Config) {
		c.Limits = ratelimit.Limits{Global: 1000, Write: 3, Deploy: 10, Verify: 10, IR: 100}
	})
	s := w.connect(w.a.key("read", "write")) // the key's creation is the user's first write
	s.ok("create_workflow", map[string]any{"name": "One"})
	s.ok("create_workflow", map[string]any{"name": "Two"})
	s.fails("create_workflow", map[string]any{"name": "Three"}, "rate_limited", "HTTP 429", "rate limit exceeded: 3 requests per minute")
	if l := s.ok("list_workflows", nil); len(l["data"].([]any)) != 2 {
		t.Fatalf("list_workflows: %v", l)
	}
	testenv.WaitFor(t, 30*time.Second, 50*time.Millisecond, "the audit log to hold two creates and one refusal", func() (bool, string) {
		r := w.must(200, "GET", "/api/audit?action=workflow.create", "", w.a.session())
		entries := r.json(t)["data"].([]any)
		outcomes := map[float64]int{}
		for _, e := range entries {
			outcomes[e.(map[string]any)["outcome"].(float64)]++
		}
		return outcomes[201] == 2 && outcomes[429] == 1, fmt.Sprint(outcomes)
	})
}

// TestMCPRequestsAreStreams: a request of the MCP endpoint counts against
// the caller's open streams while it lasts, as the API's streams do: with a
// session's GET stream open, a key allowed one stream gets 429 for its next
// request until the stream ends; the twin: then it is served.
func TestMCPRequestsAreStreams(t *testing.T) {
	t.Parallel()
	w := newWorld(t, func(c *api.Config) { c.Streams = ratelimit.StreamLimits{User: 32, Key: 1, Address: 64, Total: 100} })
	key := w.a.key("read")
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	h := bearer(key)
	h["Mcp-Session-Id"] = w.must(200, "POST", "/api/mcp", initialize, h).header.Get("Mcp-Session-Id")
	h["Mcp-Protocol-Version"] = "2025-06-18"
	w.must(202, "POST", "/api/mcp", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, h)

	req, err := newRequest("GET", w.url+"/api/mcp", h)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	res, err := httpClient.Do(req)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("GET /api/mcp: %v %v", err, res)
	}
	r := w.do("POST", "/api/mcp", `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, h)
	if r.status != 429 || !strings.Contains(string(r.body), "at most 1 per API key") {
		t.Fatalf("a request beside the open stream: %d %s", r.status, r.body)
	}
	res.Body.Close()
	// The stream's slot is released when its request ends on the server.
	testenv.WaitFor(t, 30*time.Second, 50*time.Millisecond, "the stream's slot to be released", func() (bool, string) {
		r = w.do("POST", "/api/mcp", `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`, h)
		return r.status == 200, fmt.Sprintf("%d %s", r.status, r.body)
	})
	sc := bufio.NewScanner(strings.NewReader(string(r.body)))
	sc.Buffer(nil, 1<<20)
	found := false
	for sc.Scan() {
		found = found || strings.Contains(sc.Text(), `"list_workflows"`)
	}
	if !found {
		t.Fatalf("tools/list: %s", r.body)
	}
}
