package awaitstep

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/edgeflow/edgeflow/internal/ir"
)

// awaitExpr is an AwaitStep expression: {{id.path}} with \w+ segments and
// no blanks (anything else between braces is text in AwaitStep).
var awaitExpr = regexp.MustCompile(`\{\{(\w+)((?:\.\w+)*)\}\}`)

// rewrite renames the node ids in the expressions of s and changes the
// paths of references to nodes whose value differs (a wait_for_event's is
// the payload in edgeflow, a sub_workflow's is {instanceId, status,
// output}). In code, an expression right after "{" or before "}" (as in
// AwaitStep's "${{{a.b}}}") gets a blank between, so that edgeflow reads
// the same JavaScript.
func (c *converter) rewrite(node, s string, code bool) string {
	if !strings.Contains(s, "{{") {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range awaitExpr.FindAllStringSubmatchIndex(s, -1) {
		b.WriteString(s[last:m[0]])
		root := s[m[2]:m[3]]
		path := s[m[4]:m[5]]
		var ref string
		switch {
		case root == "trigger":
			c.approximate(node, "{{trigger...}} is undefined in AwaitStep's generated code; it is written as undefined")
			ref = "undefined"
			if !code {
				ref = ""
			}
		case root == "env" || root == "event":
			ref = "{{" + root + path + "}}"
		default:
			id, ok := c.ids[root]
			if !ok {
				ref = s[m[0]:m[1]]
				break
			}
			if d := c.drop[root]; d != "" && strings.HasPrefix(path, "."+d) {
				path = strings.TrimPrefix(path, "."+d)
			} else if d != "" {
				c.approximate(node, fmt.Sprintf("reads %s%s: a wait_for_event's value is the event's payload in edgeflow (AwaitStep: {payload, timestamp, type})", root, path))
			}
			if ins := c.insert[root]; ins != "" {
				path = "." + ins + path
			}
			ref = "{{" + id + path + "}}"
			if l, ok := c.laneLast[root]; ok && c.laneOf[node] != l {
				// Read from outside its lane: through the parallel's value.
				ref = "{{" + c.ids[l.parallel] + "[" + itoa(l.index) + "]" + path + "}}"
				c.approximate(node, fmt.Sprintf("reads %s, the last node of a lane of the parallel %q, through the parallel's value (AwaitStep's generated code cannot read a lane's variables after the lanes)", root, l.parallel))
			}
		}
		if code && m[0] > 0 && s[m[0]-1] == '{' {
			b.WriteByte(' ')
		}
		b.WriteString(ref)
		if code && m[1] < len(s) && s[m[1]] == '}' {
			b.WriteByte(' ')
		}
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// node converts one AwaitStep node into IR nodes and the edges between
// them.
func (c *converter) node(n map[string]any) ([]map[string]any, []map[string]any) {
	id, _ := n["id"].(string)
	typ, _ := n["type"].(string)
	name, _ := n["name"].(string)
	if strings.TrimSpace(name) == "" {
		name = id
	}
	if len(name) > 256 {
		name = name[:256]
	}
	data, _ := n["data"].(map[string]any)
	if data == nil {
		data = map[string]any{}
	}
	out := map[string]any{"id": c.ids[id], "type": typ, "name": name, "version": "1.0.0", "provider": "cloudflare"}
	if p, ok := n["position"].(map[string]any); ok {
		x, _ := p["x"].(float64)
		y, _ := p["y"].(float64)
		out["position"] = map[string]any{"x": x, "y": y}
	}
	if cfg, ok := n["config"].(map[string]any); ok {
		out["config"] = stepConfig(cfg)
	}
	nd := map[string]any{}
	switch typ {
	case ir.TypeStep:
		nd["code"] = c.rewrite(id, str(data["code"]), true)
		for _, k := range []string{"retryLimit", "backoff"} {
			if v, ok := data[k]; ok && v != nil && v != "" {
				nd[k] = v
			}
		}
		for _, k := range []string{"retryDelay", "timeout"} {
			if v, ok := data[k]; ok && v != nil && v != "" {
				nd[k] = duration(v)
			}
		}
		if inline, _ := data["inline"].(bool); inline {
			c.approximate(id, "inline: edgeflow runs every step of a workflow as a durable step")
		}
	case ir.TypeSleep:
		nd["duration"] = duration(data["duration"])
		c.noteText(id, data["duration"])
	case ir.TypeSleepUntil:
		nd["timestamp"] = c.rewrite(id, str(data["timestamp"]), false)
		c.noteText(id, data["timestamp"])
	case ir.TypeBranch:
		var arms []any
		var elseArm map[string]any
		for _, b := range asList(data["branches"]) {
			m, _ := b.(map[string]any)
			arm := map[string]any{"label": str(m["label"]), "condition": c.rewrite(id, str(m["condition"]), true)}
			if strings.TrimSpace(str(m["condition"])) == "" {
				if elseArm != nil {
					c.approximate(id, fmt.Sprintf("a second else arm %q is dropped", str(m["label"])))
					continue
				}
				elseArm = arm
				continue
			}
			arms = append(arms, arm)
		}
		if elseArm != nil {
			if len(arms) > 0 && str(asList(data["branches"])[0].(map[string]any)["condition"]) == "" {
				c.approximate(id, "the else arm comes first, which AwaitStep cannot compile; edgeflow puts it last")
			}
			arms = append(arms, elseArm)
		}
		nd["branches"] = arms
	case ir.TypeParallel, ir.TypeRace, ir.TypeTryCatch:
		if typ == ir.TypeParallel && c.referenced(id) {
			c.approximate(id, "a parallel's value is the list of its lanes' last values, and a failing lane fails it (AwaitStep: Promise.allSettled's {status, value})")
		}
		if typ == ir.TypeTryCatch && c.catchReadsErr(id) {
			c.approximate(id, "AwaitStep's catch block reads the error as err; in edgeflow it is {{"+c.ids[id]+".error}} ({name, message})")
		}
	case ir.TypeWaitForEvent:
		nd["eventType"] = c.rewrite(id, str(data["eventType"]), false)
		if t, ok := data["timeout"]; ok && t != nil && t != "" {
			nd["timeout"] = duration(t)
		}
	case ir.TypeLoop:
		for _, k := range []string{"loopType", "itemVar"} {
			if v := str(data[k]); v != "" {
				nd[k] = v
			}
		}
		for _, k := range []string{"collection", "condition"} {
			if v := str(data[k]); v != "" {
				nd[k] = c.rewrite(id, v, true)
			}
		}
		if v, ok := data["count"].(float64); ok {
			nd["count"] = v
		}
		if c.usesAnywhere("_loop_i") {
			nd["indexVar"] = "_loop_i"
			c.approximate(id, "the loop's index is declared as _loop_i, the name AwaitStep's generated code gives it")
		} else if v := str(data["indexVar"]); v != "" {
			nd["indexVar"] = v
		}
		if c.usesAnywhere("_output") {
			c.approximate(id, "_output is AwaitStep's loop result variable; an edgeflow loop's value is {results}: the value of the body's last node per iteration")
		}
		if str(data["loopType"]) == "while" {
			c.approximate(id, "a while loop stops with an error after 1000 iterations (maxIterations); AwaitStep's has no bound")
		}
	case ir.TypeBreak:
		if v := str(data["condition"]); v != "" {
			nd["condition"] = c.rewrite(id, v, true)
		}
	case ir.TypeHTTPRequest:
		return c.httpRequest(id, out, data), nil
	case ir.TypeSubWorkflow:
		return c.subWorkflow(id, out, data)
	default:
		return c.marketplace(id, typ, out, data), nil
	}
	out["data"] = nd
	c.converted(id, c.ids[id])
	return []map[string]any{out}, nil
}

// noteText reports a string field holding an expression: AwaitStep writes
// the reference's text there (a bug), edgeflow its value.
func (c *converter) noteText(id string, v any) {
	if s, ok := v.(string); ok && awaitExpr.MatchString(s) {
		c.approximate(id, "an expression in a text field is interpolated (AwaitStep writes the reference's text instead)")
	}
}

// referenced reports whether some node's data mentions the node.
func (c *converter) referenced(id string) bool {
	needle := "{{" + id
	for _, n := range c.a.Nodes {
		raw, _ := json.Marshal(n["data"])
		if strings.Contains(string(raw), needle) {
			return true
		}
	}
	return false
}

// usesAnywhere reports whether some node's data holds the word.
func (c *converter) usesAnywhere(word string) bool {
	re := regexp.MustCompile(`\b` + regexp.QuoteMeta(word) + `\b`)
	for _, n := range c.a.Nodes {
		raw, _ := json.Marshal(n["data"])
		if re.Match(raw) {
			return true
		}
	}
	return false
}

// catchReadsErr reports whether code in the catch lane of a try_catch
// reads err.
func (c *converter) catchReadsErr(id string) bool {
	re := regexp.MustCompile(`\berr\b`)
	for _, e := range c.a.Edges {
		if e["source"] == id && e["label"] == "catch" {
			for _, n := range c.a.Nodes {
				if n["id"] == e["target"] {
					raw, _ := json.Marshal(n["data"])
					return re.Match(raw)
				}
			}
		}
	}
	return false
}

// duration converts an AwaitStep duration: strings are the same grammar;
// a number is milliseconds in AwaitStep (as Cloudflare takes it) and
// seconds in edgeflow.
func duration(v any) any {
	switch x := v.(type) {
	case float64:
		return x / 1000
	case string:
		return strings.TrimSpace(x)
	}
	return v
}

// stepConfig converts a node's config: the same shape; numeric durations
// are milliseconds in AwaitStep, seconds in edgeflow.
func stepConfig(cfg map[string]any) map[string]any {
	out := map[string]any{}
	if r, ok := cfg["retries"].(map[string]any); ok {
		rr := map[string]any{"limit": r["limit"], "delay": duration(r["delay"])}
		if b, ok := r["backoff"].(string); ok && b != "" {
			rr["backoff"] = b
		}
		out["retries"] = rr
	}
	if t, ok := cfg["timeout"]; ok && t != nil {
		out["timeout"] = duration(t)
	}
	return out
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// jsString quotes s as a JavaScript string; "{{" never appears in it.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	out := string(b)
	out = strings.ReplaceAll(out, "{{", `{\u007b`)
	return strings.ReplaceAll(out, "}}", `}\u007d`)
}

// jsText is the code of a text field as AwaitStep's generated code writes
// it: a template literal when it holds ${...} or a line break, else a
// string; AwaitStep expressions become ${...} interpolations.
func (c *converter) jsText(id, s string) string {
	s = c.rewrite(id, s, true)
	if !strings.Contains(s, "${") && !strings.Contains(s, "\n") && !strings.Contains(s, "{{") {
		return jsString(s)
	}
	// The IR expressions outside ${...} become interpolations.
	var b strings.Builder
	b.WriteByte('`')
	depth := 0
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case depth == 0 && ch == '`':
			b.WriteString("\\`")
		case depth == 0 && ch == '\\':
			b.WriteString("\\\\")
		case depth == 0 && strings.HasPrefix(s[i:], "${"):
			depth = 1
			b.WriteString("${")
			i++
		case depth == 0 && strings.HasPrefix(s[i:], "{{"):
			end := strings.Index(s[i:], "}}")
			if end < 0 {
				b.WriteByte(ch)
				continue
			}
			b.WriteString("${ " + s[i:i+end+2] + " }")
			i += end + 1
		case depth > 0 && ch == '{':
			depth++
			b.WriteByte(ch)
		case depth > 0 && ch == '}':
			depth--
			b.WriteByte(ch)
		default:
			b.WriteByte(ch)
		}
	}
	b.WriteByte('`')
	return b.String()
}

// httpRequest converts an http_request into a step that calls fetch as
// AwaitStep's generated code does: the body is JavaScript sent as written,
// the value is the answer's parsed JSON, whatever the status.
func (c *converter) httpRequest(id string, out map[string]any, data map[string]any) []map[string]any {
	method := strings.ToUpper(str(data["method"]))
	if method == "" {
		method = "GET"
	}
	var b strings.Builder
	b.WriteString("// AwaitStep's http_request, as AwaitStep runs it: the body is sent as written and the node's value is the\n")
	b.WriteString("// answer's JSON, whatever its status.\n")
	fmt.Fprintf(&b, "const url = new URL(%s);\n", c.jsText(id, str(data["url"])))
	if q, ok := data["queryParams"].(map[string]any); ok {
		for _, k := range sortedKeys(q) {
			fmt.Fprintf(&b, "url.searchParams.set(%s, String(%s));\n", jsString(k), c.literal(id, q[k]))
		}
	}
	var init []string
	init = append(init, "method: "+jsString(method))
	switch h := data["headers"].(type) {
	case map[string]any:
		if len(h) > 0 {
			var parts []string
			for _, k := range sortedKeys(h) {
				parts = append(parts, jsString(k)+": "+c.literal(id, h[k]))
			}
			init = append(init, "headers: { "+strings.Join(parts, ", ")+" }")
		}
	case string:
		if strings.TrimSpace(h) != "" {
			init = append(init, "headers: "+c.rewrite(id, h, true))
		}
	}
	if body := strings.TrimSpace(str(data["body"])); body != "" && method != "GET" && method != "HEAD" {
		init = append(init, "body: "+c.rewrite(id, body, true))
	}
	fmt.Fprintf(&b, "const response = await fetch(url, { %s });\n", strings.Join(init, ", "))
	b.WriteString("return await response.json();\n")
	out["type"] = ir.TypeStep
	out["data"] = map[string]any{"code": b.String()}
	c.outTypes[id] = ir.TypeStep
	c.approximate(id, "the http_request became a step calling fetch as AwaitStep's code does (the body is JavaScript, the value the answer's JSON with no status check); edgeflow's http_request takes JSON fields, returns {status, headers, body} and fails on an error status")
	c.converted(id, c.ids[id])
	return []map[string]any{out}
}

// literal is the code of a header or query value: strings as text (see
// jsText), other JSON values as they are.
func (c *converter) literal(id string, v any) string {
	if s, ok := v.(string); ok {
		return c.jsText(id, s)
	}
	raw, _ := json.Marshal(v)
	return string(raw)
}

// subWorkflow converts a sub_workflow whose child was imported too (its
// edgeflow id given in Options.SubWorkflows): a step computes the input
// (JavaScript in AwaitStep, a JSON field in edgeflow), the sub_workflow
// takes it.
func (c *converter) subWorkflow(id string, out map[string]any, data map[string]any) ([]map[string]any, []map[string]any) {
	ref, class := str(data["workflowId"]), str(data["workflowName"])
	target := c.opts.SubWorkflows[ref]
	if target == "" {
		target = c.opts.SubWorkflows[class]
	}
	if target == "" {
		return c.throwing(id, ir.TypeSubWorkflow, out, fmt.Sprintf("it calls %q (%s), which is not imported: import it first and pass its edgeflow id (subWorkflows)", ref, class)), nil
	}
	nd := map[string]any{"workflowId": target}
	if w, ok := data["waitForCompletion"].(bool); ok {
		nd["waitForCompletion"] = w
	}
	if t, ok := data["timeout"]; ok && t != nil && t != "" {
		nd["timeout"] = duration(t)
	}
	nodes := []map[string]any{}
	var edges []map[string]any
	if in := strings.TrimSpace(str(data["input"])); in != "" {
		prep := c.ids[id] + "_input"
		for c.used[prep] {
			prep += "_"
		}
		c.used[prep] = true
		pos := out["position"]
		nodes = append(nodes, map[string]any{"id": prep, "type": ir.TypeStep, "name": str(out["name"]) + " (input)", "version": "1.0.0",
			"provider": "cloudflare", "position": pos, "data": map[string]any{"code": "return (" + c.rewrite(id, in, true) + ");"}})
		nd["input"] = "{{" + prep + "}}"
		edges = append(edges, map[string]any{"id": "e_" + prep, "source": prep, "target": c.ids[id]})
		c.inIDs[id] = prep
		c.converted(id, prep)
	}
	out["data"] = nd
	nodes = append(nodes, out)
	c.converted(id, c.ids[id])
	c.approximate(id, "a sub_workflow's value is {instanceId, status, output}: references to it read output")
	return nodes, edges
}

// throwing makes a step that throws "not converted: <type>" and reports the
// node.
func (c *converter) throwing(id, typ string, out map[string]any, reason string) []map[string]any {
	out["type"] = ir.TypeStep
	delete(out, "config")
	out["data"] = map[string]any{"code": "throw new Error(" + jsString("not converted: "+typ) + ");"}
	c.outTypes[id] = ir.TypeStep
	c.rep.Unsupported = append(c.rep.Unsupported, unsupported(id, typ, reason, c.ids[id]))
	return []map[string]any{out}
}

// itoa is strconv.Itoa, for building ids.
var itoa = strconv.Itoa
