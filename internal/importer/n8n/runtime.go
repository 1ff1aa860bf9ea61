package n8n

import (
	"fmt"
	"sort"
	"strings"
)

// The n8n runtime: what a step defines so that n8n expressions and Code node
// sources run as they do in n8n. runtimeJS is written into a step only when
// the step's code reads more than $json. It holds no "{{" (see jstext.go).
//
// n8n(nodes, from, items, info) takes the values of the nodes the code may
// read (by n8n name: out, the node's outputs' item lists; from, the source
// [name, output] of each of its inputs), the name of the node that fed the
// current node's first input, the current node's input items and facts of
// the run, and answers the variables of n8n's expressions. rt.i is the index
// of the item being processed; $('Node').item follows the items'
// pairedItem back to Node, as n8n does, and falls back to the item at the
// same index when the chain is broken (a node that is not readable here).
const runtimeJS = `function n8n(nodes, from, items, info) {
  const rt = { i: 0 };
  const outOf = (name, o) => ((nodes[name] && nodes[name].out[o || 0]) || []);
  const pair = (name) => {
    let at = from, it = items[rt.i];
    for (let hops = 0; at !== name; hops++) {
      const n = nodes[at];
      let p = it && it.pairedItem;
      if (Array.isArray(p)) p = p[0];
      if (!n || p == null || hops > 10000) return outOf(name)[rt.i];
      const src = n.from[typeof p === "number" ? 0 : (p.input || 0)];
      if (!src) return outOf(name)[rt.i];
      at = src[0];
      it = outOf(src[0], src[1])[typeof p === "number" ? p : p.item];
    }
    return it;
  };
  const node = (name) => {
    if (!nodes[name]) throw new Error("n8n node " + JSON.stringify(name) + " has not run before this one (or is not readable here: see the import report)");
    const all = (o) => outOf(name, o);
    return {
      all, first: (o) => all(o)[0], last: (o) => all(o)[all(o).length - 1],
      get item() { return pair(name); },
      itemMatching: (i) => { const was = rt.i; rt.i = i; try { return pair(name); } finally { rt.i = was; } },
      get json() { const it = all()[rt.i] || all()[0]; return it ? it.json : undefined; },
      isExecuted: true, runIndex: 0, context: {}, parameter: {}, params: {},
    };
  };
  rt.$ = node;
  rt.$node = new Proxy({}, { get: (_, name) => node(String(name)) });
  rt.$items = (name, o) => (name === undefined ? items : node(name).all(o));
  rt.$input = {
    all: () => items, first: () => items[0], last: () => items[items.length - 1],
    get item() { return items[rt.i]; }, context: {}, params: {},
  };
  rt.$prevNode = { name: from, outputIndex: 0, runIndex: 0 };
  rt.$now = new Date();
  rt.$today = new Date(Date.UTC(rt.$now.getUTCFullYear(), rt.$now.getUTCMonth(), rt.$now.getUTCDate()));
  rt.$execution = { id: info.executionId, mode: "production", resumeUrl: "", customData: { set() {}, get() {}, getAll: () => ({}) } };
  rt.$workflow = { id: info.workflowId, name: info.workflowName, active: true };
  rt.$runIndex = 0;
  rt.$ifEmpty = (v, d) => (v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0) || (typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 0) ? d : v);
  rt.$max = Math.max;
  rt.$min = Math.min;
  rt.$text = (v) => (v === undefined || v === null ? "" : String(v));
  return rt;
}
`

// runtimeNames are the variables the step declares from the runtime.
var runtimeNames = []string{"$", "$node", "$items", "$input", "$prevNode", "$now", "$today", "$execution", "$workflow", "$runIndex", "$ifEmpty", "$max", "$min", "$text"}

// runtimeSetup is the code that defines the n8n runtime in a step whose
// input items are held by inputVar: the runtime function, the nodes it
// may read (each an IR value reference), the variables.
func runtimeSetup(c *converter, ctx *nodeCtx, u *uses, inputVar string) string {
	var b strings.Builder
	b.WriteString(runtimeJS)
	b.WriteString("const rt = n8n({\n")
	// The nodes the code reads and, for pairing items, every node on
	// the way back to them that is readable here.
	names := map[string]bool{}
	for n := range u.nodes {
		names[n] = true
	}
	if u.item && len(u.nodes) > 0 {
		for _, n := range ctx.scope.ancestors(ctx.from0()) {
			names[n] = true
		}
	}
	var list []string
	for n := range names {
		list = append(list, n)
	}
	sort.Strings(list)
	for _, n := range list {
		ref, ok := ctx.scope[n]
		if !ok {
			c.approximateOnce(ctx.node, fmt.Sprintf("$(%q) reads a node whose items are not readable here (it has not run before this node on every path, or its path joined another): the code throws when it reads it", n))
			continue
		}
		var from []string
		for _, f := range ref.from {
			from = append(from, fmt.Sprintf("[%s, %d]", jsString(f.name), f.out))
		}
		fmt.Fprintf(&b, "  %s: { out: %s, from: [%s] },\n", jsString(n), ref.outputs(), strings.Join(from, ", "))
	}
	execID := "{{event.instanceId}}"
	if c.script {
		execID = "crypto.randomUUID()"
	}
	fmt.Fprintf(&b, "}, %s, %s, { executionId: %s, workflowId: \"\", workflowName: %s });\n", jsString(ctx.from0()), inputVar, execID, jsString(c.wf.Name))
	fmt.Fprintf(&b, "const { %s } = rt;\n", strings.Join(runtimeNames, ", "))
	return b.String()
}
