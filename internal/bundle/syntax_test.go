package bundle_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/edgeflow/edgeflow/internal/bundle"
)

func TestCheckSyntax(t *testing.T) {
	t.Parallel()
	ok := bundle.Snippet{Code: "const x: number = 1;\nreturn { x };"}
	if errs := bundle.CheckSyntax("org_test", []bundle.Snippet{ok, {Code: "await fetch('https://example.com');"}}); errs != nil {
		t.Fatalf("valid snippets: %+v", errs)
	}
	// Known-good snippets are remembered; a bad one never is.
	for range 2 {
		if errs := bundle.CheckSyntax("org_test", []bundle.Snippet{ok, {Code: "return (;"}}); len(errs) != 2 || errs[0] != nil || errs[1] == nil {
			t.Fatalf("errors = %+v", errs)
		}
	}
	tests := []struct {
		name, code   string
		line, column int
	}{
		{"missing paren", "const a = 1;\nreturn (a + ;", 2, 13},
		{"unclosed block", "if (x) {\n  return 1;", 2, 12},
		{"unclosed string", "return 'abc;", 1, 13},
		{"after multibyte characters", "const s = 'héllo'; const = 2;", 1, 26},
		{"stray token", "return 1;\n\n  let let = 2;", 3, 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			errs := bundle.CheckSyntax("org_test", []bundle.Snippet{ok, {Code: tt.code}, ok})
			if len(errs) != 3 || errs[0] != nil || errs[2] != nil || errs[1] == nil {
				t.Fatalf("errors = %+v", errs)
			}
			got := [2]int{errs[1].Line, errs[1].Column}
			if diff := cmp.Diff([2]int{tt.line, tt.column}, got); diff != "" || errs[1].Message == "" {
				t.Errorf("%q: (-want +got line, column):\n%s message %q", tt.code, diff, errs[1].Message)
			}
		})
	}
}
