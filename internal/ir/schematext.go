package ir

import (
	"sort"
	"strconv"
	"strings"
)

// When the fast reader finds the shape wrong, the JSON Schema is evaluated so
// that the problems reported are the schema's own. Evaluating it on the whole
// document would cost, on a body of several megabytes, more than a second and
// hundreds of megabytes for one misplaced key (decision 331). The reader
// therefore notes what the schema needs to see: the nodes and edges it found
// wrong (up to one more than the problems reported), and the values whose
// content the schema never looks at (node data, values of unknown keys),
// which are shown to it as empty values of the same JSON type. schemaText
// builds that smaller document; schemaIndex maps its paths back.

// listSpan is the byte span of the nodes or edges array and the items in it
// the reader found wrong.
type listSpan struct {
	start, end int
	bad        []itemSpan
}

// itemSpan is one item of a list: its index in the IR and its bytes.
type itemSpan struct {
	index      int
	start, end int
}

// blank is a value shown to the schema as an empty value of its type.
type blank struct {
	start, end int
}

// schemaNotes is what the reader records for schemaText.
type schemaNotes struct {
	fails        int // shape problems found so far
	maxBad       int // the most wrong items kept per list
	nodes, edges *listSpan
	blanks       []blank // in document order, never nested
}

// emptyOf is the empty JSON value of the type of the value starting with c.
func emptyOf(c byte) string {
	switch c {
	case '{':
		return "{}"
	case '[':
		return "[]"
	case '"':
		return `""`
	case 't':
		return "true"
	case 'f':
		return "false"
	case 'n':
		return "null"
	}
	return "0"
}

// schemaText is raw with the nodes and edges arrays reduced to their wrong
// items and the blanks emptied, and for each list the IR index of each item
// kept.
func (n *schemaNotes) schemaText(raw []byte) (text []byte, nodeIndex, edgeIndex []int) {
	text = make([]byte, 0, 4096)
	lists := make([]*listSpan, 0, 2)
	for _, l := range []*listSpan{n.nodes, n.edges} {
		if l != nil {
			lists = append(lists, l)
		}
	}
	sort.Slice(lists, func(i, j int) bool { return lists[i].start < lists[j].start })
	pos := 0
	for _, l := range lists {
		text = n.copyBlanked(text, raw, pos, l.start)
		text = append(text, '[')
		for k, it := range l.bad {
			if k > 0 {
				text = append(text, ',')
			}
			text = n.copyBlanked(text, raw, it.start, it.end)
		}
		text = append(text, ']')
		pos = l.end
	}
	text = n.copyBlanked(text, raw, pos, len(raw))
	index := func(l *listSpan) []int {
		if l == nil {
			return nil
		}
		out := make([]int, len(l.bad))
		for k, it := range l.bad {
			out[k] = it.index
		}
		return out
	}
	return text, index(n.nodes), index(n.edges)
}

// copyBlanked appends raw[from:to] to dst with each blank inside it emptied.
func (n *schemaNotes) copyBlanked(dst, raw []byte, from, to int) []byte {
	k := sort.Search(len(n.blanks), func(i int) bool { return n.blanks[i].start >= from })
	for ; k < len(n.blanks) && n.blanks[k].end <= to; k++ {
		b := n.blanks[k]
		dst = append(dst, raw[from:b.start]...)
		dst = append(dst, emptyOf(raw[b.start])...)
		from = b.end
	}
	return append(dst, raw[from:to]...)
}

// schemaIndex rewrites a path of the reduced document into the IR's:
// /nodes/<k>/... names the k-th node kept, whose index in the IR is
// nodeIndex[k].
func schemaIndex(path string, nodeIndex, edgeIndex []int) string {
	for _, l := range []struct {
		prefix string
		index  []int
	}{{"/nodes/", nodeIndex}, {"/edges/", edgeIndex}} {
		rest, ok := strings.CutPrefix(path, l.prefix)
		if !ok {
			continue
		}
		num, tail, more := strings.Cut(rest, "/")
		k, err := strconv.Atoi(num)
		if err != nil || k < 0 || k >= len(l.index) {
			return path
		}
		p := l.prefix + strconv.Itoa(l.index[k])
		if more { // even when the rest is empty: the empty key
			p += "/" + tail
		}
		return p
	}
	return path
}
