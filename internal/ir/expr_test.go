package ir_test

import (
	"errors"
	"testing"

	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/google/go-cmp/cmp"
)

func TestParseExpressions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want []ir.Expression
	}{
		{"none", "plain text { not } an {expression}", nil},
		{"node root only", "{{fetch}}", []ir.Expression{{Start: 0, End: 9, Raw: "{{fetch}}", Root: "fetch"}}},
		{"fields and indexes", "x {{fetch_user.body.items[0].id}} y", []ir.Expression{{
			Start: 2, End: 33, Raw: "{{fetch_user.body.items[0].id}}", Root: "fetch_user",
			Path: []ir.PathSegment{{Field: "body"}, {Field: "items"}, {Index: 0, IsIndex: true}, {Field: "id"}},
		}}},
		{"blanks inside braces", "{{ env.API_KEY }}", []ir.Expression{{
			Start: 0, End: 17, Raw: "{{ env.API_KEY }}", Root: "env", Path: []ir.PathSegment{{Field: "API_KEY"}},
		}}},
		{"several", "{{a}}-{{event.payload[12]}}", []ir.Expression{
			{Start: 0, End: 5, Raw: "{{a}}", Root: "a"},
			{Start: 6, End: 27, Raw: "{{event.payload[12]}}", Root: "event", Path: []ir.PathSegment{{Field: "payload"}, {Index: 12, IsIndex: true}}},
		}},
		{"dashes in ids", "{{u-1.content-type}}", []ir.Expression{{
			Start: 0, End: 20, Raw: "{{u-1.content-type}}", Root: "u-1", Path: []ir.PathSegment{{Field: "content-type"}},
		}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := ir.ParseExpressions(tt.in)
			if err != nil {
				t.Fatalf("ParseExpressions(%q): %v", tt.in, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseExpressions(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestParseExpressionsErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in     string
		offset int
		found  int
	}{
		{"{{a", 0, 0},
		{"ok {{a}} then {{b.c", 14, 1},
		{"{{ {{a}} }}", 0, 0},
		{"{{}}", 0, 0},
		{"{{   }}", 0, 0},
		{"{{.a}}", 0, 0},
		{"{{a.}}", 0, 0},
		{"{{a[x]}}", 0, 0},
		{"{{a[-1]}}", 0, 0},
		{"{{a[1}}", 0, 0},
		{"{{a b}}", 0, 0},
		{"{{-a}}", 0, 0},
		{"{{a[99999999999999999999]}}", 0, 0},
		{"{{a()}}", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got, err := ir.ParseExpressions(tt.in)
			var ee *ir.ExpressionError
			if !errors.As(err, &ee) {
				t.Fatalf("ParseExpressions(%q) error = %v, want an *ExpressionError", tt.in, err)
			}
			if ee.Offset != tt.offset || len(got) != tt.found {
				t.Errorf("ParseExpressions(%q): offset %d with %d found, want %d with %d", tt.in, ee.Offset, len(got), tt.offset, tt.found)
			}
		})
	}
}
