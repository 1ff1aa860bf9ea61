package ir_test

import (
	"encoding/json"
	"testing"

	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/nodes"
	"github.com/google/go-cmp/cmp"
)

// agentIR is a workflow (or a function) of one agent node with data.
func agentIR(t *testing.T, script bool, data map[string]any) []byte {
	t.Helper()
	a := map[string]any{
		"metadata": map[string]any{"name": "A", "version": 1, "createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-01-01T00:00:00Z"},
		"nodes": []any{map[string]any{
			"id": "bot", "type": "agent", "name": "Bot", "position": map[string]any{"x": 0, "y": 0},
			"version": "1.0.0", "provider": "cloudflare", "data": data,
		}},
		"edges": []any{}, "entryNodeId": "bot",
	}
	if script {
		a["kind"] = "script"
		a["trigger"] = map[string]any{"type": "http", "method": "POST"}
	}
	raw, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func agentData(extra map[string]any) map[string]any {
	d := map[string]any{"provider": "openai", "model": "m", "prompt": "hi", "apiKey": "{{env.OPENAI_API_KEY}}"}
	for k, v := range extra {
		d[k] = v
	}
	return d
}

func TestAgentValid(t *testing.T) {
	t.Parallel()
	data := agentData(map[string]any{
		"tools": []any{
			map[string]any{"workflow": "wf_child", "name": "child"},
			map[string]any{"http": map[string]any{"url": "https://api.example.com/items/{id}", "headers": map[string]any{"authorization": "Bearer {{env.TOKEN}}"}}},
		},
		"approval": []any{"child"},
		"output":   map[string]any{"type": "object", "properties": map[string]any{"n": map[string]any{"type": "integer"}}, "required": []any{"n"}},
		"maxTurns": 50.0,
	})
	if _, ps := ir.Validate(agentIR(t, false, data), ir.Options{Nodes: nodes.BuiltinCatalog()}); len(ps) != 0 {
		t.Fatalf("problems: %+v", ps)
	}
	tools := ir.AgentTools(data)
	if len(tools) != 2 || tools[0].Name != "child" || tools[1].Name != "http_2" || tools[1].Method != "GET" {
		t.Errorf("tools: %+v", tools)
	}
}

func TestAgentProblems(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		script bool
		data   map[string]any
		want   []problemKey
	}{
		{"literal key", false, agentData(map[string]any{"apiKey": "sk-live-123"}),
			[]problemKey{{ir.RuleNodeData, "/nodes/0/data/apiKey", "bot"}}},
		{"too many turns", false, agentData(map[string]any{"maxTurns": 51.0}),
			[]problemKey{{ir.RuleNodeData, "/nodes/0/data/maxTurns", "bot"}}},
		{"tool of two kinds", false, agentData(map[string]any{"tools": []any{map[string]any{"workflow": "wf_a", "http": map[string]any{"url": "https://x.example"}}}}),
			[]problemKey{{ir.RuleNodeData, "/nodes/0/data/tools/0", "bot"}}},
		{"http tool without url", false, agentData(map[string]any{"tools": []any{map[string]any{"http": map[string]any{"method": "GET"}}}}),
			[]problemKey{{ir.RuleNodeData, "/nodes/0/data/tools/0/http/url", "bot"}}},
		{"secret header to a model-chosen host", false, agentData(map[string]any{"tools": []any{map[string]any{"http": map[string]any{
			"url": "{+target}", "headers": map[string]any{"authorization": "{{env.TOKEN}}"}}}}}),
			[]problemKey{{ir.RuleNodeData, "/nodes/0/data/tools/0/http/headers", "bot"}}},
		{"approval of an unknown tool", false, agentData(map[string]any{"tools": []any{map[string]any{"workflow": "wf_a"}}, "approval": []any{"nope"}}),
			[]problemKey{{ir.RuleNodeData, "/nodes/0/data/approval/0", "bot"}}},
		{"duplicate tool names", false, agentData(map[string]any{"tools": []any{map[string]any{"workflow": "wf_a", "name": "x"}, map[string]any{"workflow": "wf_b", "name": "x"}}}),
			[]problemKey{{ir.RuleNodeData, "/nodes/0/data/tools/1", "bot"}}},
		{"unsupported schema keyword", false, agentData(map[string]any{"output": map[string]any{"type": "object", "$ref": "#/x"}}),
			[]problemKey{{ir.RuleNodeData, "/nodes/0/data/output/$ref", "bot"}}},
		{"builtin as a node tool", false, agentData(map[string]any{"tools": []any{map[string]any{"node": "http_request"}}}),
			[]problemKey{{ir.RuleNodeType, "/nodes/0/data/tools/0/node", "bot"}}},
		{"workers-ai with a key", false, map[string]any{"provider": "workers-ai", "model": "@cf/m", "prompt": "hi", "apiKey": "{{env.K}}"},
			[]problemKey{{ir.RuleNodeData, "/nodes/0/data/apiKey", "bot"}}},
		{"function with a workflow tool and approval", true, agentData(map[string]any{"tools": []any{map[string]any{"workflow": "wf_a", "name": "a"}}, "approval": []any{"a"}}),
			[]problemKey{{ir.RuleScript, "/nodes/0/data/approval", "bot"}, {ir.RuleScript, "/nodes/0/data/tools/0/workflow", "bot"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, ps := ir.Validate(agentIR(t, c.script, c.data), ir.Options{Nodes: nodes.BuiltinCatalog()})
			got := keys(ps)
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s\n%+v", diff, ps)
			}
		})
	}
}
