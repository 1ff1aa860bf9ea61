package bundle

import (
	"bytes"
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

// regionFunc prefixes the names of the marker statements and of the
// function the regions are put in for transpiling; it is lengthened with
// "_" until no region contains it.
const regionFunc = "__edgeflow_region_"

// transpileRegions strips the TypeScript from the regions of src in one
// esbuild transform of a scratch module: one async function holding, for
// each region, a marker statement and the region (a block of statements,
// or a parenthesized expression statement). Each region's printed text goes
// back in its place; the rest of src is not parsed. Problems are reported at
// their line in src. esbuild may number a region's local names apart from
// another region's (x2), which changes nothing the code does.
func transpileRegions(file, src string, regions []Region) ([]byte, error) {
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
	// One function holds them all: esbuild keeps a part per top-level
	// statement, which costs far more; blocks cost less than a function
	// each.
	// "export {}" makes the scratch an ES module, strict like the real
	// one (a script would get sloppy-mode rewrites of block functions).
	scratch.WriteString("export {};\nasync function " + prefix + "all() {\n")
	line, srcLine, pos := 3, 1, 0
	for i, r := range regions {
		if r.Start < pos || r.End < r.Start || r.End > len(src) {
			return nil, &Error{Problems: []Problem{{File: file, Message: fmt.Sprintf("region %d (%d–%d) is out of order or outside the module", i, r.Start, r.End)}}}
		}
		srcLine += strings.Count(src[pos:r.Start], "\n")
		pos = r.Start
		srcLines[i] = srcLine
		// A marker statement, then the region: a block of statements or a
		// parenthesized expression statement.
		scratch.WriteString(prefix)
		scratch.WriteString(strconv.Itoa(i))
		if r.Expression {
			scratch.WriteString(";\n(\n")
		} else {
			scratch.WriteString(";\n{\n")
		}
		line += 2
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
		} else {
			scratch.WriteString("}\n")
		}
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
		return nil, e
	}
	out := string(res.Code)
	var b bytes.Buffer
	b.Grow(len(src) + len(out) - sumLen(regions))
	// Anything esbuild writes before the first function is a helper some
	// TypeScript feature needs (decorators, say): it goes first in the
	// module, where the TypeScript path would have put it too; imports
	// are hoisted, so it may precede them.
	if k := strings.Index(out, "async function "+prefix+"all() {\n"); k > 0 {
		if pre := strings.Replace(out[:k], "export {};\n", "", 1); strings.TrimSpace(pre) != "" {
			b.WriteString(pre)
		}
	}
	pos = 0
	for i, r := range regions {
		head := "  " + prefix + strconv.Itoa(i) + ";\n"
		k := strings.Index(out, head)
		if k < 0 {
			return nil, &Error{Problems: []Problem{{File: file, Line: srcLines[i], Message: "the code could not be transpiled"}}}
		}
		out = out[k+len(head):]
		// The region ends before the next marker (or the outer
		// function's end).
		limit := len(out) - len("}\n")
		if i+1 < len(regions) {
			if limit = strings.Index(out, "  "+prefix+strconv.Itoa(i+1)+";\n"); limit < 0 {
				return nil, &Error{Problems: []Problem{{File: file, Line: srcLines[i+1], Message: "the code could not be transpiled"}}}
			}
		}
		if limit < 0 {
			return nil, &Error{Problems: []Problem{{File: file, Line: srcLines[i], Message: "the code could not be transpiled"}}}
		}
		body := out[:limit]
		ok := true
		if r.Expression {
			body, ok = strings.CutPrefix(body, "  ")
			if ok {
				body, ok = strings.CutSuffix(body, ";\n")
			}
		} else if body, ok = strings.CutPrefix(body, "  {\n"); ok {
			if body == "  }\n" {
				body = ""
			} else {
				body, ok = strings.CutSuffix(body, "\n  }\n")
				body += "\n"
			}
		}
		if !ok {
			return nil, &Error{Problems: []Problem{{File: file, Line: srcLines[i], Message: "the code could not be transpiled"}}}
		}
		b.WriteString(src[pos:r.Start])
		if r.Expression {
			b.WriteString(reindent(body, ""))
		} else {
			b.WriteString(reindent(body, leadingSpace(src[r.Start:r.End])))
		}
		pos = r.End
	}
	b.WriteString(src[pos:])
	return b.Bytes(), nil
}

// reindent replaces the four spaces esbuild indents a region's statements
// with (two for the function, two for the block) by indent, unless the
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
