package n8n

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// The IR reads "{{...}}" in code fields as a reference to a node. The code
// this package writes holds "{{" only where it means one: strings are quoted
// with jsString, which never writes "{{", and code copied from n8n goes
// through escapeBraces.

// jsString quotes s as a JavaScript string literal. A "{" followed by "{" is
// written "\u007b", so the literal holds no "{{".
func jsString(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '{' && i+1 < len(s) && s[i+1] == '{':
			b.WriteString(`\u007b`)
		case r == '}' && i+1 < len(s) && s[i+1] == '}':
			b.WriteString(`\u007d`)
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\ufffd`)
		case r < 0x20 || r == 0x2028 || r == 0x2029 || r == 0x7f:
			b.WriteString(`\u` + strconv.FormatInt(int64(r)+0x10000, 16)[1:])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
	return b.String()
}

// escapeBraces rewrites JavaScript source so that it holds no "{{" (nor
// "}}", which the IR does not mind but people reading the code might),
// without changing what it does: inside string and template literals and
// regular expressions a brace pair becomes "{\x7b" ("}\x7d"), elsewhere
// (code, comments) a space goes between the braces. It scans the source
// lexically (strings, templates with their ${...} parts, comments, regular
// expressions after an operator); on text it cannot scan it falls back to
// spacing every pair, which is still valid JavaScript wherever the pair was
// not inside a literal.
func escapeBraces(src string) string {
	if !strings.Contains(src, "{{") && !strings.Contains(src, "}}") {
		return src
	}
	var b strings.Builder
	b.Grow(len(src) + 16)
	// Modes of the scanner; a stack holds template literals and the brace
	// depth of each ${...} inside them.
	const (
		code = iota
		str
		tmpl
		lineComment
		blockComment
		regex
	)
	type frame struct {
		mode  int
		quote byte
		depth int // brace depth inside a template's ${...}
	}
	stack := []frame{{mode: code}}
	lastSignificant := byte(0)
	for i := 0; i < len(src); i++ {
		c := src[i]
		top := &stack[len(stack)-1]
		pair := i+1 < len(src) && (c == '{' && src[i+1] == '{' || c == '}' && src[i+1] == '}')
		switch top.mode {
		case code:
			switch {
			case c == '/' && i+1 < len(src) && src[i+1] == '/':
				stack = append(stack, frame{mode: lineComment})
				b.WriteString("//")
				i++
				continue
			case c == '/' && i+1 < len(src) && src[i+1] == '*':
				stack = append(stack, frame{mode: blockComment})
				b.WriteString("/*")
				i++
				continue
			case c == '/' && regexAllowed(lastSignificant):
				stack = append(stack, frame{mode: regex})
				b.WriteByte(c)
				continue
			case c == '"' || c == '\'':
				stack = append(stack, frame{mode: str, quote: c})
				b.WriteByte(c)
				continue
			case c == '`':
				stack = append(stack, frame{mode: tmpl})
				b.WriteByte(c)
				continue
			case c == '{':
				if len(stack) > 1 {
					top.depth++
				}
			case c == '}':
				if len(stack) > 1 && top.depth == 0 {
					// The end of a template's ${...}.
					stack = stack[:len(stack)-1]
					b.WriteByte(c)
					lastSignificant = '`'
					continue
				}
				if len(stack) > 1 {
					top.depth--
				}
			}
			if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
				lastSignificant = c
			}
			b.WriteByte(c)
			if pair {
				b.WriteByte(' ')
			}
		case str, regex:
			switch {
			case c == '\\' && i+1 < len(src):
				b.WriteByte(c)
				b.WriteByte(src[i+1])
				i++
				continue
			case pair:
				b.WriteByte(c)
				if c == '{' {
					b.WriteString(`\x7b`)
				} else {
					b.WriteString(`\x7d`)
				}
				i++
				continue
			case top.mode == str && c == top.quote, top.mode == regex && c == '/':
				stack = stack[:len(stack)-1]
				lastSignificant = 'a'
			case c == '\n':
				stack = stack[:len(stack)-1] // unterminated: give up on the literal
			}
			b.WriteByte(c)
		case tmpl:
			switch {
			case c == '\\' && i+1 < len(src):
				b.WriteByte(c)
				b.WriteByte(src[i+1])
				i++
				continue
			case c == '`':
				stack = stack[:len(stack)-1]
				lastSignificant = 'a'
				b.WriteByte(c)
				continue
			case c == '$' && i+1 < len(src) && src[i+1] == '{':
				b.WriteString("${")
				i++
				stack = append(stack, frame{mode: code})
				lastSignificant = '('
				continue
			}
			b.WriteByte(c)
			if pair {
				if c == '{' {
					b.WriteString(`\x7b`)
				} else {
					b.WriteString(`\x7d`)
				}
				i++
			}
		case lineComment, blockComment:
			if top.mode == lineComment && c == '\n' || top.mode == blockComment && c == '*' && i+1 < len(src) && src[i+1] == '/' {
				stack = stack[:len(stack)-1]
				if top.mode == blockComment {
					b.WriteString("*/")
					i++
					continue
				}
			}
			b.WriteByte(c)
			if pair {
				b.WriteByte(' ')
			}
		}
		if len(stack) == 0 {
			stack = []frame{{mode: code}}
		}
	}
	out := b.String()
	// Whatever the scanner missed (unbalanced text) is spaced out.
	for strings.Contains(out, "{{") {
		out = strings.ReplaceAll(out, "{{", "{ {")
	}
	for strings.Contains(out, "}}") {
		out = strings.ReplaceAll(out, "}}", "} }")
	}
	return out
}

// regexAllowed reports whether a "/" after the character c starts a regular
// expression rather than a division.
func regexAllowed(c byte) bool {
	if c == 0 {
		return true
	}
	return strings.IndexByte("(,=:[!&|?{};+-*%<>~^", c) >= 0
}

// jsIdent reports whether s is a JavaScript identifier that needs no quotes
// as an object key.
func jsIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
		case i > 0 && r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return true
}

// jsKey writes s as an object key.
func jsKey(s string) string {
	if jsIdent(s) {
		return s
	}
	return jsString(s)
}

// indent prefixes every non-empty line of s with pre.
func indent(s, pre string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) != "" {
			lines[i] = pre + l
		}
	}
	return strings.Join(lines, "\n")
}
