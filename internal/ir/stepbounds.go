package ir

import (
	"encoding/json"
	"fmt"
	"strings"
)

// The steps one run of a workflow can take (docs/ir.md, "Steps per run"):
// each node is counted as the compiler emits it, each container from its
// lanes. Plan limits (a run's steps) and the cost estimate (billed steps)
// are computed from it.

// StepRange is the fewest and the most steps of one run. Max is meaningful
// only when Bounded; a loop without a bound makes it unknown.
type StepRange struct {
	Min     int64 `json:"min"`
	Max     int64 `json:"max"`
	Bounded bool  `json:"-"`
}

// StepBounds is what StepBoundsOf finds: Work counts the step.do calls
// (step, http_request, sub_workflow, agent turns and tools, marketplace
// nodes); Billed adds sleeps, sleep_until and event waits, which are steps
// too (they count against the steps limit and are billed per step).
type StepBounds struct {
	Work   StepRange
	Billed StepRange
	// Unbounded lists the loops whose iterations have no bound: a forEach
	// over a computed collection without maxIterations.
	Unbounded []string
	// Heaviest is the node of the workflow's top level (the chain from the
	// entry node) whose own most billed steps are the largest, with that
	// figure: the node a refusal names.
	Heaviest      string
	HeaviestSteps int64
}

// stepCap keeps the arithmetic of nested loops from overflowing: no run
// comes near it.
const stepCap = int64(1) << 50

func sat(x int64) int64 { return min(x, stepCap) }

// counts are the ranges of one lane or node: work and billed steps.
type counts struct {
	wMin, wMax, bMin, bMax int64
	unbounded              bool
}

func (c counts) plus(d counts) counts {
	return counts{sat(c.wMin + d.wMin), sat(c.wMax + d.wMax), sat(c.bMin + d.bMin), sat(c.bMax + d.bMax), c.unbounded || d.unbounded}
}

func (c counts) times(n int64) counts {
	mul := func(x int64) int64 {
		if x == 0 || n == 0 {
			return 0
		}
		if x > stepCap/n {
			return stepCap
		}
		return x * n
	}
	return counts{mul(c.wMin), mul(c.wMax), mul(c.bMin), mul(c.bMax), c.unbounded}
}

// StepBoundsOf counts the steps a run of the valid workflow a can take. A
// function (a script) takes none.
func StepBoundsOf(a *ArtifactIR) StepBounds {
	var out StepBounds
	if a.IsScript() {
		out.Work.Bounded, out.Billed.Bounded = true, true
		return out
	}
	w := &stepWalker{g: NewGraph(a), seen: map[string]bool{}}
	total, _ := w.walk(a.EntryNodeID, func(id string, c counts) {
		if c.bMax > out.HeaviestSteps || out.Heaviest == "" {
			out.Heaviest, out.HeaviestSteps = id, c.bMax
		}
	})
	out.Work = StepRange{Min: total.wMin, Max: total.wMax, Bounded: !total.unbounded}
	out.Billed = StepRange{Min: total.bMin, Max: total.bMax, Bounded: !total.unbounded}
	out.Unbounded = w.unbounded
	return out
}

type stepWalker struct {
	g         *Graph
	seen      map[string]bool // guards against a malformed graph
	unbounded []string
}

// walk counts the nodes from start along plain and then edges (and into
// the join a container's lanes lead into), as the compiler emits them, and
// reports the join the lane leads into (counted by the container whose
// lanes meet there); each node's own counts go to each when it is not nil.
func (w *stepWalker) walk(start string, each func(string, counts)) (counts, string) {
	var total counts
	id := start
	for id != "" && !w.seen[id] {
		w.seen[id] = true
		n := w.g.Node(id)
		if n == nil {
			break
		}
		c, join := w.node(n)
		if each != nil {
			each(id, c)
		}
		total = total.plus(c)
		if join != "" {
			id = join
			continue
		}
		next := ""
		if IsContainer(n.Type) {
			if e, ok := w.g.Then(id); ok {
				next = e.Target
			}
		} else if out := w.g.Out(id); len(out) > 0 {
			next = out[0].Target
		}
		if next != "" && len(w.g.In(next)) > 1 {
			return total, next
		}
		id = next
	}
	return total, ""
}

// node counts one node (a container with its lanes) and reports the join
// its lanes lead into.
func (w *stepWalker) node(n *Node) (counts, string) {
	switch n.Type {
	case TypeStep, TypeHTTPRequest, TypeSubWorkflow:
		return counts{1, 1, 1, 1, false}, ""
	case TypeSleep, TypeSleepUntil, TypeWaitForEvent:
		return counts{0, 0, 1, 1, false}, ""
	case TypeBreak:
		return counts{}, ""
	case TypeAgent:
		return agentCounts(n), ""
	case TypeBranch, TypeParallel, TypeRace, TypeTryCatch, TypeLoop:
		return w.container(n)
	}
	return counts{1, 1, 1, 1, false}, "" // a marketplace node: one step.do
}

// agentCounts: at least one model call; at most maxTurns of them, each
// followed by up to AgentMaxCallsPerTurn tool calls (steps) and, for tools
// that need an approval, as many waits.
func agentCounts(n *Node) counts {
	turns := int64(AgentDefaultMaxTurns)
	if t, ok := n.Data["maxTurns"].(float64); ok && t >= 1 {
		turns = int64(t)
	}
	tools := int64(0)
	if len(AgentTools(n.Data)) > 0 {
		tools = turns * AgentMaxCallsPerTurn
	}
	waits := int64(0)
	if a, ok := n.Data["approval"].([]any); ok && len(a) > 0 {
		waits = tools
	}
	return counts{1, turns + tools, 1, turns + tools + waits, false}
}

func (w *stepWalker) container(n *Node) (counts, string) {
	var join string
	laneOf := func(e Edge) counts {
		c, j := w.walk(e.Target, nil)
		if j != "" && join == "" {
			join = j
		}
		return c
	}
	var c counts
	switch n.Type {
	case TypeBranch:
		arms, hasElse := 0, false
		if bs, ok := n.Data["branches"].([]any); ok {
			for _, b := range bs {
				if m, ok := b.(map[string]any); ok {
					if cond, _ := m["condition"].(string); strings.TrimSpace(cond) == "" {
						hasElse = true
					}
				}
			}
		}
		first := true
		for _, e := range w.g.Out(n.ID) {
			if e.Label == LabelThen {
				continue
			}
			arms++
			l := laneOf(e)
			if first {
				c, first = l, false
				continue
			}
			c = counts{min(c.wMin, l.wMin), max(c.wMax, l.wMax), min(c.bMin, l.bMin), max(c.bMax, l.bMax), c.unbounded || l.unbounded}
		}
		if !hasElse || arms == 0 {
			c.wMin, c.bMin = 0, 0 // no arm may match
		}
	case TypeParallel, TypeRace:
		first := true
		for _, e := range w.g.Out(n.ID) {
			if e.Label == LabelThen {
				continue
			}
			l := laneOf(e)
			if n.Type == TypeRace && !first {
				// The lanes that lose go on running: the most is every lane,
				// the fewest the fewest of one lane.
				c = counts{min(c.wMin, l.wMin), sat(c.wMax + l.wMax), min(c.bMin, l.bMin), sat(c.bMax + l.bMax), c.unbounded || l.unbounded}
				continue
			}
			c, first = c.plus(l), false
		}
	case TypeTryCatch:
		var try, catch, fin counts
		for _, e := range w.g.OutLabel(n.ID, LabelTry) {
			try = try.plus(laneOf(e))
		}
		for _, e := range w.g.OutLabel(n.ID, LabelCatch) {
			catch = catch.plus(laneOf(e))
		}
		for _, e := range w.g.OutLabel(n.ID, LabelFinally) {
			fin = fin.plus(laneOf(e))
		}
		// The try block may fail at its first step, then the catch runs.
		c = try.plus(catch)
		c.wMin, c.bMin = min(try.wMin, catch.wMin), min(try.bMin, catch.bMin)
		c = c.plus(fin)
	case TypeLoop:
		var body counts
		for _, e := range w.g.OutLabel(n.ID, LabelBody) {
			body = body.plus(laneOf(e))
		}
		iters, bounded, fixed := loopIterations(n)
		if !bounded {
			w.unbounded = append(w.unbounded, n.ID)
			body.unbounded = true
			iters = 1
		}
		c = body.times(iters)
		if !fixed || w.hasBreak(n.ID) {
			c.wMin, c.bMin = 0, 0
		}
	}
	return c, join
}

// loopIterations is the most iterations of loop n: a times loop's count, a
// forEach over a literal array its length, else maxIterations (declared,
// or for a while loop its default, which the compiled loop enforces).
// fixed reports that the loop always runs that many times.
func loopIterations(n *Node) (iters int64, bounded, fixed bool) {
	maxIter, declared := int64(1000), false
	if m, ok := n.Data["maxIterations"].(float64); ok && m >= 1 {
		maxIter, declared = int64(m), true
	}
	switch lt, _ := n.Data["loopType"].(string); lt {
	case "times":
		if c, ok := n.Data["count"].(float64); ok && c >= 1 {
			return int64(c), true, true
		}
		return 1, true, true
	case "while":
		return maxIter, true, false
	}
	// forEach
	if col, _ := n.Data["collection"].(string); col != "" {
		var lit []json.RawMessage
		if json.Unmarshal([]byte(strings.TrimSpace(col)), &lit) == nil {
			return int64(len(lit)), true, true
		}
	}
	if declared {
		return maxIter, true, false
	}
	return 0, false, false
}

// hasBreak reports whether a break node sits inside loop id's body.
func (w *stepWalker) hasBreak(id string) bool {
	for i := range w.g.ir.Nodes {
		m := &w.g.ir.Nodes[i]
		if m.Type != TypeBreak {
			continue
		}
		if e, ok := w.g.Enclosing(m.ID); ok && e.Source == id {
			return true
		}
	}
	return false
}

// MaxLiteralBytes is the largest step result and event payload Cloudflare
// accepts (1 MiB, both plans).
const MaxLiteralBytes = 1 << 20

// LiteralTooLarge names the nodes whose literal output or event payload
// exceeds MaxLiteralBytes: a step whose code is `return <JSON literal>`, a
// sub_workflow whose input (the child's event payload) holds no
// expression. Each problem has the rule limits and the field's path.
func LiteralTooLarge(a *ArtifactIR) []Problem {
	var out []Problem
	for i := range a.Nodes {
		n := &a.Nodes[i]
		switch n.Type {
		case TypeStep:
			code, _ := n.Data["code"].(string)
			if len(code) <= MaxLiteralBytes {
				continue
			}
			body := strings.TrimSpace(code)
			rest, ok := strings.CutPrefix(body, "return")
			if !ok {
				continue
			}
			lit := strings.TrimSuffix(strings.TrimSpace(rest), ";")
			if len(lit) > MaxLiteralBytes && json.Valid([]byte(lit)) {
				out = append(out, Problem{Path: nodePath(i, "data", "code"), NodeID: n.ID, Rule: RuleLimits,
					Message: fmt.Sprintf("node %q returns a literal of %d bytes; a step's result may be at most 1 MiB (%d bytes)", n.ID, len(lit), MaxLiteralBytes)})
			}
		case TypeSubWorkflow:
			in, _ := n.Data["input"].(string)
			if len(in) > MaxLiteralBytes && !hasExpr(in) {
				out = append(out, Problem{Path: nodePath(i, "data", "input"), NodeID: n.ID, Rule: RuleLimits,
					Message: fmt.Sprintf("node %q sends an event payload of %d bytes; a payload may be at most 1 MiB (%d bytes)", n.ID, len(in), MaxLiteralBytes)})
			}
		}
	}
	return out
}
