package ir_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/google/go-cmp/cmp"
)

// graphIR builds an IR from "id:type" nodes and "src>dst[:label]" edges; the
// first node is the entry.
func graphIR(nodes []string, edges []string) *ir.ArtifactIR {
	a := &ir.ArtifactIR{}
	for _, n := range nodes {
		id, typ, _ := strings.Cut(n, ":")
		if typ == "" {
			typ = ir.TypeStep
		}
		a.Nodes = append(a.Nodes, ir.Node{ID: id, Type: typ})
	}
	for i, e := range edges {
		st, label, _ := strings.Cut(e, ":")
		s, d, _ := strings.Cut(st, ">")
		a.Edges = append(a.Edges, ir.Edge{ID: fmt.Sprintf("e%d", i), Source: s, Target: d, Label: label})
	}
	if len(a.Nodes) > 0 {
		a.EntryNodeID = a.Nodes[0].ID
	}
	return a
}

func TestGraphEdges(t *testing.T) {
	t.Parallel()
	g := ir.NewGraph(graphIR(
		[]string{"p:parallel", "a", "b", "c", "j"},
		[]string{"p>b:lane2", "p>a:lane1", "p>c:then", "a>j", "b>j", "x>a", "p>c:lane1"},
	))
	ids := func(es []ir.Edge) []string {
		var out []string
		for _, e := range es {
			out = append(out, e.ID)
		}
		return out
	}
	if diff := cmp.Diff([]string{"e0", "e1", "e2", "e6"}, ids(g.Out("p"))); diff != "" {
		t.Errorf("Out(p) (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"e1", "e6"}, ids(g.OutLabel("p", "lane1"))); diff != "" {
		t.Errorf("OutLabel(p, lane1) (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"lane2", "lane1", "then"}, g.Labels("p")); diff != "" {
		t.Errorf("Labels(p) (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"e3", "e4"}, ids(g.In("j"))); diff != "" {
		t.Errorf("In(j) (-want +got):\n%s", diff)
	}
	if e, ok := g.Then("p"); !ok || e.Target != "c" {
		t.Errorf("Then(p) = %v, %v; want the edge to c", e, ok)
	}
	if g.Node("x") != nil || g.Out("x") != nil {
		t.Error("an edge from an unknown node must be left out")
	}
}

func TestGraphTopoAndCycles(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		nodes  []string
		edges  []string
		order  []string
		ok     bool
		cycles [][]string
	}{
		{"chain", []string{"c", "b", "a"}, []string{"a>b", "b>c"}, []string{"a", "b", "c"}, true, nil},
		{"diamond", []string{"a", "b", "c", "d"}, []string{"a>c", "a>b", "b>d", "c>d"}, []string{"a", "c", "b", "d"}, true, nil},
		{"self loop", []string{"a", "b"}, []string{"a>b", "b>b"}, []string{"a"}, false, [][]string{{"b"}}},
		{"two cycles", []string{"a", "b", "c", "d", "e", "f"}, []string{"a>b", "b>c", "c>b", "a>d", "d>e", "e>f", "f>d"},
			[]string{"a"}, false, [][]string{{"b", "c"}, {"d", "e", "f"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			g := ir.NewGraph(graphIR(tt.nodes, tt.edges))
			order, ok := g.TopoOrder()
			if diff := cmp.Diff(tt.order, order); diff != "" || ok != tt.ok {
				t.Errorf("TopoOrder() ok=%v want %v (-want +got):\n%s", ok, tt.ok, diff)
			}
			if diff := cmp.Diff(tt.cycles, g.Cycles()); diff != "" {
				t.Errorf("Cycles() (-want +got):\n%s", diff)
			}
		})
	}
}

func TestGraphUpstream(t *testing.T) {
	t.Parallel()
	// start -> p(parallel) lanes a1->a2 and b1, join j; then br(branch) arms
	// yes/no, then-edge to end; loop l with body lb1 -> lb2.
	g := ir.NewGraph(graphIR(
		[]string{"start", "p:parallel", "a1", "a2", "b1", "j", "br:branch", "yes", "no", "end", "l:loop", "lb1", "lb2", "lost"},
		[]string{"start>p", "p>a1", "a1>a2", "p>b1", "a2>j", "b1>j", "j>br", "br>yes:yes", "br>no:no", "br>end:then",
			"end>l", "l>lb1:body", "lb1>lb2"},
	))
	tests := []struct {
		anc, id string
		want    bool
	}{
		{"start", "lb2", true},
		{"p", "j", true},
		{"a1", "a2", true},
		{"a1", "j", false},
		{"b1", "a2", false},
		{"a1", "b1", false},
		{"yes", "no", false},
		{"yes", "end", false},
		{"br", "end", true},
		{"j", "yes", true},
		{"l", "lb2", true},
		{"lb2", "lb2", false},
		{"lb2", "lb1", false},
		{"start", "lost", false},
		{"nope", "end", false},
	}
	for _, tt := range tests {
		if got := g.Upstream(tt.anc, tt.id); got != tt.want {
			t.Errorf("Upstream(%s, %s) = %v, want %v", tt.anc, tt.id, got, tt.want)
		}
	}
	if g.Reachable("lost") || !g.Reachable("lb2") {
		t.Error("Reachable: lost must be unreachable and lb2 reachable")
	}
	if got := g.ImmediateUpstream("j"); got != "p" {
		t.Errorf("ImmediateUpstream(j) = %q, want p", got)
	}
	enclosing := map[string]string{
		"start": "", "p": "", "a1": "p:e1", "a2": "p:e1", "b1": "p:e3", "j": "", "yes": "br:e7", "no": "br:e8",
		"end": "", "lb1": "l:e11", "lb2": "l:e11", "lost": "",
	}
	for id, want := range enclosing {
		got := ""
		if e, ok := g.Enclosing(id); ok {
			got = e.Source + ":" + e.ID
		}
		if got != want {
			t.Errorf("Enclosing(%s) = %q, want %q", id, got, want)
		}
	}
}

func TestGraphDeepAndWide(t *testing.T) {
	t.Parallel()
	// 20,000 nested loops and a parallel with 20,000 lanes: no recursion limit.
	var nodes, edges []string
	for i := range 20000 {
		nodes = append(nodes, fmt.Sprintf("l%d:loop", i))
		if i > 0 {
			edges = append(edges, fmt.Sprintf("l%d>l%d:body", i-1, i))
		}
	}
	g := ir.NewGraph(graphIR(nodes, edges))
	if !g.Upstream("l0", "l19999") {
		t.Error("l0 must be upstream of l19999")
	}
	if e, ok := g.Enclosing("l19999"); !ok || e.Source != "l19998" {
		t.Errorf("Enclosing(l19999) = %v, %v", e, ok)
	}
	if d := g.Depth("l19999"); d != 19999 {
		t.Errorf("Depth(l19999) = %d, want 19999", d)
	}
	nodes, edges = []string{"p:parallel", "j"}, nil
	for i := range 20000 {
		nodes = append(nodes, fmt.Sprintf("s%d", i))
		edges = append(edges, fmt.Sprintf("p>s%d:l%d", i, i), fmt.Sprintf("s%d>j", i))
	}
	g = ir.NewGraph(graphIR(nodes, edges))
	if !g.Upstream("p", "j") || g.Upstream("s0", "j") {
		t.Error("the parallel, and no lane, must be upstream of the join")
	}
	if _, ok := g.TopoOrder(); !ok {
		t.Error("wide graph must be acyclic")
	}
}
