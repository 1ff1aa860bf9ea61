package codegen_test

import (
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/codegen"
	"github.com/edgeflow/edgeflow/internal/ir"
)

// loopWithLane is a loop whose body is a parallel with one lane holding
// inner (a break, or a try_catch).
func loopWithLane(t *testing.T, inner string) *ir.ArtifactIR {
	t.Helper()
	raw := `{"metadata":{"name":"x"},"entryNodeId":"loop","nodes":[
 {"id":"loop","type":"loop","name":"Loop","data":{"loopType":"times","count":3}},
 {"id":"fan","type":"parallel","name":"Fan","data":{}},
 {"id":"step","type":"step","name":"Step","data":{"code":"return 1;"}},` + inner + `],
"edges":[{"id":"e1","source":"loop","target":"fan","label":"body"},{"id":"e2","source":"fan","target":"step","label":"a"},
 {"id":"e3","source":"step","target":"inner"}]}`
	a, _ := ir.Validate([]byte(raw), ir.Options{})
	if a == nil {
		t.Fatal("the IR could not be read")
	}
	return a
}

// TestBreakSignalOnlyWhenABreakThrowsIt: a break in a parallel lane of a loop
// body (which the validator refuses) throws a BreakSignal that the body
// catches; a try_catch in such a lane without any such break leaves the
// loop body unwrapped and has no BreakSignal (decision 330).
func TestBreakSignalOnlyWhenABreakThrowsIt(t *testing.T) {
	t.Parallel()
	out, err := codegen.Generate(loopWithLane(t, `{"id":"inner","type":"break","name":"Stop","data":{}}`), codegen.Options{WorkflowID: "wf_b"})
	if err != nil {
		t.Fatal(err)
	}
	code := out.Files[codegen.MainModule]
	for _, want := range []string{"throw new BreakSignal();", "if (caught instanceof BreakSignal) break;", "class BreakSignal"} {
		if !strings.Contains(code, want) {
			t.Errorf("break in a lane: no %q in\n%s", want, code)
		}
	}
	out, err = codegen.Generate(loopWithLane(t, `{"id":"inner","type":"try_catch","name":"Guard","data":{}}`), codegen.Options{WorkflowID: "wf_t"})
	if err != nil {
		t.Fatal(err)
	}
	if code := out.Files[codegen.MainModule]; strings.Contains(code, "BreakSignal") {
		t.Errorf("try_catch in a lane without a break: BreakSignal in\n%s", code)
	}
}
