package mcp_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/mcp/mcptest"
)

// TestTypeScriptClient drives the HTTP transport with the official MCP
// TypeScript SDK's client: it initializes, lists the tools (every schema
// compiles with the SDK's validator, every structured result fits its
// output schema, or the client raises), the resources and the prompt, and
// calls the tools: a workflow built and an invalid IR's pointers; a
// read-only key's deploy and another organization's workflow are tool
// errors.
func TestTypeScriptClient(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r := mcptest.Run(t, mcptest.Plan{Transport: "http", URL: w.url + "/api/mcp", Key: w.a.key("read", "write"), Calls: []mcptest.Call{
		{Tool: "list_node_types"},
		{Tool: "validate_ir", Args: map[string]any{"ir": json.RawMessage(invalidIR)}},
		{Tool: "create_workflow", Args: map[string]any{"name": "From TypeScript"}},
		{Tool: "submit_version", Args: map[string]any{"workflowId": "${2.id}", "ir": json.RawMessage(invalidIR)}},
		{Tool: "submit_version", Args: map[string]any{"workflowId": "${2.id}", "ir": example(t, "hello")}},
		{Tool: "get_workflow", Args: map[string]any{"workflowId": "${2.id}"}},
		{Tool: "deploy", Args: map[string]any{"workflowId": "${2.id}", "connectionId": "con_x"}},
		{Tool: "list_workflows"},
	}})
	if r.Server.Name != "edgeflow" || !strings.Contains(r.Instructions, "create_workflow") {
		t.Fatalf("server %+v, instructions %q", r.Server, r.Instructions)
	}
	var names []string
	for _, tool := range r.Tools {
		names = append(names, tool.Name)
		if !tool.InputSchemaValid || !tool.OutputSchemaValid {
			t.Errorf("%s: schemas the SDK cannot compile: %s %s", tool.Name, tool.InputError, tool.OutputError)
		}
		if ro, _ := tool.Annotations["readOnlyHint"].(bool); ro != readOnlyTools[tool.Name] {
			t.Errorf("%s: readOnlyHint %v", tool.Name, tool.Annotations)
		}
		if d, _ := tool.Annotations["destructiveHint"].(bool); d != destructiveTools[tool.Name] {
			t.Errorf("%s: destructiveHint %v", tool.Name, tool.Annotations)
		}
	}
	if slices.Sort(names); !slices.Equal(names, toolNames) {
		t.Fatalf("tools %v", names)
	}
	if !slices.Contains(r.Resources, "edgeflow://docs/ir.md") || !slices.Contains(r.Resources, "edgeflow://examples/approval.json") {
		t.Fatalf("resources %v", r.Resources)
	}
	if !strings.Contains(r.Prompt, "says hello") {
		t.Fatalf("prompt %q", r.Prompt)
	}
	for i, res := range r.Results {
		if res.ProtocolError != "" {
			t.Fatalf("call %d (%s): %s", i, res.Tool, res.ProtocolError)
		}
	}
	wantOK := map[int]bool{0: true, 1: true, 2: true, 4: true, 5: true, 7: true}
	for i, res := range r.Results {
		if res.IsError == wantOK[i] {
			t.Errorf("call %d (%s): isError %v: %s", i, res.Tool, res.IsError, res.Text)
		}
	}
	if r.Results[1].Structured["valid"] != false || !strings.Contains(r.Results[1].Text, "/edges/2/target") {
		t.Errorf("validate_ir: %s", r.Results[1].Text)
	}
	if !strings.Contains(r.Results[3].Text, "/nodes/2/data/duration (node nap, rule node-data)") {
		t.Errorf("submit_version of the invalid IR: %s", r.Results[3].Text)
	}
	if !strings.Contains(r.Results[6].Text, `lacks the "deploy" scope`) {
		t.Errorf("deploy without the scope: %s", r.Results[6].Text)
	}

	// Another organization's key: the workflow is not found.
	wf := r.Results[2].Structured["id"].(string)
	other := mcptest.Run(t, mcptest.Plan{Transport: "http", URL: w.url + "/api/mcp", Key: w.b.key("read", "write", "deploy"), Calls: []mcptest.Call{
		{Tool: "get_workflow", Args: map[string]any{"workflowId": wf}},
		{Tool: "submit_version", Args: map[string]any{"workflowId": wf, "ir": example(t, "hello")}},
	}})
	for _, res := range other.Results {
		if !res.IsError || !strings.Contains(res.Text, "not_found") {
			t.Errorf("another organization's %s: %+v", res.Tool, res)
		}
	}
}
