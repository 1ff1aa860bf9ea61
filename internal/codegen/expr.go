package codegen

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/edgeflow/edgeflow/internal/ir"
)

// scope is what an expression can see at the point it is emitted: the loops
// enclosing it (innermost last).
type scope struct {
	loops []loopScope
	// inLane is true inside a lane function (parallel or race), where a
	// JavaScript break cannot reach an enclosing loop.
	inLane bool
	// loopLane is the depth of loops when the innermost lane function began.
	loopLane int
}

type loopScope struct {
	id, item, index, label string
	// suffix is the JS template text naming this iteration in step names.
	suffix string
}

func (s *scope) withLoop(l loopScope) *scope {
	c := *s
	c.loops = append(append([]loopScope(nil), s.loops...), l)
	return &c
}

func (s *scope) lane() *scope {
	c := *s
	c.inLane = true
	c.loopLane = len(s.loops)
	return &c
}

// stepSuffix is the text appended to durable step names inside loops, e.g.
// " #${i}" or " #${i}.${j}"; empty outside loops.
func (s *scope) stepSuffix() string {
	if len(s.loops) == 0 {
		return ""
	}
	parts := make([]string, len(s.loops))
	for i, l := range s.loops {
		parts[i] = "${" + l.index + "}"
	}
	return " #" + strings.Join(parts, ".")
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

// ref is the JavaScript expression reading the value an expression names.
func (g *gen) ref(e ir.Expression, sc *scope) string {
	var b strings.Builder
	switch e.Root {
	case ir.RootEnv:
		if len(e.Path) > 0 && !e.Path[0].IsIndex {
			g.useEnv(e.Path[0].Field)
		}
		b.WriteString("env")
		writePath(&b, e.Path)
	case ir.RootEvent:
		b.WriteString("event")
		writePath(&b, e.Path)
	default:
		for i := len(sc.loops) - 1; i >= 0; i-- {
			l := sc.loops[i]
			if l.id == e.Root && len(e.Path) > 0 && !e.Path[0].IsIndex && (e.Path[0].Field == "item" || e.Path[0].Field == "index") {
				if e.Path[0].Field == "item" {
					b.WriteString(l.item)
				} else {
					b.WriteString(l.index)
				}
				writePath(&b, e.Path[1:])
				return b.String()
			}
		}
		v, ok := g.vars[e.Root]
		if !ok {
			return "null"
		}
		b.WriteString(v)
		writePath(&b, e.Path)
	}
	return b.String()
}

// codeExpr replaces every expression in a code field with the JavaScript
// expression reading its value.
func (g *gen) codeExpr(s string, sc *scope) (string, error) {
	exprs, err := ir.ParseExpressions(s)
	if err != nil {
		return "", err
	}
	if len(exprs) == 0 {
		g.codeBindings(s)
		return s, nil
	}
	var b, code strings.Builder // code: s without its expressions, which name variables, not bindings
	pos := 0
	for _, e := range exprs {
		b.WriteString(s[pos:e.Start])
		code.WriteString(s[pos:e.Start])
		code.WriteByte(' ')
		b.WriteString(g.ref(e, sc))
		pos = e.End
	}
	b.WriteString(s[pos:])
	code.WriteString(s[pos:])
	g.codeBindings(code.String())
	return b.String(), nil
}

// str is the JavaScript expression of a string field: a string literal, or a
// template literal interpolating each expression with toText.
func (g *gen) str(s string, sc *scope) (string, error) {
	exprs, err := ir.ParseExpressions(s)
	if err != nil {
		return "", err
	}
	if len(exprs) == 0 {
		return jsString(s), nil
	}
	g.helpers[helperToText] = true
	if len(exprs) == 1 && exprs[0].Start == 0 && exprs[0].End == len(s) {
		return "toText(" + g.ref(exprs[0], sc) + ")", nil
	}
	var b strings.Builder
	b.WriteByte('`')
	pos := 0
	for _, e := range exprs {
		b.WriteString(templateText(s[pos:e.Start]))
		b.WriteString("${toText(" + g.ref(e, sc) + ")}")
		pos = e.End
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
	exprs, err := ir.ParseExpressions(s)
	if err != nil {
		return "", err
	}
	// Each expression is replaced by a marker: inside a string, the raw
	// bytes \x01 N \x02 (interpolated); as a value, the string "\x01 N \x03".
	// The walker accepts these control bytes in strings, JSON itself never
	// has them there unescaped.
	marked := s
	if len(exprs) > 0 {
		var b strings.Builder
		b.Grow(len(s))
		pos := 0
		for i, e := range exprs {
			b.WriteString(s[pos:e.Start])
			if insideJSONString(s[:e.Start]) {
				b.WriteString(markOpen + strconv.Itoa(i) + markText)
			} else {
				b.WriteString(`"` + markOpen + strconv.Itoa(i) + markValue + `"`)
			}
			pos = e.End
		}
		b.WriteString(s[pos:])
		marked = b.String()
	}
	var out strings.Builder
	out.Grow(len(marked) + 16)
	w := jsonWalker{s: marked}
	if err := g.jsonValue(&w, &out, exprs, sc, 0); err != nil {
		return "", fmt.Errorf("not valid JSON: %w", err)
	}
	if w.space(); w.i < len(w.s) {
		return "", fmt.Errorf("not valid JSON: trailing data")
	}
	return out.String(), nil
}

// insideJSONString reports whether the end of prefix lies inside a JSON
// string literal.
func insideJSONString(prefix string) bool {
	in := false
	for i := 0; i < len(prefix); i++ {
		switch prefix[i] {
		case '\\':
			if in {
				i++
			}
		case '"':
			in = !in
		}
	}
	return in
}

// jsonValue writes the JavaScript of the JSON value at w (see jsonField).
func (g *gen) jsonValue(w *jsonWalker, out *strings.Builder, exprs []ir.Expression, sc *scope, depth int) error {
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
				out.WriteString("[" + g.markedString(key, exprs, sc) + "]")
			} else {
				out.WriteString(jsString(key))
			}
			out.WriteString(": ")
			if w.space(); !w.next(':') {
				return errors.New("expected ':' after a key")
			}
			if err := g.jsonValue(w, out, exprs, sc, depth+1); err != nil {
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
			if err := g.jsonValue(w, out, exprs, sc, depth+1); err != nil {
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
			if err == nil && n < len(exprs) {
				out.WriteString(g.ref(exprs[n], sc))
				return nil
			}
		}
		out.WriteString(g.markedString(t, exprs, sc))
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

func (g *gen) markedString(s string, exprs []ir.Expression, sc *scope) string {
	if !strings.Contains(s, markOpen) {
		return jsString(s)
	}
	g.helpers[helperToText] = true
	var b strings.Builder
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
		if err != nil || n >= len(exprs) {
			break
		}
		b.WriteString(templateText(s[:i]))
		b.WriteString("${toText(" + g.ref(exprs[n], sc) + ")}")
		s = s[i+j+1:]
	}
	b.WriteString(templateText(s))
	b.WriteByte('`')
	return b.String()
}
