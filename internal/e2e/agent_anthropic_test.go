package e2e_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// anthropicStub is a server shaped as Anthropic's Messages API, written for
// the tests, with the APIs the agent's tools call. It scripts one
// conversation (a tool call, a second tool call through a sub-workflow that
// needs an approval, an answer that misses the output schema, then one that
// matches), records the headers and bodies it receives, and counts them.
type anthropicStub struct {
	t   *testing.T
	key string

	mu      sync.Mutex
	turns   map[int][]json.RawMessage // turn number -> the bodies received
	headers []http.Header             // of every model request, in order
	lookups []string
	refunds []string
}

func newAnthropicStub(t *testing.T, key string) (*anthropicStub, string) {
	st := &anthropicStub{t: t, key: key, turns: map[int][]json.RawMessage{}}
	ln, err := net.Listen("tcp", allowedHost+":0")
	if err != nil {
		t.Fatalf("listen on %s: %v", allowedHost, err)
	}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.HandlerFunc(st.serve)}}
	srv.Start()
	t.Cleanup(srv.Close)
	return st, srv.URL
}

func (st *anthropicStub) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	st.mu.Lock()
	defer st.mu.Unlock()
	switch {
	case r.Method == "POST" && r.URL.Path == "/v1/messages":
		st.headers = append(st.headers, r.Header.Clone())
		if r.Header.Get("x-api-key") != st.key || r.Header.Get("anthropic-version") != "2023-06-01" {
			w.WriteHeader(401)
			fmt.Fprint(w, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`)
			return
		}
		var req struct {
			Messages []struct {
				Role string `json:"role"`
			} `json:"messages"`
		}
		json.Unmarshal(body, &req)
		turn := 1
		for _, m := range req.Messages {
			if m.Role == "assistant" {
				turn++
			}
		}
		st.turns[turn] = append(st.turns[turn], body)
		answer := func(content string, in int) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"id":"msg_%d","type":"message","role":"assistant","model":"claude-stub","content":%s,"stop_reason":"end_turn","usage":{"input_tokens":%d,"output_tokens":7}}`, turn, content, in)
		}
		switch turn {
		case 1:
			answer(`[{"type":"text","text":"Looking the customer up."},{"type":"tool_use","id":"toolu_1","name":"lookup","input":{"id":"c 1"}}]`, 11)
		case 2:
			answer(`[{"type":"tool_use","id":"toolu_2","name":"refund","input":{"amount":5}}]`, 21)
		case 3:
			answer(`[{"type":"text","text":"{\"queue\":\"sales\"}"}]`, 31)
		case 4:
			answer(`[{"type":"text","text":"{\"queue\":\"billing\"}"}]`, 41)
		default:
			w.WriteHeader(400)
			fmt.Fprint(w, `{"type":"error","error":{"type":"invalid_request_error","message":"no such turn"}}`)
		}
	case r.Method == "GET" && strings.HasPrefix(r.URL.Path, "/customers/"):
		st.lookups = append(st.lookups, r.URL.EscapedPath())
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"name":"Ann","plan":"pro"}`)
	case r.Method == "POST" && r.URL.Path == "/refunds":
		st.refunds = append(st.refunds, string(body))
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"refunded":5}`)
	default:
		http.Error(w, "not found", 404)
	}
}

func (st *anthropicStub) counts() string {
	st.mu.Lock()
	defer st.mu.Unlock()
	return fmt.Sprintf("turns %d/%d/%d/%d lookups %d refunds %d", len(st.turns[1]), len(st.turns[2]), len(st.turns[3]), len(st.turns[4]),
		len(st.lookups), len(st.refunds))
}

// messages is the messages array of the k-th request of turn n.
func (st *anthropicStub) messages(n, k int) []json.RawMessage {
	st.mu.Lock()
	defer st.mu.Unlock()
	if k >= len(st.turns[n]) {
		st.t.Fatalf("turn %d has %d requests, not %d", n, len(st.turns[n]), k+1)
	}
	var req struct {
		Messages []json.RawMessage `json:"messages"`
	}
	json.Unmarshal(st.turns[n][k], &req)
	return req.Messages
}

// TestAgentAnthropic runs an agent node with the anthropic provider on the
// real local edge against a Messages-API-shaped stub: a tool call (http), a
// second through a sub-workflow that waits for an approval, an answer that
// misses the output schema (one more turn with the validator's message),
// and a matching answer. The stub checks the exact headers (x-api-key,
// anthropic-version, content-type) and bodies, and by its counts that each
// model call and tool call ran once. The key is in no run record or log.
//
// Not parallel, as TestAgentDurable: its counts are exact.
func TestAgentAnthropic(t *testing.T) {
	t.Parallel()
	requireEdge(t)
	s := newServer(t, serverOptions{})
	key := "sk-ant-test-" + randomHex(t)
	stub, base := newAnthropicStub(t, key)

	child, _ := s.workflow("Refund", "workflow", chain("Refund",
		step("pay", `const r = await fetch('`+base+`/refunds', { method: 'POST', body: JSON.stringify(event.payload) });
return await r.json();`)))
	s.deploy(child)

	agent := node("triage", "agent", "Triage", map[string]any{
		"provider": "anthropic", "model": "claude-stub", "baseUrl": base, "apiKey": "{{env.ANTHROPIC_KEY}}", "maxTokens": 512,
		"system": "You are support.", "prompt": "Customer {{load.id}} asks for a refund of 5.",
		"tools": []any{
			map[string]any{"name": "lookup", "http": map[string]any{"url": base + "/customers/{id}", "description": "Finds a customer"}},
			map[string]any{"name": "refund", "workflow": child, "description": "Refunds an amount",
				"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"amount": map[string]any{"type": "number"}}, "required": []any{"amount"}}},
		},
		"approval": []any{"refund"},
		"output":   map[string]any{"type": "object", "properties": map[string]any{"queue": map[string]any{"enum": []any{"billing", "tech"}}}, "required": []any{"queue"}},
	})
	wf, _ := s.workflow("Support", "workflow", chain("Support", step("load", "return { id: event.payload.customer };"), agent))
	s.must(200, "PATCH", "/api/workflows/"+wf, map[string]any{"envVars": []map[string]any{{"name": "ANTHROPIC_KEY", "value": key, "isSecret": true}}})
	s.deploy(wf)

	id := s.trigger(wf, map[string]any{"customer": "c 1"})
	s.waitRun(wf, id, 90*time.Second, "waiting for the approval", func(r run) bool {
		return r.Status == "paused" && r.StatusDetail == "waiting"
	})
	if got := stub.counts(); got != "turns 1/1/0/0 lookups 1 refunds 0" {
		t.Fatalf("before the approval: %s", got)
	}
	// The exact first request: headers, then the body with the system
	// prompt apart, the prompt with its expression and both tools.
	stub.mu.Lock()
	h := stub.headers[0]
	first := stub.turns[1][0]
	stub.mu.Unlock()
	if h.Get("x-api-key") != key || h.Get("anthropic-version") != "2023-06-01" || h.Get("content-type") != "application/json" || h.Get("authorization") != "" {
		t.Errorf("the first request's headers: %v", h)
	}
	jsonEqual(t, first, `{"model":"claude-stub","max_tokens":512,"system":"You are support.",
		"messages":[{"role":"user","content":"Customer c 1 asks for a refund of 5."}],
		"tools":[{"name":"lookup","description":"Finds a customer","input_schema":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}},
		{"name":"refund","description":"Refunds an amount","input_schema":{"type":"object","properties":{"amount":{"type":"number"}},"required":["amount"]}}]}`)
	second := stub.messages(2, 0)
	if len(second) != 3 {
		t.Fatalf("turn 2 messages: %s", second)
	}
	jsonEqual(t, second[1], `{"role":"assistant","content":[{"type":"text","text":"Looking the customer up."},{"type":"tool_use","id":"toolu_1","name":"lookup","input":{"id":"c 1"}}]}`)
	jsonEqual(t, second[2], `{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"{\"status\":200,\"body\":{\"name\":\"Ann\",\"plan\":\"pro\"}}"}]}`)

	s.must(202, "POST", "/api/workflows/"+wf+"/trigger", map[string]any{"connectionId": s.conn,
		"params": map[string]any{"instanceId": id, "eventType": "approve-toolu_2", "payload": map[string]any{"approved": true}}})
	done := s.waitStatus(wf, id, "complete", 120*time.Second)
	if got := stub.counts(); got != "turns 1/1/1/1 lookups 1 refunds 1" {
		t.Fatalf("after the run: %s (each model call and tool call runs once)", got)
	}
	third := stub.messages(3, 0)
	if len(third) != 5 {
		t.Fatalf("turn 3 messages: %s", third)
	}
	jsonEqual(t, third[3], `{"role":"assistant","content":[{"type":"tool_use","id":"toolu_2","name":"refund","input":{"amount":5}}]}`)
	jsonEqual(t, third[4], `{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_2","content":"{\"refunded\":5}"}]}`)
	// The answer that missed the schema is followed by the validator's
	// message, as a user turn.
	fourth := stub.messages(4, 0)
	if len(fourth) != 7 {
		t.Fatalf("turn 4 messages: %s", fourth)
	}
	jsonEqual(t, fourth[5], `{"role":"assistant","content":[{"type":"text","text":"{\"queue\":\"sales\"}"}]}`)
	var note struct {
		Role    string `json:"role"`
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	json.Unmarshal(fourth[6], &note)
	if note.Role != "user" || len(note.Content) != 1 || note.Content[0].Type != "text" ||
		!strings.HasPrefix(note.Content[0].Text, "Your answer does not match the required JSON Schema") {
		t.Errorf("turn 4's last message: %s", fourth[6])
	}
	jsonEqual(t, done.Output, `{"answer":{"queue":"billing"},"turns":4,
		"toolCalls":[{"name":"lookup","input":{"id":"c 1"},"output":{"status":200,"body":{"name":"Ann","plan":"pro"}}},
		{"name":"refund","input":{"amount":5},"output":{"refunded":5}}],
		"usage":{"inputTokens":104,"outputTokens":28}}`)
	for _, path := range []string{"/api/workflows/" + wf + "/runs/" + id, "/api/workflows/" + wf + "/runs/" + id + "/logs"} {
		if r := s.must(200, "GET", path, nil); strings.Contains(string(r.body), key) {
			t.Errorf("%s holds the provider key: %s", path, r.body)
		}
	}
}
