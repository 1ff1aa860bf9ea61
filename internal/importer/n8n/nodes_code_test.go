package n8n

import "testing"

// TestSloppyGlobals: names n8n's sloppy-mode code assigns without declaring
// are declared, and only those.
func TestSloppyGlobals(t *testing.T) {
	cases := []struct{ src, want string }{
		{"let total = 0;\nfor (item of items) total += item.json.n;", "let item; // assigned without a declaration (n8n runs code in sloppy mode)\n"},
		{"x = 1\ny = x + 1\nreturn [{json: {y}}]", "let x, y; // assigned without a declaration (n8n runs code in sloppy mode)\n"},
		// Declared by the code (so a second declaration would not compile), or compared rather than assigned.
		{"for (const item of items) {}\nlet a = 1;\na = 2;", ""},
		{"const { total, count } = $json;\nif (total == 1) {}", ""},
		{"let a = 0, b;\nb = 2;", ""},
		{"function f() {}\nf = null;", ""},
		// Names the step defines, and names the caller says its wrapper defines.
		{"items = items.slice(1);\n$json = {};", ""},
	}
	for _, c := range cases {
		if got := sloppyGlobals(c.src); got != c.want {
			t.Errorf("sloppyGlobals(%q) = %q, want %q", c.src, got, c.want)
		}
	}
	if got := sloppyGlobals("item = item.next;", "item"); got != "" {
		t.Errorf("a name of the wrapper is declared: %q", got)
	}
}
