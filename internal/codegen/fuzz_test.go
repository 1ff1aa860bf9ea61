package codegen_test

import (
	"context"
	"testing"

	"github.com/edgeflow/edgeflow/internal/bundle"
	"github.com/edgeflow/edgeflow/internal/codegen"
	"github.com/edgeflow/edgeflow/internal/ir"
)

// FuzzStringFields puts arbitrary text into string and JSON fields and node
// names: whatever Generate accepts must bundle (be valid JavaScript once the
// types are stripped), so no text can break out of its string literal; the
// same holds for the JavaScript output.
func FuzzStringFields(f *testing.F) {
	for _, s := range []string{
		"plain", "a`b${c}\\d", `quote " and ' and \`, "line\nbreak\r\n\ttab", "\u2028\u2029", "{{env.API_KEY}}",
		"x {{first.a[0].b}} y", "{{first}}", "}}{{", "</script>", "\x00\x01", "${{{first.a}}}", `{"k": {{first}}, "s": "{{first.a}}"}`,
	} {
		f.Add(s, s, s)
	}
	f.Fuzz(func(t *testing.T, url, name, body string) {
		node := func(id, typ, name string, data map[string]any) ir.Node {
			return ir.Node{ID: id, Type: typ, Name: name, Version: "1.0.0", Provider: "cloudflare", Data: data}
		}
		a := &ir.ArtifactIR{
			Metadata: ir.Metadata{Name: name},
			Nodes: []ir.Node{
				node("first", "step", name, map[string]any{"code": "return { a: [{ b: 1 }] };"}),
				node("call", "http_request", name+"2", map[string]any{"method": "POST", "url": url, "body": body, "headers": body}),
				node("nap", "sleep", name+"3", map[string]any{"duration": url}),
				node("wait", "wait_for_event", url, map[string]any{"eventType": url}),
			},
			Edges:       []ir.Edge{{ID: "e1", Source: "first", Target: "call"}, {ID: "e2", Source: "call", Target: "nap"}, {ID: "e3", Source: "nap", Target: "wait"}},
			EntryNodeID: "first",
		}
		out, err := codegen.Generate(a, codegen.Options{WorkflowID: "wf_fuzz", DisplayName: name})
		if err != nil {
			return
		}
		if _, err := bundle.Bundle(context.Background(), bundle.Input{Files: out.Files, Entry: out.MainModule, NoCache: true}); err != nil {
			t.Fatalf("generated code does not parse: %v\n%s", err, out.Files[codegen.MainModule])
		}
		// The JavaScript output; Minify makes esbuild parse the whole
		// module, which the deploy path never does.
		js, err := codegen.Generate(a, codegen.Options{WorkflowID: "wf_fuzz", DisplayName: name, JavaScript: true})
		if err != nil {
			t.Fatalf("JavaScript output refused what the TypeScript output accepted: %v", err)
		}
		if _, err := bundle.Bundle(context.Background(), bundle.Input{Files: js.Files, Entry: js.MainModule, Regions: js.Regions, Minify: true, NoCache: true}); err != nil {
			t.Fatalf("generated JavaScript does not parse: %v\n%s", err, js.Files[codegen.MainModuleJS])
		}
	})
}
