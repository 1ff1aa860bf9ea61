package ir_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/nodes"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

var fuzzSchema = sync.OnceValue(func() *jsonschema.Schema {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(ir.SchemaJSON()))
	if err != nil {
		panic(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(ir.SchemaURL, doc); err != nil {
		panic(err)
	}
	return c.MustCompile(ir.SchemaURL)
})

// FuzzValidate feeds arbitrary documents to Validate (seeds: every fixture
// and testdata/fuzz/FuzzValidate). It must not panic or hang, every problem
// must be well-formed, a document without problems must come back as an
// IR, and the fast reader must agree with the JSON Schema about the shape.
// FuzzValidate runs the validator on mutated IRs. Run it with a short
// minimization time, e.g.
//
//	go test -run '^$' -fuzz '^FuzzValidate$' -fuzztime 10m -fuzzminimizetime 3s ./internal/ir/
//
// With the default (60 s) the engine spends a minute minimizing each new
// interesting input of these large IRs, and its exec count stands still
// meanwhile, which looks like a hang but is not one.
func FuzzValidate(f *testing.F) {
	files, _ := filepath.Glob("testdata/cases/*.ir.json")
	for _, name := range files {
		raw, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	f.Add(mixedIR(40))
	f.Add(deepIR(12))
	f.Fuzz(checkValidate)
}

func checkValidate(t *testing.T, raw []byte) {
	// EDGEFLOW_FUZZ_WATCH=1 writes any input that takes over 3 s to
	// /tmp/fuzzhang-<pid>.json (to tell a slow input from a stalled fuzzer).
	// EDGEFLOW_FUZZ_NO_SCHEMA=1 skips the comparison with the JSON Schema.
	if os.Getenv("EDGEFLOW_FUZZ_WATCH") != "" {
		tm := time.AfterFunc(3*time.Second, func() { os.WriteFile(fmt.Sprintf("/tmp/fuzzhang-%d.json", os.Getpid()), raw, 0o644) })
		defer tm.Stop()
	}
	opts := ir.Options{Nodes: nodes.BuiltinCatalog(), MaxProblems: 200}
	{
		if len(raw) > 1<<20 {
			return
		}
		a, problems := ir.Validate(raw, opts)
		if len(problems) > opts.MaxProblems+1 {
			t.Fatalf("%d problems, more than MaxProblems", len(problems))
		}
		shapeOK := true
		for _, p := range problems {
			if p.Rule == "" || p.Message == "" || (p.Path != "" && !strings.HasPrefix(p.Path, "/")) {
				t.Fatalf("malformed problem %+v", p)
			}
			if p.Rule == ir.RuleJSON {
				return
			}
			if p.Rule == ir.RuleSchema {
				shapeOK = false
			}
		}
		if len(problems) == 0 && a == nil {
			t.Fatal("no problems and no IR")
		}
		if !shapeOK && len(problems) <= opts.MaxProblems {
			// The schema, shown only the wrong items, says what it says of
			// the whole document.
			var got []string
			for _, p := range problems {
				if p.Rule == ir.RuleSchema {
					got = append(got, p.Path+" "+p.Message)
				}
			}
			var want []string
			for _, p := range ir.FullSchemaProblems(raw) {
				want = append(want, p.Path+" "+p.Message)
			}
			slices.Sort(got)
			slices.Sort(want)
			if len(want) > 0 && !slices.Equal(got, want) {
				t.Fatalf("schema problems differ from the whole document's:\n got %q\nwant %q", got, want)
			}
		}
		if os.Getenv("EDGEFLOW_FUZZ_NO_SCHEMA") != "" {
			return
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			return // e.g. numbers the schema library reads differently
		}
		schemaOK := fuzzSchema().Validate(doc) == nil
		if shapeOK != schemaOK {
			t.Fatalf("fast reader says shape ok=%v, the JSON Schema says %v; problems %+v", shapeOK, schemaOK, problems)
		}
	}
}

// FuzzParseExpressions checks that the expression parser never panics and
// that what it returns is consistent with the input.
func FuzzParseExpressions(f *testing.F) {
	for _, s := range []string{"", "{{a}}", "x {{a.b[0].c}} y {{env.K}}", "{{", "{{a}}}}", "{{ {{a}} }}", "{{a[99999999999999999999]}}", "{{event.payload}}{{b-c.d$e}}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		exprs, err := ir.ParseExpressions(s)
		prev := 0
		for _, e := range exprs {
			if e.Start < prev || e.End > len(s) || e.Start >= e.End || s[e.Start:e.End] != e.Raw {
				t.Fatalf("bad bounds %+v in %q", e, s)
			}
			if !strings.HasPrefix(e.Raw, "{{") || !strings.HasSuffix(e.Raw, "}}") || e.Root == "" {
				t.Fatalf("bad expression %+v", e)
			}
			prev = e.End
		}
		if err == nil && strings.Contains(s[prev:], "{{") {
			t.Fatalf("missed an expression after %d in %q", prev, s)
		}
	})
}

// FuzzDurationAndCron checks the duration and cron parsers never panic.
func FuzzDurationAndCron(f *testing.F) {
	for _, s := range []string{"30 seconds", "1 day", "0.5", "2 hours", "*/5 * * * *", "0 9 * JAN-MAR MON-FRI", "1e308 years"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if d, err := ir.ParseDuration(s); err == nil && d < 0 {
			t.Fatalf("ParseDuration(%q) = %v", s, d)
		}
		ir.ParseCron(s)
	})
}
