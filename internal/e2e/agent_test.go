package e2e_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// llmStub is an OpenAI-compatible chat completions server written for the
// tests, with the APIs the agent's tools call. It scripts one conversation
// (a tool call, a second tool call through a sub-workflow that needs an
// approval, a final structured answer), records every request it receives
// and counts them, so that a test can tell that no model call and no tool
// call ran twice.
type llmStub struct {
	t   *testing.T
	key string

	mu        sync.Mutex
	turns     map[int][]json.RawMessage // turn number -> the bodies received
	failTurn3 int                       // how many more requests of turn 3 answer 500
	lookups   []string                  // raw paths of the lookup tool's requests
	refunds   []string                  // bodies of the refund workflow's requests
	badAuth   int
}

func newLLMStub(t *testing.T, key string) (*llmStub, string) {
	st := &llmStub{t: t, key: key, turns: map[int][]json.RawMessage{}}
	ln, err := net.Listen("tcp", allowedHost+":0")
	if err != nil {
		t.Fatalf("listen on %s: %v", allowedHost, err)
	}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.HandlerFunc(st.serve)}}
	srv.Start()
	t.Cleanup(srv.Close)
	return st, srv.URL
}

func (st *llmStub) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	st.mu.Lock()
	defer st.mu.Unlock()
	switch {
	case r.Method == "POST" && r.URL.Path == "/v1/chat/completions":
		if r.Header.Get("Authorization") != "Bearer "+st.key {
			st.badAuth++
			http.Error(w, `{"error":"bad key"}`, http.StatusUnauthorized)
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
		answer := func(message string, in int) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"id":"c%d","object":"chat.completion","choices":[{"index":0,"message":%s,"finish_reason":"stop"}],"usage":{"prompt_tokens":%d,"completion_tokens":5}}`, turn, message, in)
		}
		switch turn {
		case 1:
			answer(`{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"lookup","arguments":"{\"id\":\"c 1\"}"}}]}`, 10)
		case 2:
			answer(`{"role":"assistant","content":"Refunding.","tool_calls":[{"id":"call_2","type":"function","function":{"name":"refund","arguments":"{\"amount\":5}"}}]}`, 20)
		case 3:
			if st.failTurn3 > 0 {
				st.failTurn3--
				http.Error(w, `{"error":"overloaded, key `+st.key+`"}`, http.StatusServiceUnavailable)
				return
			}
			answer(`{"role":"assistant","content":"{\"queue\":\"billing\"}"}`, 30)
		default:
			http.Error(w, "no such turn", 400)
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

// counts is the number of requests of each turn, lookups and refunds.
func (st *llmStub) counts() string {
	st.mu.Lock()
	defer st.mu.Unlock()
	return fmt.Sprintf("turns %d/%d/%d lookups %d refunds %d badAuth %d", len(st.turns[1]), len(st.turns[2]), len(st.turns[3]),
		len(st.lookups), len(st.refunds), st.badAuth)
}

func (st *llmStub) turn(n, k int) json.RawMessage {
	st.mu.Lock()
	defer st.mu.Unlock()
	if k >= len(st.turns[n]) {
		st.t.Fatalf("turn %d has %d requests, not %d", n, len(st.turns[n]), k+1)
	}
	return st.turns[n][k]
}

// TestAgentDurable runs an agent node on the real local edge against an
// OpenAI-compatible stub: a tool call (http), an approval, a second tool
// call through a sub-workflow, a model call made to fail (retried once,
// then the run errors), a restart from the agent node, and a final answer
// matching the output schema. The stub checks the exact requests and, by
// its counts, that no model call and no tool call that succeeded ran
// again, through the approval's replay, the retry and the restart. The
// provider key appears in no run record, step output or log line.
//
// Not parallel: a step in progress when the shared edge's workerd
// restarts (other tests' deploys restart it) executes again, and this
// test's counts are exact.
func TestAgentDurable(t *testing.T) {
	t.Parallel()
	requireEdge(t)
	s := newServer(t, serverOptions{})
	key := "sk-test-" + randomHex(t)
	stub, base := newLLMStub(t, key)

	child, _ := s.workflow("Refund", "workflow", chain("Refund",
		step("pay", `const r = await fetch('`+base+`/refunds', { method: 'POST', body: JSON.stringify(event.payload) });
return await r.json();`)))
	s.deploy(child)

	agent := node("triage", "agent", "Triage", map[string]any{
		"provider": "openai", "model": "stub-model", "baseUrl": base + "/v1", "apiKey": "{{env.LLM_KEY}}",
		"system": "You are support.", "prompt": "Customer {{load.id}} asks for a refund of 5.",
		"tools": []any{
			map[string]any{"name": "lookup", "http": map[string]any{"url": base + "/customers/{id}", "description": "Finds a customer"}},
			map[string]any{"name": "refund", "workflow": child, "description": "Refunds an amount",
				"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"amount": map[string]any{"type": "number"}}, "required": []any{"amount"}}},
		},
		"approval": []any{"refund"},
		"output":   map[string]any{"type": "object", "properties": map[string]any{"queue": map[string]any{"enum": []any{"billing", "tech"}}}, "required": []any{"queue"}},
	})
	agent["config"] = map[string]any{"retries": map[string]any{"limit": 1, "delay": "1 second", "backoff": "constant"}}
	wf, _ := s.workflow("Support", "workflow", chain("Support", step("load", "return { id: event.payload.customer };"), agent))
	s.must(200, "PATCH", "/api/workflows/"+wf, map[string]any{"envVars": []map[string]any{{"name": "LLM_KEY", "value": key, "isSecret": true}}})
	s.deploy(wf)

	id := s.trigger(wf, map[string]any{"customer": "c 1"})
	waiting := s.waitRun(wf, id, 90*time.Second, "waiting for the approval", func(r run) bool {
		return r.Status == "paused" && r.StatusDetail == "waiting"
	})
	var names []string
	for _, st := range waiting.Steps {
		if st.NodeID == "triage" {
			names = append(names, st.Name)
		}
	}
	if got := strings.Join(names, ", "); got != "agent Triage turn 1, agent Triage tool lookup 1, agent Triage turn 2, agent Triage approval 2" {
		t.Fatalf("the agent's steps while waiting: %s", got)
	}
	if got := stub.counts(); got != "turns 1/1/0 lookups 1 refunds 0 badAuth 0" {
		t.Fatalf("before the approval: %s", got)
	}
	// The exact first request: the system prompt, the prompt with its
	// expression, and both tools with their schemas.
	jsonEqual(t, stub.turn(1, 0), `{"model":"stub-model","messages":[
		{"role":"system","content":"You are support."},{"role":"user","content":"Customer c 1 asks for a refund of 5."}],
		"tools":[{"type":"function","function":{"name":"lookup","description":"Finds a customer","parameters":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}}},
		{"type":"function","function":{"name":"refund","description":"Refunds an amount","parameters":{"type":"object","properties":{"amount":{"type":"number"}},"required":["amount"]}}}]}`)
	// The second carries the first tool call and its result.
	var second struct {
		Messages []json.RawMessage `json:"messages"`
	}
	json.Unmarshal(stub.turn(2, 0), &second)
	if len(second.Messages) != 4 {
		t.Fatalf("turn 2 messages: %s", stub.turn(2, 0))
	}
	jsonEqual(t, second.Messages[2], `{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"lookup","arguments":"{\"id\":\"c 1\"}"}}]}`)
	jsonEqual(t, second.Messages[3], `{"role":"tool","tool_call_id":"call_1","content":"{\"status\":200,\"body\":{\"name\":\"Ann\",\"plan\":\"pro\"}}"}`)
	if stub.lookups[0] != "/customers/c%201" {
		t.Errorf("the lookup tool requested %s, want the id percent-encoded", stub.lookups[0])
	}

	// Approve; the model call after the sub-workflow fails twice (the
	// attempt and its retry), so the run errors.
	stub.mu.Lock()
	stub.failTurn3 = 2
	stub.mu.Unlock()
	s.must(202, "POST", "/api/workflows/"+wf+"/trigger", map[string]any{"connectionId": s.conn,
		"params": map[string]any{"instanceId": id, "eventType": "approve-call_2", "payload": map[string]any{"approved": true, "note": "ok"}}})
	failed := s.waitStatus(wf, id, "errored", 120*time.Second)
	if !strings.Contains(failed.Error, "HTTP 503") || strings.Contains(failed.Error, key) {
		t.Fatalf("the failed run's error: %q", failed.Error)
	}
	// The run's usage: its two model calls that succeeded (10+20 in, 5+5 out).
	jsonEqual(t, failed.Usage, `{"inputTokens":30,"outputTokens":10}`)
	if got := stub.counts(); got != "turns 1/1/2 lookups 1 refunds 1 badAuth 0" {
		t.Fatalf("after the failure: %s (no model call or tool call that succeeded may run again)", got)
	}
	var third struct {
		Messages []json.RawMessage `json:"messages"`
	}
	json.Unmarshal(stub.turn(3, 0), &third)
	if len(third.Messages) != 6 {
		t.Fatalf("turn 3 messages: %s", stub.turn(3, 0))
	}
	jsonEqual(t, third.Messages[5], `{"role":"tool","tool_call_id":"call_2","content":"{\"refunded\":5}"}`)

	// Restart from the agent: its model calls, tool calls and approval
	// that succeeded are taken from the run; only turn 3 is asked again.
	restarted := s.must(201, "POST", "/api/workflows/"+wf+"/runs/"+id+"/restart", map[string]any{"fromStep": "triage"}).str("id")
	done := s.waitStatus(wf, restarted, "complete", 90*time.Second)
	if got := stub.counts(); got != "turns 1/1/3 lookups 1 refunds 1 badAuth 0" {
		t.Fatalf("after the restart: %s", got)
	}
	jsonEqual(t, done.Output, `{"answer":{"queue":"billing"},"turns":3,
		"toolCalls":[{"name":"lookup","input":{"id":"c 1"},"output":{"status":200,"body":{"name":"Ann","plan":"pro"}}},
		{"name":"refund","input":{"amount":5},"output":{"refunded":5}}],
		"usage":{"inputTokens":60,"outputTokens":15}}`)
	// The restarted run's usage counts only the model call it made (turn
	// 3); the node's value counts the whole conversation.
	jsonEqual(t, done.Usage, `{"inputTokens":30,"outputTokens":5}`)
	// Summed per workflow over the run search's filters, and carried by
	// the list.
	usage := s.must(200, "GET", "/api/runs/usage?workflowId="+wf, nil)
	jsonEqual(t, usage.body, `{"inputTokens":60,"outputTokens":15,"runs":2,"partial":false,
		"workflows":[{"workflowId":"`+wf+`","workflowName":"Support","inputTokens":60,"outputTokens":15,"runs":2}]}`)
	usage = s.must(200, "GET", "/api/runs/usage?status=complete&workflowId="+wf, nil)
	jsonEqual(t, usage.body, `{"inputTokens":30,"outputTokens":5,"runs":1,"partial":false,
		"workflows":[{"workflowId":"`+wf+`","workflowName":"Support","inputTokens":30,"outputTokens":5,"runs":1}]}`)
	u := newCLIUser(t)
	if code, out, errOut := u.run(s.key+"\n", nil, "login", "--url", s.url+"/api", "--api-key-stdin"); code != 0 {
		t.Fatalf("login: exit %d\n%s%s", code, out, errOut)
	}
	table := u.must(0, "runs", "usage", "--workflow", wf)
	if !regexp.MustCompile(`(?m)^Support\s+2\s+60\s+15\s*$`).MatchString(table) || !regexp.MustCompile(`(?m)^total\s+2\s+60\s+15\s*$`).MatchString(table) {
		t.Fatalf("edgeflow runs usage:\n%s", table)
	}
	if out := u.must(0, "runs", "usage", "--status", "terminated"); !strings.Contains(out, "No run with model calls matches.") {
		t.Fatalf("edgeflow runs usage --status terminated:\n%s", out)
	}
	var listed struct {
		Data []struct {
			ID    string
			Usage json.RawMessage
		}
	}
	s.must(200, "GET", "/api/runs?workflowId="+wf+"&status=errored", nil).into(&listed)
	if len(listed.Data) != 1 || listed.Data[0].ID != id {
		t.Fatalf("the errored runs: %+v", listed.Data)
	}
	jsonEqual(t, listed.Data[0].Usage, `{"inputTokens":30,"outputTokens":10}`)

	// The key is in no run record, step output or log line.
	for _, runID := range []string{id, restarted} {
		for _, path := range []string{"/api/workflows/" + wf + "/runs/" + runID, "/api/workflows/" + wf + "/runs/" + runID + "/logs"} {
			if r := s.must(200, "GET", path, nil); strings.Contains(string(r.body), key) {
				t.Errorf("%s holds the provider key: %s", path, r.body)
			}
		}
	}
}
