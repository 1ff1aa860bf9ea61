package tracing_test

import (
	"context"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/tracing"
	"github.com/google/go-cmp/cmp"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestConfigFromEnv(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		env  map[string]string
		want tracing.Config
	}{
		{"unset is off", nil, tracing.Config{}},
		{"disabled", map[string]string{"OTEL_SDK_DISABLED": "true", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"}, tracing.Config{}},
		{"base endpoint gets the traces path", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318/"},
			tracing.Config{Endpoint: "http://collector:4318/v1/traces", Protocol: "http/protobuf", ServiceName: "edgeflow",
				Headers: map[string]string{}, Attributes: map[string]string{}}},
		{"traces endpoint as it is, grpc, headers, resource, sampler", map[string]string{
			"OTEL_EXPORTER_OTLP_ENDPOINT":        "http://ignored:4318",
			"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "https://api.honeycomb.io:443",
			"OTEL_EXPORTER_OTLP_PROTOCOL":        "grpc",
			"OTEL_EXPORTER_OTLP_HEADERS":         "x-honeycomb-team=abc%3D,other = v",
			"OTEL_RESOURCE_ATTRIBUTES":           "deployment.environment=prod,service.name=fromattrs",
			"OTEL_SERVICE_NAME":                  "payments",
			"OTEL_TRACES_SAMPLER":                "parentbased_traceidratio",
			"OTEL_TRACES_SAMPLER_ARG":            "0.25",
		}, tracing.Config{Endpoint: "https://api.honeycomb.io:443", Protocol: "grpc", ServiceName: "payments",
			Headers:    map[string]string{"x-honeycomb-team": "abc=", "other": "v"},
			Attributes: map[string]string{"deployment.environment": "prod", "service.name": "fromattrs"},
			Sampler:    "parentbased_traceidratio", SamplerArg: 0.25}},
		{"service name from the resource attributes", map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://c:4318/v1/traces",
			"OTEL_RESOURCE_ATTRIBUTES": "service.name=edge-a"},
			tracing.Config{Endpoint: "http://c:4318/v1/traces", Protocol: "http/protobuf", ServiceName: "edge-a",
				Headers: map[string]string{}, Attributes: map[string]string{"service.name": "edge-a"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tracing.ConfigFromEnv(env(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("config (-want +got):\n%s", diff)
			}
			if got.Enabled() != (tt.want.Endpoint != "") {
				t.Errorf("Enabled() = %v", got.Enabled())
			}
		})
	}
}

func TestConfigFromEnvErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"}, "OTEL_EXPORTER_OTLP_PROTOCOL"},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "collector:4318"}, "http or https URL"},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c", "OTEL_EXPORTER_OTLP_HEADERS": "novalue"}, "OTEL_EXPORTER_OTLP_HEADERS"},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c", "OTEL_RESOURCE_ATTRIBUTES": "a=%zz"}, "OTEL_RESOURCE_ATTRIBUTES"},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c", "OTEL_TRACES_SAMPLER": "sometimes"}, "OTEL_TRACES_SAMPLER"},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c", "OTEL_TRACES_SAMPLER": "traceidratio", "OTEL_TRACES_SAMPLER_ARG": "2"}, "OTEL_TRACES_SAMPLER_ARG"},
	}
	for _, tt := range tests {
		_, err := tracing.ConfigFromEnv(env(tt.env))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: error %v, want one naming %s", tt.env, err, tt.want)
		}
	}
}

// TestOffIsNoop: tracing built from an empty environment (and a nil
// *Tracing) exports nothing, starts no-op spans and gives runs no trace.
func TestOffIsNoop(t *testing.T) {
	t.Parallel()
	tr, err := tracing.New(context.Background(), tracing.Config{})
	if err != nil || tr != nil || tr.Enabled() {
		t.Fatalf("New(off) = %v, %v", tr, err)
	}
	_, span := tr.Tracer().Start(context.Background(), "x")
	if span.SpanContext().IsValid() || span.IsRecording() {
		t.Errorf("an off tracer recorded a span")
	}
	if rt := tr.NewRunTrace(context.Background(), "wf"); rt != nil {
		t.Errorf("an off tracer gave a run trace %+v", rt)
	}
	if err := tr.Shutdown(context.Background()); err != nil {
		t.Error(err)
	}
}

func TestTraceURL(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ tpl, id, want string }{
		{"https://jaeger.example/trace/{traceId}", "4bf92f3577b34da6a3ce929d0e0e4736", "https://jaeger.example/trace/4bf92f3577b34da6a3ce929d0e0e4736"},
		{"https://ui.honeycomb.io/x/trace?trace_id={traceId}&a={traceId}", "ab", "https://ui.honeycomb.io/x/trace?trace_id=ab&a=ab"},
		{"", "ab", ""},
		{"https://x/{traceId}", "", ""},
	} {
		if got := tracing.TraceURL(tt.tpl, tt.id); got != tt.want {
			t.Errorf("TraceURL(%q, %q) = %q, want %q", tt.tpl, tt.id, got, tt.want)
		}
	}
}

// TestStepSpanID pins the derivation the generated code repeats
// (codegen's traceHeaders): SHA-256 of "<trace id>-<run span id>-<name>".
func TestStepSpanID(t *testing.T) {
	t.Parallel()
	got := tracing.StepSpanID("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", "Post user").String()
	// printf '%s' '4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-Post user' | sha256sum | cut -c1-16
	if got != "0317342be259a40e" {
		t.Errorf("StepSpanID = %s", got)
	}
	rt := &edgeflow.RunTrace{TraceID: "4bf92f3577b34da6a3ce929d0e0e4736", SpanID: "00f067aa0ba902b7", Sampled: true, TraceState: "v=1"}
	if tp := tracing.Traceparent(rt); tp != "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" {
		t.Errorf("Traceparent = %s", tp)
	}
	if env := string(tracing.Envelope(rt)); env != `{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01","tracestate":"v=1"}` {
		t.Errorf("Envelope = %s", env)
	}
}
