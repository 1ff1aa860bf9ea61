package n8n

import (
	"fmt"
	"strconv"
	"strings"
)

// Data nodes: Set (Edit Fields), IF, Switch, Filter, Merge, Split Out,
// Aggregate, Date & Time.

// setPathJS sets a value at a dotted path ("a.b", "list[0].x"), making the
// objects and lists on the way, as n8n's dot notation does.
const setPathJS = `const $setPath = (obj, path, value, dots) => {
  if (!dots) { obj[path] = value; return; }
  const keys = path.replace(/\[(\d+)\]/g, ".$1").split(".").filter((k) => k !== "");
  let o = obj;
  keys.forEach((k, i) => {
    if (i === keys.length - 1) { o[k] = value; return; }
    if (o[k] === null || typeof o[k] !== "object") o[k] = /^\d+$/.test(keys[i + 1]) ? [] : {};
    o = o[k];
  });
};
const $getPath = (obj, path, dots) => {
  if (!dots) return obj?.[path];
  return path.replace(/\[(\d+)\]/g, ".$1").split(".").filter((k) => k !== "").reduce((o, k) => (o === null || o === undefined ? undefined : o[k]), obj);
};
`

// setTypeJS converts a field value of Edit Fields (version 3) to its type,
// as n8n does: a string from anything, a number, boolean, array or object
// parsed from text; with ignore, a value that does not convert is kept.
const setTypeJS = `const $setType = (name, type, v, ignore, version) => {
  if (v === undefined || v === null) {
    if (type === "string" && version > 3 && version < 3.3 && !ignore) throw new Error("'" + name + "' expects a string but we got " + (v === null ? "'null'" : "'undefined'"));
    return null;
  }
  const fail = () => {
    if (ignore) return v;
    const d = typeof v === "object" ? (Array.isArray(v) ? "array" : "object") : "'" + String(v) + "'";
    throw new Error("'" + name + "' expects a " + type + " but we got " + d);
  };
  switch (type) {
    case "string": return typeof v === "object" ? JSON.stringify(v) : String(v);
    case "number": return Number.isNaN(Number(v)) ? fail() : Number(v);
    case "boolean":
      if (typeof v === "boolean") return v;
      if (typeof v === "string" && ["true", "false"].includes(v.toLowerCase())) return v.toLowerCase() === "true";
      if (!(typeof v === "string" && v.trim() === "")) { const n = Number(v); if (n === 0) return false; if (n === 1) return true; }
      return fail();
    case "array":
      if (Array.isArray(v)) return v;
      try { const a = JSON.parse(String(v)); if (Array.isArray(a)) return a; } catch {}
      try { const a = JSON.parse(String(v).replace(/'/g, '"')); if (Array.isArray(a)) return a; } catch {}
      return fail();
    case "object":
      if (v && typeof v === "object" && !Array.isArray(v)) return v;
      try { const o = JSON.parse(String(v)); if (o && typeof o === "object" && !Array.isArray(o)) return o; } catch {}
      return fail();
  }
  return v;
};
`

// setNode converts Set / Edit Fields.
func (c *converter) setNode(ctx *nodeCtx) emitted {
	n := ctx.node
	p := n.Parameters
	u := &uses{}
	t := c.translate(u)
	opts, _ := p["options"].(map[string]any)
	dots := true
	if d, ok := opts["dotNotation"].(bool); ok {
		dots = d
	}
	var b strings.Builder
	b.WriteString(setPathJS)
	if n.TypeVersion < 3 {
		// Version 1 and 2: values by type, keepOnlySet.
		keep, _ := p["keepOnlySet"].(bool)
		vals, _ := p["values"].(map[string]any)
		b.WriteString("return items.map((item, $itemIndex) => {\n")
		b.WriteString("  if (typeof rt !== \"undefined\") rt.i = $itemIndex;\n  const $json = item.json;\n")
		if keep {
			b.WriteString("  const json = {};\n")
		} else {
			b.WriteString("  const json = structuredClone(item.json);\n")
		}
		for _, typ := range []string{"boolean", "number", "string"} {
			for _, e := range asList(vals[typ]) {
				m, _ := e.(map[string]any)
				v := t.param(m["value"])
				switch typ {
				case "boolean":
					if m["value"] == nil {
						v = "false"
					}
					v = "!!" + v
				case "number":
					if m["value"] == nil {
						v = "0"
					}
				case "string":
					if m["value"] == nil {
						v = `""`
					}
				}
				fmt.Fprintf(&b, "  $setPath(json, %s, %s, %t);\n", t.param(m["name"]), v, dots)
			}
		}
		b.WriteString("  return { json, pairedItem: { item: $itemIndex } };\n});\n")
		return c.simple(ctx, b.String(), withRuntimeIf(u), 0)
	}
	b.WriteString(setTypeJS)
	ignore := false
	if v, ok := opts["ignoreConversionErrors"].(bool); ok {
		ignore = v
	}
	include := str(p["include"])
	if n.TypeVersion >= 3.3 {
		if other, _ := p["includeOtherFields"].(bool); other {
			if include == "" {
				include = "all"
			}
		} else {
			include = "none"
		}
	} else if include == "" {
		include = "all"
	}
	b.WriteString("return items.map((item, $itemIndex) => {\n")
	b.WriteString("  if (typeof rt !== \"undefined\") rt.i = $itemIndex;\n  const $json = item.json;\n")
	switch include {
	case "none":
		b.WriteString("  const json = {};\n")
	case "selected", "except":
		var fields []string
		for _, f := range strings.Split(str(p[map[string]string{"selected": "includeFields", "except": "excludeFields"}[include]]), ",") {
			if f = strings.TrimSpace(f); f != "" {
				fields = append(fields, jsString(f))
			}
		}
		if include == "selected" {
			fmt.Fprintf(&b, "  const json = {};\n  for (const f of [%s]) { const v = $getPath(item.json, f, %t); if (v !== undefined) $setPath(json, f, structuredClone(v), %t); }\n", strings.Join(fields, ", "), dots, dots)
		} else {
			fmt.Fprintf(&b, "  const json = structuredClone(item.json);\n  for (const f of [%s]) delete json[f];\n", strings.Join(fields, ", "))
		}
	default:
		b.WriteString("  const json = structuredClone(item.json);\n")
	}
	if str(p["mode"]) == "raw" {
		fmt.Fprintf(&b, "  let raw = %s;\n", t.param(p["jsonOutput"]))
		b.WriteString("  if (typeof raw === \"string\") raw = JSON.parse(raw);\n")
		b.WriteString("  if (raw === null || typeof raw !== \"object\" || Array.isArray(raw)) throw new Error(\"JSON Output must be an object\");\n")
		b.WriteString("  Object.assign(json, raw);\n")
	} else {
		for _, f := range setFields(n) {
			fmt.Fprintf(&b, "  $setPath(json, %s, $setType(%s, %s, %s, %t, %s), %t);\n", t.param(f.name), t.param(f.name), jsString(f.typ), t.param(f.value), ignore, jsNumber(n.TypeVersion), dots)
		}
	}
	b.WriteString("  return { json, pairedItem: { item: $itemIndex } };\n});\n")
	return c.simple(ctx, b.String(), withRuntimeIf(u), 0)
}

// withRuntimeIf keeps u as it is: the Set node's code runs with the
// runtime only when its expressions need it.
func withRuntimeIf(u *uses) *uses { return u }

// setField is one field of Edit Fields version 3.
type setField struct {
	name  any
	typ   string
	value any
}

// setFields reads the fields of Edit Fields: assignments (version 3.3 and
// later) or fields.values (3.0 to 3.2).
func setFields(n *Node) []setField {
	p := n.Parameters
	var out []setField
	if a, ok := p["assignments"].(map[string]any); ok {
		for _, e := range asList(a["assignments"]) {
			m, _ := e.(map[string]any)
			typ := str(m["type"])
			if typ == "" {
				typ = "string"
			}
			out = append(out, setField{name: m["name"], typ: typ, value: m["value"]})
		}
		return out
	}
	f, _ := p["fields"].(map[string]any)
	for _, e := range asList(f["values"]) {
		m, _ := e.(map[string]any)
		typ := str(m["type"])
		if typ == "" {
			typ = "stringValue"
		}
		out = append(out, setField{name: m["name"], typ: strings.TrimSuffix(typ, "Value"), value: m[typ]})
	}
	return out
}

// ifNode converts IF: a step partitions the items into the true and false
// outputs; the paths after it become branches.
func (c *converter) ifNode(ctx *nodeCtx) emitted {
	n := ctx.node
	p := n.Parameters
	u := &uses{}
	t := c.translate(u)
	opts, _ := p["options"].(map[string]any)
	var b strings.Builder
	var test string
	if n.TypeVersion >= 2 {
		b.WriteString(condJS)
		test = "$filter(" + filterCode(t, p["conditions"], opts) + ")"
	} else {
		b.WriteString(legacyCondJS)
		test = legacyConditions(t, p)
	}
	b.WriteString("const outputs = [[], []];\n")
	b.WriteString("items.forEach((item, $itemIndex) => {\n")
	b.WriteString("  if (typeof rt !== \"undefined\") rt.i = $itemIndex;\n  const $json = item.json;\n")
	fmt.Fprintf(&b, "  const pass = %s;\n", test)
	b.WriteString("  outputs[pass ? 0 : 1].push({ json: item.json, pairedItem: { item: $itemIndex } });\n});\nreturn outputs;\n")
	return c.simple(ctx, b.String(), u, 2)
}

func isTrue(v any) bool {
	b, _ := v.(bool)
	return b
}

// filterNode converts Filter: the items that pass its conditions.
func (c *converter) filterNode(ctx *nodeCtx) emitted {
	n := ctx.node
	p := n.Parameters
	u := &uses{}
	t := c.translate(u)
	opts, _ := p["options"].(map[string]any)
	var b strings.Builder
	var test string
	if n.TypeVersion >= 2 {
		b.WriteString(condJS)
		test = "$filter(" + filterCode(t, p["conditions"], opts) + ")"
	} else {
		b.WriteString(legacyCondJS)
		test = legacyConditions(t, p)
	}
	b.WriteString("const out = [];\n")
	b.WriteString("items.forEach((item, $itemIndex) => {\n")
	b.WriteString("  if (typeof rt !== \"undefined\") rt.i = $itemIndex;\n  const $json = item.json;\n")
	fmt.Fprintf(&b, "  if (%s) out.push({ json: item.json, pairedItem: { item: $itemIndex } });\n", test)
	b.WriteString("});\nreturn out;\n")
	return c.simple(ctx, b.String(), u, 0)
}

// switchOutputs is the number of outputs of a Switch node.
func switchOutputs(n *Node) int {
	p := n.Parameters
	if str(p["mode"]) == "expression" {
		if v, ok := p["numberOutputs"].(float64); ok && v >= 1 {
			return int(v)
		}
		return 4
	}
	if n.TypeVersion >= 3 {
		rules, _ := p["rules"].(map[string]any)
		k := len(asList(rules["values"]))
		opts, _ := p["options"].(map[string]any)
		if str(opts["fallbackOutput"]) == "extra" {
			k++
		}
		return k
	}
	if n.TypeVersion >= 2 {
		if v, ok := p["outputsAmount"].(float64); ok && v >= 1 {
			return int(v)
		}
	}
	return 4
}

// switchOutputLabel names output o of a Switch (its renamed key, or
// "output N").
func switchOutputLabel(n *Node, o int) string {
	p := n.Parameters
	if n.TypeVersion >= 3 && str(p["mode"]) != "expression" {
		rules, _ := p["rules"].(map[string]any)
		list := asList(rules["values"])
		if o < len(list) {
			m, _ := list[o].(map[string]any)
			if r, _ := m["renameOutput"].(bool); r {
				if k := strings.TrimSpace(str(m["outputKey"])); k != "" && k != "then" {
					return k
				}
			}
		} else {
			opts, _ := p["options"].(map[string]any)
			if k := strings.TrimSpace(str(opts["renameFallbackOutput"])); k != "" && k != "then" {
				return k
			}
			return "fallback"
		}
	}
	return "output " + strconv.Itoa(o)
}

// switchNode converts Switch: a step routes each item to the outputs whose
// rule it matches; the paths after it become branches.
func (c *converter) switchNode(ctx *nodeCtx) emitted {
	n := ctx.node
	p := n.Parameters
	u := &uses{}
	t := c.translate(u)
	opts, _ := p["options"].(map[string]any)
	k := switchOutputs(n)
	var b strings.Builder
	fmt.Fprintf(&b, "const outputs = Array.from({ length: %d }, () => []);\n", k)
	if str(p["mode"]) == "expression" {
		b.WriteString("items.forEach((item, $itemIndex) => {\n")
		b.WriteString("  if (typeof rt !== \"undefined\") rt.i = $itemIndex;\n  const $json = item.json;\n")
		fmt.Fprintf(&b, "  const o = Number(%s);\n", t.param(p["output"]))
		fmt.Fprintf(&b, "  if (!(o >= 0 && o < %d)) throw new Error(\"The output \" + o + \" is not allowed. It has to be between 0 and %d!\");\n", k, k-1)
		b.WriteString("  outputs[o].push({ json: item.json, pairedItem: { item: $itemIndex } });\n});\nreturn outputs;\n")
		return c.simple(ctx, b.String(), u, k)
	}
	var tests []string
	fallback := -1
	if n.TypeVersion >= 3 {
		b.WriteString(condJS)
		rules, _ := p["rules"].(map[string]any)
		for _, r := range asList(rules["values"]) {
			m, _ := r.(map[string]any)
			tests = append(tests, "$filter("+filterCode(t, m["conditions"], opts)+")")
		}
		switch fb := opts["fallbackOutput"].(type) {
		case string:
			if fb == "extra" {
				fallback = len(tests)
			}
		case float64:
			fallback = int(fb)
		}
	} else {
		b.WriteString(legacyCondJS)
		typ := str(p["dataType"])
		if typ == "" {
			typ = "number"
		}
		rules, _ := p["rules"].(map[string]any)
		for _, r := range asList(rules["rules"]) {
			m, _ := r.(map[string]any)
			op := str(m["operation"])
			if op == "" {
				op = "equal"
			}
			out := 0
			if v, ok := m["output"].(float64); ok {
				out = int(v)
			}
			for len(tests) < out {
				tests = append(tests, "false")
			}
			// A value left empty is the parameter's default in n8n.
			defaults := map[string]string{"boolean": "false", "number": "0", "string": `""`, "dateTime": "null"}
			a, bv := t.param(p["value1"]), t.param(m["value2"])
			if p["value1"] == nil {
				a = defaults[typ]
			}
			if m["value2"] == nil {
				bv = defaults[typ]
			}
			test := fmt.Sprintf("$legacy(%s, %s, %s, %s)", jsString(typ), jsString(op), a, bv)
			if out < len(tests) {
				tests[out] = "(" + tests[out] + " || " + test + ")"
			} else {
				tests = append(tests, test)
			}
		}
		if fb, ok := p["fallbackOutput"].(float64); ok {
			fallback = int(fb)
		}
	}
	all := isTrue(opts["allMatchingOutputs"])
	b.WriteString("items.forEach((item, $itemIndex) => {\n")
	b.WriteString("  if (typeof rt !== \"undefined\") rt.i = $itemIndex;\n  const $json = item.json;\n")
	b.WriteString("  const next = { json: item.json, pairedItem: { item: $itemIndex } };\n  let matched = false;\n")
	for i, test := range tests {
		if i >= k {
			break
		}
		if all {
			fmt.Fprintf(&b, "  if (%s) { outputs[%d].push(next); matched = true; }\n", test, i)
		} else {
			fmt.Fprintf(&b, "  if (!matched && %s) { outputs[%d].push(next); matched = true; }\n", test, i)
		}
	}
	if fallback >= 0 && fallback < k {
		fmt.Fprintf(&b, "  if (!matched) outputs[%d].push(next);\n", fallback)
	}
	b.WriteString("});\nreturn outputs;\n")
	return c.simple(ctx, b.String(), u, k)
}

// splitOutNode converts Split Out: one item per element of a list field.
func (c *converter) splitOutNode(ctx *nodeCtx) emitted {
	n := ctx.node
	p := n.Parameters
	u := &uses{}
	t := c.translate(u)
	opts, _ := p["options"].(map[string]any)
	dots := true
	if d, ok := opts["disableDotNotation"].(bool); ok && d {
		dots = false
	}
	include := str(p["include"])
	if include == "" {
		include = "noOtherFields"
	}
	var b strings.Builder
	b.WriteString(setPathJS)
	b.WriteString("const out = [];\n")
	b.WriteString("items.forEach((item, $itemIndex) => {\n")
	b.WriteString("  if (typeof rt !== \"undefined\") rt.i = $itemIndex;\n  const $json = item.json;\n")
	fmt.Fprintf(&b, "  const fields = String(%s).split(\",\").map((f) => f.trim()).filter((f) => f !== \"\");\n", t.param(p["fieldToSplitOut"]))
	fmt.Fprintf(&b, "  const dest = String(%s ?? \"\").split(\",\").map((f) => f.trim());\n", t.param(opts["destinationFieldName"]))
	fmt.Fprintf(&b, "  const lists = fields.map((f) => { const v = $getPath(item.json, f, %t); if (v === undefined) throw new Error(\"The field '\" + f + \"' wasn't found in any input item\"); return v === null ? [] : typeof v === \"object\" && !Array.isArray(v) ? Object.values(v) : Array.isArray(v) ? v : [v]; });\n", dots)
	b.WriteString("  const length = Math.max(0, ...lists.map((l) => l.length));\n")
	b.WriteString("  for (let i = 0; i < length; i++) {\n")
	switch include {
	case "allOtherFields":
		fmt.Fprintf(&b, "    const json = structuredClone(item.json);\n    fields.forEach((f) => { if (%t) { const k = f.split(\".\"); let o = json; for (let j = 0; j < k.length - 1 && o; j++) o = o[k[j]]; if (o) delete o[k[k.length - 1]]; } else delete json[f]; });\n", dots)
	case "selectedOtherFields":
		fmt.Fprintf(&b, "    const json = {};\n    for (const f of String(%s).split(\",\").map((f) => f.trim()).filter(Boolean)) { const v = $getPath(item.json, f, %t); if (v !== undefined) $setPath(json, f, structuredClone(v), %t); }\n", t.param(p["fieldsToInclude"]), dots, dots)
	default:
		b.WriteString("    const json = {};\n")
	}
	b.WriteString("    fields.forEach((f, j) => {\n")
	b.WriteString("      const v = lists[j][i];\n")
	b.WriteString("      const name = dest[j] || f;\n")
	b.WriteString("      if (v !== null && typeof v === \"object\" && !Array.isArray(v) && fields.length === 1 && !dest[j] && " + strconv.Quote(include) + " === \"noOtherFields\") Object.assign(json, v);\n")
	b.WriteString("      else json[name] = v === undefined ? null : v;\n")
	b.WriteString("    });\n")
	b.WriteString("    out.push({ json, pairedItem: { item: $itemIndex } });\n  }\n});\nreturn out;\n")
	if isTrue(opts["includeBinary"]) {
		c.approximate(n.Name, "binary data is not converted")
	}
	return c.simple(ctx, b.String(), u, 0)
}

// aggregateNode converts Aggregate: every item's fields (or whole data)
// into one item.
func (c *converter) aggregateNode(ctx *nodeCtx) emitted {
	n := ctx.node
	p := n.Parameters
	u := &uses{}
	t := c.translate(u)
	opts, _ := p["options"].(map[string]any)
	var b strings.Builder
	b.WriteString(setPathJS)
	if str(p["aggregate"]) == "aggregateAllItemData" {
		dest := str(p["destinationFieldName"])
		if dest == "" {
			dest = "data"
		}
		include := str(p["include"])
		fields := "[]"
		if include == "specifiedFields" || include == "allFieldsExcept" {
			key := map[string]string{"specifiedFields": "fieldsToInclude", "allFieldsExcept": "fieldsToExclude"}[include]
			fields = "String(" + t.param(p[key]) + ").split(\",\").map((f) => f.trim()).filter(Boolean)"
		}
		fmt.Fprintf(&b, "const fields = %s;\n", fields)
		b.WriteString("const data = items.map((item) => {\n")
		switch include {
		case "specifiedFields":
			b.WriteString("  const o = {};\n  for (const f of fields) { const v = $getPath(item.json, f, true); if (v !== undefined) o[f] = v; }\n  return o;\n")
		case "allFieldsExcept":
			b.WriteString("  const o = structuredClone(item.json);\n  for (const f of fields) delete o[f];\n  return o;\n")
		default:
			b.WriteString("  return item.json;\n")
		}
		b.WriteString("});\n")
		fmt.Fprintf(&b, "return [{ json: { %s: data }, pairedItem: items.map((_, i) => ({ item: i })) }];\n", jsKey(dest))
		return c.simple(ctx, b.String(), u, 0)
	}
	merge := isTrue(opts["mergeLists"])
	keepMissing := isTrue(opts["keepMissing"])
	box, _ := p["fieldsToAggregate"].(map[string]any)
	b.WriteString("const json = {};\n")
	for _, e := range asList(box["fieldToAggregate"]) {
		m, _ := e.(map[string]any)
		field := t.param(m["fieldToAggregate"])
		out := field
		if isTrue(m["renameField"]) {
			out = t.param(m["outputFieldName"])
		}
		fmt.Fprintf(&b, "{\n  const list = [];\n  for (const item of items) {\n    const v = $getPath(item.json, %s, !%t);\n", field, isTrue(opts["disableDotNotation"]))
		if keepMissing {
			b.WriteString("    if (v === undefined) { list.push(null); continue; }\n")
		} else {
			b.WriteString("    if (v === undefined) continue;\n")
		}
		if merge {
			b.WriteString("    if (Array.isArray(v)) list.push(...v); else list.push(v);\n")
		} else {
			b.WriteString("    list.push(v);\n")
		}
		fmt.Fprintf(&b, "  }\n  json[%s] = list;\n}\n", out)
	}
	b.WriteString("return [{ json, pairedItem: items.map((_, i) => ({ item: i })) }];\n")
	if isTrue(opts["includeBinary"]) {
		c.approximate(n.Name, "binary data is not converted")
	}
	return c.simple(ctx, b.String(), u, 0)
}
