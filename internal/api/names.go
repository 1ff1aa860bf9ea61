package api

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// nameCharProblem returns why a display name (of a workflow, project,
// connection, API key, organization, user, ...) may not hold its characters,
// or "": text that is not UTF-8, control characters (NUL, C0, DEL, C1),
// line and paragraph separators, and the bidirectional formatting
// characters that make a name display as something else (docs/decisions.md
// 86).
func nameCharProblem(name string) string {
	for i, r := range name {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(name[i:]); size <= 1 {
				return "name must be valid UTF-8"
			}
		}
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || bidiControl(r) {
			return fmt.Sprintf("name must not contain control characters (found U+%04X)", r)
		}
	}
	return ""
}

// bidiControl reports whether r is a Unicode bidirectional formatting
// character (marks, embeddings, overrides, isolates).
func bidiControl(r rune) bool {
	return r == '\u061C' || r == '\u200E' || r == '\u200F' || r >= '\u202A' && r <= '\u202E' || r >= '\u2066' && r <= '\u2069'
}

// checkNameChars records nameCharProblem at path.
func checkNameChars(p *problems, path, name string) {
	if msg := nameCharProblem(name); msg != "" {
		p.add(path, msg)
	}
}
