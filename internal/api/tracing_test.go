package api_test

import (
	"context"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/testenv"
	"github.com/edgeflow/edgeflow/internal/tracing"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// otlpSink is an OTLP/HTTP receiver keeping the spans it decodes and the
// raw payloads.
type otlpSink struct {
	mu       sync.Mutex
	spans    []*tracepb.Span
	payloads []byte
}

func newOTLPSink(t *testing.T) (*otlpSink, *tracing.Tracing) {
	sink := &otlpSink{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var req coltracepb.ExportTraceServiceRequest
		if err := proto.Unmarshal(raw, &req); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		sink.mu.Lock()
		sink.payloads = append(sink.payloads, raw...)
		for _, rs := range req.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				sink.spans = append(sink.spans, ss.Spans...)
			}
		}
		sink.mu.Unlock()
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	t.Cleanup(srv.Close)
	tr, err := tracing.New(context.Background(), tracing.Config{Endpoint: srv.URL + "/v1/traces", Protocol: tracing.ProtocolHTTP, ServiceName: "t"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Shutdown(context.Background()) })
	return sink, tr
}

func (s *otlpSink) named(prefix string) []*tracepb.Span {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*tracepb.Span
	for _, sp := range s.spans {
		if strings.HasPrefix(sp.Name, prefix) {
			out = append(out, sp)
		}
	}
	return out
}

func attrOf(sp *tracepb.Span, key string) string {
	for _, a := range sp.Attributes {
		if a.Key == key {
			if s := a.Value.GetStringValue(); s != "" {
				return s
			}
			return strconv.FormatInt(a.Value.GetIntValue(), 10)
		}
	}
	return ""
}

// TestWebhookAttemptSpans: each delivery attempt is a client span (failed
// for a 500, then fine for the 204) whose traceparent the receiver gets;
// neither the payload nor the secret is exported.
func TestWebhookAttemptSpans(t *testing.T) {
	t.Parallel()
	w, d, clk := webhookWorld(t)
	sink, tr := newOTLPSink(t)
	d.Tracing = tr
	rc := newReceiver(t, 500, 204)
	created := w.must(201, "POST", "/api/webhooks", `{"url":"`+rc.srv.URL+`/hook","events":["run.completed"]}`, w.a.keyAll)
	sec := created.str(t, "secret")
	completeRun(t, w, w.a)
	start := time.Now().UTC()
	for _, after := range []time.Duration{0, 5 * time.Second} {
		clk.set(start.Add(after + time.Second))
		if n, err := d.DeliverDue(context.Background(), 10); err != nil || n != 1 {
			t.Fatalf("at +%s: %d attempts, %v", after, n, err)
		}
	}
	var spans []*tracepb.Span
	testenv.WaitFor(t, 10*time.Second, 20*time.Millisecond, "two attempt spans", func() (bool, string) {
		tr.ForceFlush(context.Background())
		spans = sink.named("webhook delivery ")
		return len(spans) == 2, ""
	})
	got := rc.requests()
	for i, sp := range spans {
		if sp.Name != "webhook delivery run.completed" || sp.Kind != tracepb.Span_SPAN_KIND_CLIENT {
			t.Errorf("span %d: %s %v", i, sp.Name, sp.Kind)
		}
		want := "00-" + hex.EncodeToString(sp.TraceId) + "-" + hex.EncodeToString(sp.SpanId) + "-01"
		if got[i].header.Get("traceparent") != want {
			t.Errorf("attempt %d's traceparent %q, want its span's %q", i+1, got[i].header.Get("traceparent"), want)
		}
	}
	if spans[0].Status.GetCode() != tracepb.Status_STATUS_CODE_ERROR || attrOf(spans[0], "http.response.status_code") != "500" ||
		attrOf(spans[0], "edgeflow.delivery.attempt") != "1" {
		t.Errorf("first attempt's span %v %v", spans[0].Status, spans[0].Attributes)
	}
	if spans[1].Status.GetCode() == tracepb.Status_STATUS_CODE_ERROR || attrOf(spans[1], "edgeflow.delivery.attempt") != "2" {
		t.Errorf("second attempt's span %v %v", spans[1].Status, spans[1].Attributes)
	}
	sink.mu.Lock()
	defer sink.mu.Unlock()
	for _, bad := range []string{sec, string(got[0].body), rc.srv.URL} {
		if strings.Contains(string(sink.payloads), bad) {
			t.Errorf("an exported payload holds %q", bad)
		}
	}
}
