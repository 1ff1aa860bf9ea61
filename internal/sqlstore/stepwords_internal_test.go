package sqlstore

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestStepWords: the words of step outputs in order, never a sensitive
// step's; each output and the whole bounded, cut after a whole word; a
// list that does not parse adds nothing.
func TestStepWords(t *testing.T) {
	t.Parallel()
	list := func(steps ...map[string]any) json.RawMessage {
		b, err := json.Marshal(steps)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, c := range []struct {
		name  string
		steps json.RawMessage
		want  string
	}{
		{"keys and scalars in order", list(map[string]any{"output": map[string]any{"a": "x y", "b": []any{1.5, true, nil}}}),
			"a x y b 1.5 true"},
		{"an event payload", list(map[string]any{"type": "waitForEvent", "output": map[string]any{"payload": "ok"}}), "payload ok"},
		{"escapes read as text", json.RawMessage(`[{"output":"caf\u00e9\nbar"}]`), "café\nbar"},
		{"sensitive, any form", list(
			map[string]any{"config": map[string]any{"sensitive": "output"}, "output": "s1"},
			map[string]any{"config": map[string]any{"sensitive": true}, "output": "s2"},
			map[string]any{"config": map[string]any{"sensitive": map[string]any{}}, "output": "s3"},
			map[string]any{"config": map[string]any{"sensitive": false}, "output": "shown"},
		), "shown"},
		{"a step of another shape is left out", json.RawMessage(`[{"config":"odd","output":"hidden"},7,{"output":"kept"}]`),
			"kept"},
		{"no output", list(map[string]any{"type": "sleep"}, map[string]any{"output": nil}), ""},
		{"not a list", json.RawMessage(`{"output":"x"}`), ""},
		{"broken list keeps the steps before", json.RawMessage(`[{"output":"first"},{"output":`), "first"},
		{"nothing", nil, ""},
	} {
		if got := StepWords(c.steps); got != c.want {
			t.Errorf("%s: StepWords = %q, want %q", c.name, got, c.want)
		}
	}

	// One output adds its first 2 KiB, ending at a whole word.
	long := strings.Repeat("abcdefghi ", 500) // 5,000 bytes
	got := StepWords(list(map[string]any{"output": long}, map[string]any{"output": "next"}))
	first, rest, _ := strings.Cut(got, " next")
	if len(first) > MaxStepWordsPerOutput || len(first) < MaxStepWordsPerOutput-10 || !strings.HasSuffix(first, "abcdefghi") ||
		rest != "" {
		t.Errorf("long output: %d bytes ending %q, then %q", len(first), first[max(0, len(first)-12):], rest)
	}
	// The whole adds at most 16 KiB.
	var many []map[string]any
	for range 20 {
		many = append(many, map[string]any{"output": long})
	}
	many = append(many, map[string]any{"output": "lastword"})
	got = StepWords(list(many...))
	if len(got) > MaxStepWords+1 || strings.Contains(got, "lastword") {
		t.Errorf("20 long outputs: %d bytes, lastword in it: %v", len(got), strings.Contains(got, "lastword"))
	}
	// A single word longer than the bound adds nothing rather than a part.
	if got := StepWords(list(map[string]any{"output": strings.Repeat("x", 3000)})); got != "" {
		t.Errorf("one long word: %d bytes added", len(got))
	}
	// An output over what is read adds the words before the cut.
	huge := `[{"output":{"k":"start",` + strings.Repeat(`"pad":"x",`, 2000) + `"end":"finish"}}]`
	if got := StepWords(json.RawMessage(huge)); !strings.HasPrefix(got, "k start") || strings.Contains(got, "finish") {
		t.Errorf("huge output: %q…", got[:min(20, len(got))])
	}
}
