package bundle_test

import (
	"strconv"
	"strings"
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

// TestCheckSyntaxLocatesAmongMany: the snippets that do not parse are found
// among thousands (by halving, decision 332), each error placed in its own
// snippet; past MaxLocatedErrors the first ones are reported.
func TestCheckSyntaxLocatesAmongMany(t *testing.T) {
	t.Parallel()
	many := func(n int, bad ...int) []bundle.Snippet {
		out := make([]bundle.Snippet, n)
		for i := range out {
			out[i] = bundle.Snippet{Code: "return " + strconv.Itoa(i) + ";"}
		}
		for _, i := range bad {
			out[i] = bundle.Snippet{Code: "const a = 1;\nreturn (a + ;"}
		}
		return out
	}
	located := func(errs []*bundle.SyntaxError) []int {
		var at []int
		for i, e := range errs {
			if e != nil {
				at = append(at, i)
				if e.Line != 2 || e.Column != 13 {
					t.Errorf("snippet %d: error at %d:%d, want 2:13", i, e.Line, e.Column)
				}
			}
		}
		return at
	}
	bad := []int{0, 1, 777, 2048, 4999}
	if diff := cmp.Diff(bad, located(bundle.CheckSyntax("org_many", many(5000, bad...)))); diff != "" {
		t.Errorf("located (-want +got):\n%s", diff)
	}
	var all []int
	for i := range 40 {
		all = append(all, 100*i+3)
	}
	if diff := cmp.Diff(all[:bundle.MaxLocatedErrors], located(bundle.CheckSyntax("org_many", many(4000, all...)))); diff != "" {
		t.Errorf("past the limit (-want +got):\n%s", diff)
	}
}

// TestCheckSyntaxWrapperNames: code that uses the wrapper functions' names,
// however many underscores lead them, neither collides with them nor makes
// the check slow.
func TestCheckSyntaxWrapperNames(t *testing.T) {
	t.Parallel()
	name := strings.Repeat("_", 100000) + "edgeflow_check_0"
	snippets := []bundle.Snippet{
		{Code: "const " + name + " = 1;\nreturn " + name + ";"},
		{Code: "const __edgeflow_check_1 = 2; return __edgeflow_check_1;"},
	}
	if errs := bundle.CheckSyntax("org_names", snippets); errs != nil {
		t.Fatalf("valid snippets: %+v", errs)
	}
	snippets = append(snippets, bundle.Snippet{Code: "return (;"})
	if errs := bundle.CheckSyntax("org_names", snippets); len(errs) != 3 || errs[0] != nil || errs[1] != nil || errs[2] == nil {
		t.Fatalf("errors = %+v", errs)
	}
}
