package ir_test

import (
	"testing"

	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/ir/irtest"
	"github.com/edgeflow/edgeflow/internal/nodes"
)

// TestWorstShapes checks the generated worst shapes (internal/ir/irtest) at
// 1 MiB: each fills most of its size without passing it, and the valid ones
// are valid while the others have problems. The benchmarks run them at the
// full body limit.
func TestWorstShapes(t *testing.T) {
	t.Parallel()
	const size = 1 << 20
	for _, s := range irtest.Shapes() {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			raw := s.Build(size)
			if len(raw) > size || len(raw) < size/2 {
				t.Errorf("%d bytes, want between %d and %d", len(raw), size/2, size)
			}
			_, ps := ir.Validate(raw, ir.Options{Nodes: nodes.BuiltinCatalog()})
			if s.Valid && len(ps) > 0 {
				t.Errorf("%d problems, first %+v", len(ps), ps[0])
			}
			if !s.Valid && len(ps) == 0 {
				t.Error("no problems")
			}
		})
	}
}

// BenchmarkValidateWorst validates each worst shape built to the body
// limit (irtest.FullSize): each must stay well under a second and 100 MB
// (docs/decisions.md, decision 330, has the figures).
func BenchmarkValidateWorst(b *testing.B) {
	opts := ir.Options{Nodes: nodes.BuiltinCatalog()}
	for _, s := range irtest.Shapes() {
		raw := s.Build(irtest.FullSize)
		if len(raw) > irtest.FullSize {
			b.Fatalf("%s: %d bytes, over %d", s.Name, len(raw), irtest.FullSize)
		}
		b.Run(s.Name, func(b *testing.B) {
			if _, ps := ir.Validate(raw, opts); s.Valid != (len(ps) == 0) {
				b.Fatalf("valid %v, but %d problems", s.Valid, len(ps))
			}
			b.SetBytes(int64(len(raw)))
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				ir.Validate(raw, opts)
			}
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N)/1e6, "cpu-ms/op")
		})
	}
}
