package deploy

import (
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

func TestMergeLogs(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	line := func(ms int, msg string) edgeflow.LogLine {
		return edgeflow.LogLine{Timestamp: t0.Add(time.Duration(ms) * time.Millisecond), Level: "log", Message: msg}
	}
	msgs := func(l edgeflow.RunLogs) string {
		var out []string
		for _, x := range l.Lines {
			out = append(out, x.Message)
		}
		return strings.Join(out, ",")
	}
	kept := edgeflow.RunLogs{Lines: []edgeflow.LogLine{line(1, "a"), line(2, "b")}}
	// What the edge has again is not added twice; new lines are, in time order;
	// a line written twice at the same moment counts twice.
	got := mergeLogs(kept, []edgeflow.LogLine{line(1, "a"), line(2, "b"), line(3, "c"), line(3, "c"), line(0, "early")})
	if msgs(got) != "early,a,b,c,c" || got.Dropped != 0 {
		t.Fatalf("merged = %q dropped %d", msgs(got), got.Dropped)
	}
	// An edge that lost its ring (restart) takes nothing away.
	if got := mergeLogs(kept, nil); msgs(got) != "a,b" {
		t.Fatalf("merged with nothing = %q", msgs(got))
	}
	// Over the line limit the oldest go, counted; they do not come back.
	var many []edgeflow.LogLine
	for i := 0; i < edgeflow.MaxRunLogLines+5; i++ {
		many = append(many, line(10+i, "m"))
	}
	capped := mergeLogs(edgeflow.RunLogs{}, many)
	if len(capped.Lines) != edgeflow.MaxRunLogLines || capped.Dropped != 5 {
		t.Fatalf("capped to %d lines, dropped %d", len(capped.Lines), capped.Dropped)
	}
	again := mergeLogs(capped, many)
	if len(again.Lines) != edgeflow.MaxRunLogLines || again.Dropped != 5 {
		t.Fatalf("merged again: %d lines, dropped %d", len(again.Lines), again.Dropped)
	}
	// Over the byte limit too.
	big := strings.Repeat("x", 100<<10)
	bytesCapped := mergeLogs(edgeflow.RunLogs{}, []edgeflow.LogLine{line(1, big), line(2, big), line(3, big)})
	if len(bytesCapped.Lines) != 2 || bytesCapped.Dropped != 1 {
		t.Fatalf("byte cap: %d lines, dropped %d", len(bytesCapped.Lines), bytesCapped.Dropped)
	}
}
