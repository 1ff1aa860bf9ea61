package ir

import (
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The agent node (docs/agents.md, "The agent node") calls a model in turns and
// runs the tools it asks for, each model call and each tool call a durable
// step of its own. This file reads its tools and checks its data beyond
// what the config schema says.

// Providers of the agent node's provider field.
const (
	AgentOpenAI    = "openai"
	AgentAnthropic = "anthropic"
	AgentWorkersAI = "workers-ai"
)

// Bounds of the agent node.
const (
	// AgentDefaultMaxTurns is maxTurns when omitted.
	AgentDefaultMaxTurns = 10
	// AgentMaxTurns is the most turns (model calls) maxTurns may allow.
	AgentMaxTurns = 50
	// AgentMaxTools is the most tools one agent node may have.
	AgentMaxTools = 32
	// AgentMaxCallsPerTurn is the most tool calls of one turn that run; the
	// model is told that the others did not.
	AgentMaxCallsPerTurn = 16
	// AgentMaxTokens bounds maxTokens.
	AgentMaxTokens = 1_000_000
	// AgentMaxTotalTokens bounds maxTotalTokens.
	AgentMaxTotalTokens = 100_000_000
	// maxSchemaDepth and maxSchemaNodes bound a JSON Schema in an agent's
	// data (output, a tool's inputSchema).
	maxSchemaDepth = 32
	maxSchemaNodes = 2000
)

// Kinds of agent tools.
const (
	AgentToolWorkflow = "workflow"
	AgentToolHTTP     = "http"
	AgentToolNode     = "node"
)

// AgentTool is one tool of an agent node as its data describes it, with
// its name resolved (the name given, or the default of its kind).
type AgentTool struct {
	// Index is the tool's position in the node's tools.
	Index int
	// Kind is AgentToolWorkflow, AgentToolHTTP or AgentToolNode.
	Kind string
	// Name is the name the model calls the tool by.
	Name string
	// Description and InputSchema are as written (empty and nil when
	// omitted: the compiler supplies defaults).
	Description string
	InputSchema map[string]any
	// Workflow is the id of the workflow a workflow tool runs.
	Workflow string
	// Method, URL and Headers describe an http tool's request.
	Method  string
	URL     string
	Headers map[string]any
	// NodeType, Version and Data describe a node tool: a marketplace node
	// run as a step, its data fixed by the IR and completed by the model.
	NodeType string
	Version  string
	Data     map[string]any
}

var (
	agentToolName    = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
	urlPlaceholder   = regexp.MustCompile(`\{(\+?)([A-Za-z_][A-Za-z0-9_]*)\}`)
	secretRefPattern = regexp.MustCompile(`^\{\{\s*env\.[A-Z][A-Z0-9_]*\s*\}\}$`)
	toolNameUnsafe   = regexp.MustCompile(`[^A-Za-z0-9_-]`)
)

// AgentTools reads the tools of an agent node's data, in order; tools that
// are not objects of a known kind are left out. It does not check them
// (the validator does).
func AgentTools(data map[string]any) []AgentTool {
	list, _ := data["tools"].([]any)
	out := make([]AgentTool, 0, len(list))
	for k, raw := range list {
		m, ok := raw.(map[string]any)
		if !ok {
			continue
		}
		t := AgentTool{Index: k}
		switch {
		case m[AgentToolWorkflow] != nil:
			t.Kind = AgentToolWorkflow
			t.Workflow, _ = m[AgentToolWorkflow].(string)
			t.Description, _ = m["description"].(string)
			t.InputSchema, _ = m["inputSchema"].(map[string]any)
		case m[AgentToolHTTP] != nil:
			t.Kind = AgentToolHTTP
			h, _ := m[AgentToolHTTP].(map[string]any)
			t.Method, _ = h["method"].(string)
			if t.Method == "" {
				t.Method = "GET"
			}
			t.URL, _ = h["url"].(string)
			t.Headers, _ = h["headers"].(map[string]any)
			t.Description, _ = h["description"].(string)
			t.InputSchema, _ = h["inputSchema"].(map[string]any)
		case m[AgentToolNode] != nil:
			t.Kind = AgentToolNode
			t.NodeType, _ = m[AgentToolNode].(string)
			t.Version, _ = m["version"].(string)
			t.Data, _ = m["data"].(map[string]any)
			t.Description, _ = m["description"].(string)
		default:
			continue
		}
		t.Name, _ = m["name"].(string)
		if t.Name == "" {
			t.Name = defaultToolName(t)
		}
		out = append(out, t)
	}
	return out
}

// defaultToolName is the name of a tool that gives none: workflow_<id>,
// http_<position from 1>, or the node type.
func defaultToolName(t AgentTool) string {
	var s string
	switch t.Kind {
	case AgentToolWorkflow:
		s = "workflow_" + t.Workflow
	case AgentToolHTTP:
		s = "http_" + strconv.Itoa(t.Index+1)
	default:
		s = t.NodeType
	}
	s = toolNameUnsafe.ReplaceAllString(s, "_")
	if len(s) > 64 {
		s = s[:64]
	}
	return s
}

// URLPlaceholders returns the names of an http tool URL's placeholders,
// {name} (the value percent-encoded) and {+name} (the value as it is), in
// order; plus reports which are {+name}.
func URLPlaceholders(url string) (names []string, plus []bool) {
	for _, m := range urlPlaceholder.FindAllStringSubmatch(url, -1) {
		names = append(names, m[2])
		plus = append(plus, m[1] == "+")
	}
	return names, plus
}

// agent checks an agent node's data beyond its config schema: the
// provider's fields, the tools, the approval list, and what a function may
// not do (wait for a person or for a workflow).
func (v *validator) agent(i int, n *Node) {
	provider, _ := n.Data["provider"].(string)
	if provider == AgentWorkersAI {
		for _, f := range []string{"baseUrl", "apiKey"} {
			if x, ok := n.Data[f]; ok && x != nil && x != "" {
				v.addf(nodePath(i, "data", f), n.ID, RuleNodeData, "%s does not apply to the workers-ai provider, which calls Cloudflare's AI binding", f)
			}
		}
	}
	v.durationLimit(i, "approvalTimeout", n.ID, n.Data["approvalTimeout"])
	names := v.agentTools(i, n)
	raw, ok := n.Data["approval"].([]any)
	if !ok {
		return
	}
	if v.a.IsScript() && len(raw) > 0 {
		v.addf(nodePath(i, "data", "approval"), n.ID, RuleScript, "a function cannot wait for a person's approval (it has no durable steps); approvals need a workflow")
	}
	for k, x := range raw {
		s, ok := x.(string)
		if ok && !slices.Contains(names, s) {
			v.addf(nodePath(i, "data", "approval", strconv.Itoa(k)), n.ID, RuleNodeData, "%q is not the name of one of the node's tools (%s)", s, strings.Join(names, ", "))
		}
	}
}

// agentTools checks the tools field and returns the tools' names.
func (v *validator) agentTools(i int, n *Node) []string {
	raw, present := n.Data["tools"]
	if !present || raw == nil {
		return nil
	}
	list, ok := raw.([]any)
	if !ok {
		v.addf(nodePath(i, "data", "tools"), n.ID, RuleNodeData, `tools must be an array of tools: {"workflow": id}, {"http": {...}} or {"node": type, "data": {...}}`)
		return nil
	}
	if len(list) > AgentMaxTools {
		v.addf(nodePath(i, "data", "tools"), n.ID, RuleLimits, "an agent has at most %d tools, not %d", AgentMaxTools, len(list))
	}
	var names []string
	seen := map[string]int{}
	for k, x := range list {
		p := func(rest ...string) string {
			return nodePath(i, append([]string{"data", "tools", strconv.Itoa(k)}, rest...)...)
		}
		m, ok := x.(map[string]any)
		if !ok {
			v.addf(p(), n.ID, RuleNodeData, `a tool is an object: {"workflow": id}, {"http": {...}} or {"node": type, "data": {...}}`)
			continue
		}
		kinds := 0
		for _, kind := range []string{AgentToolWorkflow, AgentToolHTTP, AgentToolNode} {
			if _, ok := m[kind]; ok {
				kinds++
			}
		}
		if kinds != 1 {
			v.addf(p(), n.ID, RuleNodeData, "a tool has exactly one of workflow, http and node")
			continue
		}
		var allowed []string
		switch {
		case hasKey(m, AgentToolWorkflow):
			allowed = []string{AgentToolWorkflow, "name", "description", "inputSchema"}
			v.workflowTool(p, n, m)
		case hasKey(m, AgentToolHTTP):
			allowed = []string{AgentToolHTTP, "name"}
			v.httpTool(p, n, m)
		default:
			allowed = []string{AgentToolNode, "version", "data", "name", "description"}
			v.nodeTool(p, n, m)
		}
		for _, key := range sortedKeys(m) {
			if !slices.Contains(allowed, key) {
				v.addf(p(key), n.ID, RuleNodeData, "this tool has no field %q (its fields: %s)", key, strings.Join(allowed, ", "))
			}
		}
		for _, key := range []string{"name", "description"} {
			if x, ok := m[key]; ok {
				if _, isStr := x.(string); !isStr {
					v.addf(p(key), n.ID, RuleNodeData, "%s must be a string", key)
				}
			}
		}
		if s, ok := m["name"].(string); ok && !agentToolName.MatchString(s) {
			v.addf(p("name"), n.ID, RuleNodeData, "tool name %q must be 1 to 64 letters, digits, _ or -", s)
		}
	}
	for _, t := range AgentTools(n.Data) {
		if j, dup := seen[t.Name]; dup {
			v.addf(nodePath(i, "data", "tools", strconv.Itoa(t.Index)), n.ID, RuleNodeData, "tool %d is also named %q; give one of them another name", j, t.Name)
			continue
		}
		seen[t.Name] = t.Index
		names = append(names, t.Name)
	}
	return names
}

func hasKey(m map[string]any, k string) bool {
	_, ok := m[k]
	return ok
}

func (v *validator) workflowTool(p func(...string) string, n *Node, m map[string]any) {
	id, ok := m[AgentToolWorkflow].(string)
	if !ok || strings.TrimSpace(id) == "" {
		v.addf(p(AgentToolWorkflow), n.ID, RuleNodeData, "workflow must be the id of a workflow of the project")
		return
	}
	if v.a.IsScript() {
		v.addf(p(AgentToolWorkflow), n.ID, RuleScript, "a function's agent cannot run a workflow as a tool (a function does not wait for workflows); use an http or node tool")
	}
	if s, ok := m["inputSchema"]; ok {
		v.objectSchema(p("inputSchema"), n.ID, s)
	}
}

func (v *validator) httpTool(p func(...string) string, n *Node, m map[string]any) {
	h, ok := m[AgentToolHTTP].(map[string]any)
	if !ok {
		v.addf(p(AgentToolHTTP), n.ID, RuleNodeData, "http must be an object {method, url, headers, description, inputSchema}")
		return
	}
	fields := []string{"method", "url", "headers", "description", "inputSchema"}
	for _, key := range sortedKeys(h) {
		if !slices.Contains(fields, key) {
			v.addf(p(AgentToolHTTP, key), n.ID, RuleNodeData, "an http tool has no field %q (its fields: %s)", key, strings.Join(fields, ", "))
		}
	}
	if x, ok := h["method"]; ok {
		s, _ := x.(string)
		if !slices.Contains([]string{"GET", "POST", "PUT", "PATCH", "DELETE"}, s) {
			v.addf(p(AgentToolHTTP, "method"), n.ID, RuleSelectOption, "%v is not an option of method; options: GET, POST, PUT, PATCH, DELETE", x)
		}
	}
	url, ok := h["url"].(string)
	switch {
	case !ok || strings.TrimSpace(url) == "":
		v.addf(p(AgentToolHTTP, "url"), n.ID, RuleNodeData, "url is required: an http or https URL, which may hold {name} placeholders the model fills in")
	case !hasHTTPScheme(url) && !strings.HasPrefix(url, "{+") && !strings.HasPrefix(url, "{{"):
		v.addf(p(AgentToolHTTP, "url"), n.ID, RuleNodeData, "url %q must be an http or https URL (or start with a {+name} placeholder the model fills in)", url)
	}
	if x, ok := h["headers"]; ok {
		hm, isObj := x.(map[string]any)
		if strings.HasPrefix(url, "{+") && strings.Contains(jsonText(x), "env.") {
			// The model would choose the host the secret is sent to.
			v.addf(p(AgentToolHTTP, "headers"), n.ID, RuleNodeData, "headers read env vars while the URL's host comes from the model ({+name} first): the model could send the secret anywhere; fix the URL's host")
		}
		if !isObj {
			v.addf(p(AgentToolHTTP, "headers"), n.ID, RuleNodeData, "headers must be an object of header names to values")
		}
		for _, name := range sortedKeys(hm) {
			if _, isStr := hm[name].(string); !isStr {
				v.addf(p(AgentToolHTTP, "headers", name), n.ID, RuleNodeData, "a header's value must be a string")
			}
		}
	}
	if x, ok := h["description"]; ok {
		if _, isStr := x.(string); !isStr {
			v.addf(p(AgentToolHTTP, "description"), n.ID, RuleNodeData, "description must be a string")
		}
	}
	if s, ok := h["inputSchema"]; ok {
		v.objectSchema(p(AgentToolHTTP, "inputSchema"), n.ID, s)
	}
}

func (v *validator) nodeTool(p func(...string) string, n *Node, m map[string]any) {
	typ, ok := m[AgentToolNode].(string)
	if !ok || typ == "" {
		v.addf(p(AgentToolNode), n.ID, RuleNodeType, "node must be the type of a marketplace node installed in the organization")
		return
	}
	if IsBuiltinType(typ) {
		v.addf(p(AgentToolNode), n.ID, RuleNodeType, "%s is a builtin type, which is not a tool; use an http tool, a workflow tool or a marketplace node", typ)
		return
	}
	data, isObj := m["data"].(map[string]any)
	if _, ok := m["data"]; ok && !isObj {
		v.addf(p("data"), n.ID, RuleNodeData, "data must be an object of the node's fields")
		return
	}
	version, hasVersion := m["version"].(string)
	if x, ok := m["version"]; ok && !hasVersion {
		v.addf(p("version"), n.ID, RuleNodeType, "version must be a string such as 1.0.0, not %v", x)
		return
	}
	if v.opts.Nodes == nil {
		return
	}
	versions := v.opts.Nodes.Versions(typ)
	if len(versions) == 0 {
		v.addf(p(AgentToolNode), n.ID, RuleNodeType, "unknown node type %q: not an installed marketplace node", typ)
		return
	}
	if !hasVersion {
		version = versions[len(versions)-1]
		m["version"] = version // the installed version, as for a node whose version is omitted
		v.a.filled = true
	}
	def, ok := v.opts.Nodes.Lookup(typ, version)
	if !ok {
		v.addf(p("version"), n.ID, RuleNodeType, "%s has no version %s; known versions: %s", typ, version, strings.Join(versions, ", "))
		return
	}
	if v.a.IsScript() && !def.AllowedInFunctions {
		v.addf(p(AgentToolNode), n.ID, RuleScript, "%s nodes are not allowed in functions", typ)
	}
	for _, name := range sortedKeys(data) {
		f, known := def.ConfigSchema[name]
		switch {
		case !known:
			v.addf(p("data", name), n.ID, RuleNodeData, "%s nodes have no field %q", typ, name)
		case f.Type == FieldSecret:
			v.addf(p("data", name), n.ID, RuleNodeData, "%s is a secret read from the env var %s at run time; it must not be stored in the IR", name, f.EnvVarName)
		case data[name] != nil:
			v.field(func() string { return p("data", name) }, n, name, &f, data[name])
		}
	}
}

// objectSchema checks a tool's inputSchema: a JSON Schema of an object.
func (v *validator) objectSchema(path, nodeID string, val any) {
	m, ok := val.(map[string]any)
	if ok && m["type"] != "object" {
		v.addf(path+"/type", nodeID, RuleNodeData, `a tool's inputSchema describes an object: its type must be "object"`)
	}
	v.jsonSchema(path, nodeID, "inputSchema", val)
}

// schemaKeywords are the JSON Schema keywords an agent's schemas may use:
// those the generated code checks answers against, and annotations.
var schemaKeywords = map[string]string{
	"type": "types", "properties": "schemas", "required": "names", "additionalProperties": "schema or boolean",
	"items": "schema", "enum": "array", "const": "any", "minimum": "number", "maximum": "number",
	"exclusiveMinimum": "number", "exclusiveMaximum": "number", "minLength": "count", "maxLength": "count",
	"pattern": "string", "minItems": "count", "maxItems": "count", "anyOf": "schemas list",
	"description": "string", "title": "string", "default": "any", "format": "string", "$schema": "string",
}

var schemaTypes = []string{"object", "array", "string", "number", "integer", "boolean", "null"}

// jsonSchema checks that val is a JSON Schema of the supported keywords
// (schemaKeywords), within maxSchemaDepth and maxSchemaNodes.
func (v *validator) jsonSchema(path, nodeID, name string, val any) {
	if _, ok := val.(map[string]any); !ok {
		v.addf(path, nodeID, RuleNodeData, "%s must be a JSON Schema (a JSON object)", name)
		return
	}
	count := 0
	v.schemaNode(path, nodeID, val, 0, &count)
}

func (v *validator) schemaNode(path, nodeID string, val any, depth int, count *int) {
	*count++
	if *count == maxSchemaNodes+1 {
		v.addf(path, nodeID, RuleLimits, "a schema has at most %d subschemas", maxSchemaNodes)
	}
	if *count > maxSchemaNodes {
		return
	}
	if depth > maxSchemaDepth {
		v.addf(path, nodeID, RuleLimits, "a schema nests at most %d levels", maxSchemaDepth)
		return
	}
	m, ok := val.(map[string]any)
	if !ok {
		if _, isBool := val.(bool); !isBool {
			v.addf(path, nodeID, RuleNodeData, "a schema is a JSON object (or true or false)")
		}
		return
	}
	sub := func(k string) string { return path + "/" + escapePointer(k) }
	for _, k := range sortedKeys(m) {
		kind, known := schemaKeywords[k]
		if !known {
			v.addf(sub(k), nodeID, RuleNodeData, "the schema keyword %q is not supported (supported: %s)", k, strings.Join(sortedKeys(schemaKeywords), ", "))
			continue
		}
		x := m[k]
		bad := func(what string) { v.addf(sub(k), nodeID, RuleNodeData, "%s must be %s", k, what) }
		switch kind {
		case "types":
			switch t := x.(type) {
			case string:
				if !slices.Contains(schemaTypes, t) {
					bad("one of " + strings.Join(schemaTypes, ", "))
				}
			case []any:
				for _, e := range t {
					if s, _ := e.(string); !slices.Contains(schemaTypes, s) {
						bad("one of " + strings.Join(schemaTypes, ", ") + ", or a list of them")
						break
					}
				}
			default:
				bad("a type name or a list of type names")
			}
		case "schemas":
			props, ok := x.(map[string]any)
			if !ok {
				bad("an object of property names to schemas")
				continue
			}
			for _, pk := range sortedKeys(props) {
				v.schemaNode(sub(k)+"/"+escapePointer(pk), nodeID, props[pk], depth+1, count)
			}
		case "schema or boolean", "schema":
			v.schemaNode(sub(k), nodeID, x, depth+1, count)
		case "schemas list":
			list, ok := x.([]any)
			if !ok || len(list) == 0 {
				bad("a non-empty array of schemas")
				continue
			}
			for j, e := range list {
				v.schemaNode(sub(k)+"/"+strconv.Itoa(j), nodeID, e, depth+1, count)
			}
		case "names":
			list, ok := x.([]any)
			if !ok {
				bad("an array of property names")
				continue
			}
			for _, e := range list {
				if _, isStr := e.(string); !isStr {
					bad("an array of property names")
					break
				}
			}
		case "array":
			if _, ok := x.([]any); !ok {
				bad("an array")
			}
		case "number":
			if _, ok := x.(float64); !ok {
				bad("a number")
			}
		case "count":
			if f, ok := x.(float64); !ok || f < 0 || f != float64(int64(f)) {
				bad("a whole number ≥ 0")
			}
		case "string":
			if _, ok := x.(string); !ok {
				bad("a string")
			}
		}
	}
}

// AgentApprovalEvent is the event type a run waits for while a tool call
// of id needs a person's approval: "approve-" and the id with characters
// outside Cloudflare's event type charset as "_", at most 100 characters.
// The generated code (agentApprovalEvent) computes the same.
func AgentApprovalEvent(toolCallID string) string {
	s := "approve-" + toolNameUnsafe.ReplaceAllString(toolCallID, "_")
	if len(s) > 100 {
		s = s[:100]
	}
	return s
}

// jsonText is v as JSON ("" when it cannot be encoded).
func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
