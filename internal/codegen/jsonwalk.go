package codegen

import (
	"errors"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
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
		if i+1 >= len(w.s) {
			break
		}
		e := w.s[i+1]
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
			r, ok := hex4(w.s, i)
			if !ok {
				return "", errors.New(`invalid \u escape`)
			}
			i += 4
			if utf16.IsSurrogate(r) {
				r2, ok2 := rune(0), false
				if i+6 <= len(w.s) && w.s[i] == '\\' && w.s[i+1] == 'u' {
					r2, ok2 = hex4(w.s, i+2)
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

func hex4(s string, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[i : i+4]) {
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
