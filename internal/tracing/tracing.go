package tracing

import (
	"context"
	"crypto/rand"
	"errors"
	"net/http"
	"net/url"
	"sort"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// instrumentation is the name of edgeflow's tracer.
const instrumentation = "github.com/edgeflow/edgeflow"

// Tracing holds the tracer edgeflow's parts start spans with. A nil
// *Tracing, like one built from a Config without endpoint, is off: its
// tracer is a no-op and nothing is exported.
type Tracing struct {
	sdk    *sdktrace.TracerProvider
	tracer trace.Tracer
}

// New builds tracing from c: off (a no-op tracer, no exporter) when c has
// no endpoint; else an OTLP exporter of c's protocol behind a batching span
// processor, c's sampler and resource. Shutdown flushes and stops it.
func New(ctx context.Context, c Config) (*Tracing, error) {
	if !c.Enabled() {
		return nil, nil
	}
	var exp sdktrace.SpanExporter
	var err error
	switch c.Protocol {
	case ProtocolGRPC:
		opts := []otlptracegrpc.Option{otlptracegrpc.WithEndpointURL(c.Endpoint)}
		if len(c.Headers) > 0 {
			opts = append(opts, otlptracegrpc.WithHeaders(c.Headers))
		}
		exp, err = otlptracegrpc.New(ctx, opts...)
	case ProtocolHTTP, "":
		opts := []otlptracehttp.Option{otlptracehttp.WithEndpointURL(c.Endpoint)}
		if len(c.Headers) > 0 {
			opts = append(opts, otlptracehttp.WithHeaders(c.Headers))
		}
		exp, err = otlptracehttp.New(ctx, opts...)
	default:
		return nil, errors.New("tracing: unknown OTLP protocol " + c.Protocol)
	}
	if err != nil {
		return nil, err
	}
	attrs := []attribute.KeyValue{attribute.String("service.name", c.ServiceName)}
	keys := make([]string, 0, len(c.Attributes))
	for k := range c.Attributes {
		if k != "service.name" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		attrs = append(attrs, attribute.String(k, c.Attributes[k]))
	}
	res, err := resource.Merge(resource.Default(), resource.NewSchemaless(attrs...))
	if err != nil {
		return nil, err
	}
	tp := sdktrace.NewTracerProvider(
		sdktrace.WithBatcher(exp),
		sdktrace.WithResource(res),
		sdktrace.WithSampler(sampler(c)),
		sdktrace.WithIDGenerator(idGenerator{}),
	)
	return &Tracing{sdk: tp, tracer: tp.Tracer(instrumentation)}, nil
}

func sampler(c Config) sdktrace.Sampler {
	switch c.Sampler {
	case "always_on":
		return sdktrace.AlwaysSample()
	case "always_off":
		return sdktrace.NeverSample()
	case "traceidratio":
		return sdktrace.TraceIDRatioBased(c.SamplerArg)
	case "parentbased_always_off":
		return sdktrace.ParentBased(sdktrace.NeverSample())
	case "parentbased_traceidratio":
		return sdktrace.ParentBased(sdktrace.TraceIDRatioBased(c.SamplerArg))
	}
	return sdktrace.ParentBased(sdktrace.AlwaysSample())
}

// Enabled reports whether spans are exported.
func (t *Tracing) Enabled() bool { return t != nil && t.sdk != nil }

// Tracer is the tracer to start spans with (a no-op one when off).
func (t *Tracing) Tracer() trace.Tracer {
	if !t.Enabled() {
		return noop.NewTracerProvider().Tracer(instrumentation)
	}
	return t.tracer
}

// ForceFlush exports the spans ended so far.
func (t *Tracing) ForceFlush(ctx context.Context) error {
	if !t.Enabled() {
		return nil
	}
	return t.sdk.ForceFlush(ctx)
}

// Shutdown exports what is left and stops the exporter.
func (t *Tracing) Shutdown(ctx context.Context) error {
	if !t.Enabled() {
		return nil
	}
	return t.sdk.Shutdown(ctx)
}

// propagator reads and writes the W3C traceparent and tracestate headers.
var propagator = propagation.TraceContext{}

// Extract returns ctx with the remote span context of h's traceparent and
// tracestate, when they are valid (otherwise ctx unchanged).
func Extract(ctx context.Context, h http.Header) context.Context {
	return propagator.Extract(ctx, propagation.HeaderCarrier(h))
}

// Inject writes the traceparent and tracestate of ctx's span into h.
func Inject(ctx context.Context, h http.Header) {
	propagator.Inject(ctx, propagation.HeaderCarrier(h))
}

// TraceURL is template (EDGEFLOW_TRACE_URL_TEMPLATE) with {traceId}
// replaced by the trace id; "" when either is empty.
func TraceURL(template, traceID string) string {
	if template == "" || traceID == "" {
		return ""
	}
	out := []byte{}
	const ph = "{traceId}"
	for i := 0; i < len(template); {
		if len(template)-i >= len(ph) && template[i:i+len(ph)] == ph {
			out = append(out, url.PathEscape(traceID)...)
			i += len(ph)
			continue
		}
		out = append(out, template[i])
		i++
	}
	return string(out)
}

// idsKey carries the ids the next span started with the context takes.
type idsKey struct{}

type fixedIDs struct {
	trace trace.TraceID
	span  trace.SpanID
}

// WithIDs returns ctx such that the span started with it gets spanID, and,
// when it has no parent, traceID: the spans of a run are emitted after the
// fact with the ids that the run's code already sent in traceparent
// headers.
func WithIDs(ctx context.Context, traceID trace.TraceID, spanID trace.SpanID) context.Context {
	return context.WithValue(ctx, idsKey{}, fixedIDs{traceID, spanID})
}

// idGenerator takes the ids of WithIDs, and random ones otherwise.
type idGenerator struct{}

func (idGenerator) NewIDs(ctx context.Context) (trace.TraceID, trace.SpanID) {
	if f, ok := ctx.Value(idsKey{}).(fixedIDs); ok && f.trace.IsValid() && f.span.IsValid() {
		return f.trace, f.span
	}
	return NewTraceID(), NewSpanID()
}

func (idGenerator) NewSpanID(ctx context.Context, traceID trace.TraceID) trace.SpanID {
	if f, ok := ctx.Value(idsKey{}).(fixedIDs); ok && f.span.IsValid() {
		return f.span
	}
	return NewSpanID()
}

// NewTraceID is a random valid trace id.
func NewTraceID() trace.TraceID {
	var t trace.TraceID
	for !t.IsValid() {
		rand.Read(t[:])
	}
	return t
}

// NewSpanID is a random valid span id.
func NewSpanID() trace.SpanID {
	var s trace.SpanID
	for !s.IsValid() {
		rand.Read(s[:])
	}
	return s
}
