package ir

import (
	"fmt"
	"strconv"
	"strings"
)

// structure checks reachability, the outgoing edges of every node (labels,
// lanes, then), joins and where break may stand.
func (v *validator) structure() {
	g := v.g
	a := v.a
	for i := range a.Nodes {
		n := &a.Nodes[i]
		if g.dup[i] {
			continue // duplicate id, reported already
		}
		if g.entry >= 0 && !g.reachable[i] {
			v.addf(nodePath(i), n.ID, RuleReachable, "node %q cannot be reached from the entry node %q", n.ID, a.EntryNodeID)
		}
		switch n.Type {
		case TypeBranch:
			v.branchEdges(i, n)
		case TypeParallel, TypeRace:
			lanes := 0
			for _, e := range g.out[i] {
				if a.Edges[e].Label != LabelThen {
					lanes++
				}
			}
			if lanes == 0 {
				v.addf(nodePath(i), n.ID, RuleContainer, "a %s node needs at least one lane (an outgoing edge not labelled then)", n.Type)
			}
			v.atMostOneThen(i, n)
		case TypeTryCatch:
			v.fixedLabels(i, n, []string{LabelTry, LabelCatch, LabelFinally, LabelThen}, []string{LabelTry, LabelCatch})
		case TypeLoop:
			v.fixedLabels(i, n, []string{LabelBody, LabelThen}, []string{LabelBody})
		default:
			v.plainEdges(i, n)
			if n.Type == TypeBreak && g.reachable[i] {
				v.breakPlace(i, n)
			}
		}
		if len(g.in[i]) > 1 && g.reachable[i] {
			v.join(i, n)
		}
	}
}

func (v *validator) plainEdges(i int, n *Node) {
	for k, e := range v.g.out[i] {
		edge := v.a.Edges[e]
		switch {
		case n.Type == TypeBreak:
			v.addf(edgePath(int(e), ""), n.ID, RuleContainer, "a break ends its lane; it cannot have an outgoing edge")
			continue
		case edge.Label == LabelThen:
			v.addf(edgePath(int(e), "label"), n.ID, RuleContainer, "only containers (branch, parallel, race, try_catch, loop) have a then edge")
		case edge.Label != "":
			v.addf(edgePath(int(e), "label"), n.ID, RuleContainer, "edges from a %s node carry no label (got %q)", n.Type, edge.Label)
		}
		if k > 0 {
			v.addf(edgePath(int(e), ""), n.ID, RuleContainer, "a %s node has at most one outgoing edge; use a parallel node to fan out", n.Type)
		}
	}
}

func (v *validator) atMostOneThen(i int, n *Node) {
	seen := false
	for _, e := range v.g.out[i] {
		if v.a.Edges[e].Label != LabelThen {
			continue
		}
		if seen {
			v.addf(edgePath(int(e), ""), n.ID, RuleContainer, "a container has at most one then edge")
		}
		seen = true
	}
}

// fixedLabels checks a container whose edges carry a fixed set of labels,
// each at most once, some required.
func (v *validator) fixedLabels(i int, n *Node, allowed, required []string) {
	count := make(map[string]int, len(allowed))
	for _, e := range v.g.out[i] {
		l := v.a.Edges[e].Label
		if !contains(allowed, l) {
			v.addf(edgePath(int(e), "label"), n.ID, RuleContainer, "edges from a %s node are labelled %s (got %q)", n.Type, strings.Join(allowed, ", "), l)
			continue
		}
		count[l]++
		if count[l] > 1 {
			v.addf(edgePath(int(e), ""), n.ID, RuleContainer, "a %s node has at most one %s edge", n.Type, l)
		}
	}
	for _, l := range required {
		if count[l] == 0 {
			v.addf(nodePath(i), n.ID, RuleContainer, "a %s node needs an outgoing edge labelled %s", n.Type, l)
		}
	}
}

func (v *validator) branchEdges(i int, n *Node) {
	arms := branchArms(n)
	isArm := make(map[string]bool, len(arms))
	for _, l := range arms {
		isArm[l] = true
	}
	count := make(map[string]int, len(arms)+1)
	for _, e := range v.g.out[i] {
		l := v.a.Edges[e].Label
		switch {
		case l == LabelThen:
		case l == "":
			v.addf(edgePath(int(e), "label"), n.ID, RuleContainer, "edges from a branch carry the label of an arm (%s) or then", armList(arms))
			continue
		case !isArm[l]:
			v.addf(edgePath(int(e), "label"), n.ID, RuleContainer, "%q is not a label of this branch's arms (%s)", l, armList(arms))
			continue
		}
		count[l]++
		if count[l] > 1 {
			what := "arm " + strconv.Quote(l)
			if l == LabelThen {
				what = "then"
			}
			v.addf(edgePath(int(e), ""), n.ID, RuleContainer, "a branch has at most one %s edge", what)
		}
	}
}

// armList names a branch's arms in a message: the first ten, then how many
// more (a branch may have thousands, and each refused edge names them).
func armList(arms []string) string {
	if len(arms) <= 10 {
		return strings.Join(arms, ", ")
	}
	return strings.Join(arms[:10], ", ") + fmt.Sprintf(" and %d more", len(arms)-10)
}

// breakPlace checks that a break stands in a loop body, crossing only branch
// arms and try/catch blocks on the way out: its innermost enclosing loop,
// parallel or race is a loop.
func (v *validator) breakPlace(i int, n *Node) {
	g := v.g
	c := g.outer[i]
	switch {
	case c < 0:
		v.addf(nodePath(i), n.ID, RuleContainer, "a break must be inside a loop body")
	case v.a.Nodes[c].Type != TypeLoop:
		v.addf(nodePath(i), n.ID, RuleContainer, "a break cannot leave a %s lane (of %q)", v.a.Nodes[c].Type, v.a.Nodes[c].ID)
	}
}

// join checks a node with several incoming edges: each must come from the
// last node of a lane of one container, which has no then edge.
func (v *validator) join(i int, n *Node) {
	g := v.g
	c := g.idom[i]
	ok := c >= 0 && IsContainer(v.a.Nodes[c].Type)
	if ok {
		for _, e := range g.in[i] {
			s := int(g.src[e])
			if !g.reachable[s] {
				continue
			}
			enc := g.enclosing[s]
			if s == int(c) || enc < 0 || v.a.Edges[enc].Source != v.a.Nodes[c].ID {
				ok = false
				break
			}
		}
	}
	if !ok {
		sources := make([]string, 0, len(g.in[i]))
		for _, e := range g.in[i] {
			sources = append(sources, v.a.Edges[e].Source)
		}
		v.addf(nodePath(i), n.ID, RuleContainer, "node %q has %d incoming edges (from %s) but is not a join: only the last nodes of the lanes of one container may lead into a common node", n.ID, len(sources), strings.Join(sources, ", "))
		return
	}
	if _, hasThen := g.Then(v.a.Nodes[c].ID); hasThen {
		v.addf(nodePath(i), n.ID, RuleContainer, "container %q continues through a then edge, so its lanes cannot also join at %q", v.a.Nodes[c].ID, n.ID)
	}
}

// expressions checks every expression in every node's data: syntax, roots
// and that referenced nodes are upstream.
func (v *validator) expressions() {
	w := exprWalker{v: v}
	for i := range v.a.Nodes {
		n := &v.a.Nodes[i]
		if len(n.Data) == 0 {
			continue
		}
		w.i, w.n = i, n
		if len(n.Data) == 1 {
			for k, val := range n.Data {
				w.path = append(w.path[:0], k)
				w.walk(val, 0)
			}
			continue
		}
		for _, k := range sortedKeys(n.Data) {
			w.path = append(w.path[:0], k)
			w.walk(n.Data[k], 0)
		}
	}
	// A rollback's code reads upstream values and the step's context too.
	for i := range v.a.Nodes {
		n := &v.a.Nodes[i]
		if n.Config == nil || n.Config.Rollback == nil {
			continue
		}
		w.i, w.n, w.rollback = i, n, true
		w.walk(n.Config.Rollback.Code, 0)
		w.rollback = false
	}
}

type exprWalker struct {
	v    *validator
	i    int
	n    *Node
	path []string
	// rollback: the walk is in the node's config.rollback.code.
	rollback bool
	buf      []PathSegment
	fn       func(Expression)
}

const maxDataDepth = 64

func (w *exprWalker) pointer() string {
	if w.rollback {
		return nodePath(w.i, "config", "rollback", "code")
	}
	return nodePath(w.i, append([]string{"data"}, w.path...)...)
}

func (w *exprWalker) walk(val any, depth int) {
	if depth > maxDataDepth {
		return
	}
	switch x := val.(type) {
	case string:
		if !strings.Contains(x, "{{") {
			return
		}
		if w.fn == nil {
			w.fn = func(e Expression) {
				w.check(e)
				w.buf = e.Path
			}
		}
		if err := scanExpressions(x, w.buf, w.fn); err != nil {
			w.v.addf(w.pointer(), w.n.ID, RuleExpression, "%v", err)
		}
	case []any:
		for k, item := range x {
			w.path = append(w.path, strconv.Itoa(k))
			w.walk(item, depth+1)
			w.path = w.path[:len(w.path)-1]
		}
	case map[string]any:
		for _, k := range sortedKeys(x) {
			w.path = append(w.path, k)
			w.walk(x[k], depth+1)
			w.path = w.path[:len(w.path)-1]
		}
	}
}

var eventFields = []string{"payload", "timestamp", "instanceId"}

func (w *exprWalker) check(e Expression) {
	v := w.v
	switch e.Root {
	case RootEnv:
		if len(e.Path) != 1 || e.Path[0].IsIndex || !validEnvName(e.Path[0].Field) {
			v.addf(w.pointer(), w.n.ID, RuleExpression, "%s: an env reference is {{env.NAME}} with NAME matching ^[A-Z][A-Z0-9_]*$", e.Raw)
		}
		return
	case RootEvent:
		if len(e.Path) == 0 || e.Path[0].IsIndex || !contains(eventFields, e.Path[0].Field) {
			v.addf(w.pointer(), w.n.ID, RuleExpression, "%s: the trigger event offers payload, timestamp and instanceId, e.g. {{event.payload.id}}", e.Raw)
			return
		}
		if v.a.IsScript() && e.Path[0].Field != "payload" {
			v.addf(w.pointer(), w.n.ID, RuleExpression, "%s: functions have only {{event.payload...}}", e.Raw)
		}
		return
	}
	g := v.g
	if StepContextRoot(e, func(id string) bool { _, ok := g.index[id]; return ok }) {
		w.stepContext(e)
		return
	}
	target, ok := g.index[e.Root]
	if !ok {
		v.addf(w.pointer(), w.n.ID, RuleUpstream, "%s refers to %q, which is not a node", e.Raw, e.Root)
		return
	}
	self := g.index[w.n.ID]
	if g.entry < 0 || !g.reachable[self] {
		return // reachability is reported instead
	}
	if v.a.Nodes[target].Type == TypeLoop && len(e.Path) > 0 && !e.Path[0].IsIndex && (e.Path[0].Field == "item" || e.Path[0].Field == "index") {
		if target != self && !w.insideBody(self, e.Root) {
			v.addf(w.pointer(), w.n.ID, RuleUpstream, "%s: the item and index of loop %q exist only inside its body", e.Raw, e.Root)
		}
		return
	}
	if target == self {
		v.addf(w.pointer(), w.n.ID, RuleUpstream, "%s: a node cannot refer to its own value", e.Raw)
		return
	}
	if !g.Upstream(e.Root, w.n.ID) {
		v.addf(w.pointer(), w.n.ID, RuleUpstream, "%s: %q is not upstream of %q (it is not on every path from the entry node to it)", e.Raw, e.Root, w.n.ID)
	}
}

// insideBody reports whether node at is inside the body of loop (its
// lanes, at any depth).
func (w *exprWalker) insideBody(at int, loop string) bool {
	l, ok := w.v.g.index[loop]
	return ok && w.v.g.inside(at, l)
}

// stepContextNodes are the builtin types whose fields are evaluated inside
// their durable step, where {{step.attempt}} and {{step.count}} exist
// (marketplace nodes too).
var stepContextNodes = map[string]bool{TypeStep: true, TypeHTTPRequest: true, TypeSubWorkflow: true}

// stepContext checks {{run.id}}, {{step.attempt}} and {{step.count}}: their
// path, and that the field is evaluated inside a workflow's durable step
// (a rollback's code has the context of the step it undoes).
func (w *exprWalker) stepContext(e Expression) {
	v := w.v
	one := len(e.Path) == 1 && !e.Path[0].IsIndex
	if e.Root == RootRun {
		switch {
		case !one || e.Path[0].Field != "id":
			v.addf(w.pointer(), w.n.ID, RuleExpression, "%s: the run offers only its id, {{run.id}}", e.Raw)
		case v.a.IsScript():
			v.addf(w.pointer(), w.n.ID, RuleExpression, "%s: functions have no run; {{run.id}} exists in workflows", e.Raw)
		}
		return
	}
	switch {
	case !one || (e.Path[0].Field != "attempt" && e.Path[0].Field != "count"):
		v.addf(w.pointer(), w.n.ID, RuleExpression, "%s: the step context offers {{step.attempt}} and {{step.count}}", e.Raw)
	case v.a.IsScript():
		v.addf(w.pointer(), w.n.ID, RuleExpression, "%s: functions run no durable steps, so there is no step context", e.Raw)
	case w.rollback:
	case builtinTypes[w.n.Type] && !stepContextNodes[w.n.Type],
		w.n.Type == TypeSubWorkflow && len(w.path) > 0 && w.path[0] == "timeout":
		v.addf(w.pointer(), w.n.ID, RuleExpression, "%s: the step context exists in the fields a durable step evaluates (step, http_request, sub_workflow and marketplace nodes), not in this field of a %s node", e.Raw, w.n.Type)
	}
}
