// Package importer holds what the importers of foreign workflow formats share:
// the answer of an import (the IR and a report of what was converted, what
// only approximately, and what not at all) and the bounds every import obeys.
// The formats themselves live in subpackages: n8n (n8n's workflow JSON) and
// awaitstep (AwaitStep's IR dialect). docs/import.md describes both.
package importer

import (
	"encoding/json"
	"sort"
)

// Result is the answer of an import: an IR that edgeflow validates as it is,
// and the report of the conversion. TriggerCode, when not empty, is the
// trigger code the workflow needs (a function converted from an n8n webhook
// answers with what its "Respond to Webhook" node says); an import that
// creates the workflow sets it.
type Result struct {
	IR          json.RawMessage `json:"ir"`
	Report      Report          `json:"report"`
	TriggerCode string          `json:"triggerCode,omitempty"`
}

// Report says, for every node of the source workflow, what became of it.
// Every source node appears in Converted or Unsupported (a node is never
// dropped silently); Approximated adds what differs from the source in a
// converted node. EnvVars lists the environment variables and secrets the
// IR reads (credentials become {{env.NAME}} references); Marketplace the
// marketplace nodes (type@version) the IR uses, which the organization must
// have installed.
type Report struct {
	Converted    []Converted    `json:"converted"`
	Approximated []Approximated `json:"approximated"`
	Unsupported  []Unsupported  `json:"unsupported"`
	EnvVars      []EnvVar       `json:"envVars"`
	Marketplace  []string       `json:"marketplace"`
}

// Converted maps one source node to the IR nodes it became (one node may
// become several, and a node reached by several paths is copied per path).
// N8nNode names an n8n node; Node an AwaitStep node (its id).
type Converted struct {
	N8nNode string   `json:"n8nNode,omitempty"`
	Node    string   `json:"node,omitempty"`
	NodeIDs []string `json:"nodeIds"`
}

// Approximated says what a converted node does differently from its source.
type Approximated struct {
	N8nNode string `json:"n8nNode,omitempty"`
	Node    string `json:"node,omitempty"`
	What    string `json:"what"`
}

// Unsupported names a source node (or connection) that was not converted:
// in the IR it is a step that throws "not converted: <type>", or, when it
// cannot be placed at all (a second trigger, a node no trigger reaches, a
// connection that closes a cycle), it is left out and listed here.
type Unsupported struct {
	N8nNode string `json:"n8nNode,omitempty"`
	Node    string `json:"node,omitempty"`
	Type    string `json:"type"`
	Reason  string `json:"reason"`
	// NodeIDs are the IR steps that stand for the node and throw.
	NodeIDs []string `json:"nodeIds,omitempty"`
}

// EnvVar is an environment variable or secret the converted IR reads, with
// why: a credential of a node, an $env reference, a marketplace node's
// secret.
type EnvVar struct {
	Name   string `json:"name"`
	Secret bool   `json:"secret"`
	Why    string `json:"why"`
}

// Normalize sorts nothing that carries order (converted nodes keep the
// source's order) but fills nil lists with empty ones, merges duplicate
// env vars (secret wins) and sorts env vars and marketplace nodes by name,
// so that an answer is deterministic and its lists are never null.
func (r *Report) Normalize() {
	if r.Converted == nil {
		r.Converted = []Converted{}
	}
	if r.Approximated == nil {
		r.Approximated = []Approximated{}
	}
	if r.Unsupported == nil {
		r.Unsupported = []Unsupported{}
	}
	seen := map[string]int{}
	var vars []EnvVar
	for _, v := range r.EnvVars {
		if i, ok := seen[v.Name]; ok {
			vars[i].Secret = vars[i].Secret || v.Secret
			continue
		}
		seen[v.Name] = len(vars)
		vars = append(vars, v)
	}
	sort.Slice(vars, func(i, j int) bool { return vars[i].Name < vars[j].Name })
	if vars == nil {
		vars = []EnvVar{}
	}
	r.EnvVars = vars
	m := map[string]bool{}
	var market []string
	for _, t := range r.Marketplace {
		if !m[t] {
			m[t] = true
			market = append(market, t)
		}
	}
	sort.Strings(market)
	if market == nil {
		market = []string{}
	}
	r.Marketplace = market
}
