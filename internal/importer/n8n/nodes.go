package n8n

import (
	"fmt"
	"strings"

	"github.com/edgeflow/edgeflow/internal/ir"
)

// nodeCtx is one n8n node being emitted: the node, its inputs (the code of
// each input's items) and the nodes readable before it.
type nodeCtx struct {
	node  *Node
	ins   [][]input
	scope scope
}

// from0 is the name of the node that feeds the first input ("" for a
// trigger).
func (ctx *nodeCtx) from0() string {
	for _, in := range ctx.ins {
		for _, i := range in {
			return i.from.name
		}
	}
	return ""
}

// sources are the inputs' sources, for pairing items.
func (ctx *nodeCtx) sources() []srcRef {
	out := make([]srcRef, len(ctx.ins))
	for i, in := range ctx.ins {
		if len(in) > 0 {
			out[i] = in[0].from
		}
	}
	return out
}

// inputCode is the code of input i's items: one source's, or the sources'
// items one after the other.
func (ctx *nodeCtx) inputCode(i int) string {
	if i >= len(ctx.ins) || len(ctx.ins[i]) == 0 {
		return "[]"
	}
	if len(ctx.ins[i]) == 1 {
		return ctx.ins[i][0].value
	}
	var parts []string
	for _, in := range ctx.ins[i] {
		parts = append(parts, "..."+in.value)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// emit converts one n8n node (one copy of it, on one path) into IR nodes.
func (c *converter) emit(n *Node, ins [][]input, sc scope) emitted {
	ctx := &nodeCtx{node: n, ins: ins, scope: sc}
	if n.Disabled {
		return c.passThrough(ctx, "n8n passes the items of a disabled node through unchanged")
	}
	var em emitted
	switch t := n.shortType(); {
	case !n.base() && !strings.HasPrefix(n.Type, "@n8n/"):
		em = c.throwing(ctx, "a community node: only n8n's own nodes are converted")
	case t == "manualTrigger", t == "start":
		em = c.manualTrigger(ctx)
	case t == "webhook":
		em = c.webhookTrigger(ctx)
	case t == "scheduleTrigger", t == "cron", t == "interval":
		em = c.scheduleTrigger(ctx)
	case t == "executeWorkflowTrigger":
		em = c.subWorkflowTrigger(ctx)
	case isTriggerType(n):
		em = c.throwing(ctx, "this trigger has no edgeflow counterpart (edgeflow starts workflows by API, HTTP, cron or event)")
	case t == "code":
		em = c.codeNode(ctx)
	case t == "function":
		em = c.functionNode(ctx)
	case t == "functionItem":
		em = c.functionItemNode(ctx)
	case t == "set":
		em = c.setNode(ctx)
	case t == "if":
		em = c.ifNode(ctx)
	case t == "switch":
		em = c.switchNode(ctx)
	case t == "filter":
		em = c.filterNode(ctx)
	case t == "merge":
		em = c.mergeNode(ctx)
	case t == "noOp":
		em = c.passThrough(ctx, "")
	case t == "stopAndError":
		em = c.stopAndError(ctx)
	case t == "wait":
		em = c.waitNode(ctx)
	case t == "httpRequest":
		em = c.httpRequestNode(ctx)
	case t == "respondToWebhook":
		em = c.respondNode(ctx)
	case t == "executeWorkflow":
		em = c.executeWorkflowNode(ctx)
	case t == "splitOut":
		em = c.splitOutNode(ctx)
	case t == "aggregate":
		em = c.aggregateNode(ctx)
	case t == "dateTime":
		em = c.dateTimeNode(ctx)
	case t == "splitInBatches":
		em = c.throwing(ctx, "Split In Batches before version 3 loops through an IF on its noItemsLeft context; only Loop Over Items (version 3) becomes a loop")
	default:
		if m, ok := c.marketplaceNode(ctx); ok {
			em = m
		} else {
			em = c.throwing(ctx, "no conversion for this node type")
		}
	}
	em.ref.from = ctx.sources()
	return em
}

// step adds a step node for the n8n node with the given code and answers
// its id.
func (c *converter) step(n *Node, suffix, name, code string, dy float64) string {
	id := c.newID(n.Name, suffix)
	if name == "" {
		name = n.Name
	}
	c.addNode(n.Name, ir.Node{ID: id, Type: ir.TypeStep, Name: name, Position: c.pos(n, 0, dy), Data: map[string]any{"code": code}, Config: retries(n)})
	return id
}

// retries is the step config of a node that n8n retries on failure.
func retries(n *Node) *ir.StepConfig {
	if !n.RetryOnFail {
		return nil
	}
	tries := int(n.MaxTries)
	if tries <= 0 {
		tries = 3
	}
	wait := n.WaitBetweenTries
	if wait <= 0 {
		wait = 1000
	}
	return &ir.StepConfig{Retries: &ir.RetryConfig{Limit: tries - 1, Delay: ir.DurationSeconds(wait / 1000), Backoff: ir.BackoffConstant}}
}

// header is the comment that opens a converted node's code.
func header(n *Node) string {
	return fmt.Sprintf("// n8n node %s (%s, version %s).\n", jsString(n.Name), n.Type, jsNumber(n.TypeVersion))
}

// simple emits a node as one step whose code computes its items from
// `items`, the items of its first input. body must return the node's
// value. The step does nothing and outputs nothing when the input is empty
// (n8n does not run a node without items), and honours the node's
// settings: Execute Once (the first item only), Always Output Data (one
// empty item instead of none), On Error: continue (an item with the error).
func (c *converter) simple(ctx *nodeCtx, body string, u *uses, multi int) emitted {
	n := ctx.node
	var b strings.Builder
	b.WriteString(header(n))
	fmt.Fprintf(&b, "let items = structuredClone(%s);\n", ctx.inputCode(0))
	empty := "[]"
	if multi > 0 {
		empty = "[" + strings.TrimSuffix(strings.Repeat("[], ", multi), ", ") + "]"
	}
	fmt.Fprintf(&b, "if (items.length === 0) return %s;\n", empty)
	if n.ExecuteOnce {
		b.WriteString("items = items.slice(0, 1); // Execute Once\n")
	}
	if u != nil && u.runtime {
		b.WriteString(runtimeSetup(c, ctx, u, "items"))
		body = strings.ReplaceAll(body, "if (typeof rt !== \"undefined\") rt.i = $itemIndex;", "rt.i = $itemIndex;")
	} else {
		if u != nil && (u.text || strings.Contains(body, "$text(")) {
			b.WriteString(textJS)
		}
		body = strings.ReplaceAll(body, "  if (typeof rt !== \"undefined\") rt.i = $itemIndex;\n", "")
		body = strings.ReplaceAll(body, "if (typeof rt !== \"undefined\") rt.i = $itemIndex;\n", "")
	}
	settings := n.AlwaysOutputData || n.ContinueOnFail || n.OnError == "continueRegularOutput" || n.OnError == "continueErrorOutput"
	if !settings {
		b.WriteString(body)
	} else {
		b.WriteString("let out;\n")
		onError := n.ContinueOnFail || n.OnError == "continueRegularOutput" || n.OnError == "continueErrorOutput"
		if onError {
			b.WriteString("try {\n")
		}
		b.WriteString("out = await (async () => {\n")
		b.WriteString(indent(body, "  "))
		b.WriteString("\n})();\n")
		if onError {
			b.WriteString("} catch (error) {\n")
			errItem := "[{ json: { error: error instanceof Error ? error.message : String(error) } }]"
			switch {
			case n.OnError == "continueErrorOutput" && multi > 0:
				fmt.Fprintf(&b, "  out = %s;\n  out[%d] = %s;\n", empty, multi-1, errItem)
			default:
				fmt.Fprintf(&b, "  out = %s;\n", errItem)
			}
			b.WriteString("}\n")
		}
		if n.AlwaysOutputData {
			if multi > 0 {
				b.WriteString("if (out.every((o) => o.length === 0)) out[0] = [{ json: {} }]; // Always Output Data\n")
			} else {
				b.WriteString("if (out.length === 0) out = [{ json: {} }]; // Always Output Data\n")
			}
		}
		b.WriteString("return out;\n")
	}
	if u != nil {
		c.noteUses(n, u)
	}
	id := c.step(n, "", "", b.String(), 0)
	return emitted{first: id, last: id, ref: nodeRef{value: "{{" + id + "}}", multi: multi > 0}}
}

// noteUses reports what the node's expressions read: env vars, and what only
// approximates n8n.
func (c *converter) noteUses(n *Node, u *uses) {
	for name := range u.envs {
		c.envVar(name, false, fmt.Sprintf("$env.%s in node %q", name, n.Name))
	}
	for _, a := range u.approx {
		c.approximate(n.Name, a)
	}
}

// textJS writes a value into text as n8n's expression templates do.
const textJS = "const $text = (v) => (v === undefined || v === null ? \"\" : String(v));\n"

// passThrough emits a node that outputs its input items unchanged.
func (c *converter) passThrough(ctx *nodeCtx, note string) emitted {
	if note != "" {
		c.approximate(ctx.node.Name, note)
	}
	return c.simple(ctx, "return items.map((item, i) => ({ json: item.json, pairedItem: { item: i } }));\n", nil, 0)
}

// notConverted emits a step that throws "not converted: <type>" and
// reports the node.
func (c *converter) throwing(ctx *nodeCtx, reason string) emitted {
	n := ctx.node
	if _, done := c.notConverted[n.Name]; !done {
		c.notConverted[n.Name] = len(c.rep.Unsupported)
		c.unsupported(n.Name, n.Type, reason)
	}
	code := header(n) + fmt.Sprintf("throw new Error(%s);\n", jsString("not converted: "+n.Type))
	id := c.step(n, "", "", code, 0)
	return emitted{first: id, last: id, ref: nodeRef{value: "{{" + id + "}}"}}
}

// translate is a translator for the node's expressions.
func (c *converter) translate(u *uses) *translator {
	return &translator{u: u, script: c.script}
}
