package tracing

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// NewRunTrace is the trace context of a run triggered in ctx: a child of
// ctx's span (the trigger request's server span, itself a child of the
// caller's traceparent), or the root of a new trace when ctx has none. Nil
// when tracing is off.
func (t *Tracing) NewRunTrace(ctx context.Context, workflowName string) *edgeflow.RunTrace {
	if !t.Enabled() {
		return nil
	}
	rt := &edgeflow.RunTrace{SpanID: NewSpanID().String(), Sampled: true, Name: workflowName}
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		rt.TraceID, rt.ParentSpanID, rt.Sampled = sc.TraceID().String(), sc.SpanID().String(), sc.IsSampled()
		rt.TraceState = sc.TraceState().String()
	} else {
		rt.TraceID = NewTraceID().String()
	}
	return rt
}

// Traceparent is the W3C traceparent of the run span of rt.
func Traceparent(rt *edgeflow.RunTrace) string {
	flags := "00"
	if rt.Sampled {
		flags = "01"
	}
	return "00-" + rt.TraceID + "-" + rt.SpanID + "-" + flags
}

// Envelope is what a run's params carry under codegen.TraceKey: the run
// span's traceparent and the caller's tracestate. The generated code derives
// each step's span id from it (StepSpanID) and sends it in the outbound
// requests of http_request nodes.
func Envelope(rt *edgeflow.RunTrace) json.RawMessage {
	m := map[string]string{"traceparent": Traceparent(rt)}
	if rt.TraceState != "" {
		m["tracestate"] = rt.TraceState
	}
	b, _ := json.Marshal(m)
	return b
}

// StepSpanID is the span id of the run's step named stepName: the first 8
// bytes of SHA-256 of "<trace id>-<run span id>-<step name>" (ids in lower
// hex). The generated code computes the same (codegen's traceHeaders) to
// send it before the span exists; the server emits the span with it later.
func StepSpanID(traceID, runSpanID, stepName string) trace.SpanID {
	sum := sha256.Sum256([]byte(traceID + "-" + runSpanID + "-" + stepName))
	var id trace.SpanID
	copy(id[:], sum[:8])
	if !id.IsValid() {
		id[7] = 1
	}
	return id
}

// runParent is the context whose span is rt's run span, as a remote parent.
func runParent(rt *edgeflow.RunTrace) (context.Context, trace.TraceID, bool) {
	tid, err := trace.TraceIDFromHex(rt.TraceID)
	if err != nil {
		return nil, tid, false
	}
	sid, err := trace.SpanIDFromHex(rt.SpanID)
	if err != nil {
		return nil, tid, false
	}
	flags := trace.TraceFlags(0)
	if rt.Sampled {
		flags = trace.FlagsSampled
	}
	ts, _ := trace.ParseTraceState(rt.TraceState)
	sc := trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: flags, TraceState: ts, Remote: true})
	return trace.ContextWithRemoteSpanContext(context.Background(), sc), tid, true
}

// EmitRun emits the span of a run that has ended: "run <workflow name>",
// from its start (its creation when it never started) to its end, a child
// of the span it was triggered in, with its ids and an error status with
// the run's error when it failed.
func (t *Tracing) EmitRun(r *edgeflow.Run) {
	rt := r.Trace
	if !t.Enabled() || rt == nil {
		return
	}
	tid, err := trace.TraceIDFromHex(rt.TraceID)
	if err != nil {
		return
	}
	sid, err := trace.SpanIDFromHex(rt.SpanID)
	if err != nil {
		return
	}
	ctx := context.Background()
	if p, err := trace.SpanIDFromHex(rt.ParentSpanID); err == nil {
		flags := trace.TraceFlags(0)
		if rt.Sampled {
			flags = trace.FlagsSampled
		}
		ts, _ := trace.ParseTraceState(rt.TraceState)
		ctx = trace.ContextWithRemoteSpanContext(ctx, trace.NewSpanContext(trace.SpanContextConfig{
			TraceID: tid, SpanID: p, TraceFlags: flags, TraceState: ts, Remote: true}))
	}
	ctx = WithIDs(ctx, tid, sid)
	start := r.CreatedAt
	if r.StartedAt != nil {
		start = *r.StartedAt
	}
	end := time.Now()
	if r.EndedAt != nil {
		end = *r.EndedAt
	}
	name := rt.Name
	if name == "" {
		name = r.WorkflowID
	}
	_, span := t.tracer.Start(ctx, "run "+name, trace.WithTimestamp(start), trace.WithSpanKind(trace.SpanKindInternal),
		trace.WithAttributes(
			attribute.String("edgeflow.run.id", r.ID),
			attribute.String("edgeflow.workflow.id", r.WorkflowID),
			attribute.String("edgeflow.project.id", r.ProjectID),
			attribute.String("edgeflow.version.id", r.VersionID),
			attribute.String("edgeflow.run.status", r.Status),
		))
	if r.RestartOf != "" {
		span.SetAttributes(attribute.String("edgeflow.run.restart_of", r.RestartOf))
	}
	if r.Status == edgeflow.RunErrored {
		span.SetStatus(codes.Error, r.Error)
	}
	span.End(trace.WithTimestamp(end))
}

// EmitStep emits the span of one step of a run whose state is known
// (complete, errored or terminated, or a finished sleep or wait): named
// after the step, a child of the run span, from the step's start to its end
// as the provider reported them (fallback: the run's end), with its node,
// type, attempts and state, and an error status with the message of its
// last failure. Its id is StepSpanID, the one the step's outbound requests
// carried.
func (t *Tracing) EmitStep(r *edgeflow.Run, st edgeflow.RunStep) {
	rt := r.Trace
	if !t.Enabled() || rt == nil {
		return
	}
	ctx, tid, ok := runParent(rt)
	if !ok {
		return
	}
	ctx = WithIDs(ctx, tid, StepSpanID(rt.TraceID, rt.SpanID, st.Name))
	end := time.Now()
	if st.EndedAt != nil {
		end = *st.EndedAt
	} else if r.EndedAt != nil {
		end = *r.EndedAt
	}
	start := end
	if st.StartedAt != nil {
		start = *st.StartedAt
	}
	_, span := t.tracer.Start(ctx, st.Name, trace.WithTimestamp(start), trace.WithSpanKind(trace.SpanKindInternal),
		trace.WithAttributes(
			attribute.String("edgeflow.run.id", r.ID),
			attribute.String("edgeflow.step.name", st.Name),
			attribute.String("edgeflow.node.id", st.NodeID),
			attribute.String("edgeflow.step.type", st.Type),
			attribute.Int("edgeflow.step.attempts", st.Attempts),
			attribute.String("edgeflow.step.state", st.State),
		))
	if st.State == edgeflow.StepErrored {
		msg := "the step failed"
		if st.Error != nil && st.Error.Message != "" {
			msg = st.Error.Message
		}
		span.SetStatus(codes.Error, msg)
	}
	span.End(trace.WithTimestamp(end))
}

// StepEnded reports whether a step's span can be emitted: its state is
// final.
func StepEnded(st edgeflow.RunStep) bool {
	switch st.State {
	case edgeflow.StepComplete, edgeflow.StepErrored, edgeflow.StepTerminated:
		return true
	}
	return false
}
