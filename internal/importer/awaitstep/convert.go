// Package awaitstep converts an AwaitStep IR (the JSON its web app exports
// and imports) into an edgeflow IR and reports what differs. The two
// dialects share their shape (edgeflow's API descends from AwaitStep's); the
// differences are in ids, node data and what some nodes' values hold
// (docs/import.md, "AwaitStep").
package awaitstep

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/importer"
	"github.com/edgeflow/edgeflow/internal/ir"
)

// Bounds of one conversion.
const (
	// MaxNodes is the most nodes an AwaitStep IR may have.
	MaxNodes = 5000
)

// Options are what a conversion needs besides the IR.
type Options struct {
	// Name replaces the IR's metadata name.
	Name string
	// SubWorkflows maps an AwaitStep sub_workflow's workflowId (the
	// deployed script's name) or workflowName (its class) to the id of the
	// edgeflow workflow it became.
	SubWorkflows map[string]string
}

// Artifact is an AwaitStep IR as read: its parts as generic JSON, which
// the conversion rewrites.
type Artifact struct {
	Kind        string
	Metadata    map[string]any
	Nodes       []map[string]any
	Edges       []map[string]any
	EntryNodeID string
	Trigger     map[string]any
}

// Parse reads an AwaitStep IR. Problems are a validation_failed
// *edgeflow.Error naming each bad field by its JSON pointer under prefix.
func Parse(raw []byte, prefix string) (*Artifact, error) {
	var top map[string]any
	if err := json.Unmarshal(raw, &top); err != nil || top == nil {
		return nil, edgeflow.Invalid(prefix, "the IR must be a JSON object as AwaitStep exports it")
	}
	var probs []edgeflow.FieldError
	add := func(path, format string, args ...any) {
		if len(probs) < 100 {
			probs = append(probs, edgeflow.FieldError{Path: prefix + path, Message: fmt.Sprintf(format, args...)})
		}
	}
	a := &Artifact{}
	switch k := top["kind"].(type) {
	case nil:
	case string:
		if k != "workflow" && k != "script" {
			add("/kind", `kind must be "workflow" or "script"`)
		}
		a.Kind = k
	default:
		add("/kind", "kind must be a string")
	}
	a.Metadata, _ = top["metadata"].(map[string]any)
	if a.Metadata == nil {
		add("/metadata", "metadata is required: an object with the workflow's name")
	}
	nodes, ok := top["nodes"].([]any)
	switch {
	case !ok:
		add("/nodes", "nodes is required: a list of nodes")
	case len(nodes) == 0:
		add("/nodes", "the IR has no nodes")
	case len(nodes) > MaxNodes:
		add("/nodes", "the IR has %d nodes; at most %d can be imported", len(nodes), MaxNodes)
	}
	ids := map[string]bool{}
	for i, n := range nodes {
		m, ok := n.(map[string]any)
		if !ok {
			add(fmt.Sprintf("/nodes/%d", i), "a node must be an object")
			continue
		}
		id, _ := m["id"].(string)
		switch {
		case id == "":
			add(fmt.Sprintf("/nodes/%d/id", i), "every node needs an id")
		case ids[id]:
			add(fmt.Sprintf("/nodes/%d/id", i), "two nodes have the id %q", id)
		}
		ids[id] = true
		if t, _ := m["type"].(string); t == "" {
			add(fmt.Sprintf("/nodes/%d/type", i), "every node needs a type")
		}
		if _, ok := m["data"].(map[string]any); !ok && m["data"] != nil {
			add(fmt.Sprintf("/nodes/%d/data", i), "data must be an object")
		}
		if len(probs) == 0 && len(nodes) <= MaxNodes {
			a.Nodes = append(a.Nodes, m)
		}
	}
	edges, ok := top["edges"].([]any)
	if !ok && top["edges"] != nil {
		add("/edges", "edges must be a list")
	}
	for i, e := range edges {
		m, ok := e.(map[string]any)
		if !ok {
			add(fmt.Sprintf("/edges/%d", i), "an edge must be an object")
			continue
		}
		for _, k := range []string{"source", "target"} {
			if s, _ := m[k].(string); !ids[s] {
				add(fmt.Sprintf("/edges/%d/%s", i, k), "%s %q is not a node of the IR", k, s)
			}
		}
		a.Edges = append(a.Edges, m)
	}
	a.EntryNodeID, _ = top["entryNodeId"].(string)
	if !ids[a.EntryNodeID] && len(nodes) > 0 {
		add("/entryNodeId", "entryNodeId %q is not a node of the IR", a.EntryNodeID)
	}
	if t, ok := top["trigger"].(map[string]any); ok {
		a.Trigger = t
	} else if top["trigger"] != nil {
		add("/trigger", "trigger must be an object")
	}
	if len(probs) > 0 {
		return nil, &edgeflow.Error{Code: edgeflow.EInvalid, Message: "the AwaitStep IR is malformed: " + probs[0].Path + ": " + probs[0].Message, Details: probs}
	}
	return a, nil
}

// converter holds one conversion.
type converter struct {
	a      *Artifact
	opts   Options
	script bool
	ids    map[string]string // AwaitStep id → edgeflow id
	used   map[string]bool
	types  map[string]string // AwaitStep id → AwaitStep type
	// refs rewrites the references to a node's value: the path
	// segments to insert after the node id (sub_workflow: output) or to
	// drop (wait_for_event: payload).
	insert map[string]string
	drop   map[string]string
	rep    importer.Report
	conv   map[string]int
	// inIDs, outIDs and outTypes describe AwaitStep nodes that became
	// several IR nodes or another type.
	inIDs, outIDs, outTypes map[string]string
	// laneLast maps the last node of each lane of a parallel to the lane;
	// laneOf maps every node of a parallel's lane to its lane.
	laneLast, laneOf map[string]lane
}

// lane is lane index of a parallel node.
type lane struct {
	parallel string
	index    int
}

// lanes finds the lanes of the parallel nodes: from each lane edge, the
// chain of single successors up to a node without one or before a join.
func (c *converter) lanes() {
	out := map[string][]string{}
	indeg := map[string]int{}
	for _, e := range c.a.Edges {
		src, _ := e["source"].(string)
		tgt, _ := e["target"].(string)
		label, _ := e["label"].(string)
		if label == "then" {
			out[src] = append(out[src], "")
			indeg[tgt]++
			continue
		}
		out[src] = append(out[src], tgt)
		indeg[tgt]++
	}
	for _, n := range c.a.Nodes {
		id, _ := n["id"].(string)
		if c.types[id] != "parallel" {
			continue
		}
		k := 0
		for _, start := range out[id] {
			if start == "" {
				continue
			}
			l := lane{id, k}
			k++
			at := start
			for steps := 0; steps < len(c.a.Nodes); steps++ {
				c.laneOf[at] = l
				next := out[at]
				if len(next) != 1 || next[0] == "" || indeg[next[0]] > 1 || c.types[at] == "parallel" || c.types[at] == "race" || c.types[at] == "branch" || c.types[at] == "loop" || c.types[at] == "try_catch" {
					break
				}
				at = next[0]
			}
			c.laneLast[at] = l
		}
	}
}

// Convert converts an AwaitStep IR. Every node appears in the report.
func Convert(a *Artifact, opts Options) (*importer.Result, error) {
	c := &converter{a: a, opts: opts, script: a.Kind == "script", ids: map[string]string{}, used: map[string]bool{},
		types: map[string]string{}, insert: map[string]string{}, drop: map[string]string{}, conv: map[string]int{},
		inIDs: map[string]string{}, outIDs: map[string]string{}, outTypes: map[string]string{},
		laneLast: map[string]lane{}, laneOf: map[string]lane{}}
	for _, n := range a.Nodes {
		id, _ := n["id"].(string)
		t, _ := n["type"].(string)
		c.types[id] = t
		switch t {
		case ir.TypeWaitForEvent:
			c.drop[id] = "payload"
		case ir.TypeSubWorkflow:
			c.insert[id] = "output"
		}
	}
	for _, n := range a.Nodes {
		id, _ := n["id"].(string)
		c.ids[id] = c.newID(id)
	}
	c.lanes()
	out := map[string]any{}
	if c.script {
		out["kind"] = "script"
	}
	meta := map[string]any{}
	name, _ := a.Metadata["name"].(string)
	if strings.TrimSpace(opts.Name) != "" {
		name = strings.TrimSpace(opts.Name)
	}
	if strings.TrimSpace(name) == "" {
		name = "Imported from AwaitStep"
	}
	meta["name"] = name
	if d, _ := a.Metadata["description"].(string); d != "" {
		meta["description"] = d
	}
	out["metadata"] = meta
	var nodes []map[string]any
	var edges []map[string]any
	for _, n := range a.Nodes {
		ns, es := c.node(n)
		nodes = append(nodes, ns...)
		edges = append(edges, es...)
	}
	edges = append(edges, c.edges()...)
	out["nodes"] = nodes
	if edges == nil {
		edges = []map[string]any{}
	}
	out["edges"] = edges
	out["entryNodeId"] = c.ids[a.EntryNodeID]
	if t := c.trigger(); t != nil {
		out["trigger"] = t
	}
	raw, err := json.Marshal(out)
	if err != nil {
		return nil, err
	}
	c.rep.Normalize()
	return &importer.Result{IR: raw, Report: c.rep}, nil
}

var slugChars = regexp.MustCompile(`[^A-Za-z0-9_-]`)

// newID keeps an AwaitStep id that is a valid edgeflow node id, else makes
// one of it.
func (c *converter) newID(id string) string {
	out := slugChars.ReplaceAllString(id, "_")
	if out == "" || out[0] == '-' {
		out = "n" + out
	}
	if len(out) > 90 {
		out = out[:90]
	}
	if out == "env" || out == "event" {
		out += "_node"
	}
	base := out
	for i := 2; c.used[out]; i++ {
		out = base + "_" + strconv.Itoa(i)
	}
	c.used[out] = true
	if out != id {
		c.approximate(id, fmt.Sprintf("its id is %q in edgeflow (node ids are slugs of at most 100 characters, not env or event); references to it are rewritten", out))
	}
	return out
}

func (c *converter) approximate(node, what string) {
	c.rep.Approximated = append(c.rep.Approximated, importer.Approximated{Node: node, What: what})
}

func (c *converter) converted(node string, ids ...string) {
	i, ok := c.conv[node]
	if !ok {
		i = len(c.rep.Converted)
		c.conv[node] = i
		c.rep.Converted = append(c.rep.Converted, importer.Converted{Node: node})
	}
	c.rep.Converted[i].NodeIDs = append(c.rep.Converted[i].NodeIDs, ids...)
}

// trigger converts the trigger: the same union in both dialects.
func (c *converter) trigger() map[string]any {
	t := c.a.Trigger
	if t == nil {
		if c.script {
			return map[string]any{"type": "http"}
		}
		return nil
	}
	out := map[string]any{}
	typ, _ := t["type"].(string)
	out["type"] = typ
	switch typ {
	case "http":
		if p, _ := t["path"].(string); p != "" {
			if !strings.HasPrefix(p, "/") {
				p = "/" + p
			}
			out["path"] = p
		}
		if m, _ := t["method"].(string); m != "" {
			out["method"] = m
		}
	case "cron":
		out["expression"], _ = t["expression"].(string)
	case "event":
		out["eventType"], _ = t["eventType"].(string)
	case "manual":
	default:
		return nil
	}
	return out
}

// edges converts the edges: labels kept where edgeflow reads them
// (containers), dropped from plain nodes (AwaitStep ignores them there).
func (c *converter) edges() []map[string]any {
	var out []map[string]any
	seen := map[string]bool{}
	for i, e := range c.a.Edges {
		src, _ := e["source"].(string)
		tgt, _ := e["target"].(string)
		id, _ := e["id"].(string)
		if id == "" || seen[id] {
			id = "e" + strconv.Itoa(i+1)
			for seen[id] {
				id += "_"
			}
		}
		seen[id] = true
		label, _ := e["label"].(string)
		if label != "" && !ir.IsContainer(c.outType(src)) {
			c.approximate(src, fmt.Sprintf("the label %q of its edge to %q is dropped: a plain node's edges carry none (AwaitStep ignores it too)", label, tgt))
			label = ""
		}
		if label != "" && c.types[src] == ir.TypeBranch && label != ir.LabelThen && !c.hasArm(src, label) {
			c.approximate(src, fmt.Sprintf("its edge labelled %q matches no branch: it is dropped, as AwaitStep drops it", label))
			continue
		}
		edge := map[string]any{"id": id, "source": c.outOf(src), "target": c.inOf(tgt)}
		if label != "" {
			edge["label"] = label
		}
		out = append(out, edge)
	}
	return out
}

// outType is the edgeflow type of the IR node an AwaitStep node's
// outgoing edges leave from.
func (c *converter) outType(id string) string {
	if t, ok := c.outTypes[id]; ok {
		return t
	}
	return c.types[id]
}

// inOf and outOf are the IR nodes an AwaitStep node's incoming and
// outgoing edges attach to (the same node unless it became several).
func (c *converter) inOf(id string) string {
	if s, ok := c.inIDs[id]; ok {
		return s
	}
	return c.ids[id]
}

func (c *converter) outOf(id string) string {
	if s, ok := c.outIDs[id]; ok {
		return s
	}
	return c.ids[id]
}

func (c *converter) hasArm(id, label string) bool {
	for _, n := range c.a.Nodes {
		if n["id"] != id {
			continue
		}
		data, _ := n["data"].(map[string]any)
		for _, b := range asList(data["branches"]) {
			if m, _ := b.(map[string]any); m["label"] == label {
				return true
			}
		}
	}
	return false
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// sortedKeys lists a map's keys in order.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
