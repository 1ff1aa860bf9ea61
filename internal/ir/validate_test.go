package ir_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/nodes"
	"github.com/google/go-cmp/cmp"
)

// problemKey is what a fixture asserts of a problem: rule, path and node id.
type problemKey [3]string

func keys(ps []ir.Problem) []problemKey {
	out := make([]problemKey, 0, len(ps))
	for _, p := range ps {
		out = append(out, problemKey{p.Rule, p.Path, p.NodeID})
	}
	slices.SortFunc(out, func(a, b problemKey) int { return strings.Compare(strings.Join(a[:], "|"), strings.Join(b[:], "|")) })
	return out
}

// TestValidateCases runs every fixture of testdata/cases (written by
// testdata/make_cases.py): valid IRs give no problem, invalid ones exactly
// the listed problems.
func TestValidateCases(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("testdata/cases/*.ir.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".ir.json")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			wantRaw, err := os.ReadFile(strings.TrimSuffix(f, ".ir.json") + ".want.json")
			if err != nil {
				t.Fatal(err)
			}
			var want []problemKey
			if err := json.Unmarshal(wantRaw, &want); err != nil {
				t.Fatal(err)
			}
			slices.SortFunc(want, func(a, b problemKey) int { return strings.Compare(strings.Join(a[:], "|"), strings.Join(b[:], "|")) })
			if want == nil {
				want = []problemKey{}
			}
			_, problems := ir.Validate(raw, ir.Options{Nodes: nodes.BuiltinCatalog()})
			if diff := cmp.Diff(want, keys(problems)); diff != "" {
				t.Errorf("problems (-want +got):\n%s\nall problems:", diff)
				for _, p := range problems {
					t.Logf("  %+v", p)
				}
			}
			for _, p := range problems {
				if p.Message == "" {
					t.Errorf("problem without a message: %+v", p)
				}
			}
		})
	}
}

func TestValidateReturnsIR(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("testdata/cases/valid-workflow.ir.json")
	if err != nil {
		t.Fatal(err)
	}
	a, problems := ir.Validate(raw, ir.Options{Nodes: nodes.BuiltinCatalog()})
	if len(problems) > 0 || a == nil {
		t.Fatalf("Validate: %v, %+v", a, problems)
	}
	if a.Kind != ir.KindWorkflow || len(a.Nodes) != 16 || len(a.Edges) != 16 || a.Trigger.Expression != "*/5 * * * *" {
		t.Errorf("IR read wrongly: kind %q, %d nodes, %d edges, trigger %+v", a.Kind, len(a.Nodes), len(a.Edges), a.Trigger)
	}
	risky := a.Nodes[13]
	want := &ir.StepConfig{
		Retries: &ir.RetryConfig{Limit: 2, Delay: ir.DurationText("5 seconds"), Backoff: "exponential"},
		Timeout: ptr(ir.DurationSeconds(30)),
	}
	if diff := cmp.Diff(want, risky.Config); diff != "" {
		t.Errorf("config (-want +got):\n%s", diff)
	}
	if got := a.Nodes[0].Data["code"]; got != "return { items: [1, 2] };" {
		t.Errorf("data read wrongly: %v", got)
	}
	// ValidateIR agrees on the decoded IR.
	if ps := ir.ValidateIR(a, ir.Options{Nodes: nodes.BuiltinCatalog()}); len(ps) > 0 {
		t.Errorf("ValidateIR: %+v", ps)
	}
}

func ptr[T any](v T) *T { return &v }

func TestValidateOptions(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("testdata/cases/valid-workflow.ir.json")
	if err != nil {
		t.Fatal(err)
	}
	// 16 nodes of which 11 run as steps (step, http_request, sleep).
	_, ps := ir.Validate(raw, ir.Options{Nodes: nodes.BuiltinCatalog(), MaxSteps: 10})
	if diff := cmp.Diff([]problemKey{{ir.RuleLimits, "/nodes", ""}}, keys(ps)); diff != "" {
		t.Errorf("MaxSteps 10 (-want +got):\n%s", diff)
	}
	if _, ps := ir.Validate(raw, ir.Options{Nodes: nodes.BuiltinCatalog(), MaxSteps: 11}); len(ps) > 0 {
		t.Errorf("MaxSteps 11: %+v", ps)
	}
	// MaxProblems caps the list and says so.
	b := newBuilder()
	for i := range 50 {
		b.node("n"+string(rune('a'+i%26))+strings.Repeat("x", i/26), "nope", nil)
	}
	_, ps = ir.Validate(b.json(), ir.Options{Nodes: nodes.BuiltinCatalog(), MaxProblems: 5})
	if len(ps) != 6 || ps[5].Rule != ir.RuleTooMany {
		t.Errorf("MaxProblems 5: got %d problems, last %+v", len(ps), ps[len(ps)-1])
	}
	// Without a catalog, types are not checked but structure is.
	_, ps = ir.Validate(raw, ir.Options{})
	if len(ps) > 0 {
		t.Errorf("no catalog: %+v", ps)
	}
}

func TestValidateDeepAndWide(t *testing.T) {
	t.Parallel()
	deepest := deepIR(ir.DefaultMaxNesting)
	for name, raw := range map[string][]byte{"deepest": deepest, "wide-5000": wideIR(5000), "all-types-2000": mixedIR(2000)} {
		if _, ps := ir.Validate(raw, ir.Options{Nodes: nodes.BuiltinCatalog()}); len(ps) > 0 {
			t.Errorf("%s: %d problems, first %+v", name, len(ps), ps[0])
		}
	}
	// Nesting beyond the JSON depth limit is an error, not a crash.
	deep := strings.Repeat(`{"a":`, 100000) + "1" + strings.Repeat("}", 100000)
	if _, ps := ir.Validate([]byte(deep), ir.Options{}); len(ps) != 1 || ps[0].Rule != ir.RuleJSON {
		t.Errorf("deep JSON: %+v", ps)
	}
}

func TestSchemaJSON(t *testing.T) {
	t.Parallel()
	var doc map[string]any
	if err := json.Unmarshal(ir.SchemaJSON(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc["$schema"] != "https://json-schema.org/draft/2020-12/schema" || doc["$id"] != ir.SchemaURL {
		t.Errorf("schema header: %v %v", doc["$schema"], doc["$id"])
	}
}
