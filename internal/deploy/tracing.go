package deploy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

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

// traceDeploy runs deploy inside a span "deploy <workflow name>" (a child
// of ctx's span: the deploy request's), with a child span per stage the
// deploy reports, each from its report to the next one. A failure marks the
// deploy span and the stage it happened in with the error's message, which
// is what the client is told (never an internal error's text).
func (s *Service) traceDeploy(ctx context.Context, p *Plan, progress ProgressFunc,
	deploy func(context.Context, ProgressFunc) (*edgeflow.Deployment, error)) (*edgeflow.Deployment, error) {
	if !s.tracing.Enabled() {
		return deploy(ctx, progress)
	}
	tr := s.tracing.Tracer()
	ctx, span := tr.Start(ctx, "deploy "+p.workflow.Name, trace.WithAttributes(
		attribute.String("edgeflow.workflow.id", p.workflow.ID),
		attribute.String("edgeflow.project.id", p.workflow.ProjectID),
		attribute.String("edgeflow.version.id", p.version.ID),
		attribute.Int("edgeflow.version.number", p.version.Number),
		attribute.String("edgeflow.connection.id", p.connection.ID),
		attribute.String("edgeflow.provider", p.connection.Provider),
	))
	var stage trace.Span
	d, err := deploy(ctx, func(pr Progress) {
		if stage != nil {
			stage.End()
		}
		_, stage = tr.Start(ctx, "deploy stage "+pr.Stage, trace.WithAttributes(attribute.String("edgeflow.deploy.stage", pr.Stage)))
		if progress != nil {
			progress(pr)
		}
	})
	if err != nil {
		msg := "the deploy failed"
		var e *edgeflow.Error
		if errors.As(err, &e) && e.Code != edgeflow.EInternal {
			msg = e.Message
		}
		if stage != nil {
			stage.SetStatus(codes.Error, msg)
		}
		span.SetStatus(codes.Error, msg)
	} else if d != nil {
		span.SetAttributes(attribute.String("edgeflow.deployment.id", d.ID))
	}
	if stage != nil {
		stage.End()
	}
	span.End()
	return d, err
}
