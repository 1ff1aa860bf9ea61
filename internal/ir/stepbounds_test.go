package ir_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/ir"
)

func stepIR(t *testing.T, nodes, edges string) *ir.ArtifactIR {
	t.Helper()
	var a ir.ArtifactIR
	doc := `{"metadata":{"name":"x"},"entryNodeId":"a","nodes":[` + nodes + `],"edges":[` + edges + `]}`
	if err := json.Unmarshal([]byte(doc), &a); err != nil {
		t.Fatal(err)
	}
	return &a
}

func n(id, typ, data string) string {
	return fmt.Sprintf(`{"id":%q,"type":%q,"name":%q,"data":%s}`, id, typ, id, data)
}

func e(id, from, to, label string) string {
	return fmt.Sprintf(`{"id":%q,"source":%q,"target":%q,"label":%q}`, id, from, to, label)
}

// TestStepBounds: the fewest and most steps of a run, computed by hand for
// each shape: a chain, a sleep (billed, not work), a branch with and without
// an else arm, parallel lanes, a try/catch, loops bounded by their count, a
// literal collection or maxIterations, and an unbounded loop.
func TestStepBounds(t *testing.T) {
	t.Parallel()
	step := `{"code":"return 1"}`
	for _, c := range []struct {
		name         string
		nodes, edges string
		work, billed [2]int64
		bounded      bool
		heaviest     string
		unbounded    []string
	}{
		{name: "chain with a sleep and a wait",
			nodes: strings.Join([]string{n("a", "step", step), n("b", "sleep", `{"duration":"1 hour"}`), n("c", "http_request", `{"url":"https://x.example"}`), n("d", "wait_for_event", `{"eventType":"go"}`)}, ","),
			edges: strings.Join([]string{e("1", "a", "b", ""), e("2", "b", "c", ""), e("3", "c", "d", "")}, ","),
			work:  [2]int64{2, 2}, billed: [2]int64{4, 4}, bounded: true, heaviest: "a"},
		{name: "branch without else: zero to the longest arm",
			nodes: strings.Join([]string{n("a", "branch", `{"branches":[{"label":"x","condition":"true"},{"label":"y","condition":"false"}]}`), n("x1", "step", step), n("x2", "step", step), n("y1", "step", step), n("z", "step", step)}, ","),
			edges: strings.Join([]string{e("1", "a", "x1", "x"), e("2", "x1", "x2", ""), e("3", "a", "y1", "y"), e("4", "a", "z", "then")}, ","),
			work:  [2]int64{1, 3}, billed: [2]int64{1, 3}, bounded: true, heaviest: "a"},
		{name: "branch with else: the shortest to the longest arm",
			nodes: strings.Join([]string{n("a", "branch", `{"branches":[{"label":"x","condition":"true"},{"label":"y","condition":""}]}`), n("x1", "step", step), n("x2", "step", step), n("y1", "step", step)}, ","),
			edges: strings.Join([]string{e("1", "a", "x1", "x"), e("2", "x1", "x2", ""), e("3", "a", "y1", "y")}, ","),
			work:  [2]int64{1, 2}, billed: [2]int64{1, 2}, bounded: true, heaviest: "a"},
		{name: "parallel lanes add up, joined",
			nodes: strings.Join([]string{n("a", "parallel", `{}`), n("p", "step", step), n("q", "sleep", `{"duration":5}`), n("j", "step", step)}, ","),
			edges: strings.Join([]string{e("1", "a", "p", "l1"), e("2", "a", "q", "l2"), e("3", "p", "j", ""), e("4", "q", "j", "")}, ","),
			work:  [2]int64{2, 2}, billed: [2]int64{3, 3}, bounded: true, heaviest: "a"},
		{name: "try/catch/finally",
			nodes: strings.Join([]string{n("a", "try_catch", `{}`), n("t1", "step", step), n("t2", "step", step), n("c1", "step", step), n("f1", "step", step)}, ","),
			edges: strings.Join([]string{e("1", "a", "t1", "try"), e("2", "t1", "t2", ""), e("3", "a", "c1", "catch"), e("4", "a", "f1", "finally")}, ","),
			// fewest: min(try 2, catch 1) + finally 1; most: 2 + 1 + 1
			work: [2]int64{2, 4}, billed: [2]int64{2, 4}, bounded: true, heaviest: "a"},
		{name: "times loop of two steps, then one",
			nodes: strings.Join([]string{n("a", "loop", `{"loopType":"times","count":50}`), n("b1", "step", step), n("b2", "sleep", `{"duration":1}`), n("z", "step", step)}, ","),
			edges: strings.Join([]string{e("1", "a", "b1", "body"), e("2", "b1", "b2", ""), e("3", "a", "z", "then")}, ","),
			work:  [2]int64{51, 51}, billed: [2]int64{101, 101}, bounded: true, heaviest: "a"},
		{name: "forEach over a literal, a while by maxIterations",
			nodes: strings.Join([]string{n("a", "loop", `{"loopType":"forEach","collection":"[1, 2, 3]"}`), n("b", "step", step), n("w", "loop", `{"loopType":"while","condition":"true","maxIterations":20}`), n("wb", "step", step)}, ","),
			edges: strings.Join([]string{e("1", "a", "b", "body"), e("2", "a", "w", "then"), e("3", "w", "wb", "body")}, ","),
			work:  [2]int64{3, 23}, billed: [2]int64{3, 23}, bounded: true, heaviest: "w"},
		{name: "forEach over a computed collection: unbounded",
			nodes: strings.Join([]string{n("a", "step", step), n("l", "loop", `{"loopType":"forEach","collection":"{{a}}"}`), n("b", "step", step)}, ","),
			edges: strings.Join([]string{e("1", "a", "l", ""), e("2", "l", "b", "body")}, ","),
			work:  [2]int64{1, 2}, billed: [2]int64{1, 2}, bounded: false, heaviest: "a", unbounded: []string{"l"}},
		{name: "agent: one turn to maxTurns with 16 tool calls each and their approvals",
			nodes: n("a", "agent", `{"maxTurns":3,"tools":[{"name":"t","http":{"url":"https://x.example"}}],"approval":["t"]}`),
			work:  [2]int64{1, 3 + 48}, billed: [2]int64{1, 3 + 48 + 48}, bounded: true, heaviest: "a"},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := ir.StepBoundsOf(stepIR(t, c.nodes, c.edges))
			if got := [2]int64{b.Work.Min, b.Work.Max}; got != c.work {
				t.Errorf("work = %v; want %v", got, c.work)
			}
			if got := [2]int64{b.Billed.Min, b.Billed.Max}; got != c.billed {
				t.Errorf("billed = %v; want %v", got, c.billed)
			}
			if b.Billed.Bounded != c.bounded || b.Heaviest != c.heaviest || !slices.Equal(b.Unbounded, c.unbounded) {
				t.Errorf("bounded %v heaviest %q unbounded %v; want %v %q %v", b.Billed.Bounded, b.Heaviest, b.Unbounded, c.bounded, c.heaviest, c.unbounded)
			}
		})
	}
}

// TestLiteralTooLarge: a step returning a literal over 1 MiB and a
// sub_workflow sending one are named; the same sizes with an expression,
// or code that is not a literal, are not.
func TestLiteralTooLarge(t *testing.T) {
	t.Parallel()
	big := `"` + strings.Repeat("x", ir.MaxLiteralBytes) + `"`
	code, _ := json.Marshal(map[string]string{"code": "return " + big + ";"})
	notLit, _ := json.Marshal(map[string]string{"code": "const s = " + big + "; return s.length;"})
	input, _ := json.Marshal(map[string]string{"workflowId": "wf_x", "input": `{"p":` + big + `}`})
	withExpr, _ := json.Marshal(map[string]string{"workflowId": "wf_x", "input": `{"p":` + big + `,"q":{{a}}}`})
	a := stepIR(t, strings.Join([]string{n("a", "step", string(code)), n("b", "step", string(notLit)),
		n("c", "sub_workflow", string(input)), n("d", "sub_workflow", string(withExpr))}, ","), "")
	ps := ir.LiteralTooLarge(a)
	if len(ps) != 2 || ps[0].NodeID != "a" || ps[0].Path != "/nodes/0/data/code" || ps[1].NodeID != "c" || ps[1].Path != "/nodes/2/data/input" {
		t.Fatalf("problems = %+v", ps)
	}
	if ps[0].Rule != ir.RuleLimits || !strings.Contains(ps[0].Message, "1 MiB") {
		t.Errorf("problem = %+v", ps[0])
	}
}
