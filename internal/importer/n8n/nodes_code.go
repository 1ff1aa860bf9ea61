package n8n

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Code, Function and Function Item: the user's JavaScript runs in the step
// with n8n's variables defined around it.

// normalizeJS turns what a Code node returns into n8n items: a list (or one
// object) of items with json, or of plain objects that become json.
const normalizeJS = `const toItems = (out) => {
  const list = out === undefined || out === null ? [] : Array.isArray(out) ? out : [out];
  return list.map((it, i) => (it !== null && typeof it === "object" && "json" in it && typeof it.json === "object"
    ? { ...it, pairedItem: it.pairedItem ?? { item: i } }
    : { json: it, pairedItem: { item: i } }));
};
`

func (c *converter) codeNode(ctx *nodeCtx) emitted {
	n := ctx.node
	p := n.Parameters
	lang := str(p["language"])
	if lang != "" && lang != "javaScript" {
		return c.throwing(ctx, "Python code is not converted: edgeflow runs JavaScript")
	}
	src := str(p["jsCode"])
	u := &uses{runtime: true}
	code := c.translate(u).code(src)
	var b strings.Builder
	if str(p["mode"]) == "runOnceForEachItem" {
		b.WriteString("// Run once for each item.\nconst out = [];\n")
		b.WriteString("for (let $itemIndex = 0; $itemIndex < items.length; $itemIndex++) {\n")
		b.WriteString("  rt.i = $itemIndex;\n  const item = items[$itemIndex];\n  const $json = item.json;\n")
		b.WriteString("  const result = await (async () => {\n")
		b.WriteString(indent(sloppyGlobals(src, "item")+code, "    "))
		b.WriteString("\n  })();\n")
		b.WriteString("  if (result === undefined || result === null) continue;\n")
		b.WriteString("  out.push(result !== null && typeof result === \"object\" && \"json\" in result && typeof result.json === \"object\"\n")
		b.WriteString("    ? { ...result, pairedItem: result.pairedItem ?? { item: $itemIndex } }\n")
		b.WriteString("    : { json: result, pairedItem: { item: $itemIndex } });\n")
		b.WriteString("}\nreturn out;\n")
	} else {
		b.WriteString("// Run once for all items.\n")
		b.WriteString(normalizeJS)
		b.WriteString(firstJSONJS)
		b.WriteString("return toItems(await (async () => {\n")
		b.WriteString(indent(sloppyGlobals(src)+code, "  "))
		b.WriteString("\n})());\n")
	}
	c.codeNotes(n, src)
	return c.simple(ctx, b.String(), u, 0)
}

// functionNode: the legacy Function node, whose code gets items and
// returns items.
func (c *converter) functionNode(ctx *nodeCtx) emitted {
	n := ctx.node
	src := str(n.Parameters["functionCode"])
	u := &uses{runtime: true}
	code := c.translate(u).code(src)
	var b strings.Builder
	b.WriteString(normalizeJS)
	b.WriteString(firstJSONJS)
	b.WriteString("return toItems(await (async () => {\n")
	b.WriteString(indent(sloppyGlobals(src)+code, "  "))
	b.WriteString("\n})());\n")
	c.codeNotes(n, src)
	return c.simple(ctx, b.String(), u, 0)
}

// functionItemNode: the legacy Function Item node, whose code gets item
// (the item's json) and returns the new json.
func (c *converter) functionItemNode(ctx *nodeCtx) emitted {
	n := ctx.node
	src := str(n.Parameters["functionCode"])
	u := &uses{runtime: true}
	code := c.translate(u).code(src)
	var b strings.Builder
	b.WriteString("const out = [];\n")
	b.WriteString("for (let $itemIndex = 0; $itemIndex < items.length; $itemIndex++) {\n")
	b.WriteString("  rt.i = $itemIndex;\n  const item = items[$itemIndex].json;\n  const $json = item;\n")
	b.WriteString("  const result = await (async () => {\n")
	b.WriteString(indent(sloppyGlobals(src, "item")+code, "    "))
	b.WriteString("\n  })();\n")
	b.WriteString("  out.push({ json: result === undefined ? item : result, pairedItem: { item: $itemIndex } });\n")
	b.WriteString("}\nreturn out;\n")
	c.codeNotes(n, src)
	return c.simple(ctx, b.String(), u, 0)
}

// firstJSONJS defines $json where code runs once for all items: n8n's
// sandbox answers the first item's json there.
const firstJSONJS = "const $json = items.length > 0 ? items[0].json : {};\n"

// Assignments to a name that is not declared: n8n runs code in sloppy mode,
// where they make a global; a step is a module, in strict mode, where they
// throw. sloppyGlobals declares such names (a for loop's variable, a
// statement "name = ...") at the top of the code, unless the code declares
// them somewhere itself (a second declaration in the same scope would not
// compile) or they are names the step defines (stepNames: those of the
// wrapper around the code, such as item).
var (
	sloppyLoopVar = regexp.MustCompile(`\bfor\s*\(\s*([A-Za-z_$][\w$]*)\s+(?:of|in)\b`)
	sloppyAssign  = regexp.MustCompile(`(?m)^\s*([A-Za-z_$][\w$]*)\s*=[^=>]`)
)

func sloppyGlobals(src string, stepNames ...string) string {
	defined := map[string]bool{"items": true, "rt": true, "out": true, "result": true, "toItems": true, "$itemIndex": true, "$json": true}
	for _, n := range stepNames {
		defined[n] = true
	}
	for _, n := range runtimeNames {
		defined[n] = true
	}
	names := map[string]bool{}
	for _, re := range []*regexp.Regexp{sloppyLoopVar, sloppyAssign} {
		for _, m := range re.FindAllStringSubmatch(src, -1) {
			name := m[1]
			if defined[name] || jsKeywords[name] || names[name] {
				continue
			}
			q := regexp.QuoteMeta(name)
			declared := regexp.MustCompile(`\b(?:let|const|var)\b[^;\n]*[^\w$.]` + q + `\b|\b(?:let|const|var)\s*[{\[][^}\]]*\b` + q + `\b|\b(?:function|class)\s+` + q + `\b`)
			if declared.MatchString(src) {
				continue
			}
			names[name] = true
		}
	}
	if len(names) == 0 {
		return ""
	}
	list := make([]string, 0, len(names))
	for n := range names {
		list = append(list, n)
	}
	sort.Strings(list)
	return "let " + strings.Join(list, ", ") + "; // assigned without a declaration (n8n runs code in sloppy mode)\n"
}

// jsKeywords are words an assignment's left side cannot be.
var jsKeywords = map[string]bool{"this": true, "return": true, "await": true, "yield": true, "let": true, "const": true, "var": true, "if": true, "else": true, "case": true, "default": true, "typeof": true, "new": true, "delete": true, "void": true, "in": true, "of": true}

// codeNotes reports what a Code node's source uses that does not run the
// same on edgeflow.
func (c *converter) codeNotes(n *Node, src string) {
	switch {
	case strings.Contains(src, "require("):
		c.approximate(n.Name, "require() is not available: edgeflow bundles npm packages the workflow declares as dependencies, imported as namespaces (docs/compiler.md)")
	}
	if strings.Contains(src, "getWorkflowStaticData") {
		c.approximate(n.Name, "$getWorkflowStaticData is not available: static data does not persist between runs")
	}
	if strings.Contains(src, ".binary") {
		c.approximate(n.Name, "binary data is not converted: items carry json only")
	}
	if strings.Contains(src, "this.helpers") || strings.Contains(src, "$helpers") {
		c.approximate(n.Name, fmt.Sprintf("n8n's helpers (this.helpers) are not available in node %q", n.Name))
	}
}
