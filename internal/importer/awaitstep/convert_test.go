package awaitstep_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	embedded "github.com/edgeflow/edgeflow/registry"

	"github.com/edgeflow/edgeflow/internal/importer"
	"github.com/edgeflow/edgeflow/internal/importer/awaitstep"
	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/nodes"
	noderegistry "github.com/edgeflow/edgeflow/internal/nodes/registry"
)

func catalog(t testing.TB) *nodes.Catalog {
	t.Helper()
	cat, err := noderegistry.Load(embedded.FS())
	if err != nil {
		t.Fatal(err)
	}
	var entries []nodes.Entry
	for _, n := range cat.Nodes() {
		for _, v := range n.Versions {
			b, err := cat.Bundle(n.ID, v.Version)
			if err != nil {
				t.Fatal(err)
			}
			entries = append(entries, nodes.EntryFromBundle(b))
		}
	}
	return nodes.NewCatalog(entries...)
}

// convert converts an AwaitStep IR and checks that edgeflow validates the
// result.
func convert(t testing.TB, raw string, opts awaitstep.Options) (*importer.Result, *ir.ArtifactIR) {
	t.Helper()
	a, err := awaitstep.Parse([]byte(raw), "/ir")
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	res, err := awaitstep.Convert(a, opts)
	if err != nil {
		t.Fatalf("convert: %v", err)
	}
	art, _, problems := ir.ValidateGraph(res.IR, ir.Options{Nodes: catalog(t)})
	if len(problems) > 0 {
		var pretty any
		_ = json.Unmarshal(res.IR, &pretty)
		out, _ := json.MarshalIndent(pretty, "", "  ")
		t.Fatalf("the IR does not validate: %v\n%s", problems, out)
	}
	return res, art
}

// TestExamples converts every example IR of AwaitStep's repository
// (testdata/examples, sources in SOURCES.json): each validates in edgeflow
// and every node is reported.
func TestExamples(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("testdata", "examples", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sources map[string]struct{ Repo, Path, Commit string }
	raw, err := os.ReadFile(filepath.Join("testdata", "examples", "SOURCES.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &sources); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		if name == "SOURCES" {
			continue
		}
		n++
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if s := sources[name]; s.Repo == "" || len(s.Commit) != 40 {
				t.Fatalf("SOURCES.json names no source for %s", name)
			}
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			res, _ := convert(t, string(raw), awaitstep.Options{})
			var in struct {
				Nodes []struct{ ID string } `json:"nodes"`
			}
			if err := json.Unmarshal(raw, &in); err != nil {
				t.Fatal(err)
			}
			listed := map[string]int{}
			for _, c := range res.Report.Converted {
				listed[c.Node]++
			}
			for _, u := range res.Report.Unsupported {
				listed[u.Node]++
			}
			for _, n := range in.Nodes {
				if listed[n.ID] != 1 {
					t.Errorf("node %q is listed %d times in the report", n.ID, listed[n.ID])
				}
			}
		})
	}
	if n != 16 {
		t.Errorf("%d examples; the 11 web templates and 5 codegen fixtures were expected", n)
	}
}
