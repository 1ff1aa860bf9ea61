package api

import (
	"net/http"
	"strconv"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/tracing"
)

// startServerSpan starts the server span of a request of route rt when
// tracing is on: "METHOD /pattern", a child of the caller's traceparent
// when it sent a valid one, with the method and the route's pattern (never
// the path itself, whose segments may be a trigger's secret, nor the query,
// headers or body). The span goes into r's context, so that what the
// handler starts (a run, a deploy) is its child. Nil when off.
func (s *Server) startServerSpan(r *http.Request, rt *Route) trace.Span {
	if !s.Tracing.Enabled() {
		return nil
	}
	ctx := tracing.Extract(r.Context(), r.Header)
	ctx, span := s.Tracing.Tracer().Start(ctx, rt.Method+" "+rt.Pattern, trace.WithSpanKind(trace.SpanKindServer),
		trace.WithAttributes(
			attribute.String("http.request.method", rt.Method),
			attribute.String("http.route", rt.Pattern),
			attribute.String("edgeflow.request.id", requestIDFrom(r)),
		))
	*r = *r.WithContext(ctx)
	return span
}

// endServerSpan ends a request's server span with its status and the
// caller's organization and project; a 5xx answer marks it failed.
func endServerSpan(span trace.Span, r *http.Request, status int) {
	span.SetAttributes(attribute.Int("http.response.status_code", status))
	if p := PrincipalFrom(r); p != nil {
		if p.OrganizationID != "" {
			span.SetAttributes(attribute.String("edgeflow.organization.id", p.OrganizationID))
		}
		if p.ProjectID != "" {
			span.SetAttributes(attribute.String("edgeflow.project.id", p.ProjectID))
		}
	}
	if status >= 500 {
		span.SetStatus(codes.Error, "HTTP "+strconv.Itoa(status))
	}
	span.End()
}

// withTraceURL sets the run's link to its trace (EDGEFLOW_TRACE_URL_TEMPLATE).
func (s *Server) withTraceURL(r *edgeflow.Run) *edgeflow.Run {
	if r != nil {
		r.TraceURL = tracing.TraceURL(s.TraceURLTemplate, r.TraceID)
	}
	return r
}
