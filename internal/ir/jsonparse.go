package ir

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// maxJSONDepth bounds the nesting of arrays and objects in an IR.
const maxJSONDepth = 512

// internSlots is the size of a table of shared strings.
const internSlots = 4096

// jsonParser decodes JSON into the values encoding/json gives an `any`
// (map[string]any, []any, string, float64, bool, nil) in one pass. It is the
// IR's hot path: equal short strings (keys, node types, versions) are shared
// rather than allocated again, and duplicate object keys are an error
// rather than silently resolved.
type jsonParser struct {
	data   []byte
	pos    int
	depth  int
	intern *internTable
}

// internTable is a direct-mapped table of shared strings. Tables are pooled
// and keep their strings from one parse to the next, so the keys, node types
// and labels that every IR repeats are allocated once per table, not once
// per parse.
type internTable [internSlots]string

var internTables = sync.Pool{New: func() any { return new(internTable) }}

func newJSONParser(data []byte) *jsonParser {
	return &jsonParser{data: data, intern: internTables.Get().(*internTable)}
}

// release returns the parser's intern table to the pool; the parser must
// not be used afterwards.
func (p *jsonParser) release() {
	if p.intern != nil {
		internTables.Put(p.intern)
		p.intern = nil
	}
}

// JSONSyntaxError is malformed JSON, with the byte offset, line and column
// (1-based) of the problem.
type JSONSyntaxError struct {
	Offset, Line, Column int
	Message              string
}

func (e *JSONSyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Message)
}

func parseJSON(data []byte) (v any, err error) {
	p := newJSONParser(data)
	defer p.release()
	v, err = p.value()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.pos < len(p.data) {
		return nil, p.fail("unexpected data after the JSON value")
	}
	return v, nil
}

func (p *jsonParser) fail(format string, args ...any) error {
	pos := min(p.pos, len(p.data))
	line := 1 + bytes.Count(p.data[:pos], []byte{'\n'})
	col := pos - bytes.LastIndexByte(p.data[:pos], '\n')
	return &JSONSyntaxError{Offset: pos, Line: line, Column: col, Message: fmt.Sprintf(format, args...)}
}

func (p *jsonParser) space() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *jsonParser) value() (any, error) {
	p.space()
	if p.pos >= len(p.data) {
		return nil, p.fail("unexpected end of JSON")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		return p.str()
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	case c == 't':
		return true, p.literal("true")
	case c == 'f':
		return false, p.literal("false")
	case c == 'n':
		return nil, p.literal("null")
	default:
		return nil, p.fail("unexpected character %q", c)
	}
}

func (p *jsonParser) literal(word string) error {
	if !bytes.HasPrefix(p.data[p.pos:], []byte(word)) {
		return p.fail("invalid literal; expected %s", word)
	}
	p.pos += len(word)
	return nil
}

func (p *jsonParser) enter() error {
	p.depth++
	if p.depth > maxJSONDepth {
		return p.fail("nested deeper than %d levels", maxJSONDepth)
	}
	return nil
}

func (p *jsonParser) object() (any, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	p.pos++ // {
	m := make(map[string]any)
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		p.depth--
		return m, nil
	}
	for {
		p.space()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return nil, p.fail("expected a string key")
		}
		keyAt := p.pos
		k, err := p.key()
		if err != nil {
			return nil, err
		}
		if _, dup := m[k]; dup {
			p.pos = keyAt
			return nil, p.fail("duplicate key %q", k)
		}
		p.space()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return nil, p.fail("expected ':' after a key")
		}
		p.pos++
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		m[k] = v
		p.space()
		if p.pos >= len(p.data) {
			return nil, p.fail("unexpected end of JSON in an object")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			p.depth--
			return m, nil
		default:
			return nil, p.fail("expected ',' or '}' in an object")
		}
	}
}

func (p *jsonParser) array() (any, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	p.pos++ // [
	a := make([]any, 0, 4)
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		p.depth--
		return a, nil
	}
	for {
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		a = append(a, v)
		p.space()
		if p.pos >= len(p.data) {
			return nil, p.fail("unexpected end of JSON in an array")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			p.depth--
			return a, nil
		default:
			return nil, p.fail("expected ',' or ']' in an array")
		}
	}
}

// share returns b as a string, the same string for equal short values where
// it can: the table is direct-mapped by a hash of the bytes, so a repeated
// key, node type or id costs a hash and a compare instead of an allocation.
// Colliding values replace each other, which only costs an allocation.
func (p *jsonParser) share(b []byte) string {
	if len(b) > 32 || len(b) == 0 {
		return string(b)
	}
	h := uint32(len(b))
	for _, c := range b {
		h = h*31 + uint32(c)
	}
	slot := &p.intern[(h^h>>9)%internSlots]
	if *slot == string(b) {
		return *slot
	}
	*slot = string(b)
	return *slot
}

// str reads a string starting at the opening quote.
func (p *jsonParser) str() (string, error) { return p.strOpt(false) }

// key reads a string that is likely to repeat (an object key, a node type):
// equal ones share memory.
func (p *jsonParser) key() (string, error) { return p.strOpt(true) }

// transientKey reads a key that is only compared: a plain ASCII key is
// returned as a view of the document's bytes, without copying.
func (p *jsonParser) transientKey() (string, error) {
	start := p.pos + 1
	for i := start; i < len(p.data); i++ {
		if c := p.data[i]; strStop[c] {
			if c != '"' {
				break
			}
			p.pos = i + 1
			return unsafe.String(unsafe.SliceData(p.data[start:]), i-start), nil
		}
	}
	return p.strOpt(true)
}

// strStop marks the bytes that end the fast scan of a string: the closing
// quote, a backslash, control characters (refused) and non-ASCII bytes
// (whose UTF-8 must be checked).
var strStop = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	for c := 0x80; c < 0x100; c++ {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

func (p *jsonParser) strOpt(shared bool) (string, error) {
	start := p.pos + 1
	ascii := true
	for i := start; i < len(p.data); i++ {
		c := p.data[i]
		if !strStop[c] {
			continue
		}
		switch {
		case c == '"':
			p.pos = i + 1
			b := p.data[start:i]
			if !ascii && !utf8.Valid(b) {
				return "", p.fail("invalid UTF-8 in a string")
			}
			if shared {
				return p.share(b), nil
			}
			return string(b), nil
		case c == '\\':
			return p.escaped(start)
		case c < 0x20:
			p.pos = i
			return "", p.fail("control character in a string")
		default:
			ascii = false
		}
	}
	p.pos = len(p.data)
	return "", p.fail("unterminated string")
}

func (p *jsonParser) escaped(start int) (string, error) {
	var b []byte
	i := start
	for i < len(p.data) {
		c := p.data[i]
		switch {
		case c == '"':
			p.pos = i + 1
			if !utf8.Valid(b) {
				return "", p.fail("invalid UTF-8 in a string")
			}
			return string(b), nil
		case c < 0x20:
			p.pos = i
			return "", p.fail("control character in a string")
		case c != '\\':
			b = append(b, c)
			i++
			continue
		}
		if i+1 >= len(p.data) {
			break
		}
		e := p.data[i+1]
		i += 2
		switch e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, ok := hex4(p.data, i)
			if !ok {
				p.pos = i
				return "", p.fail("invalid \\u escape")
			}
			i += 4
			if utf16.IsSurrogate(r) {
				r2, ok2 := rune(0), false
				if i+6 <= len(p.data) && p.data[i] == '\\' && p.data[i+1] == 'u' {
					r2, ok2 = hex4(p.data, i+2)
				}
				if dec := utf16.DecodeRune(r, r2); ok2 && dec != utf8.RuneError {
					r = dec
					i += 6
				} else {
					r = utf8.RuneError
				}
			}
			b = utf8.AppendRune(b, r)
		default:
			p.pos = i - 1
			return "", p.fail("invalid escape \\%c", e)
		}
	}
	p.pos = len(p.data)
	return "", p.fail("unterminated string")
}

func hex4(d []byte, i int) (rune, bool) {
	if i+4 > len(d) {
		return 0, false
	}
	var r rune
	for _, c := range d[i : i+4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	return r, true
}

func (p *jsonParser) number() (any, error) {
	start := p.pos
	d := p.data
	i := p.pos
	if d[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(d) && d[i] == '0' {
		i++
	} else if digits() == 0 {
		p.pos = i
		return nil, p.fail("invalid number")
	}
	if i < len(d) && d[i] == '.' {
		i++
		if digits() == 0 {
			p.pos = i
			return nil, p.fail("invalid number: digits expected after '.'")
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if digits() == 0 {
			p.pos = i
			return nil, p.fail("invalid number: digits expected in the exponent")
		}
	}
	p.pos = i
	text := d[start:i]
	// Small integers are common (positions, counts): avoid ParseFloat.
	if len(text) <= 15 {
		n, neg, ok := 0, false, true
		for k, c := range text {
			switch {
			case c == '-' && k == 0:
				neg = true
			case c >= '0' && c <= '9':
				n = n*10 + int(c-'0')
			default:
				ok = false
			}
		}
		if ok {
			if neg {
				n = -n
			}
			return float64(n), nil
		}
	}
	f, err := strconv.ParseFloat(string(text), 64)
	if err != nil || math.IsInf(f, 0) {
		p.pos = start
		return nil, p.fail("number %s is out of range", text)
	}
	return f, nil
}
