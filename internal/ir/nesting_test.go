package ir_test

import (
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/ir/irtest"
	"github.com/edgeflow/edgeflow/internal/nodes"
)

// TestValidateNesting: containers nest at most ir.DefaultMaxNesting levels;
// the first container past the limit is named, once, whatever the depth
// below it (decision 330).
func TestValidateNesting(t *testing.T) {
	t.Parallel()
	limit := ir.DefaultMaxNesting
	tooDeep := func(id string, at int) []problemKey {
		return []problemKey{{ir.RuleNesting, "/nodes/" + strconv.Itoa(at), id}}
	}
	tests := []struct {
		name string
		raw  []byte
		opts ir.Options
		want []problemKey
	}{
		// NestedLoops: node 0 is the start, loop_d is node d+1.
		{"loops at the limit", irtest.NestedLoops(limit), ir.Options{}, nil},
		{"one loop past it", irtest.NestedLoops(limit + 1), ir.Options{}, tooDeep("loop_32", 33)},
		{"3,000 loops", irtest.NestedLoops(3000), ir.Options{}, tooDeep("loop_32", 33)},
		// deepIR: loop, try_catch, branch and parallel in turn.
		{"every container type at the limit", deepIR(limit), ir.Options{}, nil},
		{"every container type past it", deepIR(limit + 1), ir.Options{}, tooDeep("c32", 41)},
		{"a lower limit", irtest.NestedLoops(5), ir.Options{MaxNesting: 4}, tooDeep("loop_4", 5)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.opts.Nodes = nodes.BuiltinCatalog()
			_, ps := ir.Validate(tt.raw, tt.opts)
			want := tt.want
			if want == nil {
				want = []problemKey{}
			}
			if diff := cmp.Diff(want, keys(ps)); diff != "" {
				t.Errorf("problems (-want +got):\n%s\n%+v", diff, ps)
			}
		})
	}
	_, ps := ir.Validate(irtest.NestedLoops(3000), ir.Options{Nodes: nodes.BuiltinCatalog()})
	if want := `container "loop_32" is nested 33 levels deep (inside "loop_31"); containers nest at most 32 levels`; len(ps) != 1 || ps[0].Message != want {
		t.Errorf("message: %+v, want %q", ps, want)
	}
}

// TestValidateDeepReferencesAndBreaks: at the deepest nesting, a loop's item
// is readable anywhere inside its body and nowhere after it, and a break
// leaves the loop it stands in, not a lane around it.
func TestValidateDeepReferencesAndBreaks(t *testing.T) {
	t.Parallel()
	build := func(after string, lane bool) []byte {
		b := newBuilder()
		from, label := b.node("start", ir.TypeStep, map[string]any{"code": "return { items: [1] };"}), ""
		for d := range ir.DefaultMaxNesting {
			id := "l" + strconv.Itoa(d)
			typ := ir.TypeLoop
			data := map[string]any{"loopType": "forEach", "collection": "{{start.items}}"}
			if lane && d == ir.DefaultMaxNesting-1 {
				typ, data = ir.TypeParallel, nil
			}
			b.node(id, typ, data)
			b.edge(from, id, label)
			from, label = id, ir.LabelBody
			if typ == ir.TypeParallel {
				label = "only"
			}
		}
		leaf := b.node("leaf", ir.TypeStep, map[string]any{"code": "return [{{l0.item}}, {{l5.index}}, {{l30.item}}];"})
		b.edge(from, leaf, label)
		b.edge(leaf, b.node("stop", ir.TypeBreak, map[string]any{"condition": "{{leaf}}.length > 2"}), "")
		b.edge("l5", b.node("after", ir.TypeStep, map[string]any{"code": "return " + after + ";"}), ir.LabelThen)
		return b.json()
	}
	opts := ir.Options{Nodes: nodes.BuiltinCatalog()}
	if _, ps := ir.Validate(build("{{l5.results}}", false), opts); len(ps) > 0 {
		t.Errorf("valid: %+v", ps)
	}
	_, ps := ir.Validate(build("{{l5.item}}", false), opts)
	if diff := cmp.Diff([]problemKey{{ir.RuleUpstream, "/nodes/35/data/code", "after"}}, keys(ps)); diff != "" {
		t.Errorf("item after the loop (-want +got):\n%s", diff)
	}
	_, ps = ir.Validate(build("{{l5.results}}", true), opts)
	if diff := cmp.Diff([]problemKey{{ir.RuleContainer, "/nodes/34", "stop"}}, keys(ps)); diff != "" {
		t.Errorf("break in a lane (-want +got):\n%s", diff)
	}
}
