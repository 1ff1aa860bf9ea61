package codegen

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/edgeflow/edgeflow/internal/ir"
)

// envRef reads NAME from an agent's apiKey, "{{env.NAME}}".
var envRef = regexp.MustCompile(`^\{\{\s*env\.([A-Z][A-Z0-9_]*)\s*\}\}$`)

// agent emits an agent node: one call of runAgent (agent_helper.go), which
// makes each model call and each tool call a durable step of its own. In a
// function, where there are no durable steps, the calls run inline.
func (g *gen) agent(n *ir.Node, sc *scope) {
	g.helpers[helperAgent] = true
	var props []string
	prop := func(k, js string) { props = append(props, k+": "+js) }
	prop("name", g.stepName(n, sc))
	provider := dataString(n, "provider")
	if provider == "" {
		provider = ir.AgentOpenAI
	}
	prop("provider", jsString(provider))
	if provider == ir.AgentWorkersAI {
		g.bindings[AIBinding] = Binding{Name: AIBinding, Type: BindingAI}
	}
	prop("model", g.strField(n, "model", dataString(n, "model"), sc))
	if s := dataString(n, "baseUrl"); s != "" {
		prop("baseUrl", g.strField(n, "baseUrl", s, sc))
	}
	if s := dataString(n, "apiKey"); s != "" {
		m := envRef.FindStringSubmatch(s)
		if m == nil {
			g.fail(n, "data.apiKey", "must be a reference to a secret, {{env.NAME}}")
			return
		}
		g.useEnv(m[1])
		prop("apiKey", "env."+m[1])
	}
	if s := dataString(n, "system"); s != "" {
		prop("system", g.strField(n, "system", s, sc))
	}
	prop("prompt", g.strField(n, "prompt", dataString(n, "prompt"), sc))
	maxTurns := ir.AgentDefaultMaxTurns
	if f, ok := n.Data["maxTurns"].(float64); ok {
		maxTurns = int(f)
	}
	prop("maxTurns", strconv.Itoa(maxTurns))
	for _, k := range []string{"maxTokens", "maxTotalTokens"} {
		if f, ok := n.Data[k].(float64); ok {
			prop(k, strconv.FormatFloat(f, 'f', -1, 64))
		}
	}
	if o, ok := n.Data["output"].(map[string]any); ok {
		prop("output", jsonLiteral(o))
	}
	approval := []any{}
	if a, ok := n.Data["approval"].([]any); ok {
		approval = a
	}
	prop("approval", jsonLiteral(approval))
	prop("approvalTimeout", g.durationField(n, "approvalTimeout", "24 hours", sc))
	if !g.script {
		if cfg := g.stepConfig(n, ""); cfg != "" {
			prop("stepConfig", cfg)
		}
	}
	v := g.vars[n.ID]
	stepArg := "step"
	if g.script {
		stepArg = "agentInlineSteps"
	}
	g.line("const %s%s = await runAgent(%s, env, {", v, g.ty(": any"), stepArg)
	g.indent++
	for _, p := range props {
		g.line("%s,", p)
	}
	g.line("tools: [")
	g.indent++
	for _, t := range ir.AgentTools(n.Data) {
		g.agentTool(n, t, sc)
	}
	g.indent--
	g.line("],")
	g.indent--
	g.line("});")
	if rb := g.rollbackOf(n); rb != nil {
		// The agent's rollback undoes the whole agent: a step after its
		// last turn records its value and carries the handler.
		name := "`agent " + templateText(g.steps[n.ID]) + sc.stepSuffix() + " result`"
		g.line("await step.do(%s, async () => %s, {", name, v)
		g.indent++
		g.rollbackHandler(n, rb, sc)
		g.indent--
		g.line("});")
	}
}

// agentTool emits one entry of an agent's tools: its name, description,
// input schema and the function that runs it.
func (g *gen) agentTool(n *ir.Node, t ir.AgentTool, sc *scope) {
	field := fmt.Sprintf("tools.%d", t.Index)
	desc, schema := t.Description, t.InputSchema
	var run string
	input, key := "input"+g.ty(": any"), "key"+g.ty(": string")
	switch t.Kind {
	case ir.AgentToolWorkflow:
		g.helpers[helperSubWorkflow] = true
		binding := g.subBinding(t.Workflow)
		if desc == "" {
			desc = "Runs the workflow " + t.Workflow + " with the input as its params and answers its output."
		}
		if schema == nil {
			schema = map[string]any{"type": "object"}
		}
		id := "`${event.instanceId}-" + templateText(n.ID) + strings.ReplaceAll(sc.stepSuffix(), " #", "-") + "-tool-${key}`"
		run = fmt.Sprintf("async (%s, %s) => (await runSubWorkflow(env.%s, %s, input, true)).output", input, key, binding, id)
	case ir.AgentToolHTTP:
		if desc == "" {
			desc = t.Method + " " + t.URL
		}
		if schema == nil {
			names, _ := ir.URLPlaceholders(t.URL)
			props := map[string]any{}
			required := []any{}
			for _, name := range names {
				props[name] = map[string]any{"type": "string"}
				required = append(required, name)
			}
			schema = map[string]any{"type": "object", "properties": props, "required": required}
		}
		headers := "{}"
		if len(t.Headers) > 0 {
			headers = g.dataValue(n, field+".http.headers", t.Headers, sc)
		}
		url := g.strField(n, field+".http.url", t.URL, sc)
		run = fmt.Sprintf("(%s) => agentHTTP(%s, %s, %s, input)", input, jsString(t.Method), url, headers)
	case ir.AgentToolNode:
		tpl := g.template(t.NodeType, t.Version)
		if tpl == nil {
			g.fail(n, "data."+field+".node", "no template for node type %s version %s", t.NodeType, t.Version)
			return
		}
		props := map[string]any{}
		var fixed []string
		for _, k := range sortedKeys(t.Data) {
			fixed = append(fixed, jsString(k)+": "+g.dataValue(n, field+".data."+k, t.Data[k], sc))
		}
		if d := tpl.tpl.Definition; d != nil {
			if desc == "" {
				desc = d.Description
			}
			for _, k := range sortedKeys(d.ConfigSchema) {
				f := d.ConfigSchema[k]
				if _, isFixed := t.Data[k]; isFixed || f.Type == ir.FieldSecret {
					continue
				}
				p := map[string]any{}
				switch f.Type {
				case ir.FieldNumber:
					p["type"] = "number"
				case ir.FieldBoolean:
					p["type"] = "boolean"
				case ir.FieldJSON, ir.FieldMultiselect:
				default:
					p["type"] = "string"
				}
				if f.Description != "" {
					p["description"] = f.Description
				}
				if len(f.Options) > 0 && f.Type == ir.FieldSelect {
					opts := make([]any, len(f.Options))
					for i, o := range f.Options {
						opts[i] = o
					}
					p["enum"] = opts
				}
				props[k] = p
			}
		}
		if schema == nil {
			schema = map[string]any{"type": "object", "properties": props}
		}
		// The IR's fields come last: the model cannot change them.
		cfg := "{ ...input }"
		if len(fixed) > 0 {
			cfg = "{ ...input, " + strings.Join(fixed, ", ") + " }"
		}
		run = fmt.Sprintf("(%s) => %s({ config: %s, env: { ...env } })", input, tpl.ident, cfg)
	}
	g.line("{")
	g.indent++
	g.line("name: %s,", jsString(t.Name))
	g.line("description: %s,", jsString(desc))
	g.line("inputSchema: %s,", jsonLiteral(schema))
	g.line("run: %s,", run)
	g.indent--
	g.line("},")
}

// jsonLiteral writes a JSON value as a JavaScript literal (keys sorted);
// no expression in it is interpolated.
func jsonLiteral(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "null"
	}
	return string(b)
}
