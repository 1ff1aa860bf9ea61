package deploy

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// planIR is a workflow IR of code steps (id:name:code) joined by edges
// ("a>b").
func planIR(steps []string, edges ...string) json.RawMessage {
	var nodes, es []string
	for _, st := range steps {
		f := strings.SplitN(st, ":", 3)
		nodes = append(nodes, fmt.Sprintf(`{"id":%q,"type":"step","name":%q,"data":{"code":%q}}`, f[0], f[1], f[2]))
	}
	for i, e := range edges {
		f := strings.Split(e, ">")
		es = append(es, fmt.Sprintf(`{"id":"e%d","source":%q,"target":%q}`, i, f[0], f[1]))
	}
	return json.RawMessage(`{"nodes":[` + strings.Join(nodes, ",") + `],"edges":[` + strings.Join(es, ",") + `],"entryNodeId":"a"}`)
}

// TestPlanRules (docs/releases.md, "The deploy plan"): a run is judged at
// its position, the steps it has started. A renamed, removed or reordered
// step it passed, or a new step before one it passed, is incompatible; a
// code change to a passed step and any change after its position are not.
func TestPlanRules(t *testing.T) {
	t.Parallel()
	old := planIR([]string{"a:A:1", "b:B:2", "c:C:3"}, "a>b", "b>c")
	tests := []struct {
		name   string
		new    json.RawMessage
		passed []string // step names the run has started
		kinds  string   // the changes' kinds, node by node
		ok     bool
	}{
		{"rename before the position", planIR([]string{"a:A2:1", "b:B:2", "c:C:3"}, "a>b", "b>c"), []string{"A", "B"}, "a renamed", false},
		{"rename after the position", planIR([]string{"a:A:1", "b:B:2", "c:C2:3"}, "a>b", "b>c"), []string{"A", "B"}, "c renamed", true},
		{"code change to a passed step", planIR([]string{"a:A:9", "b:B:2", "c:C:3"}, "a>b", "b>c"), []string{"A", "B"}, "a code-changed", true},
		{"removed passed step", planIR([]string{"b:B:2", "c:C:3"}, "b>c"), []string{"A", "B"}, "a removed", false},
		{"new step before the position", planIR([]string{"a:A:1", "n:N:0", "b:B:2", "c:C:3"}, "a>n", "n>b", "b>c"), []string{"A", "B"},
			"n added", false},
		{"new step after the position", planIR([]string{"a:A:1", "b:B:2", "c:C:3", "n:N:0"}, "a>b", "b>c", "c>n"), []string{"A", "B"},
			"n added", true},
		{"reordered passed steps", planIR([]string{"b:B:2", "a:A:1", "c:C:3"}, "b>a", "a>c"), []string{"A", "B"},
			"b reordered, a reordered", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			om, err := newStepModel(old)
			if err != nil {
				t.Fatal(err)
			}
			nm, err := newStepModel(tc.new)
			if err != nil {
				t.Fatal(err)
			}
			changes := diffSteps(om, nm)
			var kinds []string
			for _, c := range changes {
				kinds = append(kinds, c.NodeID+" "+c.Kind)
			}
			if got := strings.Join(kinds, ", "); got != tc.kinds {
				t.Errorf("changes %q, want %q", got, tc.kinds)
			}
			var steps []string
			for _, n := range tc.passed {
				steps = append(steps, fmt.Sprintf(`{"type":"step","name":%q,"success":true}`, n))
			}
			r := &edgeflow.Run{ID: "run_1", Steps: json.RawMessage("[" + strings.Join(steps, ",") + "]")}
			reasons := judgeRun(r, om, nm, changes)
			if (len(reasons) == 0) != tc.ok {
				t.Errorf("compatible = %v, reasons %q", len(reasons) == 0, reasons)
			}
		})
	}
}
