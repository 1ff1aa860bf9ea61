package deploy_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// A run's detail sums the tokens of its agents' model calls: the
// successful "agent <node> turn N" steps, read in full even when the
// detail caps their output; a failed model call, a tool call and other
// steps count nothing.
func TestRunUsageSumsAgentTurns(t *testing.T) {
	t.Parallel()
	w := newRunWorld(t)
	pad := strings.Repeat("x", edgeflow.MaxStepOutput)
	steps := `[
	 {"type":"step","name":"Load order","success":true,"output":{"usage":{"inputTokens":1000,"outputTokens":1000}}},
	 {"type":"step","name":"agent Charge turn 1","success":true,"output":{"text":"","toolCalls":[{"id":"c1","name":"refund","input":{}}],"usage":{"inputTokens":120,"outputTokens":30}}},
	 {"type":"step","name":"agent Charge tool refund 1","success":true,"output":{"usage":{"inputTokens":500,"outputTokens":500}}},
	 {"type":"step","name":"agent Charge turn 2","success":true,"output":{"text":"` + pad + `","toolCalls":[],"usage":{"inputTokens":200,"outputTokens":45}}},
	 {"type":"step","name":"agent Ship turn 1","success":false,"output":null,"attempts":[{"success":false,"error":{"name":"Error","message":"HTTP 500"}}]},
	 {"type":"step","name":"agent Notify #2 turn 1","success":true,"output":{"text":"ok","toolCalls":[],"usage":{"inputTokens":7,"outputTokens":3}}}
	]`
	r := w.run(t, edgeflow.RunComplete, "", "complete", json.RawMessage(steps))
	got, err := w.svc.GetRun(context.Background(), w.tenant.ProjectID, w.wf.ID, r.ID)
	must(t, err)
	if got.Usage == nil || *got.Usage != (edgeflow.TokenUsage{InputTokens: 327, OutputTokens: 78}) {
		t.Errorf("usage = %+v, want 327 in, 78 out", got.Usage)
	}
	b, _ := json.Marshal(got)
	if !strings.Contains(string(b), `"usage":{"inputTokens":327,"outputTokens":78}`) {
		t.Errorf("the run's answer has no usage: %.300s", b)
	}

	// A run without agents has no usage in its answer.
	plain := w.run(t, edgeflow.RunComplete, "", "complete", json.RawMessage(`[{"type":"step","name":"Load order","success":true,"output":1}]`))
	got, err = w.svc.GetRun(context.Background(), w.tenant.ProjectID, w.wf.ID, plain.ID)
	must(t, err)
	if b, _ := json.Marshal(got); got.Usage != nil || strings.Contains(string(b), `"usage"`) {
		t.Errorf("a run without agents: usage = %+v", got.Usage)
	}
}
