package deploy

import (
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/codegen"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ir"
)

// TestAdmissionInstanceIDs: the instances edgeflow creates (run ids, signed
// trigger ids) pass the gate; a schedule's start (the local edge's and
// Cloudflare's generated ids) and a batch entry's chosen id wait. The
// generated code tests the same pattern.
func TestAdmissionInstanceIDs(t *testing.T) {
	t.Parallel()
	for range 100 {
		if id := edgeflow.NewID(edgeflow.PrefixRun); waitsForAdmission(id) {
			t.Fatalf("run id %s would wait at the gate", id)
		}
	}
	if waitsForAdmission("sig_" + strings.Repeat("0a", 20)) {
		t.Fatal("a signed trigger's id would wait at the gate")
	}
	for _, id := range []string{"3485fb66-5831-4242-b4a1-ca04921929be", "order-42", "run_short", "run_" + strings.Repeat("A", 20), "sig_xyz"} {
		if !waitsForAdmission(id) {
			t.Errorf("%s would not wait at the gate", id)
		}
	}
	a, problems := ir.Validate([]byte(`{"metadata":{"name":"n"},"entryNodeId":"s","nodes":[{"id":"s","type":"step","name":"S","data":{"code":"return 1;"}}],"edges":[],
		"trigger":{"type":"cron","expression":"0 3 * * *"}}`), ir.Options{})
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	for _, js := range []bool{false, true} {
		out, err := codegen.Generate(a, codegen.Options{WorkflowID: "wf_x", AdmissionGate: true, JavaScript: js})
		if err != nil {
			t.Fatal(err)
		}
		code := out.Files[out.MainModule]
		for _, want := range []string{"/" + edgeflowInstanceID.String() + "/", `"` + codegen.AdmissionStep + `"`, `type: "` + codegen.AdmissionEventType + `"`,
			`timeout: "` + codegen.AdmissionTimeout + `"`, codegen.AdmissionTimedOut} {
			if !strings.Contains(code, want) {
				t.Errorf("generated code (js %v) lacks %s", js, want)
			}
		}
	}
}

// TestAdmissionTimedOut: a start found ended at the gate is recorded
// skipped with the gate's reason; another errored run is left as it is.
func TestAdmissionTimedOut(t *testing.T) {
	t.Parallel()
	r := &edgeflow.Run{Status: edgeflow.RunErrored, Error: "Error: " + codegen.AdmissionTimedOut + ": no step ran"}
	if !admissionTimedOut(r) || r.Status != edgeflow.RunTerminated || r.StatusDetail != edgeflow.RunDetailSkipped ||
		!strings.HasPrefix(r.Error, "this cron start was skipped: ") {
		t.Fatalf("timed out at the gate: %+v", r)
	}
	r = &edgeflow.Run{Status: edgeflow.RunErrored, Error: "boom"}
	if admissionTimedOut(r) || r.Status != edgeflow.RunErrored {
		t.Fatalf("another error: %+v", r)
	}
}

// TestAdmissionStepCounted: the gate is one more billed step at most for a
// cron workflow with flow control only.
func TestAdmissionStepCounted(t *testing.T) {
	t.Parallel()
	b := ir.StepBounds{Billed: ir.StepRange{Min: 2, Max: 3, Bounded: true}}
	cron := &ir.ArtifactIR{Trigger: &ir.TriggerConfig{Type: ir.TriggerCron, Expression: "0 3 * * *"}}
	manual := &ir.ArtifactIR{Trigger: &ir.TriggerConfig{Type: ir.TriggerManual}}
	limited := &edgeflow.Workflow{DeployConfig: &edgeflow.DeployConfig{Concurrency: 1}}
	free := &edgeflow.Workflow{}
	for _, c := range []struct {
		a        *ir.ArtifactIR
		w        *edgeflow.Workflow
		min, max int64
	}{{cron, limited, 2, 4}, {cron, free, 2, 3}, {manual, limited, 2, 3}} {
		got := withAdmissionStep(b, c.a, c.w)
		if got.Billed.Min != c.min || got.Billed.Max != c.max {
			t.Errorf("%s trigger, flow control %v: billed %+v, want %d..%d", c.a.Trigger.Type, c.w.DeployConfig != nil, got.Billed, c.min, c.max)
		}
	}
}
