package deploy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/edgeflow/edgeflow/internal/codegen"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/tracing"
)

// SetTracing makes the service trace its deploys and its runs with t (nil:
// off). serve sets it once, before the service is used.
func (s *Service) SetTracing(t *tracing.Tracing) { s.tracing = t }

// hasTraceKey reports whether the params object has codegen.TraceKey at its
// top level.
func hasTraceKey(params []byte) bool {
	if !bytes.Contains(params, []byte(codegen.TraceKey)) {
		return false
	}
	var probe map[string]json.RawMessage
	if json.Unmarshal(params, &probe) != nil {
		return false
	}
	_, ok := probe[codegen.TraceKey]
	return ok
}

// withTraceEnvelope is params (a JSON object) with the run's trace context
// under codegen.TraceKey, for the instance; params unchanged without a
// trace (decision 562).
func withTraceEnvelope(params []byte, rt *edgeflow.RunTrace) ([]byte, error) {
	if rt == nil {
		return params, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(params, &obj); err != nil || obj == nil {
		obj = map[string]json.RawMessage{}
	}
	obj[codegen.TraceKey] = tracing.Envelope(rt)
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("encode the params with the trace context: %w", err)
	}
	return b, nil
}

// traceRunChange emits the spans a write of run r made known, r as written
// and prevSteps, prevStatus its steps and status before: a span per step
// whose state became final with this write, and the run's span when the run
// became final. Only the writer whose write went through calls it (a
// compare-and-set on the run's state), so each span is emitted once, by
// whichever replica learned of it.
func (s *Service) traceRunChange(ctx context.Context, r *edgeflow.Run, prevSteps json.RawMessage, prevStatus string) {
	if r.Trace == nil || !s.tracing.Enabled() {
		return
	}
	names, err := s.versionStepNames(ctx, r.WorkflowID, r.VersionID)
	if err != nil {
		names = map[string]string{}
	}
	ended := map[string]bool{}
	for _, st := range DescribeSteps(prevSteps, names, nil, prevStatus) {
		if tracing.StepEnded(st) {
			ended[st.Name] = true
		}
	}
	for _, st := range DescribeSteps(r.Steps, names, nil, r.Status) {
		if tracing.StepEnded(st) && !ended[st.Name] {
			s.tracing.EmitStep(r, st)
		}
	}
	if edgeflow.RunIsFinal(r.Status) && !edgeflow.RunIsFinal(prevStatus) {
		s.tracing.EmitRun(r)
	}
}
