package ir_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/nodes"
	"github.com/google/go-cmp/cmp"
)

// sagaIR is a workflow of the nodes given (JSON objects), chained in order.
func sagaIR(kind string, nodeJSON ...string) []byte {
	nodes, edges := "", ""
	for i, n := range nodeJSON {
		if i > 0 {
			nodes += ","
		}
		nodes += n
	}
	ids := []string{"a", "b", "c", "d"}
	for i := 1; i < len(nodeJSON); i++ {
		if i > 1 {
			edges += ","
		}
		edges += `{"id": "e` + ids[i] + `", "source": "` + ids[i-1] + `", "target": "` + ids[i] + `"}`
	}
	top := `"metadata": {"name": "saga"}, "nodes": [` + nodes + `], "edges": [` + edges + `], "entryNodeId": "a"`
	if kind == "script" {
		top = `"kind": "script", "trigger": {"type": "http"}, ` + top
	}
	return []byte(`{` + top + `}`)
}

// TestRollbackAndStepContextRules checks config.rollback, delay
// "retry-after" with maxDelay, and {{run.id}}, {{step.attempt}},
// {{step.count}}: what is accepted and what is refused, at which path.
func TestRollbackAndStepContextRules(t *testing.T) {
	t.Parallel()
	const (
		charge   = `{"id": "a", "type": "step", "name": "charge", "data": {"code": "return {id: 1};"}, "config": {"rollback": {"code": "await refund(output.id);", "retries": {"limit": 2, "delay": "1 second"}, "timeout": "30 seconds"}}}`
		call     = `{"id": "b", "type": "http_request", "name": "call", "data": {"url": "https://example.com/x", "headers": "{\"Idempotency-Key\": \"{{run.id}}-{{step.attempt}}\"}"}, "config": {"retries": {"limit": 3, "delay": "retry-after", "maxDelay": "10 minutes", "backoff": "exponential"}, "rollback": {"code": "console.log({{a.id}}, {{step.count}}, ctx.attempt, error.message);"}}}`
		sleepRB  = `{"id": "b", "type": "sleep", "name": "nap", "data": {"duration": "1 second"}, "config": {"rollback": {"code": "x"}}}`
		stepRA   = `{"id": "b", "type": "step", "name": "s", "data": {"code": "return 1;"}, "config": {"retries": {"limit": 1, "delay": "retry-after"}}}`
		maxFixed = `{"id": "b", "type": "http_request", "name": "h", "data": {"url": "https://example.com"}, "config": {"retries": {"limit": 1, "delay": "5 seconds", "maxDelay": "1 hour"}}}`
		blankRB  = `{"id": "b", "type": "step", "name": "s", "data": {"code": "return 1;"}, "config": {"rollback": {"code": "  ", "retries": {"limit": 1, "delay": "retry-after"}}}}`
		badCtx   = `{"id": "b", "type": "step", "name": "s", "data": {"code": "return [{{run.instance}}, {{step.name}}];"}}`
		sleepCtx = `{"id": "b", "type": "sleep", "name": "nap", "data": {"duration": "{{step.attempt}} seconds"}}`
		fnStep   = `{"id": "a", "type": "step", "name": "s", "data": {"code": "return {{run.id}} + {{step.attempt}};"}, "config": {"rollback": {"code": "x"}}}`
		runNode  = `{"id": "run", "type": "step", "name": "r", "data": {"code": "return {id: 1};"}}`
		useNode  = `{"id": "b", "type": "step", "name": "u", "data": {"code": "return {{run.id}};"}}`
		noCode   = `{"id": "b", "type": "step", "name": "s", "data": {"code": "return 1;"}, "config": {"rollback": {"retries": {"limit": 1, "delay": 1}}}}`
	)
	type k = problemKey
	cases := []struct {
		name string
		raw  []byte
		want []k
	}{
		{"saga and step context accepted", sagaIR("", charge, call), []k{}},
		{"rollback on a sleep", sagaIR("", charge, sleepRB), []k{{ir.RuleStepConfig, "/nodes/1/config/rollback", "b"}}},
		{"retry-after on a step", sagaIR("", charge, stepRA), []k{{ir.RuleStepConfig, "/nodes/1/config/retries/delay", "b"}}},
		{"maxDelay with a fixed delay", sagaIR("", charge, maxFixed), []k{{ir.RuleStepConfig, "/nodes/1/config/retries/maxDelay", "b"}}},
		{"blank rollback code, retry-after in a rollback", sagaIR("", charge, blankRB), []k{
			{ir.RuleStepConfig, "/nodes/1/config/rollback/code", "b"},
			{ir.RuleStepConfig, "/nodes/1/config/rollback/retries/delay", "b"},
		}},
		{"unknown step context fields", sagaIR("", charge, badCtx), []k{
			{ir.RuleExpression, "/nodes/1/data/code", "b"},
			{ir.RuleExpression, "/nodes/1/data/code", "b"},
		}},
		{"step context in a sleep", sagaIR("", charge, sleepCtx), []k{{ir.RuleExpression, "/nodes/1/data/duration", "b"}}},
		{"functions have no run, step context or rollback", sagaIR("script", fnStep), []k{
			{ir.RuleExpression, "/nodes/0/data/code", "a"},
			{ir.RuleExpression, "/nodes/0/data/code", "a"},
			{ir.RuleStepConfig, "/nodes/0/config/rollback", "a"},
		}},
		{"a node named run keeps its meaning", []byte(`{"metadata": {"name": "x"}, "nodes": [` + runNode + `,` + useNode + `], "edges": [{"id": "e", "source": "run", "target": "b"}], "entryNodeId": "run"}`), []k{}},
		{"rollback without code", sagaIR("", charge, noCode), []k{{ir.RuleSchema, "/nodes/1/config/rollback/code", "b"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, problems := ir.Validate(c.raw, ir.Options{Nodes: nodes.BuiltinCatalog()})
			got := keys(problems)
			want := c.want
			slices.SortFunc(want, func(a, b problemKey) int { return strings.Compare(strings.Join(a[:], "|"), strings.Join(b[:], "|")) })
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
				for _, p := range problems {
					t.Logf("  %+v", p)
				}
			}
		})
	}
}
