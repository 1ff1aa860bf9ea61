package ir

import (
	"fmt"
	"strconv"
	"strings"
)

// Reserved expression roots. Any other root is a node id.
const (
	RootEnv   = "env"
	RootEvent = "event"
)

// Step-context roots: {{run.id}} is the run's id, {{step.attempt}} and
// {{step.count}} come from the context of the durable step the field runs
// in. They are roots only while no node has that id (a node named run or
// step keeps the meaning it had before these roots existed).
const (
	RootRun  = "run"
	RootStep = "step"
)

// StepContextRoot reports whether e reads the step context rather than a
// node: its root is RootRun or RootStep and hasNode (whether a node has
// that id) is false.
func StepContextRoot(e Expression, hasNode func(id string) bool) bool {
	return (e.Root == RootRun || e.Root == RootStep) && !hasNode(e.Root)
}

// Expression is one {{...}} reference found in a string.
type Expression struct {
	// Start and End are the byte offsets of the expression in the string:
	// s[Start:End] is the whole "{{...}}".
	Start, End int
	// Raw is s[Start:End].
	Raw string
	// Root is the node id, RootEnv or RootEvent.
	Root string
	// Path is the sequence of .field and [index] segments after the root.
	Path []PathSegment
}

// PathSegment is one step of an expression path: a field name (.field) or an
// array index ([index]).
type PathSegment struct {
	Field   string
	Index   int
	IsIndex bool
}

// String writes the segment as it appears in an expression.
func (p PathSegment) String() string {
	if p.IsIndex {
		return "[" + strconv.Itoa(p.Index) + "]"
	}
	return "." + p.Field
}

// Inner returns the expression without braces and surrounding blanks, e.g.
// "fetch.body.items[0]".
func (e Expression) Inner() string {
	var b strings.Builder
	b.WriteString(e.Root)
	for _, p := range e.Path {
		b.WriteString(p.String())
	}
	return b.String()
}

// ExpressionError is a syntax error in an expression. Offset is the byte offset
// in the scanned string where the faulty expression starts.
type ExpressionError struct {
	Offset  int
	Message string
}

func (e *ExpressionError) Error() string {
	return fmt.Sprintf("expression at offset %d: %s", e.Offset, e.Message)
}

// maxExpressionIndex bounds [index] segments so they fit in an int everywhere.
const maxExpressionIndex = 1<<31 - 1

// ParseExpressions finds every {{...}} in s, in order, and parses it. Blanks
// just inside the braces are allowed ("{{ a.b }}"). It returns the
// expressions found before the first syntax error, and that error (an
// *ExpressionError): an unterminated "{{", an empty or malformed reference.
// It does not check that roots exist; see Validate.
func ParseExpressions(s string) ([]Expression, error) {
	var out []Expression
	err := scanExpressions(s, nil, func(e Expression) {
		e.Path = append([]PathSegment(nil), e.Path...)
		out = append(out, e)
	})
	return out, err
}

// EachExpression calls fn for each {{...}} of s in order, as
// ParseExpressions finds them, until the first syntax error, which it
// returns. It keeps no list: the Path given to fn is valid only during the
// call, so that a string with many expressions costs no memory per
// expression.
func EachExpression(s string, fn func(Expression)) error {
	return scanExpressions(s, nil, fn)
}

// scanExpressions calls fn for each expression of s in order, until the
// first syntax error, which it returns. The Path given to fn is valid only
// during the call (it reuses buf).
func scanExpressions(s string, buf []PathSegment, fn func(Expression)) error {
	pos := 0
	for {
		i := strings.Index(s[pos:], "{{")
		if i < 0 {
			return nil
		}
		start := pos + i
		j := strings.Index(s[start+2:], "}}")
		if j < 0 {
			return &ExpressionError{Offset: start, Message: "unterminated \"{{\": missing \"}}\""}
		}
		end := start + 2 + j + 2
		inner := s[start+2 : end-2]
		if k := strings.Index(inner, "{{"); k >= 0 {
			return &ExpressionError{Offset: start, Message: "unterminated \"{{\": another \"{{\" starts before \"}}\""}
		}
		e, err := parseReference(inner, buf[:0])
		if err != nil {
			return &ExpressionError{Offset: start, Message: fmt.Sprintf("%q: %s", s[start:end], err)}
		}
		buf = e.Path
		e.Start, e.End, e.Raw = start, end, s[start:end]
		fn(e)
		pos = end
	}
}

// parseReference parses the inside of {{...}}: root, then .field and [index]
// segments.
func parseReference(inner string, path []PathSegment) (Expression, error) {
	r := strings.TrimSpace(inner)
	if r == "" {
		return Expression{}, fmt.Errorf("empty expression")
	}
	n := 0
	for n < len(r) && isSlugByte(r[n]) {
		n++
	}
	if n == 0 {
		return Expression{}, fmt.Errorf("must start with a node id, env or event")
	}
	if r[0] == '-' {
		return Expression{}, fmt.Errorf("a node id cannot start with '-'")
	}
	e := Expression{Root: r[:n], Path: path}
	i := n
	for i < len(r) {
		switch r[i] {
		case '.':
			i++
			k := i
			for k < len(r) && isFieldByte(r[k]) {
				k++
			}
			if k == i {
				return Expression{}, fmt.Errorf("missing field name after '.' at %d", i)
			}
			e.Path = append(e.Path, PathSegment{Field: r[i:k]})
			i = k
		case '[':
			i++
			k := i
			for k < len(r) && r[k] >= '0' && r[k] <= '9' {
				k++
			}
			if k == i || k >= len(r) || r[k] != ']' {
				return Expression{}, fmt.Errorf("an index must be a non-negative integer in brackets, like [0]")
			}
			v, err := strconv.Atoi(r[i:k])
			if err != nil || v > maxExpressionIndex {
				return Expression{}, fmt.Errorf("index %s is too large", r[i:k])
			}
			e.Path = append(e.Path, PathSegment{Index: v, IsIndex: true})
			i = k + 1
		default:
			return Expression{}, fmt.Errorf("unexpected %q; a path is made of .field and [index] segments", r[i])
		}
	}
	if len(e.Path) == 0 {
		e.Path = nil
	}
	return e, nil
}

func isSlugByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

func isFieldByte(c byte) bool {
	return isSlugByte(c) || c == '$'
}
