package e2e_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edgeflow/edgeflow/internal/mcp/mcptest"
	"github.com/edgeflow/edgeflow/internal/testenv"
)

// The secrets of the MCP sessions: a step reads the workflow's secret and
// answers only its length; no tool output may hold either value.
const (
	mcpWorkflowSecret = "mcp-wf-s3cret-5521"
	mcpGlobalSecret   = "mcp-gl0bal-s3cret-8830"
)

// mcpGreeter is a workflow that greets and reads a secret without showing it.
const mcpGreeter = `{"metadata":{"name":"Greeter"},"nodes":[
 {"id":"greet","type":"step","name":"Greet","data":{"code":"console.log('greeting ' + event.payload.name);\nreturn { greeting: 'Hello, ' + event.payload.name + '!' };"}},
 {"id":"check","type":"step","name":"Check the key","data":{"code":"return { greeting: {{greet.greeting}}, keyLength: String({{env.API_KEY}}).length };"}}],
 "edges":[{"id":"e1","source":"greet","target":"check"}],"entryNodeId":"greet"}`

// mcpHello greets, and logs who it greets.
const mcpHello = `{"metadata":{"name":"Hello"},"nodes":[
 {"id":"greet","type":"step","name":"Greet","data":{"code":"console.log('greeting ' + event.payload.name);\nreturn { greeting: 'Hello, ' + event.payload.name + '!' };"}}],
 "edges":[],"entryNodeId":"greet"}`

// mcpKey adds the API key to the MCP client's requests.
type mcpKey struct{ key string }

func (k mcpKey) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+k.key)
	return http.DefaultTransport.RoundTrip(r)
}

// mcpClient is the Go SDK's client on the server's MCP endpoint; texts
// collects every text and structured content it received.
type mcpClient struct {
	t     *testing.T
	cs    *sdk.ClientSession
	texts []string
}

func (s *server) mcp(t *testing.T) *mcpClient {
	t.Helper()
	client := sdk.NewClient(&sdk.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: s.url + "/api/mcp",
		HTTPClient: &http.Client{Transport: mcpKey{s.key}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return &mcpClient{t: t, cs: cs}
}

// call calls a tool that has to succeed (or, with fail, to fail) and
// answers its structured content (or its text).
func (c *mcpClient) call(name string, args map[string]any, fail bool) (map[string]any, string) {
	c.t.Helper()
	res, err := c.cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		c.t.Fatalf("%s: %v", name, err)
	}
	var text []string
	for _, content := range res.Content {
		if tc, ok := content.(*sdk.TextContent); ok {
			text = append(text, tc.Text)
		}
	}
	raw, _ := json.Marshal(res.StructuredContent)
	c.texts = append(c.texts, strings.Join(text, "\n"), string(raw))
	if res.IsError != fail {
		c.t.Fatalf("%s: isError %v: %s", name, res.IsError, strings.Join(text, "\n"))
	}
	var m map[string]any
	json.Unmarshal(raw, &m)
	return m, strings.Join(text, "\n")
}

func (c *mcpClient) ok(name string, args map[string]any) map[string]any {
	c.t.Helper()
	m, _ := c.call(name, args, false)
	return m
}

// TestMCPSessionToCompletedRun: an assistant with the Go SDK's client goes
// from nothing to completed runs by tools alone, on the real local edge:
// it creates a workflow, validates and submits its IR, finds the
// connection, deploys (the stages), triggers and waits for the run, reads
// its steps and logs, searches runs, restarts a run from a step, and runs
// the approval example up to its wait for an event, sends the event and
// sees it complete. No tool output holds a secret.
func TestMCPSessionToCompletedRun(t *testing.T) {
	t.Parallel()
	requireEdge(t)
	s := newServer(t, serverOptions{})
	s.must(201, "POST", "/api/env-vars", map[string]any{"name": "SHOP_TOKEN", "value": mcpGlobalSecret, "isSecret": true})
	c := s.mcp(t)

	conns := c.ok("list_connections", nil)["data"].([]any)
	var conn string
	for _, x := range conns {
		if x := x.(map[string]any); x["provider"] == "local" {
			conn = x["id"].(string)
		}
	}
	if conn != s.conn {
		t.Fatalf("list_connections: %v", conns)
	}
	wf := c.ok("create_workflow", map[string]any{"name": "Greeter"})["id"].(string)
	s.must(200, "PATCH", "/api/workflows/"+wf, map[string]any{"envVars": []map[string]any{{"name": "API_KEY", "value": mcpWorkflowSecret, "isSecret": true}}})
	if v := c.ok("validate_ir", map[string]any{"ir": json.RawMessage(mcpGreeter), "workflowId": wf}); v["valid"] != true {
		t.Fatalf("validate_ir: %v", v)
	}
	c.ok("submit_version", map[string]any{"workflowId": wf, "ir": json.RawMessage(mcpGreeter)})

	dep := c.ok("deploy", map[string]any{"workflowId": wf, "connectionId": conn})
	var stages []string
	for _, st := range dep["stages"].([]any) {
		stages = append(stages, st.(map[string]any)["stage"].(string))
	}
	if len(stages) < 5 || stages[0] != "INITIALIZING" || stages[len(stages)-1] != "COMPLETED" {
		t.Fatalf("deploy stages %v", stages)
	}
	if d := dep["deployment"].(map[string]any); d["status"] != "active" || d["workflowId"] != wf {
		t.Fatalf("deployment %v", d)
	}

	// trigger with wait answers the run when it ended; the connection is
	// the active deployment's when not named.
	tr := c.ok("trigger", map[string]any{"workflowId": wf, "params": map[string]any{"name": "Ada"}, "wait": 120})
	run := tr["run"].(map[string]any)
	if tr["ended"] != true || run["status"] != "complete" {
		t.Fatalf("trigger: %v", tr)
	}
	out, _ := json.Marshal(run["output"])
	jsonEqual(t, out, `{"greeting":"Hello, Ada!","keyLength":18}`)
	runID := run["id"].(string)

	got := c.ok("get_run", map[string]any{"runId": runID})
	steps := got["run"].(map[string]any)["steps"].([]any)
	if len(steps) != 2 || steps[0].(map[string]any)["nodeId"] != "greet" || steps[1].(map[string]any)["output"] == nil {
		t.Fatalf("get_run steps: %v", steps)
	}
	logs := got["logs"].(map[string]any)
	if raw, _ := json.Marshal(logs["data"]); !strings.Contains(string(raw), "greeting Ada") {
		t.Fatalf("get_run logs: %v", logs)
	}
	if l := c.ok("list_runs", map[string]any{"workflowId": wf, "status": "complete"}); len(l["data"].([]any)) != 1 {
		t.Fatalf("list_runs: %v", l)
	}
	re := c.ok("restart_run", map[string]any{"runId": runID, "fromStep": "check", "wait": 120})
	if re["ended"] != true || re["run"].(map[string]any)["status"] != "complete" || re["run"].(map[string]any)["restartOf"] != runID {
		t.Fatalf("restart_run: %v", re)
	}

	// The approval example: the wait ends when the run waits for its event;
	// send_event delivers it and the run completes.
	var approval json.RawMessage
	if b, err := os.ReadFile(filepath.Join("..", "..", "examples", "approval.json")); err == nil {
		approval = b
	} else {
		t.Fatal(err)
	}
	awf := c.ok("create_workflow", map[string]any{"name": "Approval"})["id"].(string)
	c.ok("submit_version", map[string]any{"workflowId": awf, "ir": approval})
	c.ok("deploy", map[string]any{"workflowId": awf, "connectionId": conn})
	waiting := c.ok("trigger", map[string]any{"workflowId": awf, "params": map[string]any{"item": "laptop for Ada", "amount": 1200, "timeout": "10 minutes"}, "wait": 120})
	arun := waiting["run"].(map[string]any)
	if waiting["ended"] != false || arun["status"] == "complete" {
		t.Fatalf("the approval run did not wait: %v", waiting)
	}
	if _, text := c.call("get_run", map[string]any{"runId": arun["id"]}, false); !strings.Contains(text, "waiting for an event") {
		t.Fatalf("get_run of the waiting run: %s", text)
	}
	c.ok("send_event", map[string]any{"runId": arun["id"], "eventType": "approval", "payload": map[string]any{"approved": true, "by": "Grace"}})
	var done map[string]any
	testenv.WaitFor(t, 90*time.Second, 200*time.Millisecond, "the approval run to complete after the event", func() (bool, string) {
		done = c.ok("get_run", map[string]any{"runId": arun["id"]})["run"].(map[string]any)
		return done["status"] == "complete", fmt.Sprint(done)
	})
	out, _ = json.Marshal(done["output"])
	jsonEqual(t, out, `{"item":"laptop for Ada","amount":1200,"decision":"approved","by":"Grace","comment":"","arm":"approved"}`)

	// send_event_by_type wakes every run of the workflow waiting for the
	// type: a second approval run completes with the event's payload.
	second := c.ok("trigger", map[string]any{"workflowId": awf, "params": map[string]any{"item": "desk", "amount": 300, "timeout": "10 minutes"}, "wait": 120})
	srun := second["run"].(map[string]any)
	if second["ended"] != false {
		t.Fatalf("the second approval run did not wait: %v", second)
	}
	sent := c.ok("send_event_by_type", map[string]any{"eventType": "approval", "workflowId": awf, "payload": map[string]any{"approved": false, "by": "Linus"}})
	if runs, _ := sent["runs"].([]any); len(runs) != 1 || runs[0].(map[string]any)["runId"] != srun["id"] || runs[0].(map[string]any)["state"] != "delivered" {
		t.Fatalf("send_event_by_type answered %v, want the second run delivered", sent)
	}
	testenv.WaitFor(t, 90*time.Second, 200*time.Millisecond, "the second approval run to complete after the event by type", func() (bool, string) {
		done = c.ok("get_run", map[string]any{"runId": srun["id"]})["run"].(map[string]any)
		return done["status"] == "complete", fmt.Sprint(done)
	})
	if out, _ := done["output"].(map[string]any); out["by"] != "Linus" || out["decision"] != "rejected" {
		t.Fatalf("the second run's output %v, want Linus's rejection", done["output"])
	}

	for _, text := range c.texts {
		if strings.Contains(text, mcpWorkflowSecret) || strings.Contains(text, mcpGlobalSecret) {
			t.Fatalf("a tool output holds a secret: %s", text)
		}
	}
}

// TestMCPTypeScriptClient: the official TypeScript SDK's client, over
// Streamable HTTP and over stdio (`edgeflow mcp` with EDGEFLOW_URL and
// EDGEFLOW_API_KEY), goes from create_workflow to a completed run on the
// real local edge; every structured result fits its tool's output schema
// (the client checks), and no output holds a secret.
func TestMCPTypeScriptClient(t *testing.T) {
	t.Parallel()
	requireEdge(t)
	s := newServer(t, serverOptions{})
	s.must(201, "POST", "/api/env-vars", map[string]any{"name": "SHOP_TOKEN", "value": mcpGlobalSecret, "isSecret": true})
	calls := func(name string) []mcptest.Call {
		return []mcptest.Call{
			{Tool: "create_workflow", Args: map[string]any{"name": name}},
			{Tool: "submit_version", Args: map[string]any{"workflowId": "${0.id}", "ir": json.RawMessage(mcpHello)}},
			{Tool: "list_connections"},
			{Tool: "deploy", Args: map[string]any{"workflowId": "${0.id}", "connectionId": "${2.data.0.id}"}},
			{Tool: "trigger", Args: map[string]any{"workflowId": "${0.id}", "params": map[string]any{"name": "Grace"}, "wait": 120}},
			{Tool: "get_run", Args: map[string]any{"runId": "${4.run.id}"}},
			{Tool: "get_workflow", Args: map[string]any{"workflowId": "wf_doesnotexist"}},
		}
	}
	check := func(transport string, r mcptest.Report) {
		t.Helper()
		for i, res := range r.Results {
			if res.ProtocolError != "" || res.IsError != (i == 6) {
				t.Fatalf("%s: call %d (%s): %+v", transport, i, res.Tool, res)
			}
			raw, _ := json.Marshal(res)
			if strings.Contains(string(raw), mcpGlobalSecret) {
				t.Fatalf("%s: %s holds a secret: %s", transport, res.Tool, raw)
			}
		}
		run := r.Results[4].Structured["run"].(map[string]any)
		if r.Results[4].Structured["ended"] != true || run["status"] != "complete" {
			t.Fatalf("%s: trigger: %v", transport, r.Results[4].Structured)
		}
		out, _ := json.Marshal(run["output"])
		jsonEqual(t, out, `{"greeting":"Hello, Grace!"}`)
		if !strings.Contains(r.Results[6].Text, "not_found") {
			t.Fatalf("%s: get_workflow of an unknown id: %s", transport, r.Results[6].Text)
		}
	}

	check("http", mcptest.Run(t, mcptest.Plan{Transport: "http", URL: s.url + "/api/mcp", Key: s.key, Calls: calls("Over HTTP")}))

	bin := buildEdgeflow(t)
	home := t.TempDir()
	r := mcptest.Run(t, mcptest.Plan{Transport: "stdio", Command: bin, Args: []string{"mcp"}, Calls: calls("Over stdio"),
		Env: map[string]string{"EDGEFLOW_URL": s.url, "EDGEFLOW_API_KEY": s.key, "HOME": home, "XDG_CONFIG_HOME": home, "PATH": os.Getenv("PATH")}})
	check("stdio", r)
	if !slices.Contains(r.Resources, "edgeflow://docs/nodes.md") {
		t.Fatalf("stdio resources: %v", r.Resources)
	}
}
