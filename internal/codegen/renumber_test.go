package codegen_test

import (
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/codegen"
)

// TestRenumber: for every fixture, as TypeScript and as JavaScript, the
// code generated for version 3 and renumbered to 12 is byte for byte the
// code generated for version 12, and its first line is HeaderLine's.
func TestRenumber(t *testing.T) {
	for _, name := range fixtureNames(t) {
		f := loadFixture(t, name)
		for _, js := range []bool{false, true} {
			opts := f.opts
			opts.JavaScript = js
			gen := func(version int) string {
				t.Helper()
				o := opts
				o.Version = version
				out, err := codegen.Generate(f.ir, o)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				return out.Files[out.MainModule]
			}
			from, want := gen(3), gen(12)
			opts.Version = 3
			got, ok := codegen.Renumber(from, f.ir, opts, 12)
			if !ok || got != want {
				t.Errorf("%s (JavaScript %t): renumbered 3 → 12 differs from generated for 12 (ok %t)", name, js, ok)
			}
			opts.Version = 12
			if line, _, _ := strings.Cut(want, "\n"); line != codegen.HeaderLine(f.ir, opts) {
				t.Errorf("%s: first line %q, HeaderLine %q", name, line, codegen.HeaderLine(f.ir, opts))
			}
		}
	}
	f := loadFixture(t, fixtureNames(t)[0])
	if _, ok := codegen.Renumber("// something else\n", f.ir, f.opts, 2); ok {
		t.Error("Renumber accepted code without the header line")
	}
}
