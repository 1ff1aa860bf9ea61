package localedge

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// TestEdgeErrorLines: an edge-error line of the edge's stderr is logged at
// ERROR with its kind, group and accounts and counted by kind; any other
// line stays at INFO, and a malformed edge-error line is an ordinary line.
func TestEdgeErrorLines(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&buf, nil))
	var counts errorCounts
	cantopen := `2026-12-06T09:00:00.000Z edge: edge-error {"kind":"sqlite_cantopen","group":"g1","accounts":["b2","a1"],"message":"SQLite failed; unable to open database file: SQLITE_CANTOPEN"}`
	logEdgeLine(logger, &counts, cantopen)
	logEdgeLine(logger, &counts, cantopen)
	logEdgeLine(logger, &counts, `2026-12-06T09:00:00.000Z edge: listening on http://127.0.0.1:1`)
	logEdgeLine(logger, &counts, `2026-12-06T09:00:00.000Z edge: edge-error {not json`)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 4 {
		t.Fatalf("logged %d lines, want 4:\n%s", len(lines), buf.String())
	}
	for _, want := range []string{"level=ERROR", "kind=sqlite_cantopen", "group=g1", "account=a1,b2", "SQLITE_CANTOPEN"} {
		if !strings.Contains(lines[0], want) {
			t.Errorf("line %q lacks %q", lines[0], want)
		}
	}
	for _, l := range lines[2:] {
		if !strings.Contains(l, "level=INFO") {
			t.Errorf("line %q is not INFO", l)
		}
	}
	if got := counts.snapshot(); len(got) != 1 || got["sqlite_cantopen"] != 2 {
		t.Errorf("counts = %v, want sqlite_cantopen: 2", got)
	}
}
