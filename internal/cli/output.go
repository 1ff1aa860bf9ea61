package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"
)

// printJSON writes v as indented JSON with a final newline.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// table writes aligned columns: a header row, then one row per item.
type table struct {
	tw    *tabwriter.Writer
	color bool
}

func newTable(w io.Writer, color bool, header ...string) *table {
	t := &table{tw: tabwriter.NewWriter(w, 0, 4, 2, ' ', 0), color: color}
	t.row(header...)
	return t
}

func (t *table) row(cells ...string) {
	for i, c := range cells {
		cells[i] = strings.NewReplacer("\t", " ", "\n", " ").Replace(c)
	}
	fmt.Fprintln(t.tw, strings.Join(cells, "\t"))
}

func (t *table) flush() error { return t.tw.Flush() }

// ANSI colours for run and step states, used only on a terminal without
// NO_COLOR. A painted cell is always the last of its row, so the escape
// codes never shift tabwriter's columns.
const (
	ansiReset  = "\x1b[0m"
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
	ansiDim    = "\x1b[90m"
)

// paint colours a state word when colours are on.
func paint(on bool, state string) string {
	if !on {
		return state
	}
	var c string
	switch state {
	case "complete", "active", "ok", "valid", "rolled_back":
		c = ansiGreen
	case "errored", "terminated", "failed", "rollback_failed":
		c = ansiRed
	case "running", "queued", "waiting", "paused", "retrying", "waitingForPause":
		c = ansiYellow
	case "replayed", "mocked", "replaced", "removed":
		c = ansiDim
	default:
		return state
	}
	return c + state + ansiReset
}

// stamp formats a time for tables: UTC, to the second.
func stamp(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02 15:04:05Z")
}

// duration formats the time between two instants, "-" when unknown.
func duration(from, to *time.Time) string {
	if from == nil || to == nil {
		return "-"
	}
	d := to.Sub(*from)
	switch {
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return d.Round(time.Second).String()
}

// shorten cuts s to n runes with an ellipsis.
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// orDash is s, or "-" when empty.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
