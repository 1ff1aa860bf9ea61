package edgeflow_test

import (
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/google/go-cmp/cmp"
)

// TestNameProblem: a display name is required, at most 200 bytes, valid UTF-8 and free of control, separator and
// bidirectional formatting characters (docs/decisions.md 86).
func TestNameProblem(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, want string }{
		{"Orders", ""},
		{"Écritures comptables", ""},
		{"注文 🚚", ""},
		{strings.Repeat("a", 200), ""},
		{"", "name is required"},
		{strings.Repeat("a", 201), "name must be at most 200 characters"},
		{strings.Repeat("é", 101), "name must be at most 200 characters"},
		{"a\x00b", "name must not contain control characters (found U+0000)"},
		{"line\nbreak", "name must not contain control characters (found U+000A)"},
		{"del\x7f", "name must not contain control characters (found U+007F)"},
		{"c1\u0085", "name must not contain control characters (found U+0085)"},
		{"sep\u2028", "name must not contain control characters (found U+2028)"},
		{"para\u2029", "name must not contain control characters (found U+2029)"},
		{"invoice\u202Efdp.exe", "name must not contain control characters (found U+202E)"},
		{"iso\u2066late", "name must not contain control characters (found U+2066)"},
		{"mark\u200F", "name must not contain control characters (found U+200F)"},
		{"arabic\u061C", "name must not contain control characters (found U+061C)"},
		{"bad\xffutf8", "name must be valid UTF-8"},
		{"\uFFFD is a real character", ""},
	}
	for _, tc := range tests {
		if got := edgeflow.NameProblem(tc.name); got != tc.want {
			t.Errorf("NameProblem(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestOptionalNameRules: an optional name (a user's, a connection's) may be empty; its length and characters are
// checked apart, each with the field's name in the message.
func TestOptionalNameRules(t *testing.T) {
	t.Parallel()
	if got := edgeflow.NameLengthProblem("organizationName", ""); got != "" {
		t.Errorf("NameLengthProblem of an empty name = %q", got)
	}
	if got := edgeflow.NameLengthProblem("organizationName", strings.Repeat("x", 201)); got != "organizationName must be at most 200 characters" {
		t.Errorf("NameLengthProblem of 201 bytes = %q", got)
	}
	if got := edgeflow.NameCharProblem(""); got != "" {
		t.Errorf("NameCharProblem of an empty name = %q", got)
	}
}

func TestDescriptionProblem(t *testing.T) {
	t.Parallel()
	tests := []struct{ description, want string }{
		{"", ""},
		{"Order fulfilment\nwith two lines", ""},
		{strings.Repeat("d", 2000), ""},
		{strings.Repeat("d", 2001), "description must be at most 2000 characters"},
	}
	for _, tc := range tests {
		if got := edgeflow.DescriptionProblem(tc.description); got != tc.want {
			t.Errorf("DescriptionProblem(%d bytes) = %q, want %q", len(tc.description), got, tc.want)
		}
	}
}

func TestSlugProblem(t *testing.T) {
	t.Parallel()
	const bad = "slug must be 1-63 lowercase letters, digits and inner dashes"
	tests := []struct{ slug, want string }{
		{"a", ""},
		{"my-project-2", ""},
		{strings.Repeat("a", 63), ""},
		{"", bad},
		{strings.Repeat("a", 64), bad},
		{"-lead", bad},
		{"trail-", bad},
		{"Upper", bad},
		{"under_score", bad},
		{"sp ace", bad},
	}
	for _, tc := range tests {
		if got := edgeflow.SlugProblem(tc.slug); got != tc.want {
			t.Errorf("SlugProblem(%q) = %q, want %q", tc.slug, got, tc.want)
		}
	}
}

// TestSlugify: a slug made from a name keeps its letters and digits, joins the rest with single dashes, stops at
// the limit without a trailing dash, and passes SlugProblem.
func TestSlugify(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		max  int
		want string
	}{
		{"My Project", 63, "my-project"},
		{"  Orders -- 2026!  ", 63, "orders-2026"},
		{"Écritures", 63, "critures"},
		{"!!!", 63, "project"},
		{"", 63, "project"},
		{strings.Repeat("ab ", 40), 63, strings.TrimSuffix(strings.Repeat("ab-", 21), "-")},
		{"abcdef ghij", 7, "abcdef"},
		{"Acme Corp", 40, "acme-corp"},
	}
	for _, tc := range tests {
		got := edgeflow.Slugify(tc.name, tc.max)
		if got != tc.want {
			t.Errorf("Slugify(%q, %d) = %q, want %q", tc.name, tc.max, got, tc.want)
		}
		if len(got) > tc.max || edgeflow.SlugProblem(got) != "" {
			t.Errorf("Slugify(%q, %d) = %q: not a valid slug within the limit", tc.name, tc.max, got)
		}
	}
}

func TestEnvVarNameProblem(t *testing.T) {
	t.Parallel()
	const bad = "name must match ^[A-Z][A-Z0-9_]*$ (at most 128 characters)"
	tests := []struct{ name, want string }{
		{"API_KEY", ""},
		{"A", ""},
		{"V2_URL", ""},
		{"A" + strings.Repeat("B", 127), ""},
		{"A" + strings.Repeat("B", 128), bad},
		{"", bad},
		{"api_key", bad},
		{"_KEY", bad},
		{"2FA", bad},
		{"KEY-NAME", bad},
		{"KEY\n", bad},
	}
	for _, tc := range tests {
		if got := edgeflow.EnvVarNameProblem(tc.name); got != tc.want {
			t.Errorf("EnvVarNameProblem(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestEmailProblem(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", 64) + "@" + strings.Repeat("b", 185) + ".com"
	tests := []struct{ email, want string }{
		{"ada@example.com", ""},
		{"ada+ci@sub.example.com", ""},
		{long, ""},
		{"", "email is required"},
		{"not-an-email", "email is not a valid address"},
		{"Bob <bob@example.com>", "email is not a valid address"},
		{"bob@", "email is not a valid address"},
		{"@example.com", "email is not a valid address"},
		{"bob@example.com extra", "email is not a valid address"},
		{long + "x", "email is not a valid address"},
	}
	for _, tc := range tests {
		if got := edgeflow.EmailProblem(tc.email); got != tc.want {
			t.Errorf("EmailProblem(%q) = %q, want %q", tc.email, got, tc.want)
		}
		if valid := edgeflow.ValidEmail(tc.email); valid != (tc.want == "") {
			t.Errorf("ValidEmail(%q) = %v", tc.email, valid)
		}
	}
}

func TestParseScopes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      []string
		want    []edgeflow.Scope
		problem string
	}{
		{[]string{"read"}, []edgeflow.Scope{edgeflow.ScopeRead}, ""},
		{[]string{"deploy", "read", "write"}, []edgeflow.Scope{edgeflow.ScopeDeploy, edgeflow.ScopeRead, edgeflow.ScopeWrite}, ""},
		{nil, nil, `scopes are required and must include "read"`},
		{[]string{"write"}, nil, `every key needs the "read" scope`},
		{[]string{"read", "admin"}, nil, `scopes must be among "read", "write", "deploy"`},
		{[]string{"read", "read"}, nil, "duplicate scope read"},
	}
	for _, tc := range tests {
		got, problem := edgeflow.ParseScopes(tc.in)
		if problem != tc.problem || !cmp.Equal(got, tc.want) {
			t.Errorf("ParseScopes(%q) = %v, %q; want %v, %q", tc.in, got, problem, tc.want, tc.problem)
		}
	}
}
