package bundle

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// Region is a span of a JavaScript entry module, Start to End in bytes, that
// holds code as its author wrote it, which may be TypeScript: a run of
// statements (the body of an async function), or with Expression one
// expression. codegen.Output.Regions lists them for its JavaScript output.
type Region struct {
	Start, End int
	Expression bool
}

// regionFunc prefixes the names of the functions the regions are wrapped in
// for transpiling; a digit run keeps it apart from anything in the regions.
const regionFunc = "__edgeflow_region_"

// transpileRegions strips the TypeScript from the regions of src in one
// esbuild transform: each region becomes an async function of its own in a
// scratch module, and each function's printed body goes back in the
// region's place. The rest of src is not parsed. Problems are reported at
// their line in src.
func transpileRegions(file, src string, regions []Region) (string, error) {
	prefix := regionFunc
	for regionsContain(src, regions, prefix) {
		prefix = "_" + prefix
	}
	var scratch strings.Builder
	scratch.Grow(sumLen(regions) + 64*len(regions))
	// starts[i] is the scratch line (1-based) where region i begins;
	// srcLines[i] the line of src where it begins.
	starts := make([]int, len(regions))
	srcLines := make([]int, len(regions))
	// One outer function holds them all: esbuild keeps a part per
	// top-level statement, which costs far more than nested functions.
	scratch.WriteString("async function " + prefix + "all() {\n")
	line, srcLine, pos := 2, 1, 0
	for i, r := range regions {
		if r.Start < pos || r.End < r.Start || r.End > len(src) {
			return "", &Error{Problems: []Problem{{File: file, Message: fmt.Sprintf("region %d (%d–%d) is out of order or outside the module", i, r.Start, r.End)}}}
		}
		srcLine += strings.Count(src[pos:r.Start], "\n")
		pos = r.Start
		srcLines[i] = srcLine
		scratch.WriteString("async function ")
		scratch.WriteString(prefix)
		scratch.WriteString(strconv.Itoa(i))
		scratch.WriteString("() {\n")
		line++
		if r.Expression {
			scratch.WriteString("return (\n")
			line++
		}
		starts[i] = line
		text := src[r.Start:r.End]
		scratch.WriteString(text)
		line += strings.Count(text, "\n")
		if !strings.HasSuffix(text, "\n") {
			scratch.WriteByte('\n')
			line++
		}
		if r.Expression {
			scratch.WriteString(");\n")
			line++
		}
		scratch.WriteString("}\n")
		line++
	}
	scratch.WriteString("}\n")
	res := api.Transform(scratch.String(), api.TransformOptions{
		Loader:     api.LoaderTS,
		Target:     api.ESNext,
		Sourcefile: file,
		LogLevel:   api.LogLevelSilent,
		Charset:    api.CharsetUTF8,
	})
	if len(res.Errors) > 0 {
		e := toError(res.Errors)
		for k := range e.Problems {
			p := &e.Problems[k]
			p.File = file
			// The region the problem is in: the last one starting at or
			// before its line.
			i := 0
			for i+1 < len(starts) && starts[i+1] <= p.Line {
				i++
			}
			if len(starts) > 0 && p.Line >= starts[i] {
				p.Line = srcLines[i] + p.Line - starts[i]
			}
		}
		return "", e
	}
	out := string(res.Code)
	var b strings.Builder
	b.Grow(len(src) + len(out) - sumLen(regions))
	// Anything esbuild writes before the first function is a helper some
	// TypeScript feature needs (decorators, say): it goes first in the
	// module, where the TypeScript path would have put it too; imports
	// are hoisted, so it may precede them.
	if k := strings.Index(out, "async function "+prefix+"all() {\n"); k > 0 {
		if pre := out[:k]; strings.TrimSpace(pre) != "" {
			b.WriteString(pre)
		}
	}
	pos = 0
	for i, r := range regions {
		head := "  async function " + prefix + strconv.Itoa(i) + "() {\n"
		k := strings.Index(out, head)
		if k < 0 {
			return "", &Error{Problems: []Problem{{File: file, Line: srcLines[i], Message: "the code could not be transpiled"}}}
		}
		out = out[k+len(head):]
		// The body ends at the last closing line before the next
		// region's function (or the outer function's end).
		limit := len(out)
		if i+1 < len(regions) {
			if limit = strings.Index(out, "  async function "+prefix+strconv.Itoa(i+1)+"() {\n"); limit < 0 {
				return "", &Error{Problems: []Problem{{File: file, Line: srcLines[i+1], Message: "the code could not be transpiled"}}}
			}
		}
		body := ""
		if strings.HasPrefix(out, "  }\n") {
			// An empty body.
		} else if end := strings.LastIndex(out[:limit], "\n  }\n"); end >= 0 {
			body = out[:end+1]
		} else {
			return "", &Error{Problems: []Problem{{File: file, Line: srcLines[i], Message: "the code could not be transpiled"}}}
		}
		b.WriteString(src[pos:r.Start])
		if r.Expression {
			expr, ok := strings.CutPrefix(body, "    return ")
			expr, ok2 := strings.CutSuffix(expr, ";\n")
			if !ok || !ok2 {
				return "", &Error{Problems: []Problem{{File: file, Line: srcLines[i], Message: "the code is not one expression"}}}
			}
			b.WriteString(reindent(expr, ""))
		} else {
			b.WriteString(reindent(body, leadingSpace(src[r.Start:r.End])))
		}
		pos = r.End
	}
	b.WriteString(src[pos:])
	return b.String(), nil
}

// reindent replaces the four spaces esbuild indents a region's body with
// (two for the outer function, two for the region's) by indent, unless the
// code has a template literal, whose lines must stay as they are.
func reindent(s, indent string) string {
	if strings.IndexByte(s, '`') >= 0 || indent == "    " {
		return s
	}
	s = strings.ReplaceAll(s, "\n    ", "\n"+indent)
	if strings.HasPrefix(s, "    ") {
		s = indent + s[4:]
	}
	return s
}

func leadingSpace(s string) string {
	return s[:len(s)-len(strings.TrimLeft(s, " "))]
}

func regionsContain(src string, regions []Region, s string) bool {
	for _, r := range regions {
		if r.Start >= 0 && r.End <= len(src) && r.Start <= r.End && strings.Contains(src[r.Start:r.End], s) {
			return true
		}
	}
	return false
}

func sumLen(regions []Region) int {
	n := 0
	for _, r := range regions {
		if r.End > r.Start {
			n += r.End - r.Start
		}
	}
	return n
}
