package codegen

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/nodes/registry"
)

// chain emits the nodes from id on, following plain edges and containers'
// continuations. It stops at the end of the chain or before a join of an
// enclosing container, and returns the last node emitted and that join.
func (g *gen) chain(id string, sc *scope) (last, join string) {
	for id != "" && g.err == nil {
		n := g.graph.Node(id)
		if n == nil {
			return last, ""
		}
		next, inner := g.node(n, sc)
		g.trackOutput(n)
		if n.Type != ir.TypeBreak {
			// A break has no value: a lane ending in one yields the value
			// of the node before it.
			last = id
		}
		if inner != "" {
			// The container's lanes meet in a join: it continues here.
			id = inner
			continue
		}
		if next == "" {
			return last, ""
		}
		if g.indeg[next] > 1 {
			return last, next
		}
		id = next
	}
	return last, ""
}

// trackOutput assigns a node's value to the run's output variable once the
// node has completed: the node outputNodeId names, or else every node with a
// value that is not a container, so that the variable ends holding the value
// of the last node that completed on the path the run took (decision 583).
func (g *gen) trackOutput(n *ir.Node) {
	if g.outVar == "" || g.err != nil {
		return
	}
	v, ok := g.vars[n.ID]
	if !ok {
		return
	}
	if want := g.a.OutputNodeID; want != "" {
		if n.ID != want {
			return
		}
	} else if ir.IsContainer(n.Type) {
		return
	}
	if n.Config != nil && n.Config.Sensitive {
		// a sensitive value stays inside the run (docs/runs.md)
		v = jsString(RedactedOutput)
	}
	start := g.b.Len()
	g.line("%s = %s;", g.outVar, v)
	g.outLines = append(g.outLines, [2]int{start, g.b.Len()})
}

// keepOutputVar finishes the body written from start on: with keep, it
// declares the output variable at the body's top; without, it cuts out the
// lines assigning it, so that a workflow ending in a plain node compiles as
// before.
func (g *gen) keepOutputVar(start, indent int, keep bool) {
	if !keep && len(g.outLines) == 0 {
		return
	}
	src := g.b.Bytes()
	nb := getBuffer(len(src) + 64)
	nb.Write(src[:start])
	if keep {
		nb.WriteString(strings.Repeat("  ", indent))
		fmt.Fprintf(nb, "let %s%s = null;\n", g.outVar, g.ty(": any"))
		nb.Write(src[start:])
	} else {
		prev := start
		for _, r := range g.outLines {
			nb.Write(src[prev:r[0]])
			prev = r[1]
		}
		nb.Write(src[prev:])
	}
	putBuffer(g.b)
	g.b = nb
	g.outLines = nil
}

// lanes emits each lane of a container as a chain and returns the last node
// of each lane and the join the lanes lead into, if any.
func (g *gen) laneChain(start string, sc *scope, join *string) string {
	last, j := g.chain(start, sc)
	if j != "" && *join == "" {
		*join = j
	}
	return last
}

// value is the expression of a node's value once emitted: its variable, or
// null for nodes without a value.
func (g *gen) value(id string) string {
	if v, ok := g.vars[id]; ok && id != "" {
		return v
	}
	return "null"
}

// stepName is the JavaScript expression naming a node's durable step.
func (g *gen) stepName(n *ir.Node, sc *scope) string {
	suffix := sc.stepSuffix()
	if suffix == "" {
		return jsString(g.steps[n.ID])
	}
	return "`" + templateText(g.steps[n.ID]) + suffix + "`"
}

// node emits one node and returns the node its plain edge or "then" edge
// leads to, and for containers the join their lanes lead into.
func (g *gen) node(n *ir.Node, sc *scope) (next, join string) {
	if g.script && strings.HasPrefix(n.Name, "EXPORT_") {
		defer func() {
			if v, ok := g.vars[n.ID]; ok {
				g.line("output[%s] = %s;", jsString(strings.TrimPrefix(n.Name, "EXPORT_")), v)
			} else {
				g.line("output[%s] = null;", jsString(strings.TrimPrefix(n.Name, "EXPORT_")))
			}
		}()
	}
	if !g.script && g.stepContextNode(n) && g.usesStepContext(n) {
		g.stepCtx = stepContextParam
		defer func() { g.stepCtx = "" }()
	}
	switch n.Type {
	case ir.TypeStep:
		g.step(n, sc)
	case ir.TypeSleep:
		g.sleep(n, sc)
	case ir.TypeSleepUntil:
		g.sleepUntil(n, sc)
	case ir.TypeWaitForEvent:
		g.waitForEvent(n, sc)
	case ir.TypeHTTPRequest:
		g.httpRequest(n, sc)
	case ir.TypeBreak:
		g.breakNode(n, sc)
	case ir.TypeSubWorkflow:
		g.subWorkflow(n, sc)
	case ir.TypeAgent:
		g.agent(n, sc)
	case ir.TypeBranch:
		join = g.branch(n, sc)
	case ir.TypeParallel, ir.TypeRace:
		join = g.parallel(n, sc)
	case ir.TypeTryCatch:
		join = g.tryCatch(n, sc)
	case ir.TypeLoop:
		join = g.loop(n, sc)
	default:
		g.custom(n, sc)
	}
	if ir.IsContainer(n.Type) {
		if e, ok := g.graph.Then(n.ID); ok {
			next = e.Target
		}
		return next, join
	}
	if out := g.graph.Out(n.ID); len(out) > 0 {
		next = out[0].Target
	}
	return next, ""
}

// stepContextNode reports whether a node's fields are evaluated inside its
// durable step: step, http_request, sub_workflow and marketplace nodes.
func (g *gen) stepContextNode(n *ir.Node) bool {
	switch n.Type {
	case ir.TypeStep, ir.TypeHTTPRequest, ir.TypeSubWorkflow:
		return true
	}
	return !ir.IsBuiltinType(n.Type)
}

// fieldPath is the path of a node's field in compile errors: "data.<field>",
// or the field itself when it is in config ("config.rollback.code").
func fieldPath(field string) string {
	if strings.HasPrefix(field, "config.") {
		return field
	}
	return "data." + field
}

func dataString(n *ir.Node, key string) string {
	s, _ := n.Data[key].(string)
	return s
}

// block emits a function body (step code, lane) indented one level deeper.
func (g *gen) code(n *ir.Node, field, src string, sc *scope) {
	js, err := g.codeField(src, sc)
	if err != nil {
		g.fail(n, fieldPath(field), "%v", err)
		return
	}
	if err := CheckImports(src); err != nil {
		g.fail(n, fieldPath(field), "%v", err)
		return
	}
	if g.js && !g.userCode(n, field, src) {
		return
	}
	g.indent++
	if g.js {
		g.b.WriteString(regionBody)
	}
	lines := dedent(strings.Split(strings.TrimRight(js, " \t\r\n"), "\n"))
	for _, l := range lines {
		l = strings.TrimRight(l, " \t\r")
		if l == "" {
			g.b.WriteByte('\n')
			continue
		}
		g.line("%s", l)
	}
	if g.js {
		g.b.WriteString(regionEnd)
	}
	g.indent--
}

// dedent removes the indentation that every line after the first carries
// when the first line has none (code pasted from an indented block), so the
// body lines up. Code with template literals is left alone: their text
// would change.
func dedent(lines []string) []string {
	if len(lines) < 2 || strings.HasPrefix(lines[0], " ") || strings.HasPrefix(lines[0], "\t") {
		return lines
	}
	min := -1
	for _, l := range lines[1:] {
		if strings.Contains(l, "`") {
			return lines
		}
		t := strings.TrimLeft(l, " ")
		if t == "" {
			continue
		}
		if n := len(l) - len(t); min < 0 || n < min {
			min = n
		}
	}
	if min <= 0 {
		return lines
	}
	if strings.Contains(lines[0], "`") {
		return lines
	}
	out := make([]string, len(lines))
	out[0] = lines[0]
	for i, l := range lines[1:] {
		if len(l) >= min {
			out[i+1] = l[min:]
		} else {
			out[i+1] = strings.TrimLeft(l, " ")
		}
	}
	return out
}

func (g *gen) codeField(s string, sc *scope) (string, error) { return g.codeExpr(s, sc) }

func (g *gen) expr(n *ir.Node, field, src string, sc *scope) string {
	js, err := g.codeExpr(src, sc)
	if err != nil {
		g.fail(n, "data."+field, "%v", err)
	}
	if err := CheckImports(src); err != nil {
		g.fail(n, "data."+field, "%v", err)
	}
	js = strings.TrimSpace(js)
	if g.js && g.userCode(n, field, src) {
		return regionExpr + js + regionEnd
	}
	return js
}

func (g *gen) strField(n *ir.Node, field, src string, sc *scope) string {
	js, err := g.str(src, sc)
	if err != nil {
		g.fail(n, "data."+field, "%v", err)
	}
	return js
}

// stepConfig is the WorkflowStepConfig literal of a durable node, or "" when
// the node sets nothing. extraTimeout is used when the node has no timeout.
func (g *gen) stepConfig(n *ir.Node, extraTimeout string) string {
	var parts []string
	var retries *ir.RetryConfig
	var timeout *ir.Duration
	if n.Config != nil {
		retries, timeout = n.Config.Retries, n.Config.Timeout
	} else {
		// Legacy fields of step nodes.
		if limit, ok := n.Data["retryLimit"].(float64); ok {
			r := &ir.RetryConfig{Limit: int(limit), Delay: ir.DurationSeconds(1)}
			if d, ok := anyDuration(n.Data["retryDelay"]); ok {
				r.Delay = d
			}
			if b, ok := n.Data["backoff"].(string); ok {
				r.Backoff = b
			}
			retries = r
		}
		if d, ok := anyDuration(n.Data["timeout"]); ok && n.Type == ir.TypeStep {
			timeout = &d
		}
	}
	if retries != nil {
		parts = append(parts, g.retriesJS(retries))
	}
	if timeout != nil {
		parts = append(parts, "timeout: "+durationJS(*timeout))
	} else if extraTimeout != "" {
		parts = append(parts, "timeout: "+extraTimeout)
	}
	if n.Config != nil && n.Config.Sensitive {
		parts = append(parts, `sensitive: "output"`)
	}
	if len(parts) == 0 {
		return ""
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}

// retriesJS is the retries property of a step config. A delay of
// "retry-after" becomes the delay function retryAfterDelay, which applies
// the node's backoff itself when there is no Retry-After: the runtime's
// backoff is then constant, since the runtime would multiply the
// function's answer by its own.
func (g *gen) retriesJS(r *ir.RetryConfig) string {
	if r.IsRetryAfter() {
		g.helpers[helperRetryAfter] = true
		maxMs := int64(time.Hour / time.Millisecond)
		if r.MaxDelay != nil {
			if d, err := r.MaxDelay.Value(); err == nil && d > 0 {
				maxMs = int64(d / time.Millisecond)
			}
		}
		backoff := r.Backoff
		if backoff == "" {
			backoff = ir.BackoffExponential
		}
		return fmt.Sprintf("retries: { limit: %d, delay: retryAfterDelay(%d, %s), backoff: \"constant\" }", r.Limit, maxMs, jsString(backoff))
	}
	js := fmt.Sprintf("retries: { limit: %d, delay: %s", r.Limit, durationJS(r.Delay))
	if r.Backoff != "" {
		js += ", backoff: " + jsString(r.Backoff)
	}
	return js + " }"
}

// rollbackConfig is the rollbackConfig literal of a rollback, "" when it
// sets neither retries nor timeout.
func (g *gen) rollbackConfig(rb *ir.RollbackConfig) string {
	var parts []string
	if rb.Retries != nil {
		parts = append(parts, g.retriesJS(rb.Retries))
	}
	if rb.Timeout != nil {
		parts = append(parts, "timeout: "+durationJS(*rb.Timeout))
	}
	if len(parts) == 0 {
		return ""
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}

// rollbackOf is a workflow node's rollback, nil when it has none.
func (g *gen) rollbackOf(n *ir.Node) *ir.RollbackConfig {
	if g.script || n.Config == nil {
		return nil
	}
	return n.Config.Rollback
}

// stepCallback is the head of a step callback: "async () =>", or with the
// context parameter when the node's fields read {{step.…}}.
func (g *gen) stepCallback() string {
	if g.stepCtx != "" {
		return "async (" + g.stepCtx + ") =>"
	}
	return "async () =>"
}

// endStep closes the callback of a node's step.do: "});", or with the
// node's rollback handler and its rollbackConfig as the fourth argument.
func (g *gen) endStep(n *ir.Node, sc *scope) {
	rb := g.rollbackOf(n)
	if rb == nil {
		g.line("});")
		return
	}
	g.line("}, {")
	g.indent++
	g.rollbackHandler(n, rb, sc)
	g.indent--
	g.line("});")
}

// rollbackHandler writes the rollback and rollbackConfig properties of a
// step's rollback options: the code is the body of a function of
// {output, error, ctx}, where {{step.…}} reads ctx.
func (g *gen) rollbackHandler(n *ir.Node, rb *ir.RollbackConfig, sc *scope) {
	g.line("rollback: async ({ output, error, ctx }) => {")
	prev := g.stepCtx
	g.stepCtx = "ctx"
	g.code(n, "config.rollback.code", rb.Code, sc)
	g.stepCtx = prev
	g.line("},")
	if cfg := g.rollbackConfig(rb); cfg != "" {
		g.line("rollbackConfig: %s,", cfg)
	}
}

func anyDuration(v any) (ir.Duration, bool) {
	switch t := v.(type) {
	case float64:
		return ir.DurationSeconds(t), true
	case string:
		if t != "" {
			return ir.DurationText(t), true
		}
	}
	return ir.Duration{}, false
}

var durationUnits = map[string]string{
	"second": "second", "seconds": "second", "minute": "minute", "minutes": "minute",
	"hour": "hour", "hours": "hour", "day": "day", "days": "day", "week": "week", "weeks": "week",
	"month": "month", "months": "month", "year": "year", "years": "year",
}

// durationJS writes a duration the way Cloudflare's step APIs take it: a
// string "<n> <unit>" (units second … year), or milliseconds for fractional
// seconds.
func durationJS(d ir.Duration) string {
	if d.IsText {
		f := strings.Fields(d.Text)
		if len(f) == 2 {
			if u, ok := durationUnits[strings.ToLower(f[1])]; ok {
				if _, err := strconv.ParseFloat(f[0], 64); err == nil {
					if f[0] != "1" {
						u += "s"
					}
					return jsString(f[0] + " " + u)
				}
			}
		}
		if s, err := strconv.ParseFloat(strings.TrimSpace(d.Text), 64); err == nil {
			return durationJS(ir.DurationSeconds(s))
		}
		return jsString(d.Text)
	}
	s := d.Seconds
	if s == math.Trunc(s) && s < 1e12 {
		if s == 1 {
			return `"1 second"`
		}
		return jsString(strconv.FormatFloat(s, 'f', -1, 64) + " seconds")
	}
	return strconv.FormatFloat(math.Round(s*1000), 'f', -1, 64)
}

// durationField is the JavaScript expression of a duration data field, which
// may be a number of seconds or a string with expressions.
func (g *gen) durationField(n *ir.Node, field string, def string, sc *scope) string {
	v, ok := n.Data[field]
	if !ok || v == nil || v == "" {
		if def == "" {
			return ""
		}
		return durationJS(ir.DurationText(def))
	}
	if s, isStr := v.(string); isStr && strings.Contains(s, "{{") {
		return g.strField(n, field, s, sc) + g.ty(" as WorkflowSleepDuration")
	}
	d, _ := anyDuration(v)
	return durationJS(d)
}

func (g *gen) durableCall(n *ir.Node, sc *scope, config string, body func()) {
	name := g.stepName(n, sc)
	v := g.vars[n.ID]
	do := "step.do"
	if g.rollbackOf(n) != nil {
		do += g.ty("<any>") // the rollback's output is the step's value, whatever its type
	}
	if config == "" {
		g.line("const %s%s = await %s(%s, %s {", v, g.ty(": any"), do, name, g.stepCallback())
	} else {
		g.line("const %s%s = await %s(%s, %s, %s {", v, g.ty(": any"), do, name, config, g.stepCallback())
	}
	g.indent++
	body()
	g.indent--
	g.endStep(n, sc)
}

func (g *gen) step(n *ir.Node, sc *scope) {
	src := dataString(n, "code")
	v := g.vars[n.ID]
	if g.script {
		g.line("const %s%s = await (async () => {", v, g.ty(": any"))
		g.code(n, "code", src, sc)
		g.line("})();")
		return
	}
	name := g.stepName(n, sc)
	// step.do<any>: the user's code may return any serializable value,
	// a D1 row (Record<string, unknown>) among them, which inference would
	// check against Serializable and refuse.
	if cfg := g.stepConfig(n, ""); cfg != "" {
		g.line("const %s = await step.do%s(%s, %s, %s {", v, g.ty("<any>"), name, cfg, g.stepCallback())
	} else {
		g.line("const %s = await step.do%s(%s, %s {", v, g.ty("<any>"), name, g.stepCallback())
	}
	g.code(n, "code", src, sc)
	g.endStep(n, sc)
}

func (g *gen) sleep(n *ir.Node, sc *scope) {
	g.line("await step.sleep(%s, %s);", g.stepName(n, sc), g.durationField(n, "duration", "", sc))
}

func (g *gen) sleepUntil(n *ir.Node, sc *scope) {
	g.line("await step.sleepUntil(%s, new Date(%s));", g.stepName(n, sc), g.strField(n, "timestamp", dataString(n, "timestamp"), sc))
}

func (g *gen) waitForEvent(n *ir.Node, sc *scope) {
	typ := g.strField(n, "eventType", dataString(n, "eventType"), sc)
	timeout := g.durationField(n, "timeout", "24 hours", sc)
	g.line("const %s%s = (await step.waitForEvent%s(%s, { type: %s, timeout: %s })).payload;",
		g.vars[n.ID], g.ty(": any"), g.ty("<any>"), g.stepName(n, sc), typ, timeout)
}

func (g *gen) httpRequest(n *ir.Node, sc *scope) {
	g.helpers[helperHTTP] = true
	method := strings.ToUpper(dataString(n, "method"))
	if method == "" {
		method = "GET"
	}
	url := g.strField(n, "url", dataString(n, "url"), sc)
	var init []string
	init = append(init, "method: "+jsString(method))
	headers := g.jsonData(n, "headers", sc)
	if !g.script {
		// The step's W3C trace context goes first: headers the node sets win (decision 562).
		g.helpers[helperTrace] = true
		trace := "await traceHeaders(runTrace, " + g.stepName(n, sc) + ")"
		if headers != "" {
			headers = "{ ...(" + trace + "), ..." + headers + " }"
		} else {
			headers = trace
		}
	}
	if headers != "" {
		init = append(init, "headers: "+headers)
	}
	if js := g.jsonData(n, "body", sc); js != "" && method != "GET" && method != "HEAD" {
		init = append(init, "body: JSON.stringify("+js+")")
	}
	allow, _ := n.Data["allowErrorStatus"].(bool)
	call := func() {
		g.line("const response = await fetch(%s, {", url)
		g.indent++
		for _, p := range init {
			g.line("%s,", p)
		}
		g.indent--
		g.line("});")
		g.line("return await httpResult(response, %t);", allow)
	}
	if g.script {
		g.line("const %s%s = await (async () => {", g.vars[n.ID], g.ty(": any"))
		g.indent++
		call()
		g.indent--
		g.line("})();")
		return
	}
	g.durableCall(n, sc, g.stepConfig(n, ""), call)
}

// jsonData is the JavaScript expression of a JSON data field: normally a
// string holding JSON with expressions; an object or array written directly
// in data is taken as its JSON. It is "" when the field is absent or blank.
func (g *gen) jsonData(n *ir.Node, field string, sc *scope) string {
	switch v := n.Data[field].(type) {
	case string:
		if strings.TrimSpace(v) == "" {
			return ""
		}
		js, err := g.jsonField(strings.TrimSpace(v), sc)
		if err != nil {
			g.fail(n, "data."+field, "%v", err)
		}
		return js
	case map[string]any, []any:
		return g.dataValue(n, field, v, sc)
	}
	return ""
}

func (g *gen) breakNode(n *ir.Node, sc *scope) {
	stmt := "break;"
	switch {
	case sc.loops() == 0 && sc.inLane:
		stmt = "return null;"
	case sc.loops() == 0:
		if g.script {
			stmt = "return output;"
		} else {
			stmt = "return null;"
		}
	case sc.inLane && sc.loopLane >= sc.loops():
		// A lane function stands between this node and its loop.
		g.helpers[helperBreak] = true
		stmt = "throw new BreakSignal();"
	}
	if c := strings.TrimSpace(dataString(n, "condition")); c != "" {
		g.line("if (%s) %s", g.expr(n, "condition", c, sc), stmt)
		return
	}
	g.line("%s", stmt)
}

func (g *gen) subWorkflow(n *ir.Node, sc *scope) {
	binding := g.subBinding(dataString(n, "workflowId"))
	params := "{}"
	if js := g.jsonData(n, "input", sc); js != "" {
		params = js
	}
	if g.script {
		g.line("const %s%s = { instanceId: (await env.%s.create({ params: %s })).id };", g.vars[n.ID], g.ty(": any"), binding, params)
		return
	}
	g.helpers[helperSubWorkflow] = true
	wait := true
	if w, ok := n.Data["waitForCompletion"].(bool); ok {
		wait = w
	}
	timeout := g.durationField(n, "timeout", "1 hour", sc)
	id := "`${event.instanceId}-" + templateText(n.ID) + strings.ReplaceAll(sc.stepSuffix(), " #", "-") + "`"
	cfg := g.stepConfig(n, timeout)
	g.durableCall(n, sc, cfg, func() {
		g.line("return await runSubWorkflow(env.%s, %s, %s, %t);", binding, id, params, wait)
	})
}

// subBinding is the name of the Workflow binding that starts the workflow
// ref, declared on first use.
func (g *gen) subBinding(ref string) string {
	binding, ok := g.subs[ref]
	if !ok {
		script, wfName := ScriptName(ref), WorkflowName(ref)
		if g.opts.ResolveSubWorkflow != nil {
			if s, w, found := g.opts.ResolveSubWorkflow(ref); found {
				script, wfName = s, w
			}
		}
		binding = "SUB_" + strings.ToUpper(strings.ReplaceAll(g.names.ident(strings.ToLower(ref)), "-", "_"))
		g.subs[ref] = binding
		g.env[binding] = "Workflow"
		g.bindings[binding] = Binding{Name: binding, Type: BindingWorkflow, WorkflowName: wfName, ClassName: ClassName(ref), ScriptName: script}
	}
	return binding
}

func (g *gen) branch(n *ir.Node, sc *scope) (join string) {
	v := g.vars[n.ID]
	g.line("let %s%s = { label: null };", v, g.ty(": { label: string | null }"))
	raw, _ := n.Data["branches"].([]any)
	type arm struct{ label, cond string }
	var arms []arm
	for _, r := range raw {
		m, _ := r.(map[string]any)
		label, _ := m["label"].(string)
		cond, _ := m["condition"].(string)
		arms = append(arms, arm{label, strings.TrimSpace(cond)})
	}
	// The lanes of each arm, in edge order, grouped once: a branch may have
	// thousands of arms.
	lanes := map[string][]ir.Edge{}
	for _, e := range g.graph.Out(n.ID) {
		lanes[e.Label] = append(lanes[e.Label], e)
	}
	for i, a := range arms {
		switch {
		case a.cond == "" && i > 0:
			g.line("} else {")
		case a.cond == "":
			g.line("{")
		case i == 0:
			g.line("if (%s) {", g.expr(n, fmt.Sprintf("branches[%d].condition", i), a.cond, sc))
		default:
			g.line("} else if (%s) {", g.expr(n, fmt.Sprintf("branches[%d].condition", i), a.cond, sc))
		}
		g.indent++
		g.line("%s = { label: %s };", v, jsString(a.label))
		for _, e := range lanes[a.label] {
			g.laneChain(e.Target, sc, &join)
		}
		g.indent--
	}
	if len(arms) > 0 {
		g.line("}")
	}
	return join
}

func (g *gen) lanesOf(n *ir.Node) []ir.Edge {
	var lanes []ir.Edge
	for _, e := range g.graph.Out(n.ID) {
		if e.Label != ir.LabelThen {
			lanes = append(lanes, e)
		}
	}
	return lanes
}

func (g *gen) parallel(n *ir.Node, sc *scope) (join string) {
	fn := "Promise.all"
	if n.Type == ir.TypeRace {
		fn = "Promise.race"
	}
	g.line("const %s%s = await %s([", g.vars[n.ID], g.ty(": any"), fn)
	g.indent++
	inner := sc.lane()
	for _, e := range g.lanesOf(n) {
		g.line("(async () => {")
		g.indent++
		last := g.laneChain(e.Target, inner, &join)
		g.line("return %s;", g.value(last))
		g.indent--
		g.line("})(),")
	}
	g.indent--
	g.line("]);")
	return join
}

func (g *gen) tryCatch(n *ir.Node, sc *scope) (join string) {
	g.helpers[helperErrorInfo] = true
	v := g.vars[n.ID]
	g.line("let %s%s = { error: null };", v, g.ty(": { error: any }"))
	g.line("try {")
	g.indent++
	for _, e := range g.graph.OutLabel(n.ID, ir.LabelTry) {
		g.laneChain(e.Target, sc, &join)
	}
	g.indent--
	g.line("} catch (caught) {")
	g.indent++
	if sc.inLane && len(g.breakSignals) > 0 {
		g.helpers[helperBreak] = true
		g.line("if (caught instanceof BreakSignal) throw caught;")
	}
	g.line("%s = { error: errorInfo(caught) };", v)
	for _, e := range g.graph.OutLabel(n.ID, ir.LabelCatch) {
		g.laneChain(e.Target, sc, &join)
	}
	g.indent--
	if fin := g.graph.OutLabel(n.ID, ir.LabelFinally); len(fin) > 0 {
		g.line("} finally {")
		g.indent++
		for _, e := range fin {
			g.laneChain(e.Target, sc, &join)
		}
		g.indent--
	}
	g.line("}")
	return join
}

func (g *gen) loop(n *ir.Node, sc *scope) (join string) {
	v := g.vars[n.ID]
	results := g.names.ident(v + "_results")
	index := g.names.ident(v + "_index")
	item := g.names.ident(v + "_item")
	g.line("const %s%s = [];", results, g.ty(": any[]"))
	kind := dataString(n, "loopType")
	maxIter := 1000
	if m, ok := n.Data["maxIterations"].(float64); ok && m >= 1 {
		maxIter = int(m)
	}
	switch kind {
	case "forEach":
		items := g.names.ident(v + "_items")
		g.line("const %s%s = %s;", items, g.ty(": any[]"), g.expr(n, "collection", dataString(n, "collection"), sc))
		if _, declared := n.Data["maxIterations"].(float64); declared {
			// The bound the step count of a run relies on (ir.StepBoundsOf).
			g.line("if (%s.length > %d) throw new Error(%s);", items, maxIter, jsString(fmt.Sprintf("loop %q has more than %d items (maxIterations)", n.Name, maxIter)))
		}
		g.line("for (let %s = 0; %s < %s.length; %s++) {", index, index, items, index)
		g.indent++
		g.line("const %s = %s[%s];", item, items, index)
	case "while":
		g.line("for (let %s = 0; %s; %s++) {", index, g.expr(n, "condition", dataString(n, "condition"), sc), index)
		g.indent++
		g.line("if (%s >= %d) throw new Error(%s);", index, maxIter, jsString(fmt.Sprintf("loop %q exceeded %d iterations", n.Name, maxIter)))
		g.line("const %s = %s;", item, index)
	default: // times
		count := 1
		if c, ok := n.Data["count"].(float64); ok {
			count = int(c)
		}
		g.line("for (let %s = 0; %s < %d; %s++) {", index, index, count, index)
		g.indent++
		g.line("const %s = %s;", item, index)
	}
	if s := dataString(n, "itemVar"); s != "" && isIdentifier(s) {
		g.line("const %s = %s;", s, item)
	}
	if s := dataString(n, "indexVar"); s != "" && isIdentifier(s) {
		g.line("const %s = %s;", s, index)
	}
	inner := sc.withLoop(n.ID, item, index)
	inner.inLane = false
	// A break inside a lane function of the body throws a BreakSignal, which
	// the body catches (breakSignals). The body is written in place: no
	// level's code is copied again by the levels around it.
	wrap := g.breakSignals[n.ID]
	if wrap {
		g.line("try {")
		g.indent++
	}
	var last string
	for _, e := range g.graph.OutLabel(n.ID, ir.LabelBody) {
		last = g.laneChain(e.Target, inner, &join)
	}
	g.line("%s.push(%s);", results, g.value(last))
	if wrap {
		g.indent--
		g.line("} catch (caught) {")
		g.line("  if (caught instanceof BreakSignal) break;")
		g.line("  throw caught;")
		g.line("}")
	}
	g.indent--
	g.line("}")
	g.line("const %s = { results: %s };", v, results)
	return join
}

// findBreakSignals lists the loops a break leaves from inside a parallel or
// race lane of their body (a JavaScript break cannot cross the lane's
// function, so it throws a BreakSignal that the loop's body catches). The
// validator refuses such breaks; the compiler still handles them.
func (g *gen) findBreakSignals() {
	for i := range g.a.Nodes {
		n := &g.a.Nodes[i]
		if n.Type != ir.TypeBreak {
			continue
		}
		at, lane := n.ID, false
		for steps := 0; steps <= len(g.a.Nodes); steps++ {
			e, ok := g.graph.Enclosing(at)
			if !ok {
				break
			}
			c := g.graph.Node(e.Source)
			if c.Type == ir.TypeLoop {
				if lane {
					g.breakSignals[c.ID] = true
				}
				break
			}
			if c.Type == ir.TypeParallel || c.Type == ir.TypeRace {
				lane = true
			}
			at = c.ID
		}
	}
}

// custom emits a marketplace node: a durable step calling its template.
func (g *gen) custom(n *ir.Node, sc *scope) {
	t := g.template(n.Type, n.Version)
	if t == nil {
		g.fail(n, "type", "no template for node type %s version %s", n.Type, n.Version)
		return
	}
	cfg := g.templateConfig(n, t, sc)
	if cfg == "" {
		cfg = "{}"
	}
	// ctx.trace (template contract): the W3C trace headers of the step's
	// span, {} for an untraced run (decision 621). It is spread in so that a
	// template whose ctx type predates it still type-checks (a spread's
	// properties are not excess properties).
	trace := ""
	if !g.script {
		g.helpers[helperTrace] = true
		trace = "...{ trace: await traceHeaders(runTrace, " + g.stepName(n, sc) + ") }"
	}
	call := func() {
		g.line("return await %s({", t.ident)
		g.indent++
		g.line("config: %s,", cfg)
		g.line("env: { ...env },")
		if trace != "" {
			g.line("%s,", trace)
		}
		g.indent--
		g.line("});")
	}
	if g.script {
		g.line("const %s%s = await (async () => {", g.vars[n.ID], g.ty(": any"))
		g.indent++
		call()
		g.indent--
		g.line("})();")
		return
	}
	g.durableCall(n, sc, g.stepConfig(n, ""), call)
}

// template is the marketplace template of typ@version, imported on first
// use with the secrets its definition reads; nil when Options has none.
func (g *gen) template(typ, version string) *template {
	key := typ + "@" + version
	if t, ok := g.templates[key]; ok {
		return t
	}
	for _, tpl := range g.opts.Templates {
		if tpl.Type == typ && tpl.Version == version {
			t := &template{tpl: tpl, ident: camel(tpl.Type, tpl.Version), path: "nodes/" + key + ".ts"}
			g.templates[key] = t
			if tpl.Definition != nil {
				for _, name := range tpl.Definition.SecretEnvVars() {
					g.useEnv(name)
				}
			}
			return t
		}
	}
	return nil
}

// templateConfig builds the config object literal of a marketplace node from
// its data, following the template contract.
func (g *gen) templateConfig(n *ir.Node, t *template, sc *scope) string {
	var parts []string
	if t.tpl.Definition == nil {
		for _, k := range sortedKeys(n.Data) {
			parts = append(parts, jsString(k)+": "+g.dataValue(n, k, n.Data[k], sc))
		}
	} else {
		fields := t.tpl.Definition.ConfigSchema
		for _, k := range sortedKeys(fields) {
			f := fields[k]
			if f.Type == ir.FieldSecret {
				continue
			}
			v, ok := n.Data[k]
			if !ok || v == nil {
				if f.Default == nil {
					continue
				}
				v = f.Default
			}
			js := g.fieldValue(n, k, f, v, sc)
			if f.Type == ir.FieldString || f.Type == ir.FieldSelect || f.Type == ir.FieldTextarea {
				if k == "binding" {
					if s, ok := v.(string); ok {
						g.detectBinding(t.tpl.Definition, s)
					}
				}
			}
			parts = append(parts, jsString(k)+": "+js)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}

func (g *gen) detectBinding(def *registry.Definition, name string) {
	for _, tag := range def.Tags {
		kind := strings.TrimPrefix(tag, "binding:")
		if kind == tag {
			continue
		}
		tsType, b := resourceType(kind)
		if tsType == "" {
			continue
		}
		if _, ok := g.env[name]; !ok {
			g.env[name] = tsType
			g.bindings[name] = Binding{Name: name, Type: b}
		}
	}
}

func (g *gen) fieldValue(n *ir.Node, key string, f registry.ConfigField, v any, sc *scope) string {
	field := "data." + key
	switch f.Type {
	case ir.FieldCode:
		if s, ok := v.(string); ok {
			return jsString(s)
		}
	case ir.FieldExpression:
		if s, ok := v.(string); ok {
			return g.expr(n, key, s, sc)
		}
	case ir.FieldJSON:
		if s, ok := v.(string); ok {
			js, err := g.jsonField(s, sc)
			if err != nil {
				g.fail(n, field, "%v", err)
			}
			return js
		}
	case ir.FieldNumber, ir.FieldBoolean:
		if s, ok := v.(string); ok && strings.Contains(s, "{{") {
			return g.expr(n, key, s, sc)
		}
	}
	return g.dataValue(n, key, v, sc)
}

// dataValue writes a JSON value from data as JavaScript, interpolating
// expressions into strings.
func (g *gen) dataValue(n *ir.Node, key string, v any, sc *scope) string {
	switch t := v.(type) {
	case string:
		return g.strField(n, key, t, sc)
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(t)
	case nil:
		return "null"
	case []any:
		parts := make([]string, len(t))
		for i, e := range t {
			parts[i] = g.dataValue(n, key, e, sc)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		if len(t) == 0 {
			return "{}"
		}
		parts := make([]string, 0, len(t))
		for _, k := range sortedKeys(t) {
			parts = append(parts, jsString(k)+": "+g.dataValue(n, key, t[k], sc))
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	}
	return "null"
}

// RedactedOutput is what stands for a sensitive step's output outside the
// running workflow, as Cloudflare's runtime shows it (docs/runs.md,
// "Sensitive outputs").
const RedactedOutput = "[REDACTED]"

// containerTypes are the nodes whose value is built from other nodes'.
var containerTypes = map[string]bool{ir.TypeBranch: true, ir.TypeParallel: true, ir.TypeRace: true,
	ir.TypeTryCatch: true, ir.TypeLoop: true}

// returnsSensitive reports whether the run's output, the value of node id,
// may hold a sensitive output: the node is marked, or it is a container and
// the workflow marks any node (its value may gather theirs).
func (g *gen) returnsSensitive(id string) bool {
	n := g.graph.Node(id)
	if n == nil {
		return false
	}
	if n.Config != nil && n.Config.Sensitive {
		return true
	}
	if !containerTypes[n.Type] {
		return false
	}
	for i := range g.a.Nodes {
		if c := g.a.Nodes[i].Config; c != nil && c.Sensitive {
			return true
		}
	}
	return false
}
