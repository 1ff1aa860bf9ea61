package n8n_test

import (
	"encoding/json"
	"testing"

	embedded "github.com/edgeflow/edgeflow/registry"

	"github.com/edgeflow/edgeflow/internal/importer"
	"github.com/edgeflow/edgeflow/internal/importer/n8n"
	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/nodes"
	noderegistry "github.com/edgeflow/edgeflow/internal/nodes/registry"
)

// catalog is the builtins plus every node of the embedded registry, as an
// organization that installed them all sees them.
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

// convert parses and converts an n8n workflow and checks that the IR it
// answers validates.
func convert(t testing.TB, raw string, opts n8n.Options) (*importer.Result, *ir.ArtifactIR) {
	t.Helper()
	w, err := n8n.Parse([]byte(raw), "/workflow")
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	res, err := n8n.Convert(w, opts)
	if err != nil {
		t.Fatalf("convert: %v", err)
	}
	a, _, problems := ir.ValidateGraph(res.IR, ir.Options{Nodes: catalog(t)})
	if len(problems) > 0 {
		var pretty json.RawMessage
		_ = json.Unmarshal(res.IR, &pretty)
		out, _ := json.MarshalIndent(pretty, "", "  ")
		t.Fatalf("the IR does not validate: %v\n%s", problems, out)
	}
	return res, a
}
