package deploy_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/testenv"
	"github.com/edgeflow/edgeflow/internal/tracing"
	"github.com/google/go-cmp/cmp"
	"go.opentelemetry.io/otel/trace"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// spanSink is an OTLP/HTTP receiver keeping the spans it decodes.
type spanSink struct {
	mu    sync.Mutex
	spans []*tracepb.Span
}

func newSpanSink(t *testing.T) (*spanSink, *tracing.Tracing) {
	t.Helper()
	sink := &spanSink{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var req coltracepb.ExportTraceServiceRequest
		if err := proto.Unmarshal(raw, &req); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		sink.mu.Lock()
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
	must(t, err)
	t.Cleanup(func() { tr.Shutdown(context.Background()) })
	return sink, tr
}

// names are the names of the spans received, sorted, after a flush.
func (s *spanSink) names(tr *tracing.Tracing) []string {
	tr.ForceFlush(context.Background())
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, sp := range s.spans {
		out = append(out, sp.Name)
	}
	sort.Strings(out)
	return out
}

func providerStep(name string, success *bool, finished bool) map[string]any {
	st := map[string]any{"name": name, "type": "step", "start": "2026-12-01T10:00:00Z", "attempts": []any{}}
	if finished {
		st["end"] = "2026-12-01T10:00:01Z"
		st["success"] = *success
		st["attempts"] = []any{map[string]any{"start": "2026-12-01T10:00:00Z", "end": "2026-12-01T10:00:01Z", "success": *success}}
		if !*success {
			st["error"] = map[string]any{"name": "Error", "message": "card declined"}
			st["attempts"] = []any{map[string]any{"success": false, "error": map[string]any{"name": "Error", "message": "card declined"}}}
		}
	}
	return st
}

func stepsJSON(t *testing.T, steps ...map[string]any) json.RawMessage {
	b, err := json.Marshal(steps)
	must(t, err)
	return b
}

// TestTracedRunSpans: a run triggered inside a span carries its trace context
// to the instance (not in its stored params) and is a child of that span;
// each step's span is emitted once, when a refresh writes its end, however
// often the run is read; the run's span when it ends.
func TestTracedRunSpans(t *testing.T) {
	t.Parallel()
	w := newRunWorld(t)
	sink, tr := newSpanSink(t)
	w.svc.SetTracing(tr)
	parent := trace.NewSpanContext(trace.SpanContextConfig{TraceID: [16]byte{1, 2, 3}, SpanID: [8]byte{4, 5, 6}, TraceFlags: trace.FlagsSampled, Remote: true})
	ctx := trace.ContextWithRemoteSpanContext(context.Background(), parent)
	res, err := w.svc.Trigger(ctx, w.read(t), deploy.TriggerRequest{ConnectionID: w.conn.ID, Params: json.RawMessage(`{"orderId":"A-1"}`)})
	must(t, err)
	calls := w.prov.take()
	r, err := w.st.FindRunByID(ctx, w.wf.ID, res.ID)
	must(t, err)
	if r.Trace == nil || r.TraceID != parent.TraceID().String() || r.Trace.ParentSpanID != parent.SpanID().String() || r.Trace.Name != "orders" {
		t.Fatalf("run trace %+v (%s), want a child of %s", r.Trace, r.TraceID, parent.SpanID())
	}
	wantCreate := `create wf-orders ` + r.ID + ` {"__edgeflowTrace":{"traceparent":"00-` + r.TraceID + `-` + r.Trace.SpanID + `-01"},"orderId":"A-1"}`
	if diff := cmp.Diff([]string{wantCreate}, calls); diff != "" {
		t.Errorf("provider calls (-want +got):\n%s", diff)
	}
	if string(r.Params) != `{"orderId":"A-1"}` {
		t.Errorf("stored params %s", r.Params)
	}

	yes, no := true, false
	// Load ended, Charge running: Load's span; read again unchanged: nothing more.
	w.prov.set(r.InstanceID, "running", stepsJSON(t, providerStep("Load order", &yes, true), providerStep("Charge", nil, false)))
	for range 2 {
		_, err = w.svc.GetRun(ctx, w.tenant.ProjectID, w.wf.ID, r.ID)
		must(t, err)
	}
	testenv.WaitFor(t, 10*time.Second, 20*time.Millisecond, "Load's span", func() (bool, string) {
		got := sink.names(tr)
		return len(got) == 1, strings.Join(got, ",")
	})
	if got := sink.names(tr); !cmp.Equal(got, []string{"Load order"}) {
		t.Errorf("spans after the first step %v", got)
	}
	// Charge failed, the run errored: Charge's span and the run's, once each.
	w.prov.set(r.InstanceID, "errored", stepsJSON(t, providerStep("Load order", &yes, true), providerStep("Charge", &no, true)))
	for range 2 {
		_, err = w.svc.GetRun(ctx, w.tenant.ProjectID, w.wf.ID, r.ID)
		must(t, err)
	}
	want := []string{"Charge", "Load order", "run orders"}
	testenv.WaitFor(t, 10*time.Second, 20*time.Millisecond, "the run's spans", func() (bool, string) {
		got := sink.names(tr)
		return len(got) >= 3, strings.Join(got, ",")
	})
	if got := sink.names(tr); !cmp.Equal(got, want) {
		t.Errorf("spans %v, want %v", got, want)
	}
	sink.mu.Lock()
	defer sink.mu.Unlock()
	for _, sp := range sink.spans {
		switch sp.Name {
		case "run orders":
			if hex.EncodeToString(sp.ParentSpanId) != parent.SpanID().String() || sp.Status.GetCode() != tracepb.Status_STATUS_CODE_ERROR {
				t.Errorf("run span parent %x status %v", sp.ParentSpanId, sp.Status)
			}
		case "Charge":
			if sp.Status.GetMessage() != "card declined" || hex.EncodeToString(sp.ParentSpanId) != r.Trace.SpanID {
				t.Errorf("Charge span parent %x status %v", sp.ParentSpanId, sp.Status)
			}
		}
	}
}

// TestUntracedTrigger: with tracing off the instance's params are the
// caller's, and the run has no trace.
func TestUntracedTrigger(t *testing.T) {
	t.Parallel()
	w := newRunWorld(t)
	res, err := w.svc.Trigger(context.Background(), w.read(t), deploy.TriggerRequest{ConnectionID: w.conn.ID, Params: json.RawMessage(`{"a":1}`)})
	must(t, err)
	if diff := cmp.Diff([]string{"create wf-orders " + res.ID + ` {"a":1}`}, w.prov.take()); diff != "" {
		t.Errorf("provider calls (-want +got):\n%s", diff)
	}
	r, err := w.st.FindRunByID(context.Background(), w.wf.ID, res.ID)
	must(t, err)
	if r.Trace != nil || r.TraceID != "" {
		t.Errorf("untraced run has trace %+v", r.Trace)
	}
}

// TestTracedBatchRuns: each run of a batch trigger has a trace of its own
// context, a child of the batch request's span like a single trigger's run,
// carried to its instance and not stored in its params.
func TestTracedBatchRuns(t *testing.T) {
	t.Parallel()
	w := newRunWorld(t)
	_, tr := newSpanSink(t)
	w.svc.SetTracing(tr)
	parent := trace.NewSpanContext(trace.SpanContextConfig{TraceID: [16]byte{7, 7}, SpanID: [8]byte{8, 8}, TraceFlags: trace.FlagsSampled, Remote: true})
	ctx := trace.ContextWithRemoteSpanContext(context.Background(), parent)
	res, err := w.svc.TriggerBatch(ctx, w.read(t), deploy.BatchTriggerRequest{ConnectionID: w.conn.ID,
		Runs: []deploy.BatchRun{{Params: json.RawMessage(`{"n":1}`)}, {Params: json.RawMessage(`{"n":2}`)}}})
	must(t, err)
	if len(res.Created) != 2 {
		t.Fatalf("batch created %+v, errors %+v", res.Created, res.Errors)
	}
	var want []string
	spans := map[string]bool{}
	for i, c := range res.Created {
		r, err := w.st.FindRunByID(ctx, w.wf.ID, c.ID)
		must(t, err)
		if r.Trace == nil || r.TraceID != parent.TraceID().String() || r.Trace.ParentSpanID != parent.SpanID().String() || r.Trace.Name != "orders" {
			t.Fatalf("run %d trace %+v, want a child of the batch request's span", i, r.Trace)
		}
		spans[r.Trace.SpanID] = true
		if string(r.Params) != fmt.Sprintf(`{"n":%d}`, i+1) {
			t.Errorf("run %d stored params %s", i, r.Params)
		}
		want = append(want, fmt.Sprintf(`create wf-orders %s {"__edgeflowTrace":{"traceparent":"00-%s-%s-01"},"n":%d}`, r.ID, r.TraceID, r.Trace.SpanID, i+1))
	}
	if len(spans) != 2 {
		t.Errorf("the batch's runs share a run span id: %v", spans)
	}
	if diff := cmp.Diff(want, w.prov.take()); diff != "" {
		t.Errorf("provider calls (-want +got):\n%s", diff)
	}
}

// TestTracedCronRun: a run a provider started on a cron schedule, found by
// discovery, has a trace of its own (a root: no request started it), and
// what it did before it was found is emitted at once: its step spans and,
// as it had ended, its run span.
func TestTracedCronRun(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, org, prj := testOrg(t)
	yes := true
	steps, _ := json.Marshal([]any{providerStep("Fire", &yes, true)})
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/accounts/acct/workflows/wf-cron/instances":
			fmt.Fprintf(w, `{"success":true,"errors":[],"result":[{"id":"tick-1","status":"complete","created_on":%q}]}`,
				time.Now().UTC().Add(time.Hour).Format(time.RFC3339))
		case "/accounts/acct/workflows/wf-cron/instances/tick-1":
			fmt.Fprintf(w, `{"success":true,"errors":[],"result":{"status":"complete","params":{},"output":{"fired":true},"steps":%s}}`, steps)
		default:
			w.WriteHeader(404)
			fmt.Fprint(w, `{"success":false,"errors":[{"code":10007,"message":"not found"}]}`)
		}
	}))
	t.Cleanup(hs.Close)
	svc, err := deploy.New(deploy.Options{Store: st, Secrets: fixedSecrets{}, CloudflareBaseURL: hs.URL})
	must(t, err)
	sink, tr := newSpanSink(t)
	svc.SetTracing(tr)
	wf := &edgeflow.Workflow{ProjectID: prj.ID, Name: "nightly", Kind: "workflow"}
	must(t, st.CreateWorkflow(ctx, wf))
	ver := &edgeflow.Version{WorkflowID: wf.ID,
		IR: json.RawMessage(`{"metadata":{"name":"nightly"},"nodes":[{"id":"fire","type":"step","label":"Fire","data":{"code":"return 1;"}}],"edges":[],"entryNodeId":"fire","trigger":{"type":"cron","expression":"*/5 * * * *"}}`)}
	must(t, st.CreateVersion(ctx, ver))
	conn := cfConnection(t, st, org)
	dep := &edgeflow.Deployment{ID: edgeflow.NewID(edgeflow.PrefixDeployment), WorkflowID: wf.ID, ProjectID: prj.ID, VersionID: ver.ID,
		ConnectionID: conn.ID, Status: edgeflow.DeploymentActive, ScriptName: "s", WorkflowName: "wf-cron"}
	must(t, st.RecordDeployment(ctx, dep))

	if n := svc.DiscoverCronRuns(ctx); n != 1 {
		t.Fatalf("discovery recorded %d runs, want 1", n)
	}
	r, err := st.FindRunByInstanceID(ctx, wf.ID, "tick-1")
	must(t, err)
	if r.Trace == nil || r.TraceID == "" || r.Trace.ParentSpanID != "" || r.Trace.Name != "nightly" {
		t.Fatalf("discovered run's trace %+v, want a root of its own", r.Trace)
	}
	testenv.WaitFor(t, 10*time.Second, 20*time.Millisecond, "the cron run's spans", func() (bool, string) {
		got := sink.names(tr)
		return len(got) >= 2, strings.Join(got, ",")
	})
	if got := sink.names(tr); !cmp.Equal(got, []string{"Fire", "run nightly"}) {
		t.Errorf("spans %v, want Fire and run nightly", got)
	}
	sink.mu.Lock()
	defer sink.mu.Unlock()
	for _, sp := range sink.spans {
		if hex.EncodeToString(sp.TraceId) != r.TraceID {
			t.Errorf("span %s in trace %x, want the run's %s", sp.Name, sp.TraceId, r.TraceID)
		}
		if sp.Name == "Fire" && hex.EncodeToString(sp.ParentSpanId) != r.Trace.SpanID {
			t.Errorf("Fire's parent %x, want the run span %s", sp.ParentSpanId, r.Trace.SpanID)
		}
		if sp.Name == "run nightly" && len(sp.ParentSpanId) != 0 {
			t.Errorf("the cron run's span has parent %x", sp.ParentSpanId)
		}
	}
}
