package codegen_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/codegen"
	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/ir/irtest"
	"github.com/edgeflow/edgeflow/internal/nodes"
)

// compileShape validates raw and generates its TypeScript, as a version
// submit does.
func compileShape(tb testing.TB, raw []byte) *codegen.Output {
	a, g, ps := ir.ValidateGraph(raw, ir.Options{Nodes: nodes.BuiltinCatalog()})
	if len(ps) > 0 {
		tb.Fatalf("%d problems, first %+v", len(ps), ps[0])
	}
	out, err := codegen.Generate(a, codegen.Options{WorkflowID: "wf_worst", Version: 1, Graph: g})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// TestWorstShapesCompileLinear: the code generated for each valid worst
// shape (internal/ir/irtest) is at most a few times the IR's size: no part
// of it is written once per level of nesting or per earlier node
// (decision 330).
func TestWorstShapesCompileLinear(t *testing.T) {
	t.Parallel()
	const size = 1 << 20
	for _, s := range irtest.Shapes() {
		if !s.Valid {
			continue
		}
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			raw := s.Build(size)
			code := compileShape(t, raw).Files[codegen.MainModule]
			if limit := 3*len(raw) + 64<<10; len(code) > limit {
				t.Errorf("%d bytes of code for %d bytes of IR, over %d", len(code), len(raw), limit)
			}
		})
	}
}

// BenchmarkCompileWorst validates and compiles each valid worst shape built
// to the body limit (irtest.FullSize), as a version submit does: each must
// stay well under a second and 100 MB (decision 330 has the figures).
func BenchmarkCompileWorst(b *testing.B) {
	for _, s := range irtest.Shapes() {
		if !s.Valid {
			continue
		}
		raw := s.Build(irtest.FullSize)
		b.Run(s.Name, func(b *testing.B) {
			compileShape(b, raw)
			b.SetBytes(int64(len(raw)))
			b.ReportAllocs()
			defer reportCPU(b)()
			for b.Loop() {
				compileShape(b, raw)
			}
		})
	}
}

// TestPeakMemoryWorst prints, for each worst shape at the body limit, the
// peak of the Go heap while it is validated and compiled once, above the heap
// holding the IR's bytes (sampled every 50 µs in a process of its own), and
// that process's largest resident set. Run with EDGEFLOW_PEAK_MEMORY=1 -v; it
// asserts nothing.
func TestPeakMemoryWorst(t *testing.T) {
	if os.Getenv("EDGEFLOW_PEAK_MEMORY") == "" {
		t.Skip("set EDGEFLOW_PEAK_MEMORY=1 to measure")
	}
	dir := t.TempDir()
	for _, s := range irtest.Shapes() {
		file := dir + "/" + s.Name + ".json"
		if err := os.WriteFile(file, s.Build(irtest.FullSize), 0o600); err != nil {
			t.Fatal(err)
		}
		work := "validate"
		if s.Valid {
			work = "compile"
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestPeakMemoryChild$", "-test.v")
		cmd.Env = append(os.Environ(), "EDGEFLOW_PEAK_CHILD="+file, "EDGEFLOW_PEAK_WORK="+work)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		var heap int64
		if i := bytes.Index(out, []byte("peak-heap=")); i >= 0 {
			fmt.Sscan(string(out[i+len("peak-heap="):]), &heap)
		}
		rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss * 1024
		t.Logf("%-17s %-8s peak heap %6.1f MB, process peak RSS %6.1f MB", s.Name, work, float64(heap)/1e6, float64(rss)/1e6)
	}
}

// TestPeakMemoryChild is TestPeakMemoryWorst's child process.
func TestPeakMemoryChild(t *testing.T) {
	file := os.Getenv("EDGEFLOW_PEAK_CHILD")
	if file == "" {
		t.Skip("run by TestPeakMemoryWorst")
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	heap := func() int64 {
		metrics.Read(sample)
		return int64(sample[0].Value.Uint64())
	}
	runtime.GC()
	base := heap()
	var peak atomic.Int64
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			peak.Store(max(peak.Load(), heap()))
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Microsecond):
			}
		}
	}()
	switch os.Getenv("EDGEFLOW_PEAK_WORK") {
	case "validate":
		ir.Validate(raw, ir.Options{Nodes: nodes.BuiltinCatalog()})
	case "compile":
		compileShape(t, raw)
	}
	close(stop)
	<-done
	t.Logf("peak-heap=%d", peak.Load()-base)
}
