package e2e_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/testenv"
	"github.com/edgeflow/edgeflow/internal/tracing"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// otlpReceiver is an OTLP/HTTP traces endpoint: it decodes each export
// (protobuf, gzip or not) and keeps its spans and its raw payload.
type otlpReceiver struct {
	url      string
	mu       sync.Mutex
	spans    []*tracepb.Span
	payloads [][]byte
	service  []string // service.name of each resource
}

func newOTLPReceiver(t *testing.T) *otlpReceiver {
	rc := &otlpReceiver{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != "POST" || r.URL.Path != "/v1/traces" || r.Header.Get("Content-Type") != "application/x-protobuf" {
			http.Error(w, "unexpected request", 400)
			return
		}
		var body io.Reader = r.Body
		if r.Header.Get("Content-Encoding") == "gzip" {
			zr, err := gzip.NewReader(r.Body)
			if err != nil {
				http.Error(w, err.Error(), 400)
				return
			}
			body = zr
		}
		raw, err := io.ReadAll(body)
		if err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		var req coltracepb.ExportTraceServiceRequest
		if err := proto.Unmarshal(raw, &req); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		rc.mu.Lock()
		rc.payloads = append(rc.payloads, raw)
		for _, rs := range req.ResourceSpans {
			for _, a := range rs.GetResource().GetAttributes() {
				if a.Key == "service.name" {
					rc.service = append(rc.service, a.GetValue().GetStringValue())
				}
			}
			for _, ss := range rs.ScopeSpans {
				rc.spans = append(rc.spans, ss.Spans...)
			}
		}
		rc.mu.Unlock()
		out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.Write(out)
	}))
	t.Cleanup(srv.Close)
	rc.url = srv.URL
	return rc
}

// spansOf are the received spans of the trace (hex id).
func (rc *otlpReceiver) spansOf(traceID string) []*tracepb.Span {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	var out []*tracepb.Span
	for _, s := range rc.spans {
		if hex.EncodeToString(s.TraceId) == traceID {
			out = append(out, s)
		}
	}
	return out
}

func (rc *otlpReceiver) count() int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return len(rc.spans) + len(rc.payloads)
}

func spanAttr(s *tracepb.Span, key string) string {
	for _, a := range s.Attributes {
		if a.Key == key {
			if v, ok := a.Value.Value.(*commonpb.AnyValue_StringValue); ok {
				return v.StringValue
			}
			return fmt.Sprint(a.Value.GetIntValue())
		}
	}
	return ""
}

// outboundRecorder is a service a step calls (on allowedHost), which keeps
// the traceparent of each request it gets.
func outboundRecorder(t *testing.T) (string, func() []string) {
	var mu sync.Mutex
	var got []string
	ln, err := net.Listen("tcp", allowedHost+":0")
	if err != nil {
		t.Fatalf("listen on %s: %v", allowedHost, err)
	}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Header.Get("traceparent")+"|"+r.Header.Get("tracestate")+"|"+r.Header.Get("X-Token"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"ok":true}`)
	})}}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(got)
	}
}

// tracedWorkflow deploys Load → Call (http_request to url with a secret
// header) → Done, with the secret env var API_TOKEN.
func (s *server) tracedWorkflow(url, secretValue string) string {
	s.t.Helper()
	call := node("call", "http_request", "Call", map[string]any{"url": url + "/hook", "method": "POST",
		"headers": `{"X-Token": "{{env.API_TOKEN}}"}`, "body": `{"n": {{load.n}}}`})
	wf, _ := s.workflow("Payments", "workflow", chain("Payments",
		node("load", "step", "Load", map[string]any{"code": "return { n: 1 };"}),
		call,
		node("done", "step", "Done", map[string]any{"code": "return { done: true };"})))
	s.must(200, "PATCH", "/api/workflows/"+wf, map[string]any{"envVars": []map[string]any{
		{"name": "API_TOKEN", "value": secretValue, "isSecret": true}}})
	s.deploy(wf)
	return wf
}

// TestTracesOfARun: with tracing on, a run triggered with a traceparent
// yields one trace at a real OTLP receiver: the trigger request's server
// span (a child of the caller's span), the run span (its child), a span per
// step (children of the run span, in execution order), and the http_request
// step's outbound request carries the traceparent of its step's span. The
// run's answer names the trace and links to it. No secret, API key, cookie
// or body is in any exported payload.
func TestTracesOfARun(t *testing.T) {
	requireEdge(t)
	t.Parallel()
	rc := newOTLPReceiver(t)
	tr, err := tracing.New(context.Background(), tracing.Config{Endpoint: rc.url + "/v1/traces", Protocol: tracing.ProtocolHTTP,
		ServiceName: "edgeflow-e2e"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Shutdown(context.Background()) })
	s := newServer(t, serverOptions{tracing: tr, traceURLTemplate: "https://jaeger.example/trace/{traceId}",
		refresherInterval: 200 * time.Millisecond})
	url, outbound := outboundRecorder(t)
	const secretValue = "sekrit-token-4711"
	wf := s.tracedWorkflow(url, secretValue)

	const callerTrace, callerSpan = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	const bodyMarker = "body-marker-8843"
	raw, _ := json.Marshal(map[string]any{"connectionId": s.conn, "params": map[string]any{"note": bodyMarker}})
	req, _ := http.NewRequest("POST", s.url+"/api/workflows/"+wf+"/trigger", bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+s.key)
	req.Header.Set("traceparent", "00-"+callerTrace+"-"+callerSpan+"-01")
	req.Header.Set("tracestate", "vendor=abc")
	res, err := s.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 201 {
		t.Fatalf("trigger: %d %s", res.StatusCode, body)
	}
	var trig struct{ ID string }
	json.Unmarshal(body, &trig)
	done := s.waitStatus(wf, trig.ID, "complete", 90*time.Second)
	var detail struct {
		TraceID  string `json:"traceId"`
		TraceURL string `json:"traceUrl"`
		Params   map[string]any
	}
	s.must(200, "GET", "/api/workflows/"+wf+"/runs/"+trig.ID, nil).into(&detail)
	if detail.TraceID != callerTrace || detail.TraceURL != "https://jaeger.example/trace/"+callerTrace {
		t.Errorf("run answer: traceId %q traceUrl %q, want the caller's trace %s", detail.TraceID, detail.TraceURL, callerTrace)
	}
	if _, ok := detail.Params["__edgeflowTrace"]; ok || len(detail.Params) != 1 {
		t.Errorf("the run's params %v hold more than the trigger sent", detail.Params)
	}
	if !strings.Contains(string(done.Output), "true") {
		t.Errorf("run output %s", done.Output)
	}

	var spans []*tracepb.Span
	byName := map[string]*tracepb.Span{}
	testenv.WaitFor(t, 30*time.Second, 200*time.Millisecond, "the run's spans at the receiver", func() (bool, string) {
		tr.ForceFlush(context.Background())
		spans = rc.spansOf(callerTrace)
		byName = map[string]*tracepb.Span{}
		for _, sp := range spans {
			byName[sp.Name] = sp
		}
		for _, want := range []string{"POST /api/workflows/{workflowId}/trigger", "run Payments", "Load", "Call", "Done"} {
			if byName[want] == nil {
				return false, fmt.Sprintf("no span %q among %d spans of the trace", want, len(spans))
			}
		}
		return true, ""
	})
	id := func(b []byte) string { return hex.EncodeToString(b) }
	trigger, runSpan := byName["POST /api/workflows/{workflowId}/trigger"], byName["run Payments"]
	if id(trigger.ParentSpanId) != callerSpan || trigger.Kind != tracepb.Span_SPAN_KIND_SERVER {
		t.Errorf("trigger span: parent %s kind %v, want parent %s (the caller's) and kind server", id(trigger.ParentSpanId), trigger.Kind, callerSpan)
	}
	if spanAttr(trigger, "http.route") != "/api/workflows/{workflowId}/trigger" || spanAttr(trigger, "http.response.status_code") != "201" ||
		spanAttr(trigger, "edgeflow.organization.id") != s.orgID || spanAttr(trigger, "edgeflow.project.id") != s.projID {
		t.Errorf("trigger span attributes %v", trigger.Attributes)
	}
	if id(runSpan.ParentSpanId) != id(trigger.SpanId) {
		t.Errorf("run span's parent %s, want the trigger span %s", id(runSpan.ParentSpanId), id(trigger.SpanId))
	}
	if spanAttr(runSpan, "edgeflow.run.id") != trig.ID || spanAttr(runSpan, "edgeflow.run.status") != "complete" {
		t.Errorf("run span attributes %v", runSpan.Attributes)
	}
	var order []string
	for _, name := range []string{"Load", "Call", "Done"} {
		sp := byName[name]
		if id(sp.ParentSpanId) != id(runSpan.SpanId) {
			t.Errorf("step %s: parent %s, want the run span %s", name, id(sp.ParentSpanId), id(runSpan.SpanId))
		}
		if spanAttr(sp, "edgeflow.step.state") != "complete" || spanAttr(sp, "edgeflow.step.attempts") != "1" {
			t.Errorf("step %s attributes %v", name, sp.Attributes)
		}
		if sp.StartTimeUnixNano < runSpan.StartTimeUnixNano || sp.EndTimeUnixNano > runSpan.EndTimeUnixNano+uint64(time.Second) {
			t.Errorf("step %s [%d, %d] outside the run [%d, %d]", name, sp.StartTimeUnixNano, sp.EndTimeUnixNano, runSpan.StartTimeUnixNano, runSpan.EndTimeUnixNano)
		}
		order = append(order, name)
	}
	slices.SortStableFunc(order, func(a, b string) int {
		return int(int64(byName[a].StartTimeUnixNano) - int64(byName[b].StartTimeUnixNano))
	})
	if strings.Join(order, ",") != "Load,Call,Done" {
		t.Errorf("steps by start time: %v, want Load, Call, Done", order)
	}
	if spanAttr(byName["Call"], "edgeflow.node.id") != "call" {
		t.Errorf("Call span's node %q", spanAttr(byName["Call"], "edgeflow.node.id"))
	}
	// The deploy request's trace: its server span, the deploy span, a span per stage.
	rc.mu.Lock()
	all := slices.Clone(rc.spans)
	rc.mu.Unlock()
	var deploySpan, deployReq *tracepb.Span
	for _, sp := range all {
		switch sp.Name {
		case "deploy Payments":
			deploySpan = sp
		case "POST /api/workflows/{workflowId}/deploy":
			deployReq = sp
		}
	}
	if deploySpan == nil || deployReq == nil || id(deploySpan.ParentSpanId) != id(deployReq.SpanId) {
		t.Fatalf("no deploy span under the deploy request's span (%v, %v)", deploySpan, deployReq)
	}
	var stages []string
	for _, sp := range all {
		if id(sp.ParentSpanId) == id(deploySpan.SpanId) {
			stages = append(stages, spanAttr(sp, "edgeflow.deploy.stage"))
		}
	}
	if !slices.Contains(stages, "GENERATING_CODE") || !slices.Contains(stages, "DEPLOYING") || !slices.Contains(stages, "COMPLETED") {
		t.Errorf("deploy stage spans %v", stages)
	}

	got := outbound()
	want := "00-" + callerTrace + "-" + id(byName["Call"].SpanId) + "-01|vendor=abc|" + secretValue
	if len(got) != 1 || got[0] != want {
		t.Errorf("the called service saw %q, want [%q] (the Call step's span)", got, want)
	}

	// Nothing secret in what was exported: the env secret, the API key, the
	// caller's body, the session cookie's name.
	rc.mu.Lock()
	defer rc.mu.Unlock()
	for _, p := range rc.payloads {
		for _, bad := range []string{secretValue, s.key, s.key[:12], bodyMarker, "edgeflow_session", "Bearer", "X-Token"} {
			if bytes.Contains(p, []byte(bad)) {
				t.Errorf("an exported payload holds %q", bad)
			}
		}
	}
	if !slices.Contains(rc.service, "edgeflow-e2e") {
		t.Errorf("service names %v", rc.service)
	}
}

// TestNoTracesWhenUnset: with the OTEL_* variables unset, tracing is off:
// a run has no trace id and its http_request sends no traceparent, and the
// receiver gets nothing.
func TestNoTracesWhenUnset(t *testing.T) {
	requireEdge(t)
	t.Parallel()
	rc := newOTLPReceiver(t)
	cfg, err := tracing.ConfigFromEnv(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	tr, err := tracing.New(context.Background(), cfg)
	if err != nil || tr.Enabled() {
		t.Fatalf("tracing from an empty environment: %v, enabled %v", err, tr.Enabled())
	}
	s := newServer(t, serverOptions{tracing: tr, traceURLTemplate: "https://jaeger.example/trace/{traceId}"})
	url, outbound := outboundRecorder(t)
	wf := s.tracedWorkflow(url, "value")
	raw, _ := json.Marshal(map[string]any{"connectionId": s.conn, "params": map[string]any{}})
	req, _ := http.NewRequest("POST", s.url+"/api/workflows/"+wf+"/trigger", bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+s.key)
	req.Header.Set("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
	res, err := s.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	var trig struct{ ID string }
	json.Unmarshal(body, &trig)
	s.waitStatus(wf, trig.ID, "complete", 90*time.Second)
	r := s.must(200, "GET", "/api/workflows/"+wf+"/runs/"+trig.ID, nil).obj()
	if r["traceId"] != nil || r["traceUrl"] != nil {
		t.Errorf("an untraced run answers traceId %v traceUrl %v", r["traceId"], r["traceUrl"])
	}
	if got := outbound(); len(got) != 1 || got[0] != "||value" {
		t.Errorf("the called service saw %q, want no trace headers", got)
	}
	if rc.count() != 0 {
		t.Errorf("the receiver got %d spans or payloads with tracing off", rc.count())
	}
}

// TestTracesOfMarketplaceNodeAndTestRun: a marketplace node's request
// carries the traceparent of its step's span (ctx.trace of the template
// contract), in a triggered run and in a test run; a test run is a trace of
// its own under the test request's span, with its run and step spans.
func TestTracesOfMarketplaceNodeAndTestRun(t *testing.T) {
	requireEdge(t)
	t.Parallel()
	rc := newOTLPReceiver(t)
	tr, err := tracing.New(context.Background(), tracing.Config{Endpoint: rc.url + "/v1/traces", Protocol: tracing.ProtocolHTTP,
		ServiceName: "edgeflow-e2e"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Shutdown(context.Background()) })
	s := newServer(t, serverOptions{tracing: tr, refresherInterval: 200 * time.Millisecond})
	url, outbound := outboundRecorder(t)
	s.must(201, "POST", "/api/marketplace/install", map[string]any{"nodeId": "slack-message", "version": "2.1.0"})
	notify := node("notify", "slack-message", "Notify", map[string]any{"channel": "C1", "text": "order {{load.n}}", "baseUrl": url})
	notify["version"] = "2.1.0"
	wf, ver := s.workflow("Orders", "workflow", chain("Orders",
		node("load", "step", "Load", map[string]any{"code": "return { n: 1 };"}), notify))
	s.must(200, "PATCH", "/api/workflows/"+wf, map[string]any{"envVars": []map[string]any{
		{"name": "SLACK_BOT_TOKEN", "value": "xoxb-e2e", "isSecret": true}}})
	s.deploy(wf)
	id := func(b []byte) string { return hex.EncodeToString(b) }
	// spans waits for the named spans of the trace and answers them by name.
	spans := func(traceID string, names ...string) map[string]*tracepb.Span {
		byName := map[string]*tracepb.Span{}
		testenv.WaitFor(t, 30*time.Second, 200*time.Millisecond, "the spans of trace "+traceID, func() (bool, string) {
			tr.ForceFlush(context.Background())
			for _, sp := range rc.spansOf(traceID) {
				byName[sp.Name] = sp
			}
			for _, want := range names {
				if byName[want] == nil {
					return false, "no span " + want
				}
			}
			return true, ""
		})
		return byName
	}

	// A triggered run: the node's request has the Notify step's span.
	const callerTrace, callerSpan = "5bf92f3577b34da6a3ce929d0e0e4737", "10f067aa0ba902b8"
	raw, _ := json.Marshal(map[string]any{"connectionId": s.conn, "params": map[string]any{}})
	req, _ := http.NewRequest("POST", s.url+"/api/workflows/"+wf+"/trigger", bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+s.key)
	req.Header.Set("traceparent", "00-"+callerTrace+"-"+callerSpan+"-01")
	res, err := s.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 201 {
		t.Fatalf("trigger: %d %s", res.StatusCode, body)
	}
	var trig struct{ ID string }
	json.Unmarshal(body, &trig)
	s.waitStatus(wf, trig.ID, "complete", 90*time.Second)
	byName := spans(callerTrace, "run Orders", "Load", "Notify")
	got := outbound()
	if want := "00-" + callerTrace + "-" + id(byName["Notify"].SpanId) + "-01||"; len(got) != 1 || got[0] != want {
		t.Fatalf("the service called by the marketplace node saw %q, want [%q] (the Notify step's span)", got, want)
	}
	if id(byName["Notify"].ParentSpanId) != id(byName["run Orders"].SpanId) {
		t.Errorf("Notify's parent %s, want the run span", id(byName["Notify"].ParentSpanId))
	}

	// A test run of the version: a trace under the test request's span.
	var tres struct{ Status string }
	s.must(200, "POST", "/api/workflows/"+wf+"/versions/"+ver+"/test", map[string]any{}).into(&tres)
	if tres.Status != "complete" {
		t.Fatalf("test run status %q", tres.Status)
	}
	got = outbound()
	if len(got) != 2 {
		t.Fatalf("the service saw %d requests, want 2: %q", len(got), got)
	}
	parts := strings.Split(strings.Split(got[1], "|")[0], "-")
	if len(parts) != 4 || parts[1] == callerTrace {
		t.Fatalf("the test run's request carried traceparent %q, want one of a trace of its own", got[1])
	}
	testTrace := parts[1]
	byName = spans(testTrace, "POST /api/workflows/{workflowId}/versions/{versionId}/test", "run Orders", "Load", "Notify")
	testReq, runSpan := byName["POST /api/workflows/{workflowId}/versions/{versionId}/test"], byName["run Orders"]
	if id(runSpan.ParentSpanId) != id(testReq.SpanId) {
		t.Errorf("the test run's span has parent %s, want the test request's span %s", id(runSpan.ParentSpanId), id(testReq.SpanId))
	}
	for _, name := range []string{"Load", "Notify"} {
		if id(byName[name].ParentSpanId) != id(runSpan.SpanId) || spanAttr(byName[name], "edgeflow.step.state") != "complete" {
			t.Errorf("test run step %s: parent %s state %s", name, id(byName[name].ParentSpanId), spanAttr(byName[name], "edgeflow.step.state"))
		}
	}
	if parts[2] != id(byName["Notify"].SpanId) {
		t.Errorf("the test run's request came from span %s, want the Notify step's %s", parts[2], id(byName["Notify"].SpanId))
	}
}
