package codegen

import (
	"strings"

	"github.com/edgeflow/edgeflow/internal/bundle"
	"github.com/edgeflow/edgeflow/internal/ir"
)

// With Options.JavaScript the generator marks the user's code in its output
// with these control characters while it writes, because the text is moved
// between buffers and re-indented before it is final; cutRegions takes
// them out and records the spans. The user's code cannot contain them
// (userCode refuses it).
const (
	regionBody = "\x01b" // opens a run of statements
	regionExpr = "\x01e" // opens an expression
	regionEnd  = "\x02"
)

// ty is a TypeScript type annotation, or nothing when emitting JavaScript.
func (g *gen) ty(annotation string) string {
	if g.js {
		return ""
	}
	return annotation
}

// userCode reports whether src, a code field, can be marked as a region;
// when it cannot (it holds a marker character), it records the failure.
func (g *gen) userCode(n *ir.Node, field, src string) bool {
	if !strings.ContainsAny(src, "\x01\x02") {
		return true
	}
	if n == nil {
		if g.err == nil {
			g.err = &Error{Path: "triggerCode", Message: "contains a control character U+0001 or U+0002"}
		}
		return false
	}
	g.fail(n, fieldPath(field), "contains a control character U+0001 or U+0002")
	return false
}

// cutRegions removes the region markers from s and returns the text with
// the byte spans they enclosed (not nil: bundle.Input.Regions tells
// generated JavaScript by that).
func cutRegions(s string) (string, []bundle.Region) {
	regions := []bundle.Region{}
	if !strings.Contains(s, "\x01") {
		return s, regions
	}
	var b strings.Builder
	b.Grow(len(s))
	for {
		i := strings.IndexByte(s, '\x01')
		if i < 0 || i+1 >= len(s) {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i])
		expr := s[i+1] == 'e'
		s = s[i+2:]
		j := strings.IndexByte(s, '\x02')
		if j < 0 {
			j = len(s)
		}
		start := b.Len()
		b.WriteString(s[:j])
		regions = append(regions, bundle.Region{Start: start, End: b.Len(), Expression: expr})
		if j < len(s) {
			j++
		}
		s = s[j:]
	}
	return b.String(), regions
}
