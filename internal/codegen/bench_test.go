package codegen_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/edgeflow/edgeflow/internal/bundle"
	"github.com/edgeflow/edgeflow/internal/codegen"
	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/nodes"
	"github.com/edgeflow/edgeflow/internal/testenv"
)

// benchDir holds the benchmark IRs (testdata/bench/ir in the repository).
var benchDir = testenv.BenchIRDir()

func benchInputs(tb testing.TB) []string {
	tb.Helper()
	paths, err := filepath.Glob(filepath.Join(benchDir, "*.json"))
	if err != nil || len(paths) == 0 {
		tb.Fatalf("no benchmark IRs in %s", benchDir)
	}
	return paths
}

// compileAll runs the three stages on raw.
func compileAll(tb testing.TB, raw []byte, id string) (*codegen.Output, *bundle.Output) {
	tb.Helper()
	a, problems := ir.Validate(raw, ir.Options{Nodes: nodes.BuiltinCatalog()})
	if len(problems) > 0 {
		tb.Fatalf("%s: %d validation problems, first: %+v", id, len(problems), problems[0])
	}
	out, err := codegen.Generate(a, codegen.Options{WorkflowID: id, Version: 1})
	if err != nil {
		tb.Fatalf("%s: %v", id, err)
	}
	b, err := bundle.Bundle(context.Background(), bundle.Input{Files: out.Files, Entry: out.MainModule, NoCache: true})
	if err != nil {
		tb.Fatalf("%s: %v", id, err)
	}
	return out, b
}

// TestBenchIRsCompile checks that every benchmark IR validates, compiles and
// bundles, as TypeScript and as JavaScript.
func TestBenchIRsCompile(t *testing.T) {
	t.Parallel()
	for _, p := range benchInputs(t) {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(p), ".json")
		out, b := compileAll(t, raw, "wf_"+name)
		if len(out.Files[codegen.MainModule]) == 0 || len(b.Code) == 0 {
			t.Errorf("%s: empty output", name)
		}
		// The deploy path: JavaScript, with only the user's code transpiled.
		a, _ := ir.Validate(raw, ir.Options{Nodes: nodes.BuiltinCatalog()})
		js, err := codegen.Generate(a, codegen.Options{WorkflowID: "wf_" + name, Version: 1, JavaScript: true})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		jb, err := bundle.Bundle(context.Background(), bundle.Input{Files: js.Files, Entry: js.MainModule, Regions: js.Regions, NoCache: true})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(jb.Code) == 0 {
			t.Errorf("%s: empty JavaScript bundle", name)
		}
	}
}

// BenchmarkCompile measures parse + full validation, code generation and
// bundling of the shared benchmark IRs, each stage alone and all together.
func BenchmarkCompile(b *testing.B) {
	for _, name := range []string{"linear-1000", "linear-5000", "mixed-100", "mixed-1000", "mixed-5000"} {
		raw := testenv.BenchIR(b, name)
		catalog := nodes.BuiltinCatalog()
		// As in the service, generation reuses the graph validation built.
		a, graph, problems := ir.ValidateGraph(raw, ir.Options{Nodes: catalog})
		if len(problems) > 0 {
			b.Fatalf("%s: %+v", name, problems[0])
		}
		opts := codegen.Options{WorkflowID: "wf_" + name, Version: 1, Graph: graph}
		out, err := codegen.Generate(a, opts)
		if err != nil {
			b.Fatal(err)
		}
		jsOpts := opts
		jsOpts.JavaScript = true
		jsOut, err := codegen.Generate(a, jsOpts)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name+"/validate", func(b *testing.B) {
			defer reportCPU(b)()
			for b.Loop() {
				if _, ps := ir.Validate(raw, ir.Options{Nodes: catalog}); len(ps) > 0 {
					b.Fatal(ps[0])
				}
			}
		})
		b.Run(name+"/generate", func(b *testing.B) {
			defer reportCPU(b)()
			for b.Loop() {
				if _, err := codegen.Generate(a, opts); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/bundle", func(b *testing.B) {
			defer reportCPU(b)()
			for b.Loop() {
				if _, err := bundle.Bundle(context.Background(), bundle.Input{Files: out.Files, Entry: out.MainModule, NoCache: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/bundle-cached", func(b *testing.B) {
			defer reportCPU(b)()
			for b.Loop() {
				if _, err := bundle.Bundle(context.Background(), bundle.Input{Files: out.Files, Entry: out.MainModule}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/generate-js", func(b *testing.B) {
			defer reportCPU(b)()
			for b.Loop() {
				if _, err := codegen.Generate(a, jsOpts); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/bundle-js", func(b *testing.B) {
			defer reportCPU(b)()
			for b.Loop() {
				if _, err := bundle.Bundle(context.Background(), bundle.Input{Files: jsOut.Files, Entry: jsOut.MainModule, Regions: jsOut.Regions, NoCache: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/total-js", func(b *testing.B) {
			defer reportCPU(b)()
			for b.Loop() {
				a, g, ps := ir.ValidateGraph(raw, ir.Options{Nodes: catalog})
				if len(ps) > 0 {
					b.Fatal(ps[0])
				}
				o := jsOpts
				o.Graph = g
				out, err := codegen.Generate(a, o)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := bundle.Bundle(context.Background(), bundle.Input{Files: out.Files, Entry: out.MainModule, Regions: out.Regions, NoCache: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/total", func(b *testing.B) {
			defer reportCPU(b)()
			for b.Loop() {
				a, g, ps := ir.ValidateGraph(raw, ir.Options{Nodes: catalog})
				if len(ps) > 0 {
					b.Fatal(ps[0])
				}
				o := opts
				o.Graph = g
				out, err := codegen.Generate(a, o)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := bundle.Bundle(context.Background(), bundle.Input{Files: out.Files, Entry: out.MainModule, NoCache: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// reportCPU adds the process CPU time per operation (user + system) as the
// metric cpu-ms/op: on a shared, loaded machine wall time overstates the
// work, CPU time does not (it is higher than wall time when esbuild runs on
// several cores).
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N)/1e6, "cpu-ms/op")
		}
	}
}

func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
