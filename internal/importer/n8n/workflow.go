// Package n8n converts an n8n workflow (the JSON n8n exports) into an edgeflow
// IR and reports, node by node, what was converted, what only approximately
// and what not at all (docs/import.md).
//
// n8n passes lists of items from node to node: each converted node is a step
// whose value is the list of items it outputs ({json, pairedItem} objects, as
// n8n keeps them), or, for a node with several outputs (IF, Switch), the list
// of its outputs' lists. A node reads its input from the value of the node
// before it, and a node whose input is empty does nothing and outputs
// nothing, as in n8n. n8n expressions are JavaScript; they are copied into the
// step code with the variables they use ($json, $input, $('Node'), $node,
// $items, $now...) defined around them.
package n8n

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// Bounds of one conversion (docs/import.md, "Limits").
const (
	// MaxNodes is the most nodes an n8n workflow may have.
	MaxNodes = 1000
	// MaxIRNodes is the most nodes the IR may get: a node reached by
	// several paths is copied per path, and a workflow whose paths join
	// too often would grow without bound.
	MaxIRNodes = 5000
	// MaxParameterBytes bounds the JSON of one node's parameters.
	MaxParameterBytes = 1 << 20
)

// Workflow is an n8n workflow as n8n exports it. Fields this package does
// not read (pinData, staticData, meta, tags...) are ignored.
type Workflow struct {
	ID          string                 `json:"-"`
	Name        string                 `json:"name"`
	Nodes       []Node                 `json:"nodes"`
	Connections map[string]nodeOutputs `json:"connections"`
	Settings    Settings               `json:"settings"`

	// dangling are connections to nodes the workflow does not have
	// [from, to].
	dangling [][2]string
}

// Settings are the workflow settings the conversion reads.
type Settings struct {
	ExecutionOrder string `json:"executionOrder"`
	Timezone       string `json:"timezone"`
}

// Node is one n8n node.
type Node struct {
	ID               string                     `json:"id"`
	Name             string                     `json:"name"`
	Type             string                     `json:"type"`
	TypeVersion      float64                    `json:"typeVersion"`
	Position         []float64                  `json:"position"`
	Parameters       map[string]any             `json:"parameters"`
	Credentials      map[string]json.RawMessage `json:"credentials"`
	Disabled         bool                       `json:"disabled"`
	RetryOnFail      bool                       `json:"retryOnFail"`
	MaxTries         float64                    `json:"maxTries"`
	WaitBetweenTries float64                    `json:"waitBetweenTries"`
	AlwaysOutputData bool                       `json:"alwaysOutputData"`
	ExecuteOnce      bool                       `json:"executeOnce"`
	ContinueOnFail   bool                       `json:"continueOnFail"`
	OnError          string                     `json:"onError"`
	WebhookID        string                     `json:"webhookId"`
}

// nodeOutputs maps a connection type ("main", "ai_tool"...) to the node's
// outputs, each a list of connections.
type nodeOutputs map[string][][]connection

// connection is one edge of n8n's graph: to input Index of Node.
type connection struct {
	Node  string `json:"node"`
	Type  string `json:"type"`
	Index int    `json:"index"`
}

// shortType is the node type without its package: "n8n-nodes-base.set" →
// "set"; "@n8n/n8n-nodes-langchain.agent" → "agent".
func (n *Node) shortType() string {
	t := n.Type
	if i := strings.LastIndexByte(t, '.'); i >= 0 {
		t = t[i+1:]
	}
	return t
}

// base reports whether the node is one of n8n's own base nodes.
func (n *Node) base() bool { return strings.HasPrefix(n.Type, "n8n-nodes-base.") }

// x and y are the node's canvas position (0 when n8n wrote none).
func (n *Node) x() float64 {
	if len(n.Position) > 0 {
		return n.Position[0]
	}
	return 0
}

func (n *Node) y() float64 {
	if len(n.Position) > 1 {
		return n.Position[1]
	}
	return 0
}

// Parse reads an n8n workflow. Problems are answered as a validation_failed
// *edgeflow.Error whose details name each bad field by its JSON pointer under
// prefix (e.g. "/workflow/nodes/3/name"). Besides its shape, it checks the
// bounds: at most MaxNodes nodes, unique non-empty node names, parameters
// of at most MaxParameterBytes, connections that name existing nodes.
func Parse(raw []byte, prefix string) (*Workflow, error) {
	var probs []edgeflow.FieldError
	add := func(path, format string, args ...any) {
		if len(probs) < 100 {
			probs = append(probs, edgeflow.FieldError{Path: prefix + path, Message: fmt.Sprintf(format, args...)})
		}
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(raw, &top); err != nil || top == nil {
		return nil, edgeflow.Invalid(prefix, "the workflow must be a JSON object as n8n exports it (with nodes and connections)")
	}
	if _, ok := top["nodes"]; !ok {
		return nil, edgeflow.Invalid(prefix+"/nodes", "nodes is required: an n8n workflow has a list of nodes")
	}
	var w Workflow
	var rawNodes []json.RawMessage
	if err := json.Unmarshal(top["nodes"], &rawNodes); err != nil {
		return nil, edgeflow.Invalid(prefix+"/nodes", "nodes must be a list of n8n nodes")
	}
	if len(rawNodes) == 0 {
		return nil, edgeflow.Invalid(prefix+"/nodes", "the workflow has no nodes")
	}
	if len(rawNodes) > MaxNodes {
		return nil, edgeflow.Invalid(prefix+"/nodes", fmt.Sprintf("the workflow has %d nodes; at most %d can be imported", len(rawNodes), MaxNodes))
	}
	if s, ok := top["name"]; ok {
		if err := json.Unmarshal(s, &w.Name); err != nil {
			add("/name", "name must be a string")
		}
	}
	if id, ok := top["id"]; ok {
		var s string
		var n json.Number
		switch {
		case json.Unmarshal(id, &s) == nil:
			w.ID = s
		case json.Unmarshal(id, &n) == nil:
			w.ID = n.String()
		}
	}
	if s, ok := top["settings"]; ok && string(s) != "null" {
		if err := json.Unmarshal(s, &w.Settings); err != nil {
			add("/settings", "settings must be an object")
		}
	}
	names := map[string]int{}
	for i, rn := range rawNodes {
		var n Node
		path := fmt.Sprintf("/nodes/%d", i)
		if len(rn) > MaxParameterBytes+4096 {
			add(path, "the node is larger than %d bytes", MaxParameterBytes)
			continue
		}
		if err := json.Unmarshal(rn, &n); err != nil {
			add(path, "not an n8n node: %s", jsonProblem(err))
			continue
		}
		switch {
		case strings.TrimSpace(n.Name) == "":
			add(path+"/name", "every node needs a name")
		case names[n.Name] > 0:
			add(path+"/name", "two nodes are named %q; n8n node names are unique", n.Name)
		}
		if n.Type == "" {
			add(path+"/type", "every node needs a type")
		}
		if len(n.Position) != 0 && len(n.Position) != 2 {
			add(path+"/position", "position must be [x, y]")
		}
		if n.Parameters == nil {
			n.Parameters = map[string]any{}
		}
		names[n.Name] = i + 1
		w.Nodes = append(w.Nodes, n)
	}
	if c, ok := top["connections"]; ok && string(c) != "null" {
		if err := json.Unmarshal(c, &w.Connections); err != nil {
			add("/connections", "connections must map node names to their outputs: %s", jsonProblem(err))
		}
	}
	for from, outs := range w.Connections {
		if names[from] == 0 {
			// Left over from a deleted node: n8n ignores them.
			for _, list := range outs["main"] {
				for _, c := range list {
					w.dangling = append(w.dangling, [2]string{from, c.Node})
				}
			}
			delete(w.Connections, from)
			continue
		}
		for o, list := range outs["main"] {
			kept := list[:0]
			for _, c := range list {
				if c.Index < 0 || c.Index > 64 {
					add("/connections/"+pointerEscape(from), "a connection to input %d of %q", c.Index, c.Node)
				}
				if names[c.Node] == 0 {
					// n8n keeps such connections and ignores them; so does
					// the import, which reports them.
					w.dangling = append(w.dangling, [2]string{from, c.Node})
					continue
				}
				kept = append(kept, c)
			}
			outs["main"][o] = kept
		}
		if len(outs["main"]) > 256 {
			add("/connections/"+pointerEscape(from), "%q has %d outputs", from, len(outs["main"]))
		}
	}
	if len(probs) > 0 {
		return nil, &edgeflow.Error{Code: edgeflow.EInvalid, Message: "the n8n workflow is malformed: " + probs[0].Path + ": " + probs[0].Message, Details: probs}
	}
	return &w, nil
}

// jsonProblem shortens encoding/json's messages ("json: cannot unmarshal
// string into Go struct field Node.typeVersion of type float64").
func jsonProblem(err error) string {
	var te *json.UnmarshalTypeError
	if ok := asType(err, &te); ok && te.Field != "" {
		return fmt.Sprintf("%s must be a %s, not a %s", te.Field, jsonKind(te.Type.Kind().String()), te.Value)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

func jsonKind(k string) string {
	switch k {
	case "float64", "int":
		return "number"
	case "slice":
		return "list"
	case "map", "struct":
		return "object"
	case "bool":
		return "boolean"
	}
	return k
}

func asType(err error, target **json.UnmarshalTypeError) bool {
	e, ok := err.(*json.UnmarshalTypeError)
	if ok {
		*target = e
	}
	return ok
}

// pointerEscape escapes a key for a JSON pointer (RFC 6901).
func pointerEscape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
