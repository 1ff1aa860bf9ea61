package codegen

import (
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/edgeflow/edgeflow/internal/ir"
)

// maxJSONFieldDepth bounds the nesting of a JSON field (the IR's own limit
// is larger than any real headers or body).
const maxJSONFieldDepth = 512

// jsonWalker reads the marked JSON text of a JSON field (see jsonField) one
// token at a time. It is strict JSON except that the expression markers,
// bytes U+0001 to U+0003, may stand unescaped in strings.
type jsonWalker struct {
	s string
	i int
}

func (w *jsonWalker) space() {
	for w.i < len(w.s) {
		switch w.s[w.i] {
		case ' ', '\t', '\n', '\r':
			w.i++
		default:
			return
		}
	}
}

// next consumes c if it is the next byte.
func (w *jsonWalker) next(c byte) bool {
	if w.i < len(w.s) && w.s[w.i] == c {
		w.i++
		return true
	}
	return false
}

// str reads the string starting at the opening quote and returns its value.
// Invalid UTF-8 and lone surrogates become U+FFFD, as encoding/json does.
func (w *jsonWalker) str() (string, error) {
	start := w.i + 1
	for i := start; i < len(w.s); i++ {
		switch c := w.s[i]; {
		case c == '"':
			w.i = i + 1
			return validUTF8(w.s[start:i]), nil
		case c == '\\':
			return w.escaped(start)
		case c < 0x20 && (c < 0x01 || c > 0x03):
			return "", errors.New("control character in a string")
		}
	}
	return "", errors.New("unterminated string")
}

func (w *jsonWalker) escaped(start int) (string, error) {
	var b []byte
	for i := start; i < len(w.s); {
		c := w.s[i]
		switch {
		case c == '"':
			w.i = i + 1
			return validUTF8(string(b)), nil
		case c < 0x20 && (c < 0x01 || c > 0x03):
			return "", errors.New("control character in a string")
		case c != '\\':
			b = append(b, c)
			i++
			continue
		}
		var ok bool
		if b, i, ok = ir.AppendJSONEscape(b, w.s, i); !ok {
			return "", errors.New("invalid escape in a string")
		}
	}
	return "", errors.New("unterminated string")
}

// validUTF8 replaces each byte of s that is not part of valid UTF-8 with
// U+FFFD, as encoding/json does.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for _, r := range s { // ranging yields U+FFFD for each invalid byte
		b.WriteRune(r)
	}
	return b.String()
}

// number reads a JSON number and returns its text.
func (w *jsonWalker) number() (string, bool) {
	s, i := w.s, w.i
	digits := func() bool {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i > j
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case !digits():
		return "", false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if !digits() {
			return "", false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if !digits() {
			return "", false
		}
	}
	num := s[w.i:i]
	w.i = i
	return num, true
}
