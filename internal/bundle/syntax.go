package bundle

import (
	"crypto/sha256"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/evanw/esbuild/pkg/api"
)

// SyntaxError is a syntax error in a piece of user code, located in that
// code's own text: Line and Column are 1-based, Column counts characters.
type SyntaxError struct {
	Line, Column int
	Message      string
}

// Snippet is a piece of user code to check: statements that run as the
// body of an async function (a step's code, a workflow's triggerCode), as
// generated modules hold them.
type Snippet struct {
	Code string
}

// MaxLocatedErrors is the most snippets CheckSyntax places an error in: a
// submission with more snippets that do not parse learns of the first ones.
const MaxLocatedErrors = 10

// CheckSyntax parses each snippet as TypeScript, as it is compiled, and
// returns the first syntax error of each one that does not parse (nil at
// the index of one that does), or nil when all parse. All snippets are
// parsed in one esbuild transform; only when that finds an error are they
// parsed again in halves, down to the snippets that do not parse, so that
// every error is placed in its own snippet's text: one bad snippet among
// thousands costs a few dozen transforms, not one per snippet, and the
// search stops after MaxLocatedErrors snippets with an error (decision
// 332). Snippets that parsed are remembered per scope (the caller's
// tenant), so that how fast a check answers says nothing about what
// another scope submitted.
func CheckSyntax(scope string, snippets []Snippet) []*SyntaxError {
	if len(snippets) == 0 {
		return nil
	}
	prefix := uniquePrefix(snippets)
	// Snippets that parsed before are not parsed again: most submissions
	// change a few steps of a workflow, or none.
	keys := make([]snippetKey, len(snippets))
	var misses []int
	for i, s := range snippets {
		keys[i] = keyOf(scope, s.Code)
		if !parsed.has(keys[i]) {
			misses = append(misses, i)
		}
	}
	if len(misses) == 0 {
		return nil
	}
	if parses(prefix, snippets, misses) {
		for _, k := range keys {
			parsed.add(k)
		}
		return nil
	}
	out := make([]*SyntaxError, len(snippets))
	found := 0
	// locate finds the errors of a part known not to parse.
	var locate func(part []int)
	locate = func(part []int) {
		if found >= MaxLocatedErrors {
			return
		}
		if len(part) == 1 {
			if e := checkOne(prefix, snippets[part[0]].Code); e != nil {
				out[part[0]] = e
				found++
			}
			return
		}
		left, right := part[:len(part)/2], part[len(part)/2:]
		if parses(prefix, snippets, left) {
			locate(right)
			return
		}
		locate(left)
		if found < MaxLocatedErrors && !parses(prefix, snippets, right) {
			locate(right)
		}
	}
	locate(misses)
	return out
}

// parses reports whether the snippets at the given indexes parse together.
func parses(prefix string, snippets []Snippet, indexes []int) bool {
	var b strings.Builder
	b.WriteString("export {};\n")
	for _, i := range indexes {
		writeWrapped(&b, prefix+strconv.Itoa(i), snippets[i].Code)
	}
	return len(parseErrors(b.String())) == 0
}

// uniquePrefix names the functions the snippets are wrapped in:
// "__edgeflow_check_" with as many more leading "_" as it takes for no
// snippet to contain it, found in one pass over the snippets: one more
// than the longest run of "_" before "edgeflow_check_" in any of them.
func uniquePrefix(snippets []Snippet) string {
	const word = "edgeflow_check_"
	longest := 1
	for _, x := range snippets {
		code := x.Code
		for {
			i := strings.Index(code, word)
			if i < 0 {
				break
			}
			run := 0
			for run < i && code[i-run-1] == '_' {
				run++
			}
			longest = max(longest, run)
			code = code[i+len(word):]
		}
	}
	return strings.Repeat("_", longest+1) + word
}

// snippetHeaderLines is how many lines come before a snippet's first line
// when it is checked alone: "export {};" and the function's first line.
const snippetHeaderLines = 2

func writeWrapped(b *strings.Builder, name, code string) {
	b.WriteString("async function ")
	b.WriteString(name)
	b.WriteString("() {\n")
	b.WriteString(code)
	b.WriteString("\n}\n")
}

func checkOne(prefix, code string) *SyntaxError {
	var b strings.Builder
	b.WriteString("export {};\n")
	writeWrapped(&b, prefix, code)
	errs := parseErrors(b.String())
	if len(errs) == 0 {
		return nil
	}
	m := errs[0]
	lines := strings.Split(code, "\n")
	e := &SyntaxError{Line: 1, Column: 1, Message: m.Text}
	if m.Location == nil {
		return e
	}
	line := m.Location.Line - snippetHeaderLines
	switch {
	case line < 1:
		// before the snippet: cannot happen for the wrapper itself
	case line > len(lines):
		// after the snippet's text (an unclosed block or string): its end
		e.Line = len(lines)
		e.Column = utf8.RuneCountInString(strings.TrimRight(lines[len(lines)-1], "\r")) + 1
	default:
		e.Line = line
		text := lines[line-1]
		col := min(max(m.Location.Column, 0), len(text))
		e.Column = utf8.RuneCountInString(text[:col]) + 1
	}
	return e
}

func parseErrors(src string) []api.Message {
	res := api.Transform(src, api.TransformOptions{
		Loader:   api.LoaderTS,
		Target:   api.ESNext,
		LogLevel: api.LogLevelSilent,
		Charset:  api.CharsetUTF8,
	})
	return res.Errors
}

// snippetKey identifies a snippet's text.
type snippetKey [sha256.Size]byte

func keyOf(scope, code string) snippetKey {
	h := sha256.New()
	h.Write([]byte(scope))
	h.Write([]byte{0})
	h.Write([]byte(code))
	var k snippetKey
	h.Sum(k[:0])
	return k
}

// maxParsedSnippets bounds the set of snippets known to parse; when it is
// full it starts again empty.
const maxParsedSnippets = 1 << 14

// parsedSet is the set of snippet texts known to parse, shared by the
// process (a text parses or not whoever sent it).
type parsedSet struct {
	mu   sync.Mutex
	keys map[snippetKey]struct{}
}

var parsed parsedSet

func (p *parsedSet) has(k snippetKey) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, ok := p.keys[k]
	return ok
}

func (p *parsedSet) add(k snippetKey) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.keys == nil || len(p.keys) >= maxParsedSnippets {
		p.keys = make(map[snippetKey]struct{})
	}
	p.keys[k] = struct{}{}
}
