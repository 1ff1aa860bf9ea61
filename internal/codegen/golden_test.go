package codegen_test

import (
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/codegen"
	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/nodes"
	"github.com/edgeflow/edgeflow/internal/nodes/registry"
	"github.com/edgeflow/edgeflow/internal/testenv"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the .golden.ts files from the current output")

// fixtureOptions is the optional <name>.options.json beside a fixture.
type fixtureOptions struct {
	EnvVars []struct {
		Name   string `json:"name"`
		Secret bool   `json:"secret"`
	} `json:"envVars"`
	Resources []struct {
		Name   string `json:"name"`
		Kind   string `json:"kind"`
		Target string `json:"target"`
	} `json:"resources"`
	TriggerCode  string            `json:"triggerCode"`
	Dependencies map[string]string `json:"dependencies"`
	Templates    []string          `json:"templates"`
	// AdmissionGate is Options.AdmissionGate.
	AdmissionGate bool `json:"admissionGate"`
}

type fixture struct {
	name    string
	raw     []byte
	ir      *ir.ArtifactIR
	opts    codegen.Options
	entries []nodes.Entry
}

// fixtureID is the workflow id every fixture compiles under.
func fixtureID(name string) string { return "wf_" + strings.ReplaceAll(name, "_", "") }

func loadFixture(t testing.TB, name string) fixture {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name+".ir.json"))
	if err != nil {
		t.Fatal(err)
	}
	var a ir.ArtifactIR
	if err := json.Unmarshal(data, &a); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	opts := codegen.Options{WorkflowID: fixtureID(name), DisplayName: a.Metadata.Name, Version: 1}
	var entries []nodes.Entry
	if data, err := os.ReadFile(filepath.Join("testdata", name+".options.json")); err == nil {
		var fo fixtureOptions
		if err := json.Unmarshal(data, &fo); err != nil {
			t.Fatalf("%s options: %v", name, err)
		}
		for _, v := range fo.EnvVars {
			opts.EnvVars = append(opts.EnvVars, codegen.EnvVar{Name: v.Name, Secret: v.Secret})
		}
		for _, r := range fo.Resources {
			opts.Resources = append(opts.Resources, codegen.Resource{Name: r.Name, Kind: r.Kind, Target: r.Target})
		}
		opts.TriggerCode = fo.TriggerCode
		opts.Dependencies = fo.Dependencies
		opts.AdmissionGate = fo.AdmissionGate
		for _, key := range fo.Templates {
			tpl, entry := loadTemplate(t, key)
			opts.Templates = append(opts.Templates, tpl)
			entries = append(entries, entry)
		}
	}
	return fixture{name: name, raw: data, ir: &a, opts: opts, entries: entries}
}

func loadTemplate(t testing.TB, key string) (codegen.NodeTemplate, nodes.Entry) {
	t.Helper()
	typ, version, _ := strings.Cut(key, "@")
	dir := filepath.Join("..", "..", "registry", "nodes", typ, version)
	def, err := os.ReadFile(filepath.Join(dir, "node.json"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := registry.ParseDefinition(def)
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(dir, "template.ts"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := registry.NewBundle(def, string(src))
	if err != nil {
		t.Fatal(err)
	}
	entry := nodes.EntryFromBundle(b)
	return codegen.NodeTemplate{Type: typ, Version: version, Source: string(src), Definition: &d}, entry
}

func fixtureNames(t testing.TB) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "*.ir.json"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range paths {
		names = append(names, strings.TrimSuffix(filepath.Base(p), ".ir.json"))
	}
	sort.Strings(names)
	if len(names) < 25 {
		t.Fatalf("only %d fixtures, want at least 25", len(names))
	}
	return names
}

// TestGolden compiles every fixture and compares index.ts with its
// .golden.ts; run with -update to rewrite them. It also checks that a second
// compile is byte-identical.
func TestGolden(t *testing.T) {
	t.Parallel()
	for _, name := range fixtureNames(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := loadFixture(t, name)
			out, err := codegen.Generate(f.ir, f.opts)
			if err != nil {
				t.Fatal(err)
			}
			again, err := codegen.Generate(f.ir, f.opts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(out, again); diff != "" {
				t.Fatalf("second compile differs (-first +second):\n%s", diff)
			}
			got := out.Files[codegen.MainModule]
			golden := filepath.Join("testdata", name+".golden.ts")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("%s differs from the golden file (-want +got):\n%s", name, diff)
			}
		})
	}
}

// nodeHarness returns the directory of the test-only Node package
// (testdata/run) with its node_modules, or skips when it is not installed
// and CI is unset.
func nodeHarness(t testing.TB) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "run"))
	if err != nil {
		t.Fatal(err)
	}
	testenv.NodeModules(t, dir, "typescript")
	return dir
}

// TestGoldenTypeCheck type-checks every fixture's generated files with
// tsc --strict --noEmit against @cloudflare/workers-types.
func TestGoldenTypeCheck(t *testing.T) {
	t.Parallel()
	harness := nodeHarness(t)
	modules := filepath.Join(harness, "node_modules")
	dir := t.TempDir()
	var files []string
	for _, name := range fixtureNames(t) {
		f := loadFixture(t, name)
		out, err := codegen.Generate(f.ir, f.opts)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for path, src := range out.Files {
			p := filepath.Join(dir, name, filepath.FromSlash(path))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		files = append(files, filepath.Join(dir, name, codegen.MainModule))
	}
	config := map[string]any{
		"compilerOptions": map[string]any{
			"strict":           true,
			"noEmit":           true,
			"target":           "ES2022",
			"module":           "ES2022",
			"moduleResolution": "Bundler",
			"lib":              []string{"ES2022"},
			"types":            []string{"workers-types"},
			"typeRoots":        []string{filepath.Join(modules, "@cloudflare")},
			"baseUrl":          dir,
			"paths":            map[string][]string{"*": {filepath.Join(modules, "*")}},
			"isolatedModules":  true,
			"skipLibCheck":     true,
		},
		"files": files,
	}
	data, err := json.Marshal(config)
	if err != nil {
		t.Fatal(err)
	}
	tsconfig := filepath.Join(dir, "tsconfig.json")
	if err := os.WriteFile(tsconfig, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", filepath.Join(modules, "typescript", "bin", "tsc"), "-p", tsconfig, "--pretty", "false")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tsc --strict found errors:\n%s", strings.ReplaceAll(string(out), dir, ""))
	}
}

// TestFixturesValid checks that every fixture is an IR the validator
// accepts: the compiler is only ever given valid IRs.
func TestFixturesValid(t *testing.T) {
	t.Parallel()
	for _, name := range fixtureNames(t) {
		f := loadFixture(t, name)
		_, problems := ir.Validate(f.raw, ir.Options{Nodes: nodes.NewCatalog(f.entries...)})
		for _, p := range problems {
			t.Errorf("%s: %s: %s [%s]", name, p.Path, p.Message, p.Rule)
		}
	}
}

// TestGenerateErrors checks the problems Generate reports itself.
func TestGenerateErrors(t *testing.T) {
	t.Parallel()
	f := loadFixture(t, "marketplace")
	tests := []struct {
		name string
		opts codegen.Options
		want string
	}{
		{"no workflow id", codegen.Options{}, "workflowId: a workflow id is required"},
		{"no template", codegen.Options{WorkflowID: "wf_1"}, "nodes[1].type (node post): no template for node type slack-message version 2.0.0"},
		{"bad resource kind", codegen.Options{WorkflowID: "wf_1", Resources: []codegen.Resource{{Name: "Q", Kind: "queue"}}, Templates: f.opts.Templates},
			`resources: resource Q: unknown kind "queue" (kv, d1, r2 or service)`},
	}
	for _, tt := range tests {
		_, err := codegen.Generate(f.ir, tt.opts)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
}
