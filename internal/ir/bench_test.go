package ir_test

import (
	"testing"

	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/nodes"
	"github.com/edgeflow/edgeflow/internal/testenv"
)

func benchValidate(b *testing.B, raw []byte) {
	b.Helper()
	opts := ir.Options{Nodes: nodes.BuiltinCatalog()}
	if _, ps := ir.Validate(raw, opts); len(ps) > 0 {
		b.Fatalf("benchmark IR is not valid: %+v", ps[0])
	}
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		ir.Validate(raw, opts)
	}
}

func benchFile(b *testing.B, name string) {
	benchValidate(b, testenv.BenchIR(b, name))
}

func BenchmarkValidateMixed1000(b *testing.B)  { benchFile(b, "mixed-1000") }
func BenchmarkValidateMixed5000(b *testing.B)  { benchFile(b, "mixed-5000") }
func BenchmarkValidateLinear5000(b *testing.B) { benchFile(b, "linear-5000") }

// Generated IRs mixing all twelve node types, for the growth ratio.
func BenchmarkValidateAllTypes1000(b *testing.B)  { benchValidate(b, mixedIR(1000)) }
func BenchmarkValidateAllTypes10000(b *testing.B) { benchValidate(b, mixedIR(10000)) }
func BenchmarkValidateDeep32(b *testing.B)        { benchValidate(b, deepIR(ir.DefaultMaxNesting)) }
func BenchmarkValidateWide5000(b *testing.B)      { benchValidate(b, wideIR(5000)) }

func BenchmarkParseExpressions(b *testing.B) {
	s := "const a = {{fetch_user.body.items[0].id}}; const b = {{env.API_KEY}}; return a + {{event.payload.n}};"
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ir.ParseExpressions(s); err != nil {
			b.Fatal(err)
		}
	}
}
