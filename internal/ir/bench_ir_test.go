package ir_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/nodes"
)

// benchDir holds the shared benchmark IRs (../shared/bench/ir from the
// repository root).
const benchDir = "../../../shared/bench/ir"

func TestBenchIRsValidate(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join(benchDir, "*.json"))
	if len(files) == 0 {
		t.Skip("no benchmark IRs at " + benchDir)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			a, problems := ir.Validate(raw, ir.Options{Nodes: nodes.BuiltinCatalog()})
			for _, p := range problems {
				t.Errorf("%s: %+v", filepath.Base(f), p)
			}
			if a == nil {
				t.Error("no IR returned")
			}
		})
	}
}
