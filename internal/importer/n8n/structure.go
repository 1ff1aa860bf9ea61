package n8n

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/edgeflow/edgeflow/internal/ir"
)

// Structure: n8n's graph becomes the IR's containers. Following n8n's
// connections from the trigger:
//   - a chain of nodes stays a chain;
//   - the outputs of IF and Switch become branches, one per connected
//     output, each arm running when its output has items (arms follow each
//     other through "then", so that items sent to several outputs run each
//     of them, in output order, as n8n v1 does);
//   - several paths from one output (a fan-out) become a parallel
//     container's lanes;
//   - paths that meet again in a Merge (a node with several inputs) become
//     the lanes of a parallel container whose join is the Merge (several
//     Merges: a second parallel container after the first, one lane per
//     Merge); the paths of an IF or Switch that meet in a Merge become such
//     lanes too, labelled with the outputs;
//   - a node reached by several paths without a Merge runs once per path in
//     n8n, and is copied into each path;
//   - a Loop Over Items node becomes a loop (nodes_flow.go).
// A node reads its input items from the value of the node before it, which
// is upstream on every path of the IR. Items that leave a lane for a Merge
// after the container are read through the container's value (a lane's
// value is its last node's); when the lane's last node is not the one that
// feeds the Merge, a collector step at the end of the lane gathers them.

// exit is an n8n connection that leaves a lane for a node that a container
// around it joins (or a Loop Over Items node the lane loops back to): value
// is the code of the items it carries, readable at the end of the lane.
type exit struct {
	join  string
	input int
	src   string
	value string
}

// stops are the nodes where lanes end: the joins of the containers around
// them and the loop nodes they loop back to.
type stops map[string]bool

func (s stops) with(names ...string) stops {
	o := make(stops, len(s)+len(names))
	for k := range s {
		o[k] = true
	}
	for _, n := range names {
		o[n] = true
	}
	return o
}

// path is one outgoing connection: output out of the node to input of
// target.
type path struct {
	out    int
	target string
	input  int
}

func (c *converter) paths(name string) []path {
	var ps []path
	for o, list := range c.outs[name] {
		for _, e := range list {
			ps = append(ps, path{o, e.Node, e.Index})
		}
	}
	return ps
}

// input is one input of a node being emitted: the code of its items and
// where they come from.
type input struct {
	value string
	from  srcRef
}

// inputsFor answers the inputs of the n8n node name: those given (by input
// index), and for each other input that has sources, the items of a source
// readable in sc; an input whose sources are not readable here is empty and
// reported.
func (c *converter) inputsFor(name string, given map[int][]input, sc scope) [][]input {
	srcs := c.ins[name]
	n := len(srcs)
	for i := range given {
		if i+1 > n {
			n = i + 1
		}
	}
	ins := make([][]input, n)
	for i := range ins {
		if g := given[i]; len(g) > 0 {
			ins[i] = g
			continue
		}
		if i >= len(srcs) {
			continue
		}
		for _, s := range srcs[i] {
			if ref, ok := sc[s.name]; ok {
				ins[i] = append(ins[i], input{value: ref.output(s.out), from: s})
			}
		}
		if len(ins[i]) == 0 && len(srcs[i]) > 0 && len(given) > 0 {
			c.approximate(name, fmt.Sprintf("input %d comes from %q, on a path the import cannot join with this one: it is taken as empty", i+1, srcs[i][0].name))
		}
	}
	return ins
}

// from answers the input of a lane that starts at path p of the node whose
// items are at ref.
func from(name string, ref nodeRef, p path) map[int][]input {
	return map[int][]input{p.input: {{value: ref.output(p.out), from: srcRef{name, p.out}}}}
}

// lane emits the n8n node name fed by given and everything after it up to
// the stops, and answers the first and last IR nodes of the chain and the
// connections that leave it for a stop.
func (c *converter) lane(name string, given map[int][]input, sc scope, st stops) (first, last string, exits []exit) {
	if c.tooMany {
		return "", "", nil
	}
	n := c.byName[name]
	ins := c.inputsFor(name, given, sc)
	if n.shortType() == "splitInBatches" && n.TypeVersion >= 3 {
		return c.loopOverItems(n, ins, sc, st)
	}
	em := c.emit(n, ins, sc)
	sc[name] = em.ref
	first, last = em.first, em.last
	more, last2, ex := c.after(name, em.ref, sc, st)
	if more != "" {
		c.follow(last, more)
		last = last2
	}
	return first, last, ex
}

// after emits what follows the n8n node name (already emitted, its items
// at ref), and answers the first and last IR nodes emitted ("" when none)
// and the exits.
func (c *converter) after(name string, ref nodeRef, sc scope, st stops) (first, last string, exits []exit) {
	n := c.byName[name]
	var lanes []path
	for _, p := range c.paths(name) {
		if st[p.target] {
			exits = append(exits, exit{join: p.target, input: p.input, src: name, value: ref.output(p.out)})
			continue
		}
		if c.back[name+"\x00"+p.target] {
			c.approximate(name, fmt.Sprintf("its connection back to the loop %q from outside the loop's body is left out", p.target))
			continue
		}
		lanes = append(lanes, p)
	}
	if len(lanes) == 0 {
		return "", "", exits
	}
	joins := c.findJoins(name, lanes, st)
	reaches := c.reachesStop(lanes, st)
	// The paths straight into a join are not lanes.
	var direct []exit
	if len(joins) > 0 {
		isJoin := map[string]bool{}
		for _, j := range joins {
			isJoin[j] = true
		}
		var rest []path
		for _, p := range lanes {
			if isJoin[p.target] {
				direct = append(direct, exit{join: p.target, input: p.input, src: name, value: ref.output(p.out)})
				continue
			}
			rest = append(rest, p)
		}
		lanes = rest
	}
	switch {
	case len(joins) == 1 && len(lanes) == 0:
		// Every path goes straight into the join: it follows in the chain.
		f, l, ex := c.joinAt(joins[0], parallelOut{joins: direct}, sc, st)
		return f, l, append(exits, ex...)
	case len(joins) == 0 && len(lanes) == 1 && (!isMultiOutput(n) || reaches):
		p := lanes[0]
		f, l, ex := c.lane(p.target, from(name, ref, p), sc, st)
		return f, l, append(exits, ex...)
	case len(joins) == 0 && !reaches && isMultiOutput(n):
		f, l := c.branches(name, ref, lanes, sc)
		return f, l, exits
	}
	var par parallelOut
	if len(lanes) > 0 {
		par = c.parallel(name, ref, lanes, sc, st.with(joins...), joins, direct)
		exits = append(exits, par.outer...)
		first, last = par.id, par.id
	} else {
		par.joins = direct
	}
	switch len(joins) {
	case 0:
		return first, last, exits
	case 1:
		f, l, ex := c.joinAt(joins[0], par, sc, st)
		if first == "" {
			first = f
		}
		return first, l, append(exits, ex...)
	}
	// Several Merges join the paths: each starts a lane of a container
	// after the first, reading its inputs through the first's value.
	jp := c.joinLanes(name, joins, par, sc, st)
	exits = append(exits, jp.outer...)
	if first == "" {
		return jp.id, jp.id, exits
	}
	c.follow(first, jp.id)
	return first, jp.id, exits
}

// isMultiOutput reports whether the node routes items to several outputs
// (IF, Switch, a node whose errors go to an error output), whose paths
// become branch arms.
func isMultiOutput(n *Node) bool {
	switch n.shortType() {
	case "if", "switch":
		return true
	}
	return n.OnError == "continueErrorOutput"
}

// reachesStop reports whether some path from the lanes reaches a stop.
func (c *converter) reachesStop(lanes []path, st stops) bool {
	if len(st) == 0 {
		return false
	}
	seen := map[string]bool{}
	var stack []string
	for _, p := range lanes {
		stack = append(stack, p.target)
	}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if st[n] {
			return true
		}
		if seen[n] {
			continue
		}
		seen[n] = true
		for _, p := range c.paths(n) {
			stack = append(stack, p.target)
		}
	}
	return false
}

// findJoins answers the nodes with several inputs (Merges) that two or more
// of the paths reach before any stop and before any other such node: the
// joins of the container the paths become, nearest first.
func (c *converter) findJoins(from string, lanes []path, st stops) []string {
	reachedBy := map[string]map[int]bool{}
	dist := map[string]int{}
	for i, p := range lanes {
		seen := map[string]bool{}
		type item struct {
			n string
			d int
		}
		queue := []item{{p.target, 1}}
		for len(queue) > 0 {
			it := queue[0]
			queue = queue[1:]
			if seen[it.n] || st[it.n] || it.n == from {
				continue
			}
			seen[it.n] = true
			if c.multiInput(it.n) {
				if reachedBy[it.n] == nil {
					reachedBy[it.n] = map[int]bool{}
				}
				reachedBy[it.n][i] = true
				if d, ok := dist[it.n]; !ok || it.d < d {
					dist[it.n] = it.d
				}
				continue
			}
			for _, q := range c.paths(it.n) {
				if !c.back[it.n+"\x00"+q.target] {
					queue = append(queue, item{q.target, it.d + 1})
				}
			}
		}
	}
	var out []string
	for n, by := range reachedBy {
		if len(by) >= 2 {
			out = append(out, n)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if dist[out[i]] != dist[out[j]] {
			return dist[out[i]] < dist[out[j]]
		}
		return out[i] < out[j]
	})
	return out
}

// multiInput reports whether the node takes several inputs (a Merge).
func (c *converter) multiInput(name string) bool {
	return len(c.ins[name]) > 1
}

// emitted is what emitting one n8n node made: its first and last IR nodes
// and where its items are.
type emitted struct {
	first, last string
	ref         nodeRef
}

// parallelOut is an emitted parallel container: its id, the ends of the
// lanes that lead into its join, the exits into its joins and the exits to
// the stops outside it.
type parallelOut struct {
	id    string
	ends  []string
	joins []exit
	outer []exit
}

// laneSpec is one lane of a container: the node it starts at and that
// node's given inputs.
type laneSpec struct {
	label  string
	target string
	given  map[int][]input
}

// parallel emits a parallel container whose lanes are the paths from the
// split node name, each lane ending where it leaves for a stop; joins are
// the container's own joins, direct the exits of the split node straight
// into them.
func (c *converter) parallel(name string, ref nodeRef, paths []path, sc scope, st stops, joins []string, direct []exit) parallelOut {
	n := c.byName[name]
	var specs []laneSpec
	for _, p := range paths {
		specs = append(specs, laneSpec{label: c.laneLabel(n, p), target: p.target, given: from(name, ref, p)})
	}
	out := c.container(name, "paths", n.Name+" (paths)", specs, sc, st, joins)
	out.joins = append(direct, out.joins...)
	return out
}

// container emits a parallel container with the given lanes.
func (c *converter) container(name, suffix, label string, specs []laneSpec, sc scope, st stops, joins []string) parallelOut {
	n := c.byName[name]
	id := c.newID(name, suffix)
	c.addNode(name, ir.Node{ID: id, Type: ir.TypeParallel, Name: label, Position: c.pos(n, 200, 0), Data: map[string]any{}})
	out := parallelOut{id: id}
	isJoin := map[string]bool{}
	for _, j := range joins {
		isJoin[j] = true
	}
	k := 0
	for _, spec := range specs {
		f, l, ex := c.lane(spec.target, spec.given, sc.copy(), st)
		if f == "" {
			continue
		}
		c.link(id, spec.label, f)
		lane := k
		k++
		if len(ex) == 0 {
			continue
		}
		// The lane's value must hold what leaves it: its last node's
		// value when that is all, else a collector at its end.
		laneValue := "{{" + id + "}}[" + strconv.Itoa(lane) + "]"
		if len(ex) == 1 && ex[0].value == "{{"+l+"}}" {
			ex[0].value = laneValue
		} else {
			t := c.byName[spec.target]
			col := c.newID(spec.target, "out")
			var vals []string
			for _, e := range ex {
				vals = append(vals, e.value)
			}
			c.addNode(spec.target, ir.Node{ID: col, Type: ir.TypeStep, Name: t.Name + " (items out)", Position: c.pos(t, 0, 300),
				Data: map[string]any{"code": "// The items that leave this lane, for the nodes after it.\nreturn [" + strings.Join(vals, ", ") + "];"}})
			c.follow(l, col)
			l = col
			for j := range ex {
				ex[j].value = laneValue + "[" + strconv.Itoa(j) + "]"
			}
		}
		leads := false
		for _, e := range ex {
			if isJoin[e.join] {
				out.joins = append(out.joins, e)
				leads = true
			} else {
				out.outer = append(out.outer, e)
			}
		}
		if leads {
			out.ends = append(out.ends, l)
		}
	}
	if k == 0 {
		// A parallel needs a lane.
		stub := c.newID(name, "pass")
		c.addNode(name, ir.Node{ID: stub, Type: ir.TypeStep, Name: n.Name + " (pass)", Position: c.pos(n, 200, 150),
			Data: map[string]any{"code": "return null;"}})
		c.link(id, "", stub)
	}
	return out
}

// laneLabel names a lane after the output it starts from: "true"/"false"
// for IF, the output's name for Switch, none for a plain fan-out.
func (c *converter) laneLabel(n *Node, p path) string {
	if isMultiOutput(n) {
		return outputLabel(n, p.out)
	}
	return ""
}

// joinInputs are the given inputs of a join from the exits that lead into
// it.
func joinInputs(join string, ex []exit) map[int][]input {
	given := map[int][]input{}
	for _, e := range ex {
		if e.join == join {
			given[e.input] = append(given[e.input], input{value: e.value, from: srcRef{e.src, 0}})
		}
	}
	return given
}

// joinAt emits the join node after a parallel container (or, without one,
// after the split node) and what follows it.
func (c *converter) joinAt(join string, par parallelOut, sc scope, st stops) (first, last string, exits []exit) {
	jn := c.byName[join]
	ins := c.inputsFor(join, joinInputs(join, par.joins), sc)
	em := c.emit(jn, ins, sc)
	// Lanes that lead into the join end in it; when none does, the join
	// continues after the container.
	for _, end := range par.ends {
		c.link(end, "", em.first)
	}
	if len(par.ends) == 0 && par.id != "" {
		c.follow(par.id, em.first)
	}
	sc[join] = em.ref
	f, l, ex := c.after(join, em.ref, sc, st)
	last = em.last
	if f != "" {
		c.follow(em.last, f)
		last = l
	}
	return em.first, last, ex
}

// joinLanes emits, after a container whose paths several Merges join, a
// container with one lane per Merge.
func (c *converter) joinLanes(name string, joins []string, par parallelOut, sc scope, st stops) parallelOut {
	var specs []laneSpec
	for _, j := range joins {
		specs = append(specs, laneSpec{target: j, given: joinInputs(j, par.joins)})
	}
	n := c.byName[name]
	return c.container(name, "merges", n.Name+" (merges)", specs, sc, st, nil)
}

// branches emits the paths of an IF or Switch node as branches, one per
// output that has connections: each arm runs when its output has items. An
// output's arm runs after the previous one's (through "then"), so that
// items sent to several outputs run every one of them, in output order as
// n8n v1 does.
func (c *converter) branches(name string, ref nodeRef, lanes []path, sc scope) (first, last string) {
	n := c.byName[name]
	byOut := map[int][]path{}
	var order []int
	for _, p := range lanes {
		if _, ok := byOut[p.out]; !ok {
			order = append(order, p.out)
		}
		byOut[p.out] = append(byOut[p.out], p)
	}
	sort.Ints(order)
	prev := ""
	for i, o := range order {
		label := outputLabel(n, o)
		id := c.newID(name, label)
		c.addNode(name, ir.Node{ID: id, Type: ir.TypeBranch, Name: fmt.Sprintf("%s: %s?", n.Name, label), Position: c.pos(n, 200*float64(i), 150),
			Data: map[string]any{"branches": []any{map[string]any{"label": label, "condition": ref.output(o) + ".length > 0"}}}})
		if prev == "" {
			first = id
		} else {
			c.link(prev, ir.LabelThen, id)
		}
		prev = id
		ps := byOut[o]
		if len(ps) == 1 {
			f, _, _ := c.lane(ps[0].target, from(name, ref, ps[0]), sc.copy(), nil)
			c.link(id, label, f)
			continue
		}
		par := c.parallel(name, ref, ps, sc, nil, nil, nil)
		c.link(id, label, par.id)
	}
	return first, prev
}

// outputLabel names output o of a multi-output node.
func outputLabel(n *Node, o int) string {
	switch n.shortType() {
	case "if", "filter":
		if o == 0 {
			return "true"
		}
		return "false"
	case "switch":
		return switchOutputLabel(n, o)
	}
	if n.OnError == "continueErrorOutput" {
		if o == 0 {
			return "success"
		}
		return "error"
	}
	return "output " + strconv.Itoa(o)
}

// follow continues the chain from one IR node to the next: a plain edge, or
// "then" after a container.
func (c *converter) follow(from, to string) {
	if ir.IsContainer(c.types[from]) {
		c.link(from, ir.LabelThen, to)
		return
	}
	c.link(from, "", to)
}
