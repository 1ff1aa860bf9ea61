package n8n

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/importer"
	"github.com/edgeflow/edgeflow/internal/ir"
)

// Options are what a conversion needs besides the workflow.
type Options struct {
	// Name replaces the workflow's name in the IR's metadata.
	Name string
	// SubWorkflows maps the id of an n8n workflow to the id of the
	// edgeflow workflow it was imported as: an Execute Workflow node that
	// calls one of them becomes a sub_workflow node.
	SubWorkflows map[string]string
}

// Convert converts an n8n workflow to an IR. The IR validates as it is
// (given the marketplace nodes the report lists); every n8n node appears in
// the report. It fails (validation_failed) only when the workflow has no
// trigger or start node at all, or when the IR would exceed MaxIRNodes.
func Convert(w *Workflow, opts Options) (*importer.Result, error) {
	c := newConverter(w, opts)
	if err := c.run(); err != nil {
		return nil, err
	}
	name := strings.TrimSpace(opts.Name)
	if name == "" {
		name = strings.TrimSpace(w.Name)
	}
	if name == "" {
		name = "Imported from n8n"
	}
	a := ir.ArtifactIR{
		Metadata:    ir.Metadata{Name: name, Description: c.description()},
		Nodes:       c.nodes,
		Edges:       c.edges,
		EntryNodeID: c.entry,
		Trigger:     c.trigger,
	}
	if c.script {
		a.Kind = ir.KindScript
	}
	if a.Edges == nil {
		a.Edges = []ir.Edge{}
	}
	raw, err := json.Marshal(irDocument(&a))
	if err != nil {
		return nil, err
	}
	c.rep.Normalize()
	return &importer.Result{IR: raw, Report: c.rep, TriggerCode: c.triggerCode}, nil
}

// irDocument is the IR as JSON without the fields the server fills in
// (metadata.version, createdAt, updatedAt), so that the answer is the same
// for the same workflow.
func irDocument(a *ir.ArtifactIR) map[string]any {
	meta := map[string]any{"name": a.Metadata.Name}
	if a.Metadata.Description != "" {
		meta["description"] = a.Metadata.Description
	}
	doc := map[string]any{"metadata": meta, "nodes": a.Nodes, "edges": a.Edges, "entryNodeId": a.EntryNodeID}
	if a.Kind != "" {
		doc["kind"] = a.Kind
	}
	if a.Trigger != nil {
		doc["trigger"] = a.Trigger
	}
	return doc
}

func (c *converter) description() string {
	d := "Imported from n8n"
	if c.wf.ID != "" {
		d += " (workflow " + c.wf.ID + ")"
	}
	return d + "."
}

// srcRef names the output of a node that feeds an input.
type srcRef struct {
	name string
	out  int
}

// nodeRef is where an n8n node's items are in the IR: value is the code of
// the node's value (an IR reference with an optional index path, such as
// {{if}}[1] or {{paths}}[0][0]); multi says that the value is the list of
// the node's outputs rather than the items of its one output; from names the
// sources of its inputs, for following paired items.
type nodeRef struct {
	value string
	multi bool
	from  []srcRef
}

func (r nodeRef) output(o int) string {
	if r.multi {
		return r.value + "[" + strconv.Itoa(o) + "]"
	}
	if o != 0 {
		return "[]"
	}
	return r.value
}

// outputs is the code of the node's list of outputs.
func (r nodeRef) outputs() string {
	if r.multi {
		return r.value
	}
	return "[" + r.value + "]"
}

// scope holds the nodes whose items are readable at a point of the IR: those
// that ran before it on every path.
type scope map[string]nodeRef

func (s scope) copy() scope {
	o := make(scope, len(s)+4)
	for k, v := range s {
		o[k] = v
	}
	return o
}

// ancestors lists the readable nodes reached back from name through their
// inputs.
func (s scope) ancestors(name string) []string {
	var out []string
	seen := map[string]bool{}
	stack := []string{name}
	for len(stack) > 0 && len(out) < 10000 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[n] {
			continue
		}
		seen[n] = true
		ref, ok := s[n]
		if !ok {
			continue
		}
		out = append(out, n)
		for _, f := range ref.from {
			stack = append(stack, f.name)
		}
	}
	return out
}

// converter holds one conversion.
type converter struct {
	wf     *Workflow
	opts   Options
	byName map[string]*Node
	// outs are the main connections kept (reachable from the trigger,
	// not closing a cycle), by node and output.
	outs map[string][][]connection
	// ins are the sources of each input of each node, over outs.
	ins map[string][][]srcRef
	// back are the connections into Loop Over Items nodes from their
	// loop body.
	back map[string]bool

	nodes   []ir.Node
	edges   []ir.Edge
	ids     map[string]bool
	types   map[string]string // IR node id → type
	entry   string
	trigger *ir.TriggerConfig
	script  bool

	rep       importer.Report
	converted map[string]int // n8n name → index in rep.Converted
	// notConverted maps the n8n nodes that became throwing steps to
	// their index in rep.Unsupported.
	notConverted map[string]int
	seenApprox   map[string]bool
	triggerCode  string
	// tooMany is set when the IR would exceed MaxIRNodes.
	tooMany bool
}

func newConverter(w *Workflow, opts Options) *converter {
	c := &converter{wf: w, opts: opts, byName: map[string]*Node{}, ids: map[string]bool{}, types: map[string]string{},
		converted: map[string]int{}, notConverted: map[string]int{}, seenApprox: map[string]bool{}, back: map[string]bool{}}
	for i := range w.Nodes {
		c.byName[w.Nodes[i].Name] = &w.Nodes[i]
	}
	return c
}

// run picks the trigger, shapes the graph and emits the IR from it.
func (c *converter) run() error {
	trig := c.pickTrigger()
	if trig == nil {
		return edgeflow.Invalid("/workflow/nodes", "the workflow has no trigger node (Manual, Webhook, Schedule...) and no node without inputs to start from")
	}
	c.shapeGraph(trig)
	c.script = c.wantsFunction(trig)
	sc := scope{}
	first, _, exits := c.lane(trig.Name, nil, sc, nil)
	for _, e := range exits {
		c.unsupported(e.join, c.byName[e.join].Type, "its inputs join paths in a way the import cannot structure")
	}
	c.entry = first
	if c.tooMany {
		return edgeflow.Invalid("/workflow", fmt.Sprintf("converting the workflow would take more than %d IR nodes: its paths join too often (each node reached by several paths is copied per path)", MaxIRNodes))
	}
	c.reportLeftOut(trig)
	for _, d := range c.wf.dangling {
		if c.byName[d[0]] == nil {
			c.unsupported(d[0], "connection", fmt.Sprintf("connections from %q to %q: the workflow has no node %q (n8n ignores them too)", d[0], d[1], d[0]))
			continue
		}
		c.approximate(d[0], fmt.Sprintf("its connection to %q, a node the workflow does not have, is left out (n8n ignores it too)", d[1]))
	}
	return nil
}

// pickTrigger chooses the node the IR starts from: a trigger the workflow
// is started by (a webhook or schedule before a manual trigger), or else a
// node without inputs. Other triggers are reported.
func (c *converter) pickTrigger() *Node {
	hasInput := map[string]bool{}
	for _, outs := range c.wf.Connections {
		for _, list := range outs["main"] {
			for _, e := range list {
				hasInput[e.Node] = true
			}
		}
	}
	rank := func(n *Node) int {
		if n.Disabled || n.shortType() == "stickyNote" {
			return 0
		}
		switch t := n.shortType(); {
		case t == "webhook", t == "scheduleTrigger", t == "cron", t == "interval", t == "executeWorkflowTrigger":
			return 5
		case t == "manualTrigger", t == "start":
			return 4
		case isTriggerType(n):
			return 3
		case !hasInput[n.Name] && !isSubNode(n):
			return 1
		}
		return 0
	}
	var best *Node
	for i := range c.wf.Nodes {
		n := &c.wf.Nodes[i]
		if r := rank(n); r > 0 && (best == nil || r > rank(best)) {
			// A trigger with nothing connected loses to one with
			// something connected.
			if best != nil && rank(best) >= 3 && c.connected(best) && !c.connected(n) {
				continue
			}
			best = n
		} else if r > 0 && best != nil && r == rank(best) && !c.connected(best) && c.connected(n) {
			best = n
		}
	}
	return best
}

func (c *converter) connected(n *Node) bool {
	for _, list := range c.wf.Connections[n.Name]["main"] {
		if len(list) > 0 {
			return true
		}
	}
	return false
}

// isTriggerType reports whether n is a trigger node of n8n.
func isTriggerType(n *Node) bool {
	t := n.shortType()
	return strings.HasSuffix(t, "Trigger") || t == "webhook" || t == "cron" || t == "interval" || t == "start"
}

// isSubNode reports whether n is a sub-node of an AI agent or chain (a
// model, a memory, a tool), which n8n connects through ai_* connections.
func isSubNode(n *Node) bool {
	return strings.HasPrefix(n.Type, "@n8n/n8n-nodes-langchain.") && !strings.HasPrefix(n.shortType(), "agent") && !strings.HasPrefix(n.shortType(), "chain")
}

// shapeGraph keeps the main connections reachable from the trigger and
// drops those that close a cycle (reporting them), except a Loop Over Items
// node's loop back.
func (c *converter) shapeGraph(trig *Node) {
	c.outs = map[string][][]connection{}
	c.ins = map[string][][]srcRef{}
	state := map[string]int{} // 0 new, 1 on the path, 2 done
	var visit func(name string)
	visit = func(name string) {
		state[name] = 1
		outs := c.wf.Connections[name]["main"]
		kept := make([][]connection, len(outs))
		for o, list := range outs {
			for _, e := range list {
				if c.byName[e.Node] == nil {
					continue
				}
				if state[e.Node] == 1 {
					if t := c.byName[e.Node]; t.shortType() == "splitInBatches" && t.TypeVersion >= 3 {
						c.back[name+"\x00"+e.Node] = true
						kept[o] = append(kept[o], e)
						continue
					}
					c.unsupported(name, "connection", fmt.Sprintf("its connection to %q closes a cycle; edgeflow's graphs have none (only a Loop Over Items node may loop): the connection is left out", e.Node))
					continue
				}
				kept[o] = append(kept[o], e)
				if state[e.Node] == 0 {
					visit(e.Node)
				}
			}
		}
		// Connections in the order n8n v1 runs them: top to bottom, then
		// left to right on the canvas.
		for o := range kept {
			sort.SliceStable(kept[o], func(i, j int) bool {
				a, b := c.byName[kept[o][i].Node], c.byName[kept[o][j].Node]
				if a.y() != b.y() {
					return a.y() < b.y()
				}
				return a.x() < b.x()
			})
		}
		c.outs[name] = kept
		state[name] = 2
	}
	visit(trig.Name)
	for from, outs := range c.outs {
		for o, list := range outs {
			for _, e := range list {
				in := c.ins[e.Node]
				for len(in) <= e.Index {
					in = append(in, nil)
				}
				in[e.Index] = append(in[e.Index], srcRef{from, o})
				c.ins[e.Node] = in
			}
		}
	}
}

// reportLeftOut lists the nodes the trigger does not reach.
func (c *converter) reportLeftOut(trig *Node) {
	for i := range c.wf.Nodes {
		n := &c.wf.Nodes[i]
		if _, done := c.converted[n.Name]; done || n.Name == trig.Name {
			continue
		}
		if _, reached := c.outs[n.Name]; reached {
			continue
		}
		switch {
		case n.shortType() == "stickyNote":
			c.unsupported(n.Name, n.Type, "a sticky note is a comment on the canvas; it is left out")
		case isSubNode(n):
			c.unsupported(n.Name, n.Type, "sub-nodes of AI agents and chains are not converted")
		case isTriggerType(n):
			c.unsupported(n.Name, n.Type, fmt.Sprintf("an edgeflow workflow has one trigger; the import starts from %q and leaves this one out", trig.Name))
		default:
			c.unsupported(n.Name, n.Type, fmt.Sprintf("no connection from the trigger %q reaches it; it is left out", trig.Name))
		}
	}
}

// wantsFunction reports whether the workflow becomes a function: a webhook
// answered by a Respond to Webhook node, with nothing that needs a durable
// workflow (waits, retries, sub-workflows that are waited for).
func (c *converter) wantsFunction(trig *Node) bool {
	if trig.shortType() != "webhook" || str(trig.Parameters["responseMode"]) != "responseNode" {
		return false
	}
	respond := false
	for name := range c.outs {
		n := c.byName[name]
		switch n.shortType() {
		case "respondToWebhook":
			respond = true
		case "wait", "executeWorkflow":
			return false
		}
		if n.RetryOnFail {
			return false
		}
	}
	return respond
}

// addNode appends an IR node made for the n8n node name and records it in
// the report.
func (c *converter) addNode(name string, n ir.Node) {
	if len(c.nodes) >= MaxIRNodes {
		c.tooMany = true
		return
	}
	if n.Version == "" {
		n.Version = "1.0.0"
	}
	if n.Provider == "" {
		n.Provider = "cloudflare"
	}
	if n.Data == nil {
		n.Data = map[string]any{}
	}
	c.nodes = append(c.nodes, n)
	c.types[n.ID] = n.Type
	if j, ok := c.notConverted[name]; ok {
		c.rep.Unsupported[j].NodeIDs = append(c.rep.Unsupported[j].NodeIDs, n.ID)
		return
	}
	i, ok := c.converted[name]
	if !ok {
		i = len(c.rep.Converted)
		c.converted[name] = i
		c.rep.Converted = append(c.rep.Converted, importer.Converted{N8nNode: name})
	}
	c.rep.Converted[i].NodeIDs = append(c.rep.Converted[i].NodeIDs, n.ID)
}

// link adds an edge; an empty source or target adds nothing.
func (c *converter) link(from, label, to string) {
	if from == "" || to == "" {
		return
	}
	c.edges = append(c.edges, ir.Edge{ID: "e" + strconv.Itoa(len(c.edges)+1), Source: from, Target: to, Label: label})
}

// newID answers an unused IR node id made of the n8n node's name and a
// suffix: "Edit Fields" → "edit-fields", then "edit-fields-2".
func (c *converter) newID(name, suffix string) string {
	base := slug(name)
	if suffix != "" {
		base += "-" + slug(suffix)
	}
	if len(base) > 90 {
		base = strings.TrimRight(base[:90], "-")
	}
	id := base
	for i := 2; c.ids[id] || id == "env" || id == "event"; i++ {
		id = base + "-" + strconv.Itoa(i)
	}
	c.ids[id] = true
	return id
}

// slug makes a node id from a name: lower-case letters and digits, other
// characters as "-".
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
			dash = false
		case r == '_':
			b.WriteRune(r)
			dash = false
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			// Letters outside ASCII are not slug characters; they
			// count as a separator.
			fallthrough
		default:
			if !dash && b.Len() > 0 {
				b.WriteByte('-')
				dash = true
			}
		}
	}
	out := strings.Trim(b.String(), "-")
	if out == "" {
		out = "node"
	}
	return out
}

// pos places an IR node at the n8n node's position, moved by dx, dy.
func (c *converter) pos(n *Node, dx, dy float64) ir.Position {
	return ir.Position{X: n.x() + dx, Y: n.y() + dy}
}

// unsupported reports a node that is not converted.
func (c *converter) unsupported(name, typ, reason string) {
	c.rep.Unsupported = append(c.rep.Unsupported, importer.Unsupported{N8nNode: name, Type: typ, Reason: reason})
}

// approximate reports what a converted node does differently.
func (c *converter) approximate(name, what string) {
	key := name + "\x00" + what
	if c.seenApprox[key] {
		return
	}
	c.seenApprox[key] = true
	c.rep.Approximated = append(c.rep.Approximated, importer.Approximated{N8nNode: name, What: what})
}

func (c *converter) approximateOnce(n *Node, what string) { c.approximate(n.Name, what) }

// envVar reports an environment variable or secret the IR reads.
func (c *converter) envVar(name string, secret bool, why string) {
	c.rep.EnvVars = append(c.rep.EnvVars, importer.EnvVar{Name: name, Secret: secret, Why: why})
}

// str reads a string parameter ("" when absent or not a string).
func str(v any) string {
	s, _ := v.(string)
	return s
}
