package tracing_test

import (
	"context"
	"encoding/hex"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/testenv"
	"github.com/edgeflow/edgeflow/internal/tracing"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

// grpcReceiver is an OTLP/gRPC trace service that keeps what it receives.
type grpcReceiver struct {
	coltracepb.UnimplementedTraceServiceServer
	mu      sync.Mutex
	spans   []*tracepb.Span
	headers []string
}

func (g *grpcReceiver) Export(ctx context.Context, req *coltracepb.ExportTraceServiceRequest) (*coltracepb.ExportTraceServiceResponse, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	md, _ := metadata.FromIncomingContext(ctx)
	g.headers = append(g.headers, md.Get("x-api-key")...)
	for _, rs := range req.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			g.spans = append(g.spans, ss.Spans...)
		}
	}
	return &coltracepb.ExportTraceServiceResponse{}, nil
}

func (g *grpcReceiver) got() ([]*tracepb.Span, []string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]*tracepb.Span(nil), g.spans...), append([]string(nil), g.headers...)
}

// TestGRPCExportOfARun: over OTLP/gRPC (OTEL_EXPORTER_OTLP_PROTOCOL=grpc,
// with OTEL_EXPORTER_OTLP_HEADERS), a run's span and a failed step's span
// arrive with the run's ids: the step's id is StepSpanID, its parent the run
// span, its status the step's error.
func TestGRPCExportOfARun(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	rc := &grpcReceiver{}
	srv := grpc.NewServer()
	coltracepb.RegisterTraceServiceServer(srv, rc)
	go srv.Serve(ln)
	t.Cleanup(srv.Stop)
	cfg, err := tracing.ConfigFromEnv(env(map[string]string{
		"OTEL_EXPORTER_OTLP_ENDPOINT": "http://" + ln.Addr().String(),
		"OTEL_EXPORTER_OTLP_PROTOCOL": "grpc",
		"OTEL_EXPORTER_OTLP_HEADERS":  "x-api-key=k1",
	}))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := tracing.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Shutdown(context.Background()) })

	rt := tr.NewRunTrace(context.Background(), "Payments")
	start := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	end := start.Add(3 * time.Second)
	run := &edgeflow.Run{ID: "run_1", WorkflowID: "wf_1", Status: edgeflow.RunErrored, Error: "boom", CreatedAt: start,
		StartedAt: &start, EndedAt: &end, Trace: rt}
	stepEnd := start.Add(2 * time.Second)
	tr.EmitStep(run, edgeflow.RunStep{NodeID: "charge", Name: "Charge", Type: "step", State: edgeflow.StepErrored, Attempts: 3,
		StartedAt: &start, EndedAt: &stepEnd, Error: &edgeflow.StepError{Name: "Error", Message: "card declined"}})
	tr.EmitRun(run)

	var spans []*tracepb.Span
	var headers []string
	testenv.WaitFor(t, 20*time.Second, 50*time.Millisecond, "two spans at the gRPC receiver", func() (bool, string) {
		tr.ForceFlush(context.Background())
		spans, headers = rc.got()
		return len(spans) == 2, ""
	})
	by := map[string]*tracepb.Span{}
	for _, s := range spans {
		by[s.Name] = s
		if hex.EncodeToString(s.TraceId) != rt.TraceID {
			t.Errorf("span %s in trace %x, want %s", s.Name, s.TraceId, rt.TraceID)
		}
	}
	runSpan, step := by["run Payments"], by["Charge"]
	if runSpan == nil || step == nil {
		t.Fatalf("spans %v", spans)
	}
	if hex.EncodeToString(runSpan.SpanId) != rt.SpanID || len(runSpan.ParentSpanId) != 0 {
		t.Errorf("run span %x (parent %x), want %s with no parent", runSpan.SpanId, runSpan.ParentSpanId, rt.SpanID)
	}
	if runSpan.Status.GetCode() != tracepb.Status_STATUS_CODE_ERROR || runSpan.Status.GetMessage() != "boom" {
		t.Errorf("run span status %v", runSpan.Status)
	}
	if want := tracing.StepSpanID(rt.TraceID, rt.SpanID, "Charge").String(); hex.EncodeToString(step.SpanId) != want ||
		hex.EncodeToString(step.ParentSpanId) != rt.SpanID {
		t.Errorf("step span %x parent %x, want %s under %s", step.SpanId, step.ParentSpanId, want, rt.SpanID)
	}
	if step.Status.GetMessage() != "card declined" || step.StartTimeUnixNano != uint64(start.UnixNano()) ||
		step.EndTimeUnixNano != uint64(stepEnd.UnixNano()) {
		t.Errorf("step span status %v, [%d, %d]", step.Status, step.StartTimeUnixNano, step.EndTimeUnixNano)
	}
	if len(headers) == 0 || headers[0] != "k1" {
		t.Errorf("export headers %v, want x-api-key k1", headers)
	}
}

// TestExtractInject: a request's traceparent becomes the parent of what is
// started in its context, and goes out again on an outbound request.
func TestExtractInject(t *testing.T) {
	t.Parallel()
	h := http.Header{"Traceparent": {"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}
	ctx := tracing.Extract(context.Background(), h)
	out := http.Header{}
	tracing.Inject(ctx, out)
	if out.Get("traceparent") != h.Get("traceparent") {
		t.Errorf("injected %q", out.Get("traceparent"))
	}
}
