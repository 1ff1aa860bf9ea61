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
	"sync/atomic"
	"testing"
	"time"
)

// injectedModel is an OpenAI-compatible server that plays a model taken
// over by a prompt injection: on the first turn it calls the http tool
// "fetch" with whatever target the user message names after "Fetch ", and
// on the second it answers with the tool's output as text.
func injectedModel(t *testing.T) string {
	var mu sync.Mutex
	ln, err := net.Listen("tcp", allowedHost+":0")
	if err != nil {
		t.Fatalf("listen on %s: %v", allowedHost, err)
	}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case r.Method == "POST" && r.URL.Path == "/v1/chat/completions":
			body, _ := io.ReadAll(r.Body)
			var req struct {
				Messages []struct {
					Role    string `json:"role"`
					Content any    `json:"content"`
				} `json:"messages"`
			}
			json.Unmarshal(body, &req)
			w.Header().Set("Content-Type", "application/json")
			last := req.Messages[len(req.Messages)-1]
			if last.Role == "user" {
				target, _ := json.Marshal(map[string]string{"target": strings.TrimPrefix(fmt.Sprint(last.Content), "Fetch ")})
				args, _ := json.Marshal(string(target))
				fmt.Fprintf(w, `{"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"fetch","arguments":%s}}]}}],"usage":{"prompt_tokens":1,"completion_tokens":1}}`, args)
				return
			}
			answer, _ := json.Marshal(fmt.Sprint(last.Content))
			fmt.Fprintf(w, `{"choices":[{"message":{"role":"assistant","content":%s}}],"usage":{"prompt_tokens":1,"completion_tokens":1}}`, answer)
		case r.URL.Path == "/public":
			fmt.Fprint(w, `{"page":"public"}`)
		default:
			http.Error(w, "not found", 404)
		}
	})}}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestAttackAgentInjectedToolHost: a model answer steered by a prompt
// injection makes an http tool whose host the model chooses ({+target})
// reach a loopback service or the cloud metadata address. The edge's
// outbound guard refuses the fetch: the victim receives nothing and the run
// fails. The twin: the same tool reaching an allowed host works.
func TestAttackAgentInjectedToolHost(t *testing.T) {
	t.Parallel()
	requireEdge(t)
	s := newServer(t, serverOptions{})
	model := injectedModel(t)
	var hits atomic.Int32
	victim := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		fmt.Fprint(w, `{"secret":"internal"}`)
	}))
	t.Cleanup(victim.Close)
	if !strings.HasPrefix(victim.URL, "http://127.0.0.1:") {
		t.Fatalf("the victim listens on %s, want loopback 127.0.0.1", victim.URL)
	}

	agent := node("bot", "agent", "Bot", map[string]any{
		"provider": "openai", "model": "m", "baseUrl": model + "/v1", "prompt": "Fetch {{event.payload.page}}",
		"tools": []any{map[string]any{"name": "fetch", "http": map[string]any{"url": "{+target}", "description": "Fetches a page"}}},
	})
	agent["config"] = map[string]any{"retries": map[string]any{"limit": 0, "delay": "1 second", "backoff": "constant"}}
	wf, _ := s.workflow("Reader", "workflow", chain("Reader", agent))
	s.deploy(wf)

	for _, target := range []string{victim.URL + "/admin", "http://169.254.169.254/latest/meta-data/"} {
		id := s.trigger(wf, map[string]any{"page": target})
		failed := s.waitStatus(wf, id, "errored", 90*time.Second)
		if !strings.Contains(failed.Error, "edgeflow refused the request") || strings.Contains(failed.Error, "internal") {
			t.Errorf("%s: the run's error: %q", target, failed.Error)
		}
		t.Logf("%s refused: %s", target, failed.Error)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the loopback victim received %d requests through the agent's tool", n)
	}

	// The twin: an allowed host is reached, and its answer is the tool's output.
	id := s.trigger(wf, map[string]any{"page": model + "/public"})
	done := s.waitStatus(wf, id, "complete", 90*time.Second)
	var out struct {
		Answer    string `json:"answer"`
		ToolCalls []struct {
			Output any `json:"output"`
		} `json:"toolCalls"`
	}
	if err := json.Unmarshal(done.Output, &out); err != nil || len(out.ToolCalls) != 1 {
		t.Fatalf("the allowed fetch's output: %s (%v)", done.Output, err)
	}
	jsonEqual(t, mustJSON(t, out.ToolCalls[0].Output), `{"status":200,"body":{"page":"public"}}`)
}

func mustJSON(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestAgentWorkersAILocal: an agent of the workers-ai provider deploys to
// the local edge (its AI binding accepted, as Cloudflare's upload carries
// it) and its step fails with a message saying it needs a Cloudflare
// account, as wrangler's local mode without one has no AI.
func TestAgentWorkersAILocal(t *testing.T) {
	t.Parallel()
	requireEdge(t)
	s := newServer(t, serverOptions{})
	agent := node("bot", "agent", "Bot", map[string]any{"provider": "workers-ai", "model": "@cf/meta/llama-3.1-8b-instruct", "prompt": "hi"})
	agent["config"] = map[string]any{"retries": map[string]any{"limit": 0, "delay": "1 second", "backoff": "constant"}}
	wf, _ := s.workflow("Local AI", "workflow", chain("Local AI", agent))
	s.deploy(wf)
	id := s.trigger(wf, map[string]any{})
	failed := s.waitStatus(wf, id, "errored", 90*time.Second)
	if !strings.Contains(failed.Error, "the workers-ai provider needs Cloudflare's AI binding") {
		t.Errorf("the run's error: %q", failed.Error)
	}
}
