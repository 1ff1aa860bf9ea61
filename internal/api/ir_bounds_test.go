package api_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/ir/irtest"
)

// TestNestingAttack: 3,000 loops nested inside each other (once minutes of
// CPU and gigabytes on validate, compile and version submit) are refused on
// all three at the depth limit, naming the first loop past it; the twin,
// loops nested exactly to the limit, validates, compiles and is stored
// (decision 330).
func TestNestingAttack(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.a
	deep := string(irtest.NestedLoops(3000))
	const path, node = "/nodes/33", "loop_32" // NestedLoops: node 0 is the start

	valid, errs := validateIR(t, w, `{"ir":`+deep+`}`, a.keyRead)
	if valid || len(errs) != 1 {
		t.Fatalf("validate: valid %v, %+v; want the one nesting problem", valid, errs)
	}
	if e := findIRError(t, errs, path, ir.RuleNesting); e.NodeID != node || !strings.Contains(e.Message, "at most 32") {
		t.Errorf("nesting problem = %+v", e)
	}
	for _, route := range []string{"/api/ir/compile", "/api/workflows/" + a.workflowID + "/versions"} {
		r := w.do("POST", route, `{"ir":`+deep+`}`, a.keyAll)
		checkError(t, r, 400, "invalid_ir", path)
		var body struct{ Details []irErrorBody }
		if err := json.Unmarshal(r.body, &body); err != nil || len(body.Details) != 1 || body.Details[0].NodeID != node || body.Details[0].Rule != ir.RuleNesting {
			t.Errorf("%s: details %+v (%v)", route, body.Details, err)
		}
	}

	atLimit := string(irtest.NestedLoops(ir.DefaultMaxNesting))
	if valid, errs := validateIR(t, w, `{"ir":`+atLimit+`}`, a.keyRead); !valid {
		t.Fatalf("at the limit: %+v", errs)
	}
	r := w.must(200, "POST", "/api/ir/compile", `{"ir":`+atLimit+`}`, a.keyRead)
	if code := r.str(t, "code"); !strings.Contains(code, "loop_31_index") {
		t.Errorf("the innermost loop is not in the code:\n%.2000s", code)
	}
	w.must(201, "POST", "/api/workflows/"+a.workflowID+"/versions", `{"ir":`+atLimit+`}`, a.keyAll)
}

// TestWorstShapesThroughAPI sends each worst shape of internal/ir/irtest
// (at 1 MiB; BenchmarkIRToolsWorst runs them at the body limit) to POST
// /api/ir/validate: the valid ones are valid, the others answer their
// problems, and the server answers other clients afterwards.
func TestWorstShapesThroughAPI(t *testing.T) {
	t.Parallel()
	if irtest.MaxBody != api.MaxIRBodyBytes {
		t.Fatalf("irtest.MaxBody %d differs from api.MaxIRBodyBytes %d", irtest.MaxBody, api.MaxIRBodyBytes)
	}
	w := newWorld(t)
	for _, s := range irtest.Shapes() {
		valid, errs := validateIR(t, w, `{"ir":`+string(s.Build(1<<20))+`}`, w.a.keyRead)
		if valid != s.Valid {
			t.Errorf("%s: valid %v, want %v; %d errors, first %+v", s.Name, valid, s.Valid, len(errs), errs[:min(len(errs), 1)])
		}
		if len(errs) > ir.DefaultMaxProblems+1 {
			t.Errorf("%s: %d errors, more than the cap", s.Name, len(errs))
		}
	}
	w.must(200, "GET", "/api/workflows", "", w.b.keyRead)
}
