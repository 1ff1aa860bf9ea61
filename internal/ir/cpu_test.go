package ir_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/nodes"
)

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestCPUPerValidation prints the CPU time per validation of the benchmark
// IRs (a figure that holds better on a loaded machine than wall time). Run with
// EDGEFLOW_IR_CPU=1 -v; it asserts nothing.
func TestCPUPerValidation(t *testing.T) {
	if os.Getenv("EDGEFLOW_IR_CPU") == "" {
		t.Skip("set EDGEFLOW_IR_CPU=1 to measure")
	}
	opts := ir.Options{Nodes: nodes.BuiltinCatalog()}
	inputs := map[string][]byte{"alltypes-1000": mixedIR(1000), "alltypes-10000": mixedIR(10000), "deep-32": deepIR(ir.DefaultMaxNesting), "wide-5000": wideIR(5000)}
	for _, name := range []string{"mixed-1000", "mixed-5000", "linear-5000"} {
		raw, err := os.ReadFile(filepath.Join(benchDir, name+".json"))
		if err == nil {
			inputs[name] = raw
		}
	}
	for _, name := range []string{"mixed-1000", "mixed-5000", "linear-5000", "alltypes-1000", "alltypes-10000", "deep-32", "wide-5000"} {
		raw, ok := inputs[name]
		if !ok {
			continue
		}
		// The least CPU time of 8 batches of 10 validations: the figure least
		// disturbed by other processes.
		ir.Validate(raw, opts)
		best := time.Duration(1 << 62)
		for range 8 {
			start := cpuTime()
			for range 10 {
				ir.Validate(raw, opts)
			}
			best = min(best, (cpuTime()-start)/10)
		}
		t.Logf("%-15s %8.2f ms CPU per validation (best batch)", name, float64(best)/1e6)
	}
}
