package codegen_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/bundle"
	"github.com/edgeflow/edgeflow/internal/codegen"
)

// TestJavaScript compiles every fixture with Options.JavaScript and checks
// the output: deterministic, the same names and bindings as the TypeScript
// output, no TypeScript outside the regions, and a bundle node --check
// accepts. (TestBehaviour runs the JavaScript bundles on workerd.)
func TestJavaScript(t *testing.T) {
	t.Parallel()
	_, errNode := exec.LookPath("node")
	dir := t.TempDir()
	for _, name := range fixtureNames(t) {
		t.Run(name, func(t *testing.T) {
			f := loadFixture(t, name)
			ts, err := codegen.Generate(f.ir, f.opts)
			if err != nil {
				t.Fatal(err)
			}
			opts := f.opts
			opts.JavaScript = true
			out, err := codegen.Generate(f.ir, opts)
			if err != nil {
				t.Fatal(err)
			}
			again, err := codegen.Generate(f.ir, opts)
			if err != nil {
				t.Fatal(err)
			}
			if out.Files[codegen.MainModuleJS] != again.Files[codegen.MainModuleJS] {
				t.Error("two compiles differ")
			}
			if out.MainModule != codegen.MainModuleJS || out.Regions == nil {
				t.Fatalf("MainModule %q, Regions %v: want index.js and non-nil regions", out.MainModule, out.Regions)
			}
			if _, ok := out.Files[codegen.MainModule]; ok {
				t.Error("JavaScript output also has index.ts")
			}
			if out.ScriptName != ts.ScriptName || out.ClassName != ts.ClassName || len(out.Bindings) != len(ts.Bindings) || len(out.Files) != len(ts.Files) {
				t.Errorf("names, bindings or files differ from the TypeScript output")
			}
			src := out.Files[codegen.MainModuleJS]
			// Outside the regions there is no TypeScript.
			var outside strings.Builder
			pos := 0
			for _, r := range out.Regions {
				outside.WriteString(src[pos:r.Start])
				pos = r.End
			}
			outside.WriteString(src[pos:])
			for _, ts := range []string{": any", "interface Env", "satisfies", "import type", "<Env, Params>", ": Request", "as WorkflowSleepDuration", "\x01", "\x02"} {
				if strings.Contains(outside.String(), ts) {
					t.Errorf("JavaScript output has %q outside the regions", ts)
				}
			}
			if len(out.Dependencies) > 0 {
				t.Skip("bundling needs npm dependencies")
			}
			b, err := bundle.Bundle(context.Background(), bundle.Input{Files: out.Files, Entry: out.MainModule, Regions: out.Regions, NoCache: true})
			if err != nil {
				t.Fatal(err)
			}
			if errNode != nil {
				return
			}
			p := filepath.Join(dir, name+".mjs")
			if err := os.WriteFile(p, b.Code, 0o644); err != nil {
				t.Fatal(err)
			}
			if msg, err := exec.Command("node", "--check", p).CombinedOutput(); err != nil {
				t.Errorf("node --check: %v\n%s", err, msg)
			}
		})
	}
}

// TestJavaScriptRefusesMarkers checks that code holding the characters the
// generator marks regions with is reported, not miscompiled.
func TestJavaScriptRefusesMarkers(t *testing.T) {
	t.Parallel()
	f := loadFixture(t, "step_basic")
	f.opts.JavaScript = true
	f.opts.TriggerCode = "return new Response(\"\x01\");"
	_, err := codegen.Generate(f.ir, f.opts)
	if err == nil || !strings.Contains(err.Error(), "control character") {
		t.Fatalf("err = %v, want a control character error", err)
	}
}
