package ir

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// maxJSONDepth bounds the nesting of arrays and objects in an IR.
const maxJSONDepth = 512

// jsonParser decodes JSON into the values encoding/json gives an `any`
// (map[string]any, []any, string, float64, bool, nil) in one pass. It is the
// IR's hot path: the document is copied into one string once, and strings
// without escapes are slices of it rather than allocations of their own.
// Duplicate object keys are an error rather than silently resolved.
type jsonParser struct {
	data  []byte
	doc   string // data's copy, which the values' strings share
	pos   int
	depth int
}

func newJSONParser(data []byte) *jsonParser {
	return &jsonParser{data: data, doc: string(data)}
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
		k, err := p.str()
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

// str reads a string starting at the opening quote.
func (p *jsonParser) str() (string, error) {
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
			if !ascii && !utf8.Valid(p.data[start:i]) {
				return "", p.fail("invalid UTF-8 in a string")
			}
			return p.doc[start:i], nil
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

func (p *jsonParser) escaped(start int) (string, error) {
	// The decoded text is never longer than the escaped one: one
	// allocation, which the string then owns.
	end := start
	for end < len(p.data) && p.data[end] != '"' {
		if p.data[end] == '\\' {
			end++
		}
		end++
	}
	b := make([]byte, 0, min(end, len(p.data))-start)
	i := start
	for i < len(p.data) {
		c := p.data[i]
		switch {
		case c == '"':
			p.pos = i + 1
			if !utf8.Valid(b) {
				return "", p.fail("invalid UTF-8 in a string")
			}
			return unsafe.String(unsafe.SliceData(b), len(b)), nil
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
		if unpairedSurrogate(p.data, i) {
			p.pos = i
			return "", p.fail("unpaired UTF-16 surrogate escape (the text would be altered)")
		}
		var ok bool
		if b, i, ok = AppendJSONEscape(b, p.data, i); !ok {
			p.pos = i
			if p.data[i-1] == 'u' {
				return "", p.fail("invalid \\u escape")
			}
			return "", p.fail("invalid escape \\%c", p.data[i])
		}
	}
	p.pos = len(p.data)
	return "", p.fail("unterminated string")
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

// unpairedSurrogate reports whether the escape at s[i] (a backslash) is a
// \u escape of a UTF-16 surrogate that is not the first half of a pair
// followed by its second half.
func unpairedSurrogate(s []byte, i int) bool {
	if i+1 >= len(s) || s[i+1] != 'u' {
		return false
	}
	r, ok := Hex4(s, i+2)
	if !ok || !utf16.IsSurrogate(r) {
		return false
	}
	if r >= 0xDC00 || i+12 > len(s) || s[i+6] != '\\' || s[i+7] != 'u' {
		return true
	}
	r2, ok := Hex4(s, i+8)
	return !ok || r2 < 0xDC00 || r2 > 0xDFFF
}

// AppendJSONEscape decodes the escape sequence of a JSON string that starts
// with the backslash at s[i], appends it to b as UTF-8 and returns the index
// after it. A \u escape of a lone surrogate appends U+FFFD, as encoding/json
// does. On an invalid escape ok is false and next is where it goes wrong:
// after "\u" for bad hex digits, else at the escaped character.
func AppendJSONEscape[T ~string | ~[]byte](b []byte, s T, i int) (out []byte, next int, ok bool) {
	if i+1 >= len(s) {
		return b, i + 1, false
	}
	e := s[i+1]
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
		r, ok := Hex4(s, i)
		if !ok {
			return b, i, false
		}
		i += 4
		if utf16.IsSurrogate(r) {
			r2, ok2 := rune(0), false
			if i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
				r2, ok2 = Hex4(s, i+2)
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
		return b, i - 1, false
	}
	return b, i, true
}

// Hex4 decodes the four hexadecimal digits of a \u escape at s[i:i+4]; ok
// is false when they are missing or not hexadecimal.
func Hex4[T ~string | ~[]byte](s T, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	var r rune
	for k := i; k < i+4; k++ {
		c := s[k]
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
