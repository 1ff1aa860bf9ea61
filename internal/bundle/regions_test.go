package bundle_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/bundle"
	"github.com/google/go-cmp/cmp"
)

// module builds a JavaScript entry from parts: plain strings are
// JavaScript, regionText parts become regions.
type regionText struct {
	text string
	expr bool
}

func module(parts ...any) (string, []bundle.Region) {
	var b strings.Builder
	regions := []bundle.Region{}
	for _, p := range parts {
		switch v := p.(type) {
		case string:
			b.WriteString(v)
		case regionText:
			start := b.Len()
			b.WriteString(v.text)
			regions = append(regions, bundle.Region{Start: start, End: b.Len(), Expression: v.expr})
		}
	}
	return b.String(), regions
}

func TestBundleRegions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		parts []any
		want  string
	}{
		{
			name: "statements and expressions lose their types, the rest is kept",
			parts: []any{
				"// header\nimport { WorkflowEntrypoint } from \"cloudflare:workers\";\nexport default {\n  async fetch(request) {\n    const x = await (async () => {\n",
				regionText{text: "      const n: number = 2;\n      return n as number;\n"},
				"    })();\n    if (",
				regionText{text: "(x as number) > 1", expr: true},
				") return new Response(String(x));\n    return new Response(\"no\");\n  },\n};\n",
			},
			want: "// header\nimport { WorkflowEntrypoint } from \"cloudflare:workers\";\nexport default {\n  async fetch(request) {\n    const x = await (async () => {\n" +
				"      const n = 2;\n      return n;\n" +
				"    })();\n    if (x > 1) return new Response(String(x));\n    return new Response(\"no\");\n  },\n};\n",
		},
		{
			name: "template literal lines stay as written",
			parts: []any{
				"const f = async () => {\n",
				regionText{text: "  const s: string = `a\n  b`;\n  return s;\n"},
				"};\n",
			},
			want: "const f = async () => {\n    const s = `a\n  b`;\n    return s;\n};\n",
		},
		{
			name:  "an empty region",
			parts: []any{"const f = async () => {\n", regionText{text: ""}, "};\n"},
			want:  "const f = async () => {\n};\n",
		},
		{
			name:  "no regions: the module is the bundle",
			parts: []any{"export default { fetch() { return new Response(\"ok\"); } };\n"},
			want:  "export default { fetch() { return new Response(\"ok\"); } };\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			src, regions := module(tt.parts...)
			out, err := bundle.Bundle(context.Background(), bundle.Input{Files: map[string]string{"index.js": src}, Entry: "index.js", Regions: regions, NoCache: true})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(out.Code)); diff != "" {
				t.Errorf("bundle (-want +got):\n%s", diff)
			}
		})
	}
}

// TestBundleRegionsStrict checks that regions are transpiled as parts of an
// ES module (strict mode): a function declared in one stays in its block,
// and regions declaring the same names do not clash.
func TestBundleRegionsStrict(t *testing.T) {
	t.Parallel()
	src, regions := module(
		"export const f = async () => {\n",
		regionText{text: "  function g(): number { return 1; }\n  return g();\n"},
		"};\nexport const h = async () => {\n",
		regionText{text: "  var x: number = 1;\n  return x;\n"},
		"};\nexport const k = async () => {\n",
		regionText{text: "  const x: string = \"a\";\n  return x;\n"},
		"};\n")
	out, err := bundle.Bundle(context.Background(), bundle.Input{Files: map[string]string{"index.js": src}, Entry: "index.js", Regions: regions, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	code := string(out.Code)
	for _, absent := range []string{"var g", ": number", ": string"} {
		if strings.Contains(code, absent) {
			t.Errorf("bundle has %q:\n%s", absent, code)
		}
	}
	for _, present := range []string{"return g();", "var x = 1;"} {
		if !strings.Contains(code, present) {
			t.Errorf("bundle lacks %q:\n%s", present, code)
		}
	}
}

func TestBundleRegionsWithTemplates(t *testing.T) {
	t.Parallel()
	src, regions := module(
		"import slack_1_0_0 from \"./nodes/slack@1.0.0\";\nexport default { async fetch() {\n",
		regionText{text: "const n: number = await slack_1_0_0({ config: {}, env: {} });\nreturn new Response(String(n));\n"},
		"} };\n")
	files := map[string]string{
		"index.js":             src,
		"nodes/slack@1.0.0.ts": "export default async function slack(ctx: { config: object; env: object }): Promise<number> { return 7; }\n",
	}
	out, err := bundle.Bundle(context.Background(), bundle.Input{Files: files, Entry: "index.js", Regions: regions, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	code := string(out.Code)
	for _, absent := range []string{": number", "./nodes/", "Promise<"} {
		if strings.Contains(code, absent) {
			t.Errorf("bundle still has %q:\n%s", absent, code)
		}
	}
	if !strings.Contains(code, "async function slack(") {
		t.Errorf("template not inlined:\n%s", code)
	}
}

func TestBundleRegionErrors(t *testing.T) {
	t.Parallel()
	src, regions := module(
		"// line 1\nexport default {\n  async fetch() {\n",
		regionText{text: "    const a = 1;\n    const b = ;\n"},
		"  },\n};\n")
	_, err := bundle.Bundle(context.Background(), bundle.Input{Files: map[string]string{"index.js": src}, Entry: "index.js", Regions: regions, NoCache: true})
	var be *bundle.Error
	if !errors.As(err, &be) || len(be.Problems) == 0 {
		t.Fatalf("err = %v, want a *bundle.Error", err)
	}
	if p := be.Problems[0]; p.File != "index.js" || p.Line != 5 {
		t.Errorf("problem at %s:%d, want index.js:5 (%s)", p.File, p.Line, p.Message)
	}

	_, err = bundle.Bundle(context.Background(), bundle.Input{Files: map[string]string{"index.ts": "export {};"}, Entry: "index.ts", Regions: []bundle.Region{}, NoCache: true})
	if !errors.As(err, &be) || !strings.Contains(err.Error(), "JavaScript entry") {
		t.Errorf("regions with a TypeScript entry: err = %v", err)
	}
	_, err = bundle.Bundle(context.Background(), bundle.Input{Files: map[string]string{"index.js": "x"}, Entry: "index.js", Regions: []bundle.Region{{Start: 0, End: 5}}, NoCache: true})
	if !errors.As(err, &be) {
		t.Errorf("region outside the module: err = %v", err)
	}
	_, err = bundle.Bundle(context.Background(), bundle.Input{Files: map[string]string{"index.js": "import x from \"lodash\";\n"}, Entry: "index.js", Regions: []bundle.Region{}, NoCache: true})
	if !errors.As(err, &be) || !strings.Contains(err.Error(), "lodash") {
		t.Errorf("foreign import: err = %v", err)
	}
}
