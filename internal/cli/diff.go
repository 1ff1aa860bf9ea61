package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// canonicalIR is an IR as edgeflow keeps it in files: sorted keys, two-space
// indent, a final newline, and without what the server stamps on each
// version (metadata.version, createdAt, updatedAt), so that pulling twice
// gives the same bytes and an unchanged file compares equal to its version.
func canonicalIR(raw []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("not JSON: more than one value")
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("an IR is a JSON object")
	}
	if md, ok := obj["metadata"].(map[string]any); ok {
		delete(md, "version")
		delete(md, "createdAt")
		delete(md, "updatedAt")
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(obj); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// unifiedDiff is a unified diff of two texts with three lines of context,
// "" when they are equal.
func unifiedDiff(nameA, nameB string, a, b []byte) string {
	la, lb := splitLines(string(a)), splitLines(string(b))
	ops := diffLines(la, lb)
	if len(ops) == 0 {
		return ""
	}
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", nameA, nameB)
	const context = 3
	// Group edits into hunks: edits closer than 2*context lines share one.
	for i := 0; i < len(ops); {
		j := i
		for j+1 < len(ops) && ops[j+1].ai-ops[j].aiEnd() <= 2*context {
			j++
		}
		startA := max(ops[i].ai-context, 0)
		startB := ops[i].bi - (ops[i].ai - startA)
		endA := min(ops[j].aiEnd()+context, len(la))
		endB := ops[j].biEnd() + (endA - ops[j].aiEnd())
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(startA, endA-startA), hunkRange(startB, endB-startB))
		ai := startA
		for k := i; k <= j; k++ {
			op := ops[k]
			for ; ai < op.ai; ai++ {
				out.WriteString(" " + la[ai] + "\n")
			}
			for _, l := range la[op.ai:op.aiEnd()] {
				out.WriteString("-" + l + "\n")
			}
			for _, l := range lb[op.bi:op.biEnd()] {
				out.WriteString("+" + l + "\n")
			}
			ai = op.aiEnd()
		}
		for ; ai < endA; ai++ {
			out.WriteString(" " + la[ai] + "\n")
		}
		i = j + 1
	}
	return out.String()
}

func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

func splitLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// edit replaces a[ai:ai+na] with b[bi:bi+nb].
type edit struct{ ai, na, bi, nb int }

func (e edit) aiEnd() int { return e.ai + e.na }
func (e edit) biEnd() int { return e.bi + e.nb }

// diffLines finds a shortest edit script from a to b (Myers' O(ND)
// algorithm over the lines) and returns it as runs of changed lines.
func diffLines(a, b []string) []edit {
	n, m := len(a), len(b)
	maxD := n + m
	offset := maxD + 1
	v := make([]int, 2*maxD+3)
	var trace [][]int
	found := false
	for d := 0; d <= maxD && !found; d++ {
		snapshot := make([]int, len(v))
		copy(snapshot, v)
		trace = append(trace, snapshot)
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[offset+k-1] < v[offset+k+1]) {
				x = v[offset+k+1] // down: an insertion
			} else {
				x = v[offset+k-1] + 1 // right: a deletion
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[offset+k] = x
			if x >= n && y >= m {
				found = true
				break
			}
		}
	}
	// Walk back through the trace to recover the path, marking each
	// line of a as kept or deleted and each line of b as kept or inserted.
	keptA := make([]bool, n)
	keptB := make([]bool, m)
	x, y := n, m
	for d := len(trace) - 1; d > 0; d-- {
		v := trace[d]
		k := x - y
		var prevK int
		if k == -d || (k != d && v[offset+k-1] < v[offset+k+1]) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := v[offset+prevK]
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			x--
			y--
			keptA[x], keptB[y] = true, true
		}
		x, y = prevX, prevY
	}
	for x > 0 && y > 0 {
		x--
		y--
		keptA[x], keptB[y] = true, true
	}
	// Turn the marks into edits: runs of unkept lines between kept pairs.
	var edits []edit
	i, j := 0, 0
	for i < n || j < m {
		if i < n && j < m && keptA[i] && keptB[j] {
			i++
			j++
			continue
		}
		e := edit{ai: i, bi: j}
		for i < n && !keptA[i] {
			i++
		}
		for j < m && !keptB[j] {
			j++
		}
		e.na, e.nb = i-e.ai, j-e.bi
		edits = append(edits, e)
	}
	return edits
}
