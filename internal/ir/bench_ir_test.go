package ir_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/nodes"
	"github.com/edgeflow/edgeflow/internal/testenv"
)

// benchDir holds the benchmark IRs (testdata/bench/ir in the repository).
var benchDir = testenv.BenchIRDir()

func TestBenchIRsValidate(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join(benchDir, "*.json"))
	if len(files) == 0 {
		t.Fatal("no benchmark IRs at " + benchDir)
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
