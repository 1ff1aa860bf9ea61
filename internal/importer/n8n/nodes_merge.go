package n8n

import (
	"fmt"
	"strings"
)

// mergeJS merges the json of two items as Merge's "combine" modes do: the
// second input's fields win a clash (or the first's with preferInput1),
// nested objects merged deeply unless shallow.
const mergeJS = `const $mergeJson = (a, b, prefer, deep) => {
  const [low, high] = prefer === "preferInput1" ? [b, a] : [a, b];
  if (!deep) return { ...structuredClone(low), ...structuredClone(high) };
  const into = (x, y) => {
    for (const [k, v] of Object.entries(y)) {
      if (v && typeof v === "object" && !Array.isArray(v) && x[k] && typeof x[k] === "object" && !Array.isArray(x[k])) into(x[k], v);
      else x[k] = structuredClone(v);
    }
    return x;
  };
  return into(structuredClone(low), high);
};
`

// mergeNode converts Merge: its inputs are the items of each connected
// input (empty when that path did not run).
func (c *converter) mergeNode(ctx *nodeCtx) emitted {
	n := ctx.node
	p := n.Parameters
	u := &uses{}
	t := c.translate(u)
	mode := str(p["mode"])
	if mode == "" {
		mode = "append"
	}
	opts, _ := p["options"].(map[string]any)
	var body string
	prefer, deep := "preferInput2", n.TypeVersion >= 2.1
	if ch, ok := opts["clashHandling"].(map[string]any); ok {
		if v, ok := ch["values"].(map[string]any); ok {
			if r := str(v["resolveClash"]); r != "" {
				prefer = r
			}
			if m := str(v["mergeMode"]); m != "" {
				deep = m == "deepMerge"
			}
		}
	}
	if prefer == "addSuffix" {
		c.approximate(n.Name, "clash handling \"add input number suffix\" is not converted: the second input's fields win")
		prefer = "preferInput2"
	}
	combine := fmt.Sprintf("(a, b) => $mergeJson(a, b, %s, %t)", jsString(prefer), deep)
	switch mode {
	case "append":
		body = "return inputs.flatMap((items, input) => items.map((item, i) => ({ json: item.json, pairedItem: { item: i, input } })));\n"
	case "passThrough":
		k := 0
		if str(p["output"]) == "input2" {
			k = 1
		}
		body = fmt.Sprintf("return inputs[%d].map((item, i) => ({ json: item.json, pairedItem: { item: i, input: %d } }));\n", k, k)
	case "wait":
		body = "return [];\n"
	case "chooseBranch":
		k := 0
		out := str(p["output"])
		if v, ok := p["useDataOfInput"].(float64); ok {
			k = int(v) - 1
		} else if out == "input2" {
			k = 1
		}
		if out == "empty" {
			body = "return [{ json: {} }];\n"
		} else {
			body = fmt.Sprintf("if (inputs.some((items) => items.length === 0)) return [];\nreturn inputs[%d].map((item, i) => ({ json: item.json, pairedItem: { item: i, input: %d } }));\n", k, k)
		}
	case "mergeByIndex", "combine", "combineByPosition", "multiplex", "combineAll", "mergeByKey", "keepKeyMatches", "removeKeyMatches", "combineByFields":
		by := mode
		if mode == "combine" {
			by = str(p["combinationMode"])
			if by == "" {
				by = str(p["combineBy"])
			}
			if by == "" {
				by = "mergeByFields"
				if n.TypeVersion >= 3 {
					by = "combineByFields"
				}
			}
		}
		switch by {
		case "mergeByIndex", "mergeByPosition", "combineByPosition":
			unpaired := isTrue(opts["includeUnpaired"])
			if mode == "mergeByIndex" {
				j := str(p["join"])
				unpaired = j == "outer" || j == "left"
				if j == "left" {
					c.approximate(n.Name, "left join keeps unpaired items of both inputs")
				}
			}
			body = fmt.Sprintf("const [a, b] = inputs;\nconst merge = %s;\nconst n = %t ? Math.max(a.length, b.length) : Math.min(a.length, b.length);\nconst out = [];\nfor (let i = 0; i < n; i++) out.push({ json: a[i] && b[i] ? merge(a[i].json, b[i].json) : structuredClone((a[i] ?? b[i]).json), pairedItem: [a[i] && { item: i, input: 0 }, b[i] && { item: i, input: 1 }].filter(Boolean) });\nreturn out;\n", combine, unpaired)
		case "multiplex", "combineAll":
			body = fmt.Sprintf("const [a, b] = inputs;\nconst merge = %s;\nreturn a.flatMap((x, i) => b.map((y, j) => ({ json: merge(x.json, y.json), pairedItem: [{ item: i, input: 0 }, { item: j, input: 1 }] })));\n", combine)
		case "mergeByFields", "combineByFields", "mergeByKey", "keepKeyMatches", "removeKeyMatches":
			var pairs []string
			if mode == "mergeByKey" || mode == "keepKeyMatches" || mode == "removeKeyMatches" {
				pairs = append(pairs, fmt.Sprintf("[%s, %s]", t.param(p["propertyName1"]), t.param(p["propertyName2"])))
			} else if s := p["fieldsToMatchString"]; s != nil && !isTrue(p["advanced"]) {
				pairs = append(pairs, fmt.Sprintf("...String(%s).split(\",\").map((f) => f.trim()).filter(Boolean).map((f) => [f, f])", t.param(s)))
			} else {
				box, _ := p["mergeByFields"].(map[string]any)
				for _, e := range asList(box["values"]) {
					m, _ := e.(map[string]any)
					pairs = append(pairs, fmt.Sprintf("[%s, %s]", t.param(m["field1"]), t.param(m["field2"])))
				}
			}
			join := str(p["joinMode"])
			switch mode {
			case "mergeByKey":
				join = "enrichInput1"
			case "keepKeyMatches":
				join = "keepMatches"
				if str(p["outputDataFrom"]) == "" {
					p["outputDataFrom"] = "input1"
				}
			case "removeKeyMatches":
				join = "keepNonMatches"
				if str(p["outputDataFrom"]) == "" {
					p["outputDataFrom"] = "input1"
				}
			}
			if join == "" {
				join = "keepMatches"
			}
			from := str(p["outputDataFrom"])
			if from == "" {
				from = "both"
			}
			fuzzy := isTrue(opts["fuzzyCompare"])
			first := str(opts["multipleMatches"]) == "first"
			var b strings.Builder
			b.WriteString("const [a, b] = inputs;\n")
			fmt.Fprintf(&b, "const merge = %s;\n", combine)
			fmt.Fprintf(&b, "const keys = [%s];\n", strings.Join(pairs, ", "))
			fmt.Fprintf(&b, "const same = (x, y) => (%t ? x == y : JSON.stringify(x) === JSON.stringify(y));\n", fuzzy)
			b.WriteString("const match = (x, y) => keys.length > 0 && keys.every(([k1, k2]) => $getPath(x.json, k1, true) !== undefined && same($getPath(x.json, k1, true), $getPath(y.json, k2, true)));\n")
			b.WriteString("const out = [];\nconst usedB = new Set();\n")
			b.WriteString("a.forEach((x, i) => {\n")
			fmt.Fprintf(&b, "  let hits = b.map((y, j) => [y, j]).filter(([y]) => match(x, y));\n  if (%t) hits = hits.slice(0, 1);\n", first)
			b.WriteString("  hits.forEach(([, j]) => usedB.add(j));\n")
			switch join {
			case "keepMatches":
				switch from {
				case "input1":
					b.WriteString("  if (hits.length) out.push({ json: x.json, pairedItem: { item: i, input: 0 } });\n")
				case "input2":
					b.WriteString("  hits.forEach(([y, j]) => out.push({ json: y.json, pairedItem: { item: j, input: 1 } }));\n")
				default:
					b.WriteString("  hits.forEach(([y, j]) => out.push({ json: merge(x.json, y.json), pairedItem: [{ item: i, input: 0 }, { item: j, input: 1 }] }));\n")
				}
			case "keepNonMatches":
				if from != "input2" {
					b.WriteString("  if (!hits.length) out.push({ json: x.json, pairedItem: { item: i, input: 0 } });\n")
				}
			case "keepEverything", "enrichInput1":
				b.WriteString("  if (!hits.length) out.push({ json: x.json, pairedItem: { item: i, input: 0 } });\n")
				b.WriteString("  hits.forEach(([y, j]) => out.push({ json: merge(x.json, y.json), pairedItem: [{ item: i, input: 0 }, { item: j, input: 1 }] }));\n")
			case "enrichInput2":
				b.WriteString("  hits.forEach(([y, j]) => out.push({ json: merge(x.json, y.json), pairedItem: [{ item: i, input: 0 }, { item: j, input: 1 }] }));\n")
			}
			b.WriteString("});\n")
			if join == "keepEverything" || join == "enrichInput2" || join == "keepNonMatches" && from != "input1" {
				b.WriteString("b.forEach((y, j) => { if (!usedB.has(j)) out.push({ json: y.json, pairedItem: { item: j, input: 1 } }); });\n")
			}
			b.WriteString("return out;\n")
			body = b.String()
		default:
			return c.throwing(ctx, "Merge combining by "+by+" is not converted")
		}
	default:
		return c.throwing(ctx, "Merge mode "+mode+" is not converted")
	}
	k := len(ctx.ins)
	if k < 2 {
		k = 2
	}
	var b strings.Builder
	b.WriteString(header(n))
	var ins []string
	for i := 0; i < k; i++ {
		ins = append(ins, ctx.inputCode(i))
	}
	fmt.Fprintf(&b, "const inputs = structuredClone([%s]);\n", strings.Join(ins, ", "))
	b.WriteString("if (inputs.every((items) => items.length === 0)) return [];\n")
	if u.runtime {
		b.WriteString("const items = inputs[0];\n")
		b.WriteString(runtimeSetup(c, ctx, u, "items"))
		b.WriteString("const $json = items[0]?.json ?? {};\n")
	}
	b.WriteString(setPathJS)
	b.WriteString(mergeJS)
	b.WriteString(body)
	c.noteUses(n, u)
	if u.runtime {
		c.approximate(n.Name, "expressions in the Merge node's fields are evaluated once, with the first input's first item")
	}
	id := c.step(n, "", "", b.String(), 0)
	return emitted{first: id, last: id, ref: nodeRef{value: "{{" + id + "}}"}}
}
