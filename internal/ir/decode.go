package ir

import (
	"errors"
	"math"
	"strconv"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// shapeReader builds an ArtifactIR from a decoded JSON tree and checks, in the
// same pass, the shape that schema.json describes. It is the fast path for
// valid documents; when it finds a shape problem the embedded JSON Schema is
// evaluated (schemaProblems) so that the reported shape problems are the
// schema's own. typeErr records problems that leave the typed IR unusable
// for the semantic checks (a wrong type or a missing required key).
type shapeReader struct {
	bad     bool
	typeErr bool
}

func (r *shapeReader) fail(typeErr bool) {
	r.bad = true
	if typeErr {
		r.typeErr = true
	}
}

// object checks that v is an object whose keys are among allowed and that
// the required keys are present.
func (r *shapeReader) object(v any, allowed []string, required []string) map[string]any {
	m, ok := v.(map[string]any)
	if !ok {
		r.fail(true)
		return nil
	}
	if len(m) > len(allowed) {
		r.fail(false)
	} else {
		for k := range m {
			if !contains(allowed, k) {
				r.fail(false)
				break
			}
		}
	}
	for _, k := range required {
		if _, ok := m[k]; !ok {
			r.fail(true)
		}
	}
	return m
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (r *shapeReader) str(m map[string]any, key string) string {
	v, ok := m[key]
	if !ok {
		return ""
	}
	s, ok := v.(string)
	if !ok {
		r.fail(true)
	}
	return s
}

func (r *shapeReader) num(v any) float64 {
	f, ok := v.(float64)
	if !ok {
		r.fail(true)
	}
	return f
}

func (r *shapeReader) enum(m map[string]any, key string, values ...string) string {
	s := r.str(m, key)
	if _, ok := m[key]; ok && !contains(values, s) {
		r.fail(false)
	}
	return s
}

func (r *shapeReader) duration(v any) Duration {
	switch x := v.(type) {
	case float64:
		return DurationSeconds(x)
	case string:
		return DurationText(x)
	}
	r.fail(true)
	return Duration{}
}

var (
	topKeys      = []string{"kind", "metadata", "nodes", "edges", "entryNodeId", "trigger"}
	topRequired  = []string{"metadata", "nodes", "edges", "entryNodeId"}
	metaKeys     = []string{"name", "description", "version", "createdAt", "updatedAt"}
	metaRequired = []string{"name", "version", "createdAt", "updatedAt"}
	nodeKeys     = []string{"id", "type", "name", "position", "version", "provider", "data", "config"}
	nodeRequired = []string{"id", "type", "name", "position", "version", "provider", "data"}
	posKeys      = []string{"x", "y"}
	configKeys   = []string{"retries", "timeout"}
	retryKeys    = []string{"limit", "delay", "backoff"}
	retryReq     = []string{"limit", "delay"}
	edgeKeys     = []string{"id", "source", "target", "label"}
	edgeRequired = []string{"id", "source", "target"}
	triggerKeys  = []string{"type", "path", "method", "expression", "eventType"}
)

// read converts the decoded document into an ArtifactIR.
func (r *shapeReader) read(doc any) *ArtifactIR {
	top := r.object(doc, topKeys, topRequired)
	if top == nil {
		return nil
	}
	a := &ArtifactIR{}
	if _, ok := top["kind"]; ok {
		a.Kind = Kind(r.enum(top, "kind", string(KindWorkflow), string(KindScript)))
	}
	if md := r.object(top["metadata"], metaKeys, metaRequired); md != nil {
		a.Metadata.Name = r.str(md, "name")
		a.Metadata.Description = r.str(md, "description")
		if v, ok := md["version"]; ok {
			f := r.num(v)
			if f != math.Trunc(f) || math.Abs(f) > 1<<53 {
				r.fail(true)
			}
			a.Metadata.Version = int(f)
		}
		a.Metadata.CreatedAt = r.str(md, "createdAt")
		a.Metadata.UpdatedAt = r.str(md, "updatedAt")
	}
	a.EntryNodeID = r.str(top, "entryNodeId")
	if nodes, ok := top["nodes"].([]any); ok {
		a.Nodes = make([]Node, len(nodes))
		for i, v := range nodes {
			r.node(v, &a.Nodes[i])
		}
	} else if _, present := top["nodes"]; present {
		r.fail(true)
	}
	if edges, ok := top["edges"].([]any); ok {
		a.Edges = make([]Edge, len(edges))
		for i, v := range edges {
			m := r.object(v, edgeKeys, edgeRequired)
			if m == nil {
				continue
			}
			a.Edges[i] = Edge{ID: r.str(m, "id"), Source: r.str(m, "source"), Target: r.str(m, "target"), Label: r.str(m, "label")}
		}
	} else if _, present := top["edges"]; present {
		r.fail(true)
	}
	if a.Kind == KindScript {
		if _, ok := top["trigger"]; !ok {
			r.fail(false)
		}
	}
	if v, ok := top["trigger"]; ok {
		if m := r.object(v, triggerKeys, []string{"type"}); m != nil {
			t := &TriggerConfig{
				Type:       r.enum(m, "type", TriggerManual, TriggerHTTP, TriggerCron, TriggerEvent),
				Path:       r.str(m, "path"),
				Method:     r.enum(m, "method", "GET", "POST", "PUT", "DELETE"),
				Expression: r.str(m, "expression"),
				EventType:  r.str(m, "eventType"),
			}
			_, hasExpr := m["expression"]
			_, hasEvent := m["eventType"]
			if t.Type == TriggerCron && !hasExpr || t.Type == TriggerEvent && !hasEvent {
				r.fail(false)
			}
			a.Trigger = t
		}
	}
	return a
}

func (r *shapeReader) node(v any, n *Node) {
	m := r.object(v, nodeKeys, nodeRequired)
	if m == nil {
		return
	}
	n.ID = r.str(m, "id")
	n.Type = r.str(m, "type")
	n.Name = r.str(m, "name")
	n.Version = r.str(m, "version")
	n.Provider = r.str(m, "provider")
	if p := r.object(m["position"], posKeys, posKeys); p != nil {
		if x, ok := p["x"]; ok {
			n.Position.X = r.num(x)
		}
		if y, ok := p["y"]; ok {
			n.Position.Y = r.num(y)
		}
	}
	if d, ok := m["data"]; ok {
		if dm, ok := d.(map[string]any); ok {
			n.Data = dm
		} else {
			r.fail(true)
		}
	}
	if c, ok := m["config"]; ok {
		cm := r.object(c, configKeys, nil)
		if cm == nil {
			return
		}
		n.Config = &StepConfig{}
		if rv, ok := cm["retries"]; ok {
			if rm := r.object(rv, retryKeys, retryReq); rm != nil {
				rc := &RetryConfig{Backoff: r.enum(rm, "backoff", BackoffConstant, BackoffLinear, BackoffExponential)}
				if l, ok := rm["limit"]; ok {
					f := r.num(l)
					if f != math.Trunc(f) || math.Abs(f) > 1<<31 {
						r.fail(true)
					}
					rc.Limit = int(f)
				}
				if d, ok := rm["delay"]; ok {
					rc.Delay = r.duration(d)
				}
				n.Config.Retries = rc
			}
		}
		if tv, ok := cm["timeout"]; ok {
			d := r.duration(tv)
			n.Config.Timeout = &d
		}
	}
}

var englishPrinter = message.NewPrinter(language.English)

// schemaProblems evaluates the embedded JSON Schema on doc and returns its
// findings as problems with rule RuleSchema.
func schemaProblems(doc any) []Problem {
	s, err := compiledSchema()
	if err != nil {
		return []Problem{{Path: "", Message: err.Error(), Rule: RuleSchema}}
	}
	err = s.Validate(doc)
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return nil
	}
	var out []Problem
	var walk func(e *jsonschema.ValidationError, depth int)
	walk = func(e *jsonschema.ValidationError, depth int) {
		if len(e.Causes) > 0 && depth < 64 {
			for _, c := range e.Causes {
				walk(c, depth+1)
			}
			return
		}
		path := pointer(e.InstanceLocation)
		switch k := e.ErrorKind.(type) {
		case *kind.AdditionalProperties:
			for _, p := range k.Properties {
				out = append(out, Problem{Path: path + "/" + escapePointer(p), Message: "unknown key " + strconv.Quote(p), Rule: RuleSchema})
			}
		case *kind.Required:
			for _, p := range k.Missing {
				out = append(out, Problem{Path: path + "/" + escapePointer(p), Message: "required key " + strconv.Quote(p) + " is missing", Rule: RuleSchema})
			}
		case *kind.Group, *kind.AllOf, *kind.Reference, *kind.Schema:
			// containers of other errors without causes: nothing to say
		default:
			out = append(out, Problem{Path: path, Message: e.ErrorKind.LocalizedString(englishPrinter), Rule: RuleSchema})
		}
	}
	walk(ve, 0)
	for i := range out {
		out[i].NodeID = ""
	}
	return out
}

func pointer(tokens []string) string {
	if len(tokens) == 0 {
		return ""
	}
	n := 0
	for _, t := range tokens {
		n += len(t) + 1
	}
	b := make([]byte, 0, n)
	for _, t := range tokens {
		b = append(b, '/')
		b = append(b, escapePointer(t)...)
	}
	return string(b)
}

func escapePointer(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '~' || s[i] == '/' {
			goto escape
		}
	}
	return s
escape:
	b := make([]byte, 0, len(s)+2)
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '~':
			b = append(b, '~', '0')
		case '/':
			b = append(b, '~', '1')
		default:
			b = append(b, s[i])
		}
	}
	return string(b)
}
