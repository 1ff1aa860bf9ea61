package ir

import "slices"

// Graph is an index over an IR's nodes and edges for validation and code
// generation. It tolerates invalid IRs: edges whose source or target is not a
// node are left out, and of several nodes with the same id the first one
// counts. All orders are deterministic: edges keep their order in the IR's
// edges array, nodes their order in the nodes array.
//
// A Graph must not be used after the IR it was built from is modified.
type Graph struct {
	ir    *ArtifactIR
	index map[string]int
	dup   []bool    // node i repeats an earlier node's id
	src   []int32   // source node of each edge, -1 when an end is not a node
	dst   []int32   // target node of each edge
	out   [][]int32 // edge indices by source node, in edges order
	in    [][]int32 // edge indices by target node, in edges order
	entry int

	reachable []bool
	preorder  []int32 // reachable nodes in preorder of the dominator tree
	idom      []int32 // immediate dominator, -1 for the entry and unreachable nodes
	pre, post []int32 // dominator tree interval numbering
	enclosing []int32 // edge index starting the innermost lane holding a node, -1 if none

	// The container tree: a node's parent is the container whose lane holds
	// it (the source of its enclosing edge).
	depth []int32 // containers enclosing a node: 0 at the top level
	outer []int32 // innermost enclosing loop, parallel or race, -1 if none
	cpre  []int32 // container tree interval numbering (preorder)
	cpost []int32 // the largest cpre inside a node's subtree
}

// ContainerTypes are the builtin node types whose labelled outgoing edges
// start lanes.
var containerTypes = map[string]bool{
	TypeBranch: true, TypeParallel: true, TypeRace: true, TypeTryCatch: true, TypeLoop: true,
}

// IsContainer reports whether nodes of type typ are containers (branch,
// parallel, race, try_catch, loop).
func IsContainer(typ string) bool { return containerTypes[typ] }

// NewGraph indexes a. It never fails; problems of the IR are for Validate to
// report.
func NewGraph(a *ArtifactIR) *Graph {
	n := len(a.Nodes)
	g := &Graph{
		ir:    a,
		index: make(map[string]int, n),
		out:   make([][]int32, n),
		in:    make([][]int32, n),
		entry: -1,
	}
	g.dup = make([]bool, n)
	for i := range a.Nodes {
		if _, dup := g.index[a.Nodes[i].ID]; !dup {
			g.index[a.Nodes[i].ID] = i
		} else {
			g.dup[i] = true
		}
	}
	// Adjacency in compressed form: one backing array per direction.
	src := make([]int32, len(a.Edges))
	dst := make([]int32, len(a.Edges))
	g.src, g.dst = src, dst
	outCount := make([]int32, n+1)
	inCount := make([]int32, n+1)
	for i, e := range a.Edges {
		s, ok1 := g.index[e.Source]
		t, ok2 := g.index[e.Target]
		if !ok1 || !ok2 {
			src[i] = -1
			continue
		}
		src[i], dst[i] = int32(s), int32(t)
		outCount[s]++
		inCount[t]++
	}
	outBuf := make([]int32, 0, len(a.Edges))
	inBuf := make([]int32, len(a.Edges))
	inAt := make([]int32, n)
	var total int32
	for i := range n {
		g.out[i] = outBuf[len(outBuf) : len(outBuf) : len(outBuf)+int(outCount[i])]
		outBuf = outBuf[:len(outBuf)+int(outCount[i])]
		inAt[i] = total
		total += inCount[i]
	}
	for i := range a.Edges {
		if src[i] < 0 {
			continue
		}
		s, t := src[i], dst[i]
		g.out[s] = append(g.out[s], int32(i))
		inBuf[inAt[t]] = int32(i)
		inAt[t]++
	}
	total = 0
	for i := range n {
		g.in[i] = inBuf[total : total+inCount[i] : total+inCount[i]]
		total += inCount[i]
	}
	if i, ok := g.index[a.EntryNodeID]; ok {
		g.entry = i
	}
	g.dominators()
	g.lanes()
	g.containerTree()
	return g
}

// IR returns the IR the graph indexes.
func (g *Graph) IR() *ArtifactIR { return g.ir }

// Len is the number of nodes (including duplicates).
func (g *Graph) Len() int { return len(g.ir.Nodes) }

// Index returns the position in IR.Nodes of the node with the given id.
func (g *Graph) Index(id string) (int, bool) {
	i, ok := g.index[id]
	return i, ok
}

// Node returns the node with the given id, or nil.
func (g *Graph) Node(id string) *Node {
	if i, ok := g.index[id]; ok {
		return &g.ir.Nodes[i]
	}
	return nil
}

// Entry returns the entry node, or nil when entryNodeId names no node.
func (g *Graph) Entry() *Node {
	if g.entry < 0 {
		return nil
	}
	return &g.ir.Nodes[g.entry]
}

func (g *Graph) edges(list []int32) []Edge {
	out := make([]Edge, len(list))
	for i, e := range list {
		out[i] = g.ir.Edges[e]
	}
	return out
}

// Out returns the outgoing edges of a node in the order of the IR's edges.
func (g *Graph) Out(id string) []Edge {
	i, ok := g.index[id]
	if !ok {
		return nil
	}
	return g.edges(g.out[i])
}

// In returns the incoming edges of a node in the order of the IR's edges.
func (g *Graph) In(id string) []Edge {
	i, ok := g.index[id]
	if !ok {
		return nil
	}
	return g.edges(g.in[i])
}

// OutLabel returns the outgoing edges of a node that carry label, in the
// order of the IR's edges ("" selects unlabelled edges).
func (g *Graph) OutLabel(id, label string) []Edge {
	i, ok := g.index[id]
	if !ok {
		return nil
	}
	var out []Edge
	for _, e := range g.out[i] {
		if g.ir.Edges[e].Label == label {
			out = append(out, g.ir.Edges[e])
		}
	}
	return out
}

// Labels returns the distinct labels of a node's outgoing edges in the order
// they first appear ("" for unlabelled edges).
func (g *Graph) Labels(id string) []string {
	i, ok := g.index[id]
	if !ok {
		return nil
	}
	var out []string
	for _, e := range g.out[i] {
		if l := g.ir.Edges[e].Label; !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

// Then returns the first "then" edge of a node.
func (g *Graph) Then(id string) (Edge, bool) {
	l := g.OutLabel(id, LabelThen)
	if len(l) == 0 {
		return Edge{}, false
	}
	return l[0], true
}

// Reachable reports whether the node can be reached from the entry node.
func (g *Graph) Reachable(id string) bool {
	i, ok := g.index[id]
	return ok && g.reachable[i]
}

// Upstream reports whether ancestor is on every path from the entry node to
// id and is not id itself (ancestor strictly dominates id). Both must be
// reachable from the entry.
func (g *Graph) Upstream(ancestor, id string) bool {
	a, ok1 := g.index[ancestor]
	b, ok2 := g.index[id]
	if !ok1 || !ok2 || a == b || !g.reachable[a] || !g.reachable[b] {
		return false
	}
	return g.pre[a] < g.pre[b] && g.post[b] < g.post[a]
}

// ImmediateUpstream returns the immediate dominator of id: the closest node
// on every path from the entry to id. It returns "" for the entry node and
// for unreachable nodes.
func (g *Graph) ImmediateUpstream(id string) string {
	i, ok := g.index[id]
	if !ok || g.idom[i] < 0 {
		return ""
	}
	return g.ir.Nodes[g.idom[i]].ID
}

// Enclosing returns the edge that starts the innermost lane (a branch arm,
// parallel or race lane, try/catch/finally block or loop body) holding id:
// its Source is the container and its Label says which lane. The second
// result is false for nodes at the top level and unreachable nodes. A join
// or the target of a "then" edge belongs to the lane enclosing its container.
func (g *Graph) Enclosing(id string) (Edge, bool) {
	i, ok := g.index[id]
	if !ok || g.enclosing[i] < 0 {
		return Edge{}, false
	}
	return g.ir.Edges[g.enclosing[i]], true
}

// TopoOrder returns the node ids in a topological order (every edge's source
// before its target; among ready nodes, IR order first). When the graph has a
// cycle it returns the nodes it could order and ok false; use Cycles to name
// the nodes on them.
func (g *Graph) TopoOrder() (order []string, ok bool) {
	n := len(g.ir.Nodes)
	indeg := make([]int32, n)
	for i := range n {
		if g.dup[i] {
			continue // duplicate id: not part of the graph
		}
		indeg[i] = int32(len(g.in[i]))
	}
	queue := make([]int32, 0, n)
	for i := range n {
		if indeg[i] == 0 && !g.dup[i] {
			queue = append(queue, int32(i))
		}
	}
	order = make([]string, 0, n)
	for h := 0; h < len(queue); h++ {
		v := queue[h]
		order = append(order, g.ir.Nodes[v].ID)
		for _, e := range g.out[v] {
			t := int(g.dst[e])
			indeg[t]--
			if indeg[t] == 0 {
				queue = append(queue, int32(t))
			}
		}
	}
	return order, len(order) == len(g.index)
}

// Cycles returns one cycle per strongly connected component that has one,
// each as the node ids along the cycle (the edge from the last back to the
// first closes it). Components come in the order of their first node in the
// IR. An acyclic graph gives nil.
func (g *Graph) Cycles() [][]string {
	n := len(g.ir.Nodes)
	comp := g.components()
	size := make([]int32, n+1)
	for _, c := range comp {
		if c >= 0 {
			size[c]++
		}
	}
	var cycles [][]string
	seen := make(map[int32]bool)
	for i := range n {
		c := comp[i]
		if c < 0 || seen[c] {
			continue
		}
		if size[c] == 1 {
			self := false
			for _, e := range g.out[i] {
				if int(g.dst[e]) == i {
					self = true
				}
			}
			if !self {
				continue
			}
		}
		seen[c] = true
		// Walk inside the component until a node repeats.
		at := make(map[int32]int)
		var path []int32
		v := int32(i)
		for {
			if k, ok := at[v]; ok {
				path = path[k:]
				break
			}
			next := int32(-1)
			for _, e := range g.out[v] {
				t := int32(int(g.dst[e]))
				if comp[t] == c {
					next = t
					break
				}
			}
			if next < 0 { // single node without a self-loop
				path = nil
				break
			}
			at[v] = len(path)
			path = append(path, v)
			v = next
		}
		if len(path) == 0 {
			continue
		}
		ids := make([]string, len(path))
		for k, p := range path {
			ids[k] = g.ir.Nodes[p].ID
		}
		cycles = append(cycles, ids)
	}
	return cycles
}

// components labels each node with its strongly connected component (Tarjan,
// iterative). Nodes in no cycle-capable component get -1 only if they are
// duplicates; every other node gets a component number.
func (g *Graph) components() []int32 {
	n := len(g.ir.Nodes)
	idx := make([]int32, n)
	low := make([]int32, n)
	comp := make([]int32, n)
	onStack := make([]bool, n)
	for i := range n {
		idx[i], comp[i] = -1, -1
	}
	var stack []int32
	type frame struct {
		v    int32
		edge int
	}
	var counter, ncomp int32
	for root := range n {
		if idx[root] >= 0 || g.dup[root] {
			continue
		}
		call := []frame{{v: int32(root)}}
		idx[root], low[root] = counter, counter
		counter++
		stack = append(stack, int32(root))
		onStack[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			v := f.v
			if f.edge < len(g.out[v]) {
				t := g.dst[g.out[v][f.edge]]
				f.edge++
				if idx[t] < 0 {
					idx[t], low[t] = counter, counter
					counter++
					stack = append(stack, t)
					onStack[t] = true
					call = append(call, frame{v: t})
				} else if onStack[t] && idx[t] < low[v] {
					low[v] = idx[t]
				}
				continue
			}
			call = call[:len(call)-1]
			if len(call) > 0 {
				p := call[len(call)-1].v
				if low[v] < low[p] {
					low[p] = low[v]
				}
			}
			if low[v] == idx[v] {
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp[w] = ncomp
					if w == v {
						break
					}
				}
				ncomp++
			}
		}
	}
	return comp
}

// dominators computes reachability from the entry and the dominator tree
// (Cooper, Harvey and Kennedy's iterative algorithm over reverse postorder),
// then numbers the tree so that Upstream is O(1).
func (g *Graph) dominators() {
	n := len(g.ir.Nodes)
	g.reachable = make([]bool, n)
	g.idom = make([]int32, n)
	g.pre = make([]int32, n)
	g.post = make([]int32, n)
	for i := range g.idom {
		g.idom[i] = -1
	}
	if g.entry < 0 {
		return
	}
	// Iterative DFS for postorder.
	order := make([]int32, 0, n) // postorder
	type frame struct {
		v    int32
		edge int
	}
	call := []frame{{v: int32(g.entry)}}
	g.reachable[g.entry] = true
	for len(call) > 0 {
		f := &call[len(call)-1]
		if f.edge < len(g.out[f.v]) {
			t := int(g.dst[g.out[f.v][f.edge]])
			f.edge++
			if !g.reachable[t] {
				g.reachable[t] = true
				call = append(call, frame{v: int32(t)})
			}
			continue
		}
		order = append(order, f.v)
		call = call[:len(call)-1]
	}
	po := make([]int32, n) // postorder number
	for i, v := range order {
		po[v] = int32(i)
	}
	idom := g.idom
	idom[g.entry] = int32(g.entry)
	intersect := func(a, b int32) int32 {
		for a != b {
			for po[a] < po[b] {
				a = idom[a]
			}
			for po[b] < po[a] {
				b = idom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for k := len(order) - 1; k >= 0; k-- {
			v := order[k]
			if int(v) == g.entry {
				continue
			}
			nd := int32(-1)
			for _, e := range g.in[v] {
				p := int32(int(g.src[e]))
				if !g.reachable[p] || idom[p] < 0 {
					continue
				}
				if nd < 0 {
					nd = p
				} else {
					nd = intersect(p, nd)
				}
			}
			if nd >= 0 && idom[v] != nd {
				idom[v] = nd
				changed = true
			}
		}
	}
	idom[g.entry] = -1
	// Number the dominator tree (children in reverse postorder).
	children := make([][]int32, n)
	for k := len(order) - 1; k >= 0; k-- {
		v := order[k]
		if idom[v] >= 0 {
			children[idom[v]] = append(children[idom[v]], v)
		}
	}
	var clock int32
	type tf struct {
		v int32
		c int
	}
	st := []tf{{v: int32(g.entry)}}
	g.pre[g.entry] = clock
	clock++
	g.preorder = make([]int32, 0, len(order))
	g.preorder = append(g.preorder, int32(g.entry))
	for len(st) > 0 {
		f := &st[len(st)-1]
		if f.c < len(children[f.v]) {
			c := children[f.v][f.c]
			f.c++
			g.pre[c] = clock
			clock++
			g.preorder = append(g.preorder, c)
			st = append(st, tf{v: c})
			continue
		}
		g.post[f.v] = clock
		clock++
		st = st[:len(st)-1]
	}
}

// lanes computes Enclosing for every reachable node, in dominator-tree
// order so that a node's source or dominator is done before it.
func (g *Graph) lanes() {
	n := len(g.ir.Nodes)
	g.enclosing = make([]int32, n)
	for i := range g.enclosing {
		g.enclosing[i] = -1
	}
	if g.entry < 0 {
		return
	}
	// Visit reachable nodes in preorder of the dominator tree: a node's
	// dominator (and its single predecessor, which dominates it) comes first.
	for _, v := range g.preorder {
		if int(v) == g.entry {
			continue
		}
		var src int32 = -1
		var via int32 = -1
		if len(g.in[v]) == 1 {
			via = g.in[v][0]
			src = int32(int(g.src[via]))
		} else {
			src = g.idom[v]
		}
		if src < 0 {
			continue
		}
		if via >= 0 && IsContainer(g.ir.Nodes[src].Type) && g.ir.Edges[via].Label != LabelThen {
			g.enclosing[v] = via
			continue
		}
		g.enclosing[v] = g.enclosing[src]
	}
}

// containerTree derives from Enclosing, in time linear in the nodes, what
// the checks of nested containers ask: each node's nesting depth, its
// innermost enclosing loop, parallel or race, and an interval numbering of
// the tree of lanes so that "is this node inside that container" is O(1)
// however deep the nesting (decision 330).
func (g *Graph) containerTree() {
	n := len(g.ir.Nodes)
	g.depth = make([]int32, n)
	g.outer = make([]int32, n)
	g.cpre = make([]int32, n)
	g.cpost = make([]int32, n)
	for i := range n {
		g.outer[i], g.cpre[i], g.cpost[i] = -1, -1, -1
	}
	children := make([]int32, n) // count, then fill position
	roots := 0
	for _, v := range g.preorder {
		c := g.parent(v)
		if c < 0 {
			roots++
			continue
		}
		// The container dominates v: preorder has it first.
		g.depth[v] = g.depth[c] + 1
		switch g.ir.Nodes[c].Type {
		case TypeLoop, TypeParallel, TypeRace:
			g.outer[v] = c
		default:
			g.outer[v] = g.outer[c]
		}
		children[c]++
	}
	// Children lists in one backing array, in preorder.
	start := make([]int32, n+1)
	for i := range n {
		start[i+1] = start[i] + children[i]
	}
	kids := make([]int32, start[n])
	fill := children
	for i := range fill {
		fill[i] = start[i]
	}
	top := make([]int32, 0, roots)
	for _, v := range g.preorder {
		if c := g.parent(v); c >= 0 {
			kids[fill[c]] = v
			fill[c]++
		} else {
			top = append(top, v)
		}
	}
	var clock int32
	type frame struct{ v, k int32 }
	var st []frame
	for _, r := range top {
		st = append(st[:0], frame{v: r, k: start[r]})
		g.cpre[r] = clock
		clock++
		for len(st) > 0 {
			f := &st[len(st)-1]
			if f.k < start[f.v+1] {
				c := kids[f.k]
				f.k++
				g.cpre[c] = clock
				clock++
				st = append(st, frame{v: c, k: start[c]})
				continue
			}
			g.cpost[f.v] = clock - 1
			st = st[:len(st)-1]
		}
	}
}

// parent is the container whose lane holds node v, -1 at the top level.
func (g *Graph) parent(v int32) int32 {
	e := g.enclosing[v]
	if e < 0 {
		return -1
	}
	return g.src[e]
}

// Depth returns how many containers enclose the node: 0 for a node at the
// top level (and for unreachable nodes), 1 for a node in a lane of a
// top-level container, and so on.
func (g *Graph) Depth(id string) int {
	i, ok := g.index[id]
	if !ok {
		return 0
	}
	return int(g.depth[i])
}

// inside reports whether node v lies in a lane of container c, at any depth.
func (g *Graph) inside(v, c int) bool {
	return v != c && g.cpre[c] >= 0 && g.cpre[v] > g.cpre[c] && g.cpre[v] <= g.cpost[c]
}
