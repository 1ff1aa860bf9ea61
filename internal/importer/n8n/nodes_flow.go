package n8n

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/edgeflow/edgeflow/internal/ir"
)

// Triggers, waits, loops, sub-workflows and the webhook's answer.

// trigger emits the trigger's step, the entry of the IR, whose code makes
// the trigger's items.
func (c *converter) triggerStep(ctx *nodeCtx, code string, t ir.TriggerConfig) emitted {
	c.trigger = &t
	id := c.step(ctx.node, "", "", header(ctx.node)+code, 0)
	return emitted{first: id, last: id, ref: nodeRef{value: "{{" + id + "}}"}}
}

func (c *converter) manualTrigger(ctx *nodeCtx) emitted {
	return c.triggerStep(ctx, "// A manual run starts with one empty item.\nreturn [{ json: {} }];\n", ir.TriggerConfig{Type: ir.TriggerManual})
}

// webhookTrigger: the webhook's item holds the request. A workflow gets the
// request's JSON body as its payload; a function gets the body, headers
// and query from its trigger code (see respondTriggerCode).
func (c *converter) webhookTrigger(ctx *nodeCtx) emitted {
	n := ctx.node
	p := n.Parameters
	method := strings.ToUpper(str(p["httpMethod"]))
	if method == "" {
		method = "GET"
	}
	t := ir.TriggerConfig{Type: ir.TriggerHTTP}
	switch method {
	case "GET", "POST", "PUT", "DELETE":
		t.Method = method
	default:
		c.approximate(n.Name, fmt.Sprintf("HTTP method %s: edgeflow's trigger takes GET, POST, PUT or DELETE; the trigger names none", method))
	}
	if path := strings.Trim(str(p["path"]), "/"); path != "" && !strings.ContainsAny(path, " ?#") && !isExpression(p["path"]) {
		t.Path = "/" + path
	}
	if c.script {
		c.triggerCode = respondTriggerCode(method, c.webhookHeaders(n))
		code := "// The request as the trigger code passes it: its JSON body, headers and query.\n" +
			"const request = event.payload?.n8nRequest ?? { body: event.payload ?? {}, headers: {}, query: {}, webhookUrl: \"\" };\n" +
			"// n8n's Webhook adds the URL it was called at and the mode (a production call).\n" +
			"return [{ json: { headers: request.headers, params: {}, query: request.query, body: request.body, webhookUrl: request.webhookUrl, executionMode: \"production\" } }];\n"
		return c.triggerStep(ctx, code, t)
	}
	c.approximate(n.Name, "a workflow gets the request's JSON body as its payload: the item's body is the payload; headers, query and params are empty; the caller is answered at once with the instance id (n8n's webhook responds as its Respond setting says)")
	code := "// The request's JSON body is the run's payload.\n" +
		"return [{ json: { headers: {}, params: {}, query: {}, body: event.payload ?? {} } }];\n"
	return c.triggerStep(ctx, code, t)
}

// scheduleTrigger converts the schedule's rule to a cron expression. The
// Schedule Trigger's item carries the time of the run, as n8n's does; the
// legacy Cron and Interval triggers output one empty item, as n8n's do.
func (c *converter) scheduleTrigger(ctx *nodeCtx) emitted {
	n := ctx.node
	expr, notes := cronOf(n)
	for _, note := range notes {
		c.approximate(n.Name, note)
	}
	t := ir.TriggerConfig{Type: ir.TriggerCron, Expression: expr}
	if t := n.shortType(); t == "cron" || t == "interval" {
		return c.triggerStep(ctx, "// n8n's Cron and Interval triggers output one empty item.\nreturn [{ json: {} }];\n", ir.TriggerConfig{Type: ir.TriggerCron, Expression: expr})
	}
	// moment's "Do" (1st, 2nd, 3rd, 4th, 11th, 21st) and toISOString(true)
	// (the offset, +00:00 in UTC, instead of Z) as the Schedule Trigger
	// formats them.
	code := "// The time of the run, as n8n's Schedule Trigger writes it (in UTC).\n" +
		"const now = new Date();\n" +
		"const pad = (n) => String(n).padStart(2, \"0\");\n" +
		"const ordinal = (d) => d + (d % 100 >= 11 && d % 100 <= 13 ? \"th\" : ([\"th\", \"st\", \"nd\", \"rd\"][d % 10] ?? \"th\"));\n" +
		"const days = [\"Sunday\", \"Monday\", \"Tuesday\", \"Wednesday\", \"Thursday\", \"Friday\", \"Saturday\"];\n" +
		"const months = [\"January\", \"February\", \"March\", \"April\", \"May\", \"June\", \"July\", \"August\", \"September\", \"October\", \"November\", \"December\"];\n" +
		"return [{ json: {\n" +
		"  timestamp: now.toISOString().replace(/Z$/, \"+00:00\"),\n" +
		"  \"Readable date\": `${months[now.getUTCMonth()]} ${ordinal(now.getUTCDate())} ${now.getUTCFullYear()}, ${((now.getUTCHours() + 11) % 12) + 1}:${pad(now.getUTCMinutes())}:${pad(now.getUTCSeconds())} ${now.getUTCHours() < 12 ? \"am\" : \"pm\"}`,\n" +
		"  \"Readable time\": `${((now.getUTCHours() + 11) % 12) + 1}:${pad(now.getUTCMinutes())}:${pad(now.getUTCSeconds())} ${now.getUTCHours() < 12 ? \"am\" : \"pm\"}`,\n" +
		"  \"Day of week\": days[now.getUTCDay()],\n" +
		"  Year: String(now.getUTCFullYear()), Month: months[now.getUTCMonth()], \"Day of month\": pad(now.getUTCDate()),\n" +
		"  Hour: pad(now.getUTCHours()), Minute: pad(now.getUTCMinutes()), Second: pad(now.getUTCSeconds()), Timezone: \"UTC (UTC+00:00)\",\n" +
		"} }];\n"
	c.approximate(n.Name, "the item's time fields are in UTC (n8n: the workflow's time zone)")
	return c.triggerStep(ctx, code, t)
}

// subWorkflowTrigger: a workflow started by Execute Workflow gets the
// caller's items as its payload's items.
func (c *converter) subWorkflowTrigger(ctx *nodeCtx) emitted {
	code := "// The items the calling workflow passed (see its sub_workflow node's input).\n" +
		"const passed = event.payload?.items;\n" +
		"return Array.isArray(passed) ? passed.map((it, i) => ({ json: it?.json ?? it, pairedItem: { item: i } })) : [{ json: event.payload ?? {} }];\n"
	return c.triggerStep(ctx, code, ir.TriggerConfig{Type: ir.TriggerManual})
}

// stopAndError throws the node's error message (or error object).
func (c *converter) stopAndError(ctx *nodeCtx) emitted {
	n := ctx.node
	u := &uses{}
	t := c.translate(u)
	var body string
	if str(n.Parameters["errorType"]) == "errorObject" {
		body = fmt.Sprintf("rt.i = 0;\nconst $json = items[0].json;\nconst obj = %s;\nconst o = typeof obj === \"string\" ? JSON.parse(obj) : obj;\nthrow Object.assign(new Error(o?.message ?? o?.description ?? \"Error\"), o);\n", t.param(n.Parameters["errorObject"]))
		u.runtime = true
	} else {
		msg := n.Parameters["errorMessage"]
		body = fmt.Sprintf("rt.i = 0;\nconst $json = items[0].json;\nthrow new Error(%s);\n", t.param(msg))
		u.runtime = true
	}
	return c.simple(ctx, body, u, 0)
}

// waitNode: a wait for a time becomes sleep, a wait until a date
// sleep_until, a wait for a webhook or form wait_for_event. Items pass
// through (a wait for an event outputs the event's payload as its item).
func (c *converter) waitNode(ctx *nodeCtx) emitted {
	n := ctx.node
	p := n.Parameters
	resume := str(p["resume"])
	if resume == "" {
		resume = "timeInterval"
	}
	in := ctx.inputCode(0)
	switch resume {
	case "timeInterval":
		amount := 1.0
		if v, ok := p["amount"].(float64); ok {
			amount = v
		} else if isExpression(p["amount"]) {
			c.approximate(n.Name, "the wait's amount is an expression; the import waits 1 of its unit")
		}
		unit := str(p["unit"])
		if unit == "" {
			unit = "hours"
			if n.TypeVersion >= 1.1 {
				unit = "seconds"
			}
		}
		secs := amount * map[string]float64{"seconds": 1, "minutes": 60, "hours": 3600, "days": 86400}[unit]
		if secs <= 0 {
			secs = 1
		}
		id := c.newID(n.Name, "")
		c.addNode(n.Name, ir.Node{ID: id, Type: ir.TypeSleep, Name: n.Name, Position: c.pos(n, 0, 0), Data: map[string]any{"duration": durationText(secs)}})
		return emitted{first: id, last: id, ref: nodeRef{value: in}}
	case "specificTime":
		ts := p["dateTime"]
		tsText := str(ts)
		if isExpression(ts) {
			// Computed at run time: a step makes the timestamp.
			u := &uses{}
			calc := c.simple(ctx, "rt.i = 0;\nconst $json = items[0].json;\nreturn { until: new Date("+c.translate(u).param(ts)+").toISOString() };\n", withRuntime(u), 0)
			c.rename(calc.first, n.Name+" (time)")
			id := c.newID(n.Name, "until")
			c.addNode(n.Name, ir.Node{ID: id, Type: ir.TypeSleepUntil, Name: n.Name, Position: c.pos(n, 0, 100), Data: map[string]any{"timestamp": "{{" + calc.first + ".until}}"}})
			c.link(calc.first, "", id)
			return emitted{first: calc.first, last: id, ref: nodeRef{value: in}}
		}
		id := c.newID(n.Name, "")
		c.addNode(n.Name, ir.Node{ID: id, Type: ir.TypeSleepUntil, Name: n.Name, Position: c.pos(n, 0, 0), Data: map[string]any{"timestamp": isoTime(tsText)}})
		c.approximate(n.Name, "the date is read in UTC (n8n: the workflow's time zone)")
		return emitted{first: id, last: id, ref: nodeRef{value: in}}
	case "webhook", "form":
		eventType := slug(n.Name)
		if len(eventType) > 100 {
			eventType = eventType[:100]
		}
		id := c.newID(n.Name, "")
		data := map[string]any{"eventType": eventType}
		if lim, ok := p["limitWaitTime"].(bool); ok && lim {
			if str(p["limitType"]) == "atSpecifiedTime" {
				c.approximate(n.Name, "the wait's limit at a specified time is not converted; the wait times out after 24 hours")
			} else {
				amount, _ := p["resumeAmount"].(float64)
				if amount <= 0 {
					amount = 1
				}
				secs := amount * map[string]float64{"seconds": 1, "minutes": 60, "hours": 3600, "days": 86400}[str(p["resumeUnit"])]
				if secs > 0 {
					data["timeout"] = durationText(secs)
				}
			}
		} else {
			data["timeout"] = "365 days"
		}
		c.addNode(n.Name, ir.Node{ID: id, Type: ir.TypeWaitForEvent, Name: n.Name, Position: c.pos(n, 0, 0), Data: data})
		c.approximate(n.Name, fmt.Sprintf("the run waits for the event %q (send it with POST /api/workflows/:id/trigger {instanceId, eventType: %q, payload}); its payload is the item's body, in place of the request n8n receives on the resume URL", eventType, eventType))
		// The event's payload becomes the item, as n8n's resume request.
		conv := c.step(n, "item", n.Name+" (item)", header(n)+fmt.Sprintf("return [{ json: { headers: {}, params: {}, query: {}, body: {{%s}} ?? {} }, pairedItem: { item: 0 } }];\n", id), 100)
		c.link(id, "", conv)
		return emitted{first: id, last: conv, ref: nodeRef{value: "{{" + conv + "}}"}}
	}
	return c.throwing(ctx, "this kind of wait is not converted: "+resume)
}

func withRuntime(u *uses) *uses {
	u.runtime = true
	return u
}

// rename sets the name of an IR node.
func (c *converter) rename(id, name string) {
	for i := range c.nodes {
		if c.nodes[i].ID == id {
			c.nodes[i].Name = name
		}
	}
}

// durationText writes seconds as an IR duration string.
func durationText(secs float64) string {
	for _, u := range []struct {
		name string
		s    float64
	}{{"day", 86400}, {"hour", 3600}, {"minute", 60}} {
		if secs >= u.s && secs/u.s == float64(int64(secs/u.s)) {
			n := int64(secs / u.s)
			if n == 1 {
				return "1 " + u.name
			}
			return strconv.FormatInt(n, 10) + " " + u.name + "s"
		}
	}
	if secs == 1 {
		return "1 second"
	}
	return strconv.FormatFloat(secs, 'f', -1, 64) + " seconds"
}

// isoTime makes an ISO 8601 date-time of n8n's date text (which may lack a
// zone: it is taken as UTC).
func isoTime(s string) string {
	s = strings.TrimSpace(s)
	if len(s) == 10 {
		return s + "T00:00:00Z"
	}
	if len(s) >= 19 && !strings.ContainsAny(s[19:], "Z+-") && s[10] == 'T' {
		return s + "Z"
	}
	return s
}

// executeWorkflowNode: a call of a workflow imported too becomes a
// sub_workflow node whose input holds the items; its output's items follow.
func (c *converter) executeWorkflowNode(ctx *nodeCtx) emitted {
	n := ctx.node
	p := n.Parameters
	if src := str(p["source"]); src != "" && src != "database" {
		return c.throwing(ctx, "calling a workflow given as "+src+" is not converted; only a workflow of the database (imported too) is")
	}
	ref := workflowRef(p["workflowId"])
	target, ok := c.opts.SubWorkflows[ref]
	if !ok || ref == "" {
		return c.throwing(ctx, fmt.Sprintf("it calls the n8n workflow %q, which is not imported: import it first and pass its edgeflow id (subWorkflows)", ref))
	}
	wait := true
	if opts, ok := p["options"].(map[string]any); ok {
		if w, ok := opts["waitForSubWorkflow"].(bool); ok {
			wait = w
		}
	}
	if str(p["mode"]) == "each" {
		c.approximate(n.Name, "the workflow is called once with every item, not once per item")
	}
	in := ctx.inputCode(0)
	id := c.newID(n.Name, "")
	c.addNode(n.Name, ir.Node{ID: id, Type: ir.TypeSubWorkflow, Name: n.Name, Position: c.pos(n, 0, 0),
		Data: map[string]any{"workflowId": target, "input": `{"items": ` + in + `}`, "waitForCompletion": wait}, Config: retries(n)})
	if !wait {
		return emitted{first: id, last: id, ref: nodeRef{value: in}}
	}
	code := header(n) + fmt.Sprintf("// The called workflow's output: its last node's items.\nconst out = {{%s}}.output;\nconst list = Array.isArray(out) ? out : out == null ? [] : [out];\nreturn list.map((it, i) => ({ json: it?.json ?? it, pairedItem: { item: 0 } }));\n", id)
	conv := c.step(n, "items", n.Name+" (items)", code, 100)
	c.link(id, "", conv)
	return emitted{first: id, last: conv, ref: nodeRef{value: "{{" + conv + "}}"}}
}

// workflowRef reads Execute Workflow's workflowId: a string, or a resource
// locator {value}.
func workflowRef(v any) string {
	switch x := v.(type) {
	case string:
		return strings.TrimPrefix(x, "=")
	case float64:
		return jsNumber(x)
	case map[string]any:
		return workflowRef(x["value"])
	}
	return ""
}

// loopOverItems converts a Loop Over Items node (Split In Batches v3): a
// step cuts the input into batches, a forEach loop runs the "loop" output's
// nodes once per batch, and the "done" output's nodes run after the loop
// with every item the loop body sent back.
func (c *converter) loopOverItems(n *Node, ins [][]input, sc scope, st stops) (first, last string, exits []exit) {
	ctx := &nodeCtx{node: n, ins: ins, scope: sc}
	size := 1.0
	if v, ok := n.Parameters["batchSize"].(float64); ok && v >= 1 {
		size = v
	} else if n.Parameters["batchSize"] == nil && n.TypeVersion < 3 {
		size = 10
	}
	if opts, ok := n.Parameters["options"].(map[string]any); ok && opts["reset"] != nil && opts["reset"] != false {
		c.approximate(n.Name, "the Reset option is not converted")
	}
	batches := c.simple(ctx, fmt.Sprintf("// Batches of %s items, in order.\nconst batches = [];\nfor (let i = 0; i < items.length; i += %s) batches.push(items.slice(i, i + %s).map((item, k) => ({ json: item.json, pairedItem: { item: i + k } })));\nreturn batches;\n", jsNumber(size), jsNumber(size), jsNumber(size)), nil, 0)
	loop := c.newID(n.Name, "loop")
	c.addNode(n.Name, ir.Node{ID: loop, Type: ir.TypeLoop, Name: n.Name + " (loop)", Position: c.pos(n, 0, 100),
		Data: map[string]any{"loopType": "forEach", "collection": "{{" + batches.first + "}}", "maxIterations": float64(100000)}})
	c.link(batches.last, "", loop)
	inner := st.with(n.Name)
	body := sc.copy()
	// Inside the body the node's "loop" output is the current batch.
	body[n.Name] = nodeRef{value: "[[], {{" + loop + ".item}}]", multi: true, from: ctx.sources()}
	var bodyPaths, donePaths []path
	for _, p := range c.paths(n.Name) {
		if p.out == 1 {
			bodyPaths = append(bodyPaths, p)
		} else {
			donePaths = append(donePaths, p)
		}
	}
	ref := body[n.Name]
	back := ""
	switch len(bodyPaths) {
	case 0:
		c.approximate(n.Name, "nothing is connected to the loop output")
	default:
		var f, l string
		var ex []exit
		if len(bodyPaths) == 1 {
			f, l, ex = c.lane(bodyPaths[0].target, from(n.Name, ref, bodyPaths[0]), body, inner)
		} else {
			par := c.parallel(n.Name, ref, bodyPaths, body, inner, []string{n.Name}, nil)
			f, l, ex = par.id, par.id, append(par.joins, par.outer...)
		}
		c.link(loop, ir.LabelBody, f)
		// The body's value is what it sends back to the loop node.
		var vals []string
		for _, e := range ex {
			if e.join == n.Name {
				vals = append(vals, e.value)
			} else {
				exits = append(exits, e)
				c.approximate(e.join, "a path from inside a loop joins it: it is not converted")
			}
		}
		if len(vals) > 0 {
			col := c.step(n, "back", n.Name+" (back)", "// The items the loop body sends back to "+jsString(n.Name)+".\nreturn ["+strings.Join(vals, ", ")+"].flat();\n", 200)
			c.follow(l, col)
			back = col
		} else {
			c.approximate(n.Name, "no path of the loop output leads back to the node: n8n then stops after the first batch, the import runs every batch")
		}
	}
	done := "[]"
	if back != "" {
		done = "{{" + loop + "}}.results.flat()"
	}
	doneRef := nodeRef{value: "[" + done + ", []]", multi: true, from: ctx.sources()}
	sc[n.Name] = doneRef
	f, l, ex := c.afterPaths(n.Name, doneRef, donePaths, sc, st)
	if f != "" {
		c.link(loop, ir.LabelThen, f)
		return batches.first, l, append(exits, ex...)
	}
	return batches.first, loop, append(exits, ex...)
}

// afterPaths is after for a given list of paths (the done output of a loop).
func (c *converter) afterPaths(name string, ref nodeRef, ps []path, sc scope, st stops) (first, last string, exits []exit) {
	saved := c.outs[name]
	keep := make([][]connection, len(saved))
	for _, p := range ps {
		for len(keep) <= p.out {
			keep = append(keep, nil)
		}
		keep[p.out] = append(keep[p.out], connection{Node: p.target, Type: "main", Index: p.input})
	}
	c.outs[name] = keep
	defer func() { c.outs[name] = saved }()
	return c.after(name, ref, sc, st)
}
