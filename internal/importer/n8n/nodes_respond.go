package n8n

import (
	"fmt"
	"strings"
)

// The answer of a function converted from a Webhook answered by Respond to
// Webhook: the trigger code and the Respond node's step.

// webhookHeaders is the code of the headers the Webhook node's "Response
// Headers" option sets on every answer (n8n applies them before the
// workflow runs, so that they stand unless Respond to Webhook sets the same
// header): a JSON object of lower-case names. A name or value that is an
// expression is left out (the trigger code has no item to evaluate it on)
// and reported.
func (c *converter) webhookHeaders(n *Node) string {
	opts, _ := n.Parameters["options"].(map[string]any)
	h, _ := opts["responseHeaders"].(map[string]any)
	list, _ := h["entries"].([]any)
	var parts []string
	for _, e := range list {
		m, _ := e.(map[string]any)
		if isExpression(m["name"]) || isExpression(m["value"]) {
			c.approximate(n.Name, fmt.Sprintf("the response header %q is an expression: it is left out of the function's answers", str(m["name"])))
			continue
		}
		if name := strings.ToLower(str(m["name"])); name != "" {
			parts = append(parts, jsString(name)+": "+jsString(str(m["value"])))
		}
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// respondTriggerCode is the trigger code of a function converted from a
// webhook answered by Respond to Webhook: it passes the request's body,
// headers and query to the graph and answers what the Respond node's value
// ({status, headers, body}) says, as n8n's webhook server does (decision
// 632): another method than the webhook's is 404 with n8n's message; the
// Webhook node's response headers on every answer, the Respond
// node's over them; an object body as JSON (application/json unless a
// header says otherwise), a text body as text/html; charset=utf-8 added to
// the type of a body, as Express's res.send adds it; and when the graph
// fails before answering, 500 {"message": "Error in workflow"} (the error
// is logged, not sent). The first Respond node that runs answers at once
// and the rest of the graph runs on, as in n8n.
func respondTriggerCode(method, webhookHeaders string) string {
	return `// Converted from an n8n webhook (` + method + `) answered by a Respond to Webhook node.
if (request.method !== ` + jsString(method) + `) {
  const message = "This webhook is not registered for " + request.method + " requests. Did you mean to make a ` + method + ` request?";
  return new Response(JSON.stringify({ code: 404, message }), { status: 404, headers: { "content-type": "application/json; charset=utf-8" } });
}
const url = new URL(request.url);
const text = request.method === "GET" || request.method === "HEAD" ? "" : await request.text();
let body = {};
if (text) {
  try { body = JSON.parse(text); } catch { body = text; }
}
const n8nRequest = { body, headers: Object.fromEntries(request.headers), query: Object.fromEntries(url.searchParams), webhookUrl: url.origin + url.pathname };
// The Webhook node's response headers, on every answer.
const headers = new Headers(` + webhookHeaders + `);
const send = (status, payload) => {
  if (payload === undefined || payload === null) return new Response(null, { status, headers });
  let out = payload;
  if (typeof payload !== "string") {
    out = JSON.stringify(payload);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  if (!headers.has("content-type")) headers.set("content-type", "text/html");
  const type = headers.get("content-type");
  if (!/;\s*charset=/i.test(type)) headers.set("content-type", type + "; charset=utf-8");
  return new Response(out, { status, headers });
};
// The first Respond to Webhook node that runs answers at once; the nodes
// after it run on (ctx.waitUntil), as n8n's do after its answer.
let respond;
const responded = new Promise((resolve) => { respond = resolve; });
const graph = runGraph({ n8nRequest, n8nAnswer: (value) => respond({ value }) }, env);
const first = await Promise.race([responded, graph.then((out) => ({ value: out.respond }), (caught) => ({ caught }))]);
if (first.caught) {
  console.error("the workflow failed before answering: " + errorInfo(first.caught).message);
  return send(500, { message: "Error in workflow" });
}
ctx.waitUntil(graph.catch((caught) => console.error("the workflow failed after answering: " + errorInfo(caught).message)));
const answer = first.value;
if (!answer) return new Response("", { status: 200, headers });
for (const [k, v] of Object.entries(answer.headers ?? {})) headers.set(k, String(v));
return send(answer.status, answer.body);
`
}

// respondNode: in a function it is the function's answer (the node's value
// {status, headers, body}, which the trigger code sends); in a workflow the
// caller was answered when the run started, so it passes its items on.
func (c *converter) respondNode(ctx *nodeCtx) emitted {
	n := ctx.node
	if !c.script {
		return c.passThrough(ctx, "a workflow answers its trigger with the instance id when the run starts: the response is not sent; the items pass through")
	}
	p := n.Parameters
	u := &uses{}
	t := c.translate(u)
	opts, _ := p["options"].(map[string]any)
	status := ""
	if v, ok := opts["responseCode"]; ok {
		status = t.param(v)
	}
	// Header names are lower case, as n8n sets them.
	headers := "{}"
	if h, ok := opts["responseHeaders"].(map[string]any); ok {
		var parts []string
		if list, ok := h["entries"].([]any); ok {
			for _, e := range list {
				m, _ := e.(map[string]any)
				parts = append(parts, fmt.Sprintf("[String(%s).toLowerCase(), String(%s)]", t.param(m["name"]), t.param(m["value"])))
			}
		}
		headers = "Object.fromEntries([" + strings.Join(parts, ", ") + "])"
	}
	// "Put Response in Field" puts the item(s) at that path of an object.
	inField := func(v string) string {
		key, ok := opts["responseKey"]
		if !ok || str(key) == "" {
			return v
		}
		return "((v) => { const out = {}; let o = out; const path = String(" + t.param(key) + ").split(\".\"); " +
			"path.slice(0, -1).forEach((k) => { o = o[k] = {}; }); o[path[path.length - 1]] = v; return out; })(" + v + ")"
	}
	var body string
	switch with := str(p["respondWith"]); with {
	case "", "firstIncomingItem":
		// n8n's default in every version of the node.
		body = inField("items[0].json")
	case "allIncomingItems":
		body = inField("items.map((it) => it.json)")
	case "json":
		body = "(() => { const b = " + t.param(p["responseBody"]) + "; return typeof b === \"string\" ? (b === \"\" ? undefined : JSON.parse(b)) : b; })()"
	case "text":
		body = t.param(p["responseBody"])
	case "noData":
		body = "null"
	case "redirect":
		// n8n: the option's code, else 307.
		if status == "" {
			status = "307"
		}
		headers = "{ ..." + headers + ", location: " + t.param(p["redirectURL"]) + " }"
		body = "null"
	default:
		return c.throwing(ctx, "responding with "+with+" is not converted")
	}
	if status == "" {
		status = "200"
	}
	code := fmt.Sprintf("rt.i = 0;\nconst $json = items[0].json;\n// The function's answer: its trigger code sends it as soon as it is made.\n"+
		"const answer = { status: %s, headers: %s, body: %s };\nevent.payload?.n8nAnswer?.(answer);\nreturn answer;\n", status, headers, body)
	u.runtime = true
	em := c.simple(ctx, code, u, 0)
	c.rename(em.first, "EXPORT_respond")
	// The items pass on unchanged, as n8n's Respond to Webhook outputs
	// its input.
	return emitted{first: em.first, last: em.last, ref: nodeRef{value: ctx.inputCode(0)}}
}
