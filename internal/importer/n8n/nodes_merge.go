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
  // As lodash's merge: objects and lists merged member by member,
  // undefined never overwrites.
  const into = (x, y) => {
    for (const [k, v] of Object.entries(y)) {
      if (v === undefined) continue;
      const both = v && x[k] && typeof v === "object" && typeof x[k] === "object" && Array.isArray(v) === Array.isArray(x[k]);
      if (both) into(x[k], v);
      else x[k] = structuredClone(v);
    }
    return x;
  };
  return into(structuredClone(low), high);
};
const $mergeAll = (list, deep) => list.slice(1).reduce((acc, j) => $mergeJson(acc, j, "preferInput2", deep), structuredClone(list[0]));
const $mergeSuffix = (x, ys) => {
  const out = {};
  for (const [k, v] of Object.entries(x)) out[k + "_1"] = v;
  for (const y of ys) for (const [k, v] of Object.entries(y.json)) out[k + "_2"] = v;
  return out;
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
	prefer, deep, explicitClash := "preferInput2", true, false
	if ch, ok := opts["clashHandling"].(map[string]any); ok {
		if v, ok := ch["values"].(map[string]any); ok {
			if r := str(v["resolveClash"]); r != "" {
				prefer, explicitClash = r, true
			}
			if m := str(v["mergeMode"]); m != "" {
				deep = m == "deepMerge"
			}
			if isTrue(v["overrideEmpty"]) {
				c.approximate(n.Name, "the clash option \"minimize empty fields\" is not converted")
			}
		}
	}
	combine := fmt.Sprintf("(a, b) => $mergeJson(a, b, %s, %t)", jsString(prefer), deep)
	if prefer == "addSuffix" {
		combine = "(a, b) => $mergeSuffix(a, [{ json: b }])"
	}
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
			from := str(p["outputDataFrom"])
			switch mode {
			case "mergeByKey":
				join = "enrichInput1"
			case "keepKeyMatches":
				join, from = "keepMatches", "input1"
			case "removeKeyMatches":
				join, from = "keepNonMatches", "input1"
			}
			if join == "" {
				join = "keepMatches"
			}
			if from == "" {
				from = "both"
			}
			first := str(opts["multipleMatches"]) == "first"
			var b strings.Builder
			b.WriteString("const [a, b] = inputs;\n")
			switch join {
			case "keepMatches":
				b.WriteString("if (a.length === 0 || b.length === 0) return [];\n")
			case "enrichInput1":
				b.WriteString("if (a.length === 0) return [];\nif (b.length === 0) return [...a];\n")
			case "enrichInput2":
				b.WriteString("if (b.length === 0) return [];\nif (a.length === 0) return [...b];\n")
			default:
				b.WriteString("if (a.length === 0 || b.length === 0) return [...a, ...b];\n")
			}
			fmt.Fprintf(&b, "const keys = [%s];\n", strings.Join(pairs, ", "))
			fmt.Fprintf(&b, "const same = (x, y) => (%t ? x == y : JSON.stringify(x) === JSON.stringify(y));\n", isTrue(opts["fuzzyCompare"]))
			b.WriteString("const matched = [], unmatched1 = [], hit2 = new Set();\n")
			b.WriteString("a.forEach((x, i) => {\n")
			b.WriteString("  const want = keys.map(([k1]) => $getPath(x.json, k1, true));\n")
			b.WriteString("  if (want.some((v) => v === undefined)) { unmatched1.push(x); return; }\n")
			b.WriteString("  let hits = b.map((y, j) => [y, j]).filter(([y]) => keys.every(([, k2], k) => same(want[k], $getPath(y.json, k2, true))));\n")
			fmt.Fprintf(&b, "  if (%t) hits = hits.slice(0, 1);\n", first)
			b.WriteString("  hits.forEach(([, j]) => hit2.add(j));\n")
			b.WriteString("  if (hits.length === 0) unmatched1.push(x);\n")
			b.WriteString("  else matched.push([x, hits.map(([y]) => y)]);\n")
			b.WriteString("});\n")
			b.WriteString("const unmatched2 = b.filter((_, j) => !hit2.has(j));\n")
			b.WriteString("const matched2 = b.filter((_, j) => hit2.has(j));\n")
			clash := prefer
			if !explicitClash && join == "enrichInput2" {
				clash = "preferInput1"
			}
			fmt.Fprintf(&b, "const merged = () => matched.flatMap(([x, ys]) => %s);\n", mergedCode(clash, deep, join == "enrichInput1" || join == "enrichInput2" || from == "both"))
			suffix := clash == "addSuffix"
			sfx := func(list, n string) string {
				if suffix {
					return list + ".map((it) => ({ ...it, json: Object.fromEntries(Object.entries(it.json).map(([k, v]) => [k + \"_" + n + "\", v])) }))"
				}
				return list
			}
			switch join {
			case "keepMatches", "keepEverything":
				switch from {
				case "input1":
					b.WriteString("let out = matched.map(([x]) => x);\n")
				case "input2":
					b.WriteString("let out = matched2;\n")
				default:
					b.WriteString("let out = merged();\n")
				}
				if join == "keepEverything" {
					fmt.Fprintf(&b, "out = [...out, ...%s, ...%s];\n", sfx("unmatched1", "1"), sfx("unmatched2", "2"))
				}
				b.WriteString("return out;\n")
			case "keepNonMatches":
				switch from {
				case "input1":
					b.WriteString("return unmatched1;\n")
				case "input2":
					b.WriteString("return unmatched2;\n")
				default:
					b.WriteString("return [...unmatched1.map((it) => ({ ...it, json: { ...it.json, _source: \"input1\" } })), ...unmatched2.map((it) => ({ ...it, json: { ...it.json, _source: \"input2\" } }))];\n")
				}
			case "enrichInput1":
				fmt.Fprintf(&b, "return [...merged(), ...%s];\n", sfx("unmatched1", "1"))
			case "enrichInput2":
				fmt.Fprintf(&b, "return [...merged(), ...%s];\n", sfx("unmatched2", "2"))
			default:
				return c.throwing(ctx, "Merge join mode "+join+" is not converted")
			}
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

// mergedCode is the code of the items a matched input-1 item x makes with
// its input-2 matches ys: one item per match (each: when perMatch), or one
// item of all, the fields merged as clash says.
func mergedCode(clash string, deep, perMatch bool) string {
	one := func(ys string) string {
		switch clash {
		case "addSuffix":
			return "$mergeSuffix(x.json, " + ys + ")"
		case "preferInput1":
			return fmt.Sprintf("$mergeAll([...%s.map((y) => y.json), x.json], %t)", ys, deep)
		}
		return fmt.Sprintf("$mergeAll([x.json, ...%s.map((y) => y.json)], %t)", ys, deep)
	}
	if perMatch {
		return "ys.map((y) => ({ json: " + one("[y]") + " }))"
	}
	return "[{ json: " + one("ys") + " }]"
}
