package codegen

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/edgeflow/edgeflow/internal/ir"
)

// scope is what an expression can see at the point it is emitted: the loops
// enclosing it, innermost first through parent links, so that entering a
// loop costs the same at any depth (nothing is copied per level).
type scope struct {
	loop *loopScope // innermost enclosing loop, nil outside loops
	// inLane is true inside a lane function (parallel or race), where a
	// JavaScript break cannot reach an enclosing loop.
	inLane bool
	// loopLane is the depth of loops when the innermost lane function began.
	loopLane int
}

type loopScope struct {
	id, item, index string
	parent          *loopScope
	depth           int // loops enclosing this one, itself included
	// suffix is the JavaScript template text naming this iteration in step
	// names: " #${i}", " #${i}.${j}" inside a second loop, and so on.
	suffix string
}

func (s *scope) withLoop(id, item, index string) *scope {
	c := *s
	l := &loopScope{id: id, item: item, index: index, parent: s.loop, depth: 1, suffix: " #${" + index + "}"}
	if s.loop != nil {
		l.depth = s.loop.depth + 1
		l.suffix = s.loop.suffix + ".${" + index + "}"
	}
	c.loop = l
	return &c
}

// loops is how many loops enclose the scope.
func (s *scope) loops() int {
	if s.loop == nil {
		return 0
	}
	return s.loop.depth
}

func (s *scope) lane() *scope {
	c := *s
	c.inLane = true
	c.loopLane = s.loops()
	return &c
}

// stepSuffix is the text appended to durable step names inside loops, e.g.
// " #${i}" or " #${i}.${j}"; empty outside loops.
func (s *scope) stepSuffix() string {
	if s.loop == nil {
		return ""
	}
	return s.loop.suffix
}

// isIdentifier reports whether s can follow a "." in a property access.
func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_' || r == '$' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

func writePath(b *strings.Builder, path []ir.PathSegment) {
	for _, p := range path {
		switch {
		case p.IsIndex:
			b.WriteString("[" + strconv.Itoa(p.Index) + "]")
		case isIdentifier(p.Field):
			b.WriteString("." + p.Field)
		default:
			b.WriteString("[" + jsString(p.Field) + "]")
		}
	}
}

// writeRef writes ref's expression to b.
func (g *gen) writeRef(b *strings.Builder, e ir.Expression, sc *scope) {
	if ir.StepContextRoot(e, g.hasNode) {
		g.writeStepContext(b, e)
		return
	}
	switch e.Root {
	case ir.RootEnv:
		if len(e.Path) > 0 && !e.Path[0].IsIndex {
			g.useEnv(e.Path[0].Field)
		}
		b.WriteString("env")
		writePath(b, e.Path)
	case ir.RootEvent:
		b.WriteString("event")
		writePath(b, e.Path)
	default:
		for l := sc.loop; l != nil; l = l.parent {
			if l.id == e.Root && len(e.Path) > 0 && !e.Path[0].IsIndex && (e.Path[0].Field == "item" || e.Path[0].Field == "index") {
				if e.Path[0].Field == "item" {
					b.WriteString(l.item)
				} else {
					b.WriteString(l.index)
				}
				writePath(b, e.Path[1:])
				return
			}
		}
		v, ok := g.vars[e.Root]
		if !ok {
			b.WriteString("null")
			return
		}
		b.WriteString(v)
		writePath(b, e.Path)
	}
}

// codeExpr replaces every expression in a code field with the JavaScript
// expression reading its value.
func (g *gen) codeExpr(s string, sc *scope) (string, error) {
	if !strings.Contains(s, "{{") {
		g.codeBindings(s)
		return s, nil
	}
	var b, code strings.Builder // code: s without its expressions, which name variables, not bindings
	b.Grow(len(s))
	code.Grow(len(s))
	pos := 0
	err := ir.EachExpression(s, func(e ir.Expression) {
		b.WriteString(s[pos:e.Start])
		code.WriteString(s[pos:e.Start])
		code.WriteByte(' ')
		g.writeRef(&b, e, sc)
		pos = e.End
	})
	if err != nil {
		return "", err
	}
	b.WriteString(s[pos:])
	code.WriteString(s[pos:])
	g.codeBindings(code.String())
	return b.String(), nil
}

// str is the JavaScript expression of a string field: a string literal, or a
// template literal interpolating each expression with toText.
func (g *gen) str(s string, sc *scope) (string, error) {
	if !strings.Contains(s, "{{") {
		return jsString(s), nil
	}
	var b strings.Builder
	b.WriteByte('`')
	pos, count, whole := 0, 0, ""
	err := ir.EachExpression(s, func(e ir.Expression) {
		count++
		b.WriteString(templateText(s[pos:e.Start]))
		b.WriteString("${")
		start := b.Len()
		b.WriteString("toText(")
		g.writeRef(&b, e, sc)
		b.WriteString(")")
		if e.Start == 0 && e.End == len(s) {
			whole = b.String()[start:] // the call alone is the value
		}
		b.WriteString("}")
		pos = e.End
	})
	if err != nil {
		return "", err
	}
	if count == 0 {
		return jsString(s), nil
	}
	g.helpers[helperToText] = true
	if count == 1 && whole != "" {
		return whole, nil
	}
	b.WriteString(templateText(s[pos:]))
	b.WriteByte('`')
	return b.String(), nil
}

// templateText escapes s for the inside of a template literal.
func templateText(s string) string {
	q := jsString(s)
	q = q[1 : len(q)-1]
	q = strings.ReplaceAll(q, `\"`, `"`)
	q = strings.ReplaceAll(q, "`", "\\`")
	return strings.ReplaceAll(q, "${", "\\${")
}

// jsString is s as a double-quoted JavaScript string literal, escaped as
// JSON escapes it, plus U+2028 and U+2029.
func jsString(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c == 0xE2 {
			clean = false
			break
		}
	}
	if clean {
		return `"` + s + `"`
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\u2028':
			b.WriteString(`\u2028`)
		case '\u2029':
			b.WriteString(`\u2029`)
		default:
			if r < 0x20 {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// Markers put in place of expressions before a JSON field is parsed.
const (
	markOpen  = "\x01"
	markText  = "\x02" // expression inside a JSON string: interpolate
	markValue = "\x03" // expression standing as a JSON value
)

// jsonField turns a JSON field (a string holding JSON with expressions) into
// a JavaScript expression building the value: expressions standing as JSON
// values become the values themselves, expressions inside JSON strings are
// interpolated as text. Key order is kept.
func (g *gen) jsonField(s string, sc *scope) (string, error) {
	if strings.ContainsAny(s, markOpen+markText+markValue) || strings.Contains(strings.ToLower(s), `\u000`) {
		// The markers are control characters U+0001–U+0003; rather than
		// risk reading the text's own as expressions, refuse them.
		for _, esc := range []string{`\u0001`, `\u0002`, `\u0003`} {
			if strings.Contains(strings.ToLower(s), esc) || strings.ContainsAny(s, markOpen+markText+markValue) {
				return "", fmt.Errorf("control characters U+0001 to U+0003 are not supported in JSON fields")
			}
		}
	}
	// Each expression is replaced by a marker: inside a string, the raw
	// bytes \x01 N \x02 (interpolated); as a value, the string "\x01 N \x03".
	// The walker accepts these control bytes in strings, JSON itself never
	// has them there unescaped. refs holds each one's JavaScript.
	var refs exprRefs
	marked := s
	if strings.Contains(s, "{{") {
		var b strings.Builder
		count := strings.Count(s, "{{")
		b.Grow(len(s) + 8*count)
		refs.ends = make([]int, 0, count)
		refs.text.Grow(len(s))
		pos := 0
		var str jsonStringState
		var num []byte
		err := ir.EachExpression(s, func(e ir.Expression) {
			b.WriteString(s[pos:e.Start])
			num = strconv.AppendInt(num[:0], int64(len(refs.ends)), 10)
			if str.advance(s, e.Start) {
				b.WriteString(markOpen)
				b.Write(num)
				b.WriteString(markText)
			} else {
				b.WriteString(`"` + markOpen)
				b.Write(num)
				b.WriteString(markValue + `"`)
			}
			g.writeRef(&refs.text, e, sc)
			refs.ends = append(refs.ends, refs.text.Len())
			pos = e.End
		})
		if err != nil {
			return "", err
		}
		b.WriteString(s[pos:])
		marked = b.String()
	}
	var out strings.Builder
	out.Grow(len(marked) + refs.text.Len() + 16*refs.len() + 16)
	w := jsonWalker{s: marked}
	if err := g.jsonValue(&w, &out, &refs, 0); err != nil {
		return "", fmt.Errorf("not valid JSON: %w", err)
	}
	if w.space(); w.i < len(w.s) {
		return "", fmt.Errorf("not valid JSON: trailing data")
	}
	return out.String(), nil
}

// exprRefs holds the JavaScript of a JSON field's expressions in one text:
// the n-th ends at ends[n] and starts where the one before ends.
type exprRefs struct {
	text strings.Builder
	ends []int
}

func (r *exprRefs) len() int { return len(r.ends) }

func (r *exprRefs) at(n int) string {
	start := 0
	if n > 0 {
		start = r.ends[n-1]
	}
	return r.text.String()[start:r.ends[n]]
}

// jsonStringState follows a JSON text from its start, so that whether a
// position lies inside a string literal costs only the bytes since the last
// question.
type jsonStringState struct {
	in bool
	i  int // the next byte to read
}

// advance reads s up to end and reports whether end lies inside a JSON
// string literal.
func (st *jsonStringState) advance(s string, end int) bool {
	for ; st.i < end; st.i++ {
		switch s[st.i] {
		case '\\':
			if st.in {
				st.i++
			}
		case '"':
			st.in = !st.in
		}
	}
	return st.in
}

// jsonValue writes the JavaScript of the JSON value at w (see jsonField).
func (g *gen) jsonValue(w *jsonWalker, out *strings.Builder, refs *exprRefs, depth int) error {
	if depth > maxJSONFieldDepth {
		return fmt.Errorf("nested deeper than %d levels", maxJSONFieldDepth)
	}
	w.space()
	if w.i >= len(w.s) {
		return errors.New("unexpected end of JSON")
	}
	switch c := w.s[w.i]; {
	case c == '{':
		w.i++
		out.WriteString("{")
		if w.space(); w.next('}') {
			out.WriteString("}")
			return nil
		}
		for first := true; ; first = false {
			if w.space(); w.i >= len(w.s) || w.s[w.i] != '"' {
				return errors.New("expected a string key")
			}
			key, err := w.str()
			if err != nil {
				return err
			}
			if !first {
				out.WriteString(", ")
			} else {
				out.WriteString(" ")
			}
			if strings.Contains(key, markOpen) {
				out.WriteString("[" + g.markedString(key, refs) + "]")
			} else {
				out.WriteString(jsString(key))
			}
			out.WriteString(": ")
			if w.space(); !w.next(':') {
				return errors.New("expected ':' after a key")
			}
			if err := g.jsonValue(w, out, refs, depth+1); err != nil {
				return err
			}
			w.space()
			if w.next('}') {
				out.WriteString(" }")
				return nil
			}
			if !w.next(',') {
				return errors.New("expected ',' or '}' in an object")
			}
		}
	case c == '[':
		w.i++
		out.WriteString("[")
		if w.space(); w.next(']') {
			out.WriteString("]")
			return nil
		}
		for first := true; ; first = false {
			if !first {
				out.WriteString(", ")
			}
			if err := g.jsonValue(w, out, refs, depth+1); err != nil {
				return err
			}
			w.space()
			if w.next(']') {
				out.WriteString("]")
				return nil
			}
			if !w.next(',') {
				return errors.New("expected ',' or ']' in an array")
			}
		}
	case c == '"':
		t, err := w.str()
		if err != nil {
			return err
		}
		if strings.HasPrefix(t, markOpen) && strings.HasSuffix(t, markValue) {
			n, err := strconv.Atoi(t[1 : len(t)-1])
			if err == nil && n < refs.len() {
				out.WriteString(refs.at(n))
				return nil
			}
		}
		out.WriteString(g.markedString(t, refs))
	case c == '-' || c >= '0' && c <= '9':
		num, ok := w.number()
		if !ok {
			return errors.New("invalid number")
		}
		out.WriteString(num)
	default:
		for _, lit := range [...]string{"true", "false", "null"} {
			if strings.HasPrefix(w.s[w.i:], lit) {
				w.i += len(lit)
				out.WriteString(lit)
				return nil
			}
		}
		return fmt.Errorf("unexpected character %q", c)
	}
	return nil
}

func (g *gen) markedString(s string, refs *exprRefs) string {
	if !strings.Contains(s, markOpen) {
		return jsString(s)
	}
	g.helpers[helperToText] = true
	var b strings.Builder
	b.Grow(2 * len(s))
	b.WriteByte('`')
	for {
		i := strings.Index(s, markOpen)
		if i < 0 {
			break
		}
		j := strings.Index(s[i:], markText)
		if j < 0 {
			break
		}
		n, err := strconv.Atoi(s[i+1 : i+j])
		if err != nil || n >= refs.len() {
			break
		}
		b.WriteString(templateText(s[:i]))
		b.WriteString("${toText(")
		b.WriteString(refs.at(n))
		b.WriteString(")}")
		s = s[i+j+1:]
	}
	b.WriteString(templateText(s))
	b.WriteByte('`')
	return b.String()
}

// hasNode reports whether the IR has a node of that id.
func (g *gen) hasNode(id string) bool { return g.graph.Node(id) != nil }

// stepContextParam names the step callback's context parameter (the
// callback's first argument) where a node's fields read {{step.…}}.
const stepContextParam = "$step"

// writeStepContext writes {{run.id}}, {{step.attempt}} or {{step.count}}:
// the instance id, and the context of the step whose fields are being
// written (g.stepCtx); null where there is none, which validation refuses.
func (g *gen) writeStepContext(b *strings.Builder, e ir.Expression) {
	field := ""
	if len(e.Path) == 1 && !e.Path[0].IsIndex {
		field = e.Path[0].Field
	}
	switch {
	case e.Root == ir.RootRun && field == "id":
		b.WriteString("event.instanceId")
	case e.Root == ir.RootStep && g.stepCtx != "" && field == "attempt":
		b.WriteString(g.stepCtx + ".attempt")
	case e.Root == ir.RootStep && g.stepCtx != "" && field == "count":
		b.WriteString(g.stepCtx + ".step.count")
	default:
		b.WriteString("null")
	}
}

// usesStepContext reports whether a node's data reads {{step.…}}, so that
// its step callback must name its context parameter.
func (g *gen) usesStepContext(n *ir.Node) bool {
	found := false
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		if found || depth > 64 {
			return
		}
		switch x := v.(type) {
		case string:
			if strings.Contains(x, "{{") {
				_ = ir.EachExpression(x, func(e ir.Expression) {
					if e.Root == ir.RootStep && ir.StepContextRoot(e, g.hasNode) {
						found = true
					}
				})
			}
		case []any:
			for _, y := range x {
				walk(y, depth+1)
			}
		case map[string]any:
			for _, y := range x {
				walk(y, depth+1)
			}
		}
	}
	walk(map[string]any(n.Data), 0)
	return found
}
