package n8n

import (
	"fmt"
	"strings"
)

// Conditions of IF, Filter and Switch. Version 2 of IF and Filter and
// version 3 of Switch take n8n's "filter" parameter: a list of conditions
// {leftValue, rightValue, operator: {type, operation}}, combined with and
// or or, with options (case sensitivity, type validation strict or loose).
// Older versions take a list of conditions per data type. Both are
// evaluated by condJS, written into the step.

// condJS evaluates one condition of the filter parameter as n8n does:
// values are converted to the operator's type (strictly: a wrong type is an
// error; loosely: converted where possible), then compared.
const condJS = `const $toType = (v, type, strict, loose2) => {
  if (type === "any" || v === null || v === undefined) return v;
  const bad = () => { throw new Error("Wrong type: '" + String(v) + "' is " + (typeof v) + " but was expecting " + type); };
  switch (type) {
    case "string":
      if (strict && typeof v !== "string") bad();
      return typeof v === "object" ? JSON.stringify(v) : String(v);
    case "number":
      if (strict && typeof v !== "number") bad();
      if (loose2 && ((typeof v === "string" && v.trim() === "") || (Array.isArray(v) && v.length === 0))) return null;
      if (Number.isNaN(Number(v))) bad();
      return Number(v);
    case "boolean":
      if (typeof v === "boolean") return v;
      if (strict) bad();
      if (typeof v === "string" && (v.toLowerCase() === "true" || v.toLowerCase() === "false")) return v.toLowerCase() === "true";
      if (!(typeof v === "string" && v.trim() === "") && (Number(v) === 0 || Number(v) === 1)) return Number(v) === 1;
      return Boolean(v);
    case "dateTime": {
      const t = v instanceof Date ? v.getTime() : typeof v === "number" ? v : Date.parse(String(v).trim());
      if (Number.isNaN(t)) bad();
      return t;
    }
    case "array":
      if (Array.isArray(v)) return v;
      if (strict) bad();
      try { const a = JSON.parse(String(v)); if (Array.isArray(a)) return a; } catch {}
      try { const a = JSON.parse(String(v).replace(/'/g, '"')); if (Array.isArray(a)) return a; } catch {}
      return bad();
    case "object":
      if (v && typeof v === "object" && !Array.isArray(v)) return v;
      if (strict) bad();
      try { const o = JSON.parse(String(v)); if (o && typeof o === "object" && !Array.isArray(o)) return o; } catch {}
      return bad();
  }
  return v;
};
const $cond = (c, o) => {
  const strict = o.typeValidation !== "loose";
  const version = o.version ?? 1;
  const op = c.operator ?? {};
  const type = op.type ?? "string";
  const l = $toType(c.leftValue, type, strict, version >= 3);
  const r = op.singleValue ? undefined : $toType(c.rightValue, op.rightType ?? type, strict, version >= 3);
  const exists = l !== undefined && l !== null && !Number.isNaN(l);
  if (op.operation === "exists") return exists;
  if (op.operation === "notExists") return !exists;
  const ci = o.caseSensitive === false;
  switch (type) {
    case "string": {
      let a = l ?? "", b = r ?? "";
      if (ci) { a = a.toLocaleLowerCase(); if (op.operation !== "regex" && op.operation !== "notRegex") b = b.toLocaleLowerCase(); }
      const re = () => { const m = /^\/(.*)\/([a-z]*)$/s.exec(b); return m ? new RegExp(m[1], m[2]) : new RegExp(b); };
      switch (op.operation) {
        case "empty": return a.length === 0;
        case "notEmpty": return a.length !== 0;
        case "equals": return a === b;
        case "notEquals": return a !== b;
        case "contains": return a.includes(b);
        case "notContains": return !a.includes(b);
        case "startsWith": return a.startsWith(b);
        case "notStartsWith": return !a.startsWith(b);
        case "endsWith": return a.endsWith(b);
        case "notEndsWith": return !a.endsWith(b);
        case "regex": return re().test(a);
        case "notRegex": return !re().test(a);
      }
      break;
    }
    case "number": case "dateTime":
      switch (op.operation) {
        case "empty": return !exists;
        case "notEmpty": return exists;
        case "equals": return l === r;
        case "notEquals": return l !== r;
        case "gt": case "after": return l > r;
        case "lt": case "before": return l < r;
        case "gte": case "afterOrEquals": return l >= r;
        case "lte": case "beforeOrEquals": return l <= r;
      }
      break;
    case "boolean":
      switch (op.operation) {
        case "empty": return !exists;
        case "notEmpty": return exists;
        case "true": return l === true;
        case "false": return l === false;
        case "equals": return l === r;
        case "notEquals": return l !== r;
      }
      break;
    case "array": {
      const a = l ?? [];
      const has = () => (ci && typeof r === "string" ? a.some((x) => typeof x === "string" && x.toLocaleLowerCase() === r.toLocaleLowerCase()) : a.includes(r));
      switch (op.operation) {
        case "contains": return has();
        case "notContains": return !has();
        case "lengthEquals": return a.length === r;
        case "lengthNotEquals": return a.length !== r;
        case "lengthGt": return a.length > r;
        case "lengthLt": return a.length < r;
        case "lengthGte": return a.length >= r;
        case "lengthLte": return a.length <= r;
        case "empty": return a.length === 0;
        case "notEmpty": return a.length !== 0;
      }
      break;
    }
    case "object":
      if (op.operation === "empty") return !l || Object.keys(l).length === 0;
      if (op.operation === "notEmpty") return !!l && Object.keys(l).length !== 0;
      break;
  }
  throw new Error("unknown condition " + type + ":" + op.operation);
};
const $filter = (f) => {
  const o = f.options ?? {};
  const list = f.conditions ?? [];
  return f.combinator === "or" ? list.some((c) => $cond(c, o)) : list.every((c) => $cond(c, o));
};
`

// legacyCondJS evaluates the per-type conditions of IF version 1 and
// Switch before version 3.
const legacyCondJS = `const $legacy = (type, op, a, b) => {
  if (type === "dateTime") { a = a === undefined || a === null ? a : new Date(a).getTime(); b = b === undefined || b === null ? b : new Date(b).getTime(); }
  switch (op) {
    case "after": case "larger": return a > b;
    case "before": case "smaller": return a < b;
    case "largerEqual": return a >= b;
    case "smallerEqual": return a <= b;
    case "equal": return type === "string" ? String(a) === String(b) : a === b;
    case "notEqual": return type === "string" ? String(a) !== String(b) : a !== b;
    case "contains": return String(a).includes(String(b));
    case "notContains": return !String(a).includes(String(b));
    case "startsWith": return String(a).startsWith(String(b));
    case "notStartsWith": return !String(a).startsWith(String(b));
    case "endsWith": return String(a).endsWith(String(b));
    case "notEndsWith": return !String(a).endsWith(String(b));
    case "isEmpty": return a === undefined || a === null || a === "" || (Array.isArray(a) && a.length === 0);
    case "isNotEmpty": return !(a === undefined || a === null || a === "" || (Array.isArray(a) && a.length === 0));
    case "regex": case "notRegex": {
      const m = /^\/(.*)\/([a-z]*)$/s.exec(String(b));
      const hit = (m ? new RegExp(m[1], m[2]) : new RegExp(String(b))).test(String(a));
      return op === "regex" ? hit : !hit;
    }
  }
  throw new Error("unknown condition " + type + ":" + op);
};
`

// filterCode is the code of a filter parameter with its expressions
// translated: an object literal $filter takes. extra are node options that
// override the filter's own (ignoreCase, looseTypeValidation).
func filterCode(t *translator, v any, opts map[string]any) string {
	f, _ := v.(map[string]any)
	var b strings.Builder
	fopts, _ := f["options"].(map[string]any)
	caseSensitive := "true"
	if cs, ok := fopts["caseSensitive"].(bool); ok && !cs {
		caseSensitive = "false"
	}
	if ic, ok := opts["ignoreCase"].(bool); ok && ic {
		caseSensitive = "false"
	}
	typeValidation := str(fopts["typeValidation"])
	if typeValidation == "" {
		typeValidation = "strict"
	}
	if lt, ok := opts["looseTypeValidation"].(bool); ok && lt {
		typeValidation = "loose"
	}
	version := 1.0
	if v, ok := fopts["version"].(float64); ok {
		version = v
	}
	combinator := str(f["combinator"])
	if combinator == "" {
		combinator = "and"
	}
	fmt.Fprintf(&b, "{ combinator: %s, options: { caseSensitive: %s, typeValidation: %s, version: %s }, conditions: [", jsString(combinator), caseSensitive, jsString(typeValidation), jsNumber(version))
	for i, c := range asList(f["conditions"]) {
		m, _ := c.(map[string]any)
		if i > 0 {
			b.WriteString(",")
		}
		op, _ := m["operator"].(map[string]any)
		fmt.Fprintf(&b, "\n  { leftValue: %s, rightValue: %s, operator: %s }", t.param(m["leftValue"]), t.param(m["rightValue"]), t.param(op))
	}
	b.WriteString(" ] }")
	return b.String()
}

// legacyConditions is the code of IF version 1's conditions for the
// current item.
func legacyConditions(t *translator, p map[string]any) string {
	conds, _ := p["conditions"].(map[string]any)
	var parts []string
	for _, typ := range []string{"boolean", "dateTime", "number", "string"} {
		for _, c := range asList(conds[typ]) {
			m, _ := c.(map[string]any)
			op := str(m["operation"])
			if op == "" {
				op = map[string]string{"boolean": "equal", "dateTime": "after", "number": "smaller", "string": "equal"}[typ]
			}
			a := t.param(m["value1"])
			bv := t.param(m["value2"])
			if m["value2"] == nil {
				bv = map[string]string{"boolean": "false", "number": "0", "string": `""`, "dateTime": "null"}[typ]
			}
			if m["value1"] == nil {
				a = map[string]string{"boolean": "false", "number": "0", "string": `""`, "dateTime": "null"}[typ]
			}
			parts = append(parts, fmt.Sprintf("$legacy(%s, %s, %s, %s)", jsString(typ), jsString(op), a, bv))
		}
	}
	if len(parts) == 0 {
		return "false"
	}
	join := " && "
	if str(p["combineOperation"]) == "any" {
		join = " || "
	}
	return strings.Join(parts, join)
}
