package cloudflare_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/edgeflow/edgeflow/internal/cloudflare"
)

const (
	testToken   = "tok-Very-Secret-123"
	testAccount = "acc1"
)

// part is an expected multipart part.
type part struct {
	Name, Filename, ContentType, Content string
}

// exchange is one expected request and the stub's answer.
type exchange struct {
	method   string
	path     string // escaped path, e.g. /client/v4/accounts/acc1/storage/kv/namespaces/ns/values/k%201%2Fx
	query    string // expected query, compared as url.Values; "" means none
	body     string // expected JSON body; "" means no body
	parts    []part // expected multipart parts (instead of body)
	status   int    // 0 means 200
	resp     string // answer body
	respType string // answer content type; "" means application/json
	header   map[string]string
	delay    time.Duration
}

// stub is a fake Cloudflare API that checks each request against the next expected exchange.
type stub struct {
	t    *testing.T
	srv  *httptest.Server
	mu   sync.Mutex
	want []exchange
	n    int
}

func newStub(t *testing.T, want ...exchange) *stub {
	t.Helper()
	s := &stub{t: t, want: want}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(func() {
		s.srv.Close()
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.n != len(s.want) {
			t.Errorf("stub got %d requests, want %d", s.n, len(s.want))
		}
	})
	return s
}

func (s *stub) serve(w http.ResponseWriter, r *http.Request) {
	t := s.t
	s.mu.Lock()
	i := s.n
	s.n++
	s.mu.Unlock()
	if i >= len(s.want) {
		t.Errorf("unexpected request %d: %s %s", i+1, r.Method, r.URL)
		http.Error(w, "unexpected", 500)
		return
	}
	x := s.want[i]
	name := x.method + " " + x.path
	if r.Method != x.method || r.URL.EscapedPath() != x.path {
		t.Errorf("request %d: got %s %s, want %s", i+1, r.Method, r.URL.EscapedPath(), name)
	}
	gotQ, wantQ := r.URL.Query(), mustQuery(t, x.query)
	if diff := cmp.Diff(wantQ, gotQ); diff != "" {
		t.Errorf("%s: query (-want +got):\n%s", name, diff)
	}
	if got := r.Header.Get("Authorization"); got != "Bearer "+testToken {
		t.Errorf("%s: Authorization = %q", name, got)
	}
	for _, h := range []string{"X-Auth-Key", "X-Auth-Email", "X-Auth-User-Service-Key"} {
		if v := r.Header.Get(h); v != "" {
			t.Errorf("%s: unexpected header %s", name, h)
		}
	}
	raw, _ := io.ReadAll(r.Body)
	ct, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch {
	case x.parts != nil:
		if ct != "multipart/form-data" {
			t.Errorf("%s: content type %q, want multipart/form-data", name, ct)
			break
		}
		var got []part
		mr := multipart.NewReader(bytes.NewReader(raw), params["boundary"])
		for {
			p, err := mr.NextPart()
			if err != nil {
				break
			}
			b, _ := io.ReadAll(p)
			content := string(b)
			if p.FormName() == "metadata" {
				content = canonJSON(t, content)
			}
			// FileName() drops directories; read the raw parameter.
			_, dp, _ := mime.ParseMediaType(p.Header.Get("Content-Disposition"))
			got = append(got, part{Name: p.FormName(), Filename: dp["filename"], ContentType: p.Header.Get("Content-Type"), Content: content})
		}
		want := append([]part(nil), x.parts...)
		for i := range want {
			if want[i].Name == "metadata" {
				want[i].Content = canonJSON(t, want[i].Content)
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: multipart parts (-want +got):\n%s", name, diff)
		}
	case x.body != "":
		if ct != "application/json" {
			t.Errorf("%s: content type %q, want application/json", name, ct)
		}
		if diff := cmp.Diff(canonJSON(t, x.body), canonJSON(t, string(raw))); diff != "" {
			t.Errorf("%s: body (-want +got):\n%s", name, diff)
		}
	default:
		if len(raw) != 0 {
			t.Errorf("%s: unexpected body %q", name, raw)
		}
	}
	if x.delay > 0 {
		select {
		case <-time.After(x.delay):
		case <-r.Context().Done():
			return
		}
	}
	rt := x.respType
	if rt == "" {
		rt = "application/json"
	}
	w.Header().Set("Content-Type", rt)
	for k, v := range x.header {
		w.Header().Set(k, v)
	}
	if x.status != 0 {
		w.WriteHeader(x.status)
	}
	_, _ = io.WriteString(w, x.resp)
}

func mustQuery(t *testing.T, q string) url.Values {
	v, err := url.ParseQuery(q)
	if err != nil {
		t.Fatalf("bad query %q: %v", q, err)
	}
	return v
}

func canonJSON(t *testing.T, s string) string {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return "INVALID JSON: " + s
	}
	out, _ := json.Marshal(v)
	return string(out)
}

func ok(result string) string {
	return `{"success":true,"errors":[],"messages":[],"result":` + result + `}`
}

func okInfo(result, info string) string {
	return `{"success":true,"errors":[],"messages":[],"result":` + result + `,"result_info":` + info + `}`
}

func fail(code int, msg string) string {
	return `{"success":false,"errors":[{"code":` + itoa(code) + `,"message":"` + msg + `"}],"messages":[],"result":null}`
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func newClient(t *testing.T, s *stub, mod func(*cloudflare.Options)) *cloudflare.Client {
	t.Helper()
	o := cloudflare.Options{BaseURL: s.srv.URL + "/client/v4", APIToken: testToken, AccountID: testAccount, Timeout: 5 * time.Second, MaxRetries: 2}
	if mod != nil {
		mod(&o)
	}
	c, err := cloudflare.New(o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

const A = "/client/v4/accounts/acc1"

func ts(s string) *time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return &t
}

func ptr[T any](v T) *T { return &v }

func TestCalls(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tests := []struct {
		name string
		want []exchange
		call func(c *cloudflare.Client) (any, error)
		out  any
	}{
		{
			name: "VerifyToken",
			want: []exchange{{method: "GET", path: "/client/v4/user/tokens/verify", resp: ok(`{"id":"t1","status":"active","expires_on":"2030-01-02T03:04:05Z"}`)}},
			call: func(c *cloudflare.Client) (any, error) { return c.VerifyToken(ctx) },
			out:  cloudflare.TokenStatus{ID: "t1", Status: "active", ExpiresOn: ts("2030-01-02T03:04:05Z")},
		},
		{
			name: "VerifyToken account-owned token",
			want: []exchange{
				{method: "GET", path: "/client/v4/user/tokens/verify", status: 401, resp: fail(1000, "Invalid API Token")},
				{method: "GET", path: A + "/tokens/verify", resp: ok(`{"id":"t2","status":"active"}`)},
			},
			call: func(c *cloudflare.Client) (any, error) { return c.VerifyToken(ctx) },
			out:  cloudflare.TokenStatus{ID: "t2", Status: "active"},
		},
		{
			name: "ListAccounts pages",
			want: []exchange{
				{method: "GET", path: "/client/v4/accounts", query: "page=1&per_page=50", resp: okInfo(`[{"id":"a1","name":"One","type":"standard"}]`, `{"page":1,"per_page":50,"count":1,"total_count":2}`)},
				{method: "GET", path: "/client/v4/accounts", query: "page=2&per_page=50", resp: okInfo(`[{"id":"a2","name":"Two"}]`, `{"page":2,"per_page":50,"count":1,"total_count":2}`)},
			},
			call: func(c *cloudflare.Client) (any, error) { return c.ListAccounts(ctx) },
			out:  []cloudflare.Account{{ID: "a1", Name: "One"}, {ID: "a2", Name: "Two"}},
		},
		{
			name: "UploadScript",
			want: []exchange{{
				method: "PUT", path: A + "/workers/scripts/wf-demo",
				parts: []part{
					{Name: "metadata", ContentType: "application/json", Content: `{"main_module":"index.js","compatibility_date":"2025-01-01","compatibility_flags":["nodejs_compat"],
						"bindings":[{"type":"plain_text","name":"GREETING","text":"hello"},{"type":"secret_text","name":"API_KEY","text":"s3cr3t"},
						{"type":"workflow","name":"WF","workflow_name":"demo","class_name":"Demo"},{"type":"kv_namespace","name":"KV","namespace_id":"ns1"},
						{"type":"d1","name":"DB","id":"db-uuid","database_id":"db-uuid"},{"type":"r2_bucket","name":"B","bucket_name":"bkt"},
						{"type":"service","name":"S","service":"other","entrypoint":"Api"}],"keep_bindings":["secret_text"]}`},
					{Name: "index.js", Filename: "index.js", ContentType: "application/javascript+module", Content: "export default {}"},
					{Name: "lib/util.mjs", Filename: "lib/util.mjs", ContentType: "application/javascript+module", Content: "export const x = 1"},
					{Name: "data.bin", Filename: "data.bin", ContentType: "application/octet-stream", Content: "\x00\x01"},
					{Name: "custom.txt", Filename: "custom.txt", ContentType: "text/plain", Content: "hi"},
				},
				resp: ok(`{"id":"wf-demo","etag":"e","startup_time_ms":3}`),
			}},
			call: func(c *cloudflare.Client) (any, error) {
				return nil, c.UploadScript(ctx, "wf-demo", cloudflare.Script{
					MainModule: "index.js",
					Modules: []cloudflare.Module{
						{Name: "index.js", Content: []byte("export default {}")},
						{Name: "lib/util.mjs", Content: []byte("export const x = 1")},
						{Name: "data.bin", Content: []byte{0, 1}},
						{Name: "custom.txt", Content: []byte("hi"), ContentType: "text/plain"},
					},
					CompatibilityDate:  "2025-01-01",
					CompatibilityFlags: []string{"nodejs_compat"},
					Bindings: []cloudflare.Binding{
						cloudflare.PlainText("GREETING", "hello"), cloudflare.SecretText("API_KEY", "s3cr3t"),
						cloudflare.WorkflowBinding("WF", "demo", "Demo"), cloudflare.KVBinding("KV", "ns1"),
						cloudflare.D1Binding("DB", "db-uuid"), cloudflare.R2Binding("B", "bkt"),
						cloudflare.ServiceBinding("S", "other", "Api"),
					},
					KeepBindings: []string{"secret_text"},
				})
			},
		},
		{
			name: "DeleteScript",
			want: []exchange{{method: "DELETE", path: A + "/workers/scripts/wf-demo", query: "force=true", resp: ok(`null`)}},
			call: func(c *cloudflare.Client) (any, error) { return nil, c.DeleteScript(ctx, "wf-demo") },
		},
		{
			name: "ListScriptSecrets",
			want: []exchange{{method: "GET", path: A + "/workers/scripts/wf-demo/secrets", resp: ok(`[{"name":"API_KEY","type":"secret_text"},{"name":"TOKEN","type":"secret_text"}]`)}},
			call: func(c *cloudflare.Client) (any, error) { return c.ListScriptSecrets(ctx, "wf-demo") },
			out:  []string{"API_KEY", "TOKEN"},
		},
		{
			name: "ListScriptSecrets of a worker that does not exist",
			want: []exchange{{method: "GET", path: A + "/workers/scripts/wf-demo/secrets", status: 404, resp: fail(10007, "This Worker does not exist on your account.")}},
			call: func(c *cloudflare.Client) (any, error) { return c.ListScriptSecrets(ctx, "wf-demo") },
			out:  []string(nil),
		},
		{
			name: "DeleteScriptSecret",
			want: []exchange{{method: "DELETE", path: A + "/workers/scripts/wf-demo/secrets/API_KEY", resp: ok(`{}`)}},
			call: func(c *cloudflare.Client) (any, error) { return nil, c.DeleteScriptSecret(ctx, "wf-demo", "API_KEY") },
		},
		{
			name: "DeleteScriptSecret that is gone",
			want: []exchange{{method: "DELETE", path: A + "/workers/scripts/wf-demo/secrets/API_KEY", status: 404, resp: fail(10056, "secret not found")}},
			call: func(c *cloudflare.Client) (any, error) { return nil, c.DeleteScriptSecret(ctx, "wf-demo", "API_KEY") },
		},
		{
			name: "GetAccountSubdomain",
			want: []exchange{{method: "GET", path: A + "/workers/subdomain", resp: ok(`{"subdomain":"acme"}`)}},
			call: func(c *cloudflare.Client) (any, error) { return c.GetAccountSubdomain(ctx) },
			out:  "acme",
		},
		{
			name: "WorkersDevURL",
			want: []exchange{{method: "GET", path: A + "/workers/subdomain", resp: ok(`{"subdomain":"acme"}`)}},
			call: func(c *cloudflare.Client) (any, error) { return c.WorkersDevURL(ctx, "wf-demo") },
			out:  "https://wf-demo.acme.workers.dev",
		},
		{
			name: "SetScriptSubdomain",
			want: []exchange{{method: "POST", path: A + "/workers/scripts/wf-demo/subdomain", body: `{"enabled":true,"previews_enabled":true}`, resp: ok(`{"enabled":true,"previews_enabled":true}`)}},
			call: func(c *cloudflare.Client) (any, error) { return nil, c.SetScriptSubdomain(ctx, "wf-demo", true) },
		},
		{
			name: "FindZone strips labels",
			want: []exchange{
				{method: "GET", path: "/client/v4/zones", query: "name=app.example.com&account.id=acc1", resp: okInfo(`[]`, `{"page":1,"per_page":20,"count":0,"total_count":0}`)},
				{method: "GET", path: "/client/v4/zones", query: "name=example.com&account.id=acc1", resp: ok(`[{"id":"z1","name":"example.com","status":"active"}]`)},
			},
			call: func(c *cloudflare.Client) (any, error) { return c.FindZone(ctx, "App.Example.com") },
			out:  cloudflare.Zone{ID: "z1", Name: "example.com"},
		},
		{
			name: "PutScriptRoutes",
			want: []exchange{{method: "PUT", path: A + "/workers/scripts/wf-demo/routes", body: `[{"pattern":"app.example.com/*","zone_name":"example.com"},{"pattern":"api.example.org/v1/*"}]`, resp: ok(`[]`)}},
			call: func(c *cloudflare.Client) (any, error) {
				return nil, c.PutScriptRoutes(ctx, "wf-demo", []cloudflare.Route{{Pattern: "app.example.com/*", ZoneName: "example.com"}, {Pattern: "api.example.org/v1/*"}})
			},
		},
		{
			name: "PutWorkflowSchedules",
			want: []exchange{{method: "PUT", path: A + "/workflows/demo", body: `{"script_name":"wf-demo","class_name":"Demo","schedules":[{"cron":"*/5 * * * *"},{"cron":"0 9 * * MON"}]}`,
				resp: ok(`{"id":"w-id","name":"demo","script_name":"wf-demo","class_name":"Demo","created_on":"2026-01-01T00:00:00Z","modified_on":"2026-01-02T00:00:00Z","version_id":"v1"}`)}},
			call: func(c *cloudflare.Client) (any, error) {
				return c.PutWorkflow(ctx, cloudflare.WorkflowSpec{Name: "demo", ScriptName: "wf-demo", ClassName: "Demo", Schedules: []string{"*/5 * * * *", "0 9 * * MON"}})
			},
			out: cloudflare.Workflow{ID: "w-id", Name: "demo", ScriptName: "wf-demo", ClassName: "Demo", VersionID: "v1",
				CreatedOn: *ts("2026-01-01T00:00:00Z"), ModifiedOn: *ts("2026-01-02T00:00:00Z")},
		},
		{
			name: "PutWorkflowClearSchedules",
			want: []exchange{{method: "PUT", path: A + "/workflows/demo", body: `{"script_name":"wf-demo","class_name":"Demo","schedules":[]}`,
				resp: ok(`{"id":"w-id","name":"demo","script_name":"wf-demo","class_name":"Demo","created_on":"2026-01-01T00:00:00Z","modified_on":"2026-01-02T00:00:00Z","version_id":"v1"}`)}},
			call: func(c *cloudflare.Client) (any, error) {
				return c.PutWorkflow(ctx, cloudflare.WorkflowSpec{Name: "demo", ScriptName: "wf-demo", ClassName: "Demo", Schedules: []string{}})
			},
			out: cloudflare.Workflow{ID: "w-id", Name: "demo", ScriptName: "wf-demo", ClassName: "Demo", VersionID: "v1",
				CreatedOn: *ts("2026-01-01T00:00:00Z"), ModifiedOn: *ts("2026-01-02T00:00:00Z")},
		},
		{
			name: "PutWorkflowLimitsRetention",
			want: []exchange{{method: "PUT", path: A + "/workflows/demo", body: `{"script_name":"wf-demo","class_name":"Demo","schedules":[],"limits":{"steps":20000,"cpu_ms":60000},"default_retention":{"success_retention":86400000,"error_retention":2592000000}}`,
				resp: ok(`{"id":"w-id","name":"demo","script_name":"wf-demo","class_name":"Demo","created_on":"2026-01-01T00:00:00Z","modified_on":"2026-01-02T00:00:00Z","version_id":"v1"}`)}},
			call: func(c *cloudflare.Client) (any, error) {
				return c.PutWorkflow(ctx, cloudflare.WorkflowSpec{Name: "demo", ScriptName: "wf-demo", ClassName: "Demo", Schedules: []string{},
					Limits: &cloudflare.WorkflowLimits{Steps: 20000, CPUMs: 60000}, DefaultRetention: &cloudflare.Retention{SuccessMs: 86400000, ErrorMs: 2592000000}})
			},
			out: cloudflare.Workflow{ID: "w-id", Name: "demo", ScriptName: "wf-demo", ClassName: "Demo", VersionID: "v1",
				CreatedOn: *ts("2026-01-01T00:00:00Z"), ModifiedOn: *ts("2026-01-02T00:00:00Z")},
		},
		{
			name: "PutWorkflow",
			want: []exchange{{method: "PUT", path: A + "/workflows/demo", body: `{"script_name":"wf-demo","class_name":"Demo"}`,
				resp: ok(`{"id":"w-id","name":"demo","script_name":"wf-demo","class_name":"Demo","created_on":"2026-01-01T00:00:00Z","modified_on":"2026-01-02T00:00:00Z","version_id":"v1","is_deleted":0,"terminator_running":0,"triggered_on":null}`)}},
			call: func(c *cloudflare.Client) (any, error) {
				return c.PutWorkflow(ctx, cloudflare.WorkflowSpec{Name: "demo", ScriptName: "wf-demo", ClassName: "Demo"})
			},
			out: cloudflare.Workflow{ID: "w-id", Name: "demo", ScriptName: "wf-demo", ClassName: "Demo", VersionID: "v1",
				CreatedOn: *ts("2026-01-01T00:00:00Z"), ModifiedOn: *ts("2026-01-02T00:00:00Z")},
		},
		{
			name: "GetWorkflow",
			want: []exchange{{method: "GET", path: A + "/workflows/demo", resp: ok(`{"id":"w-id","name":"demo","script_name":"wf-demo","class_name":"Demo","created_on":"2026-01-01T00:00:00Z","modified_on":"2026-01-01T00:00:00Z","instances":{"queued":1}}`)}},
			call: func(c *cloudflare.Client) (any, error) { return c.GetWorkflow(ctx, "demo") },
			out: cloudflare.Workflow{ID: "w-id", Name: "demo", ScriptName: "wf-demo", ClassName: "Demo",
				CreatedOn: *ts("2026-01-01T00:00:00Z"), ModifiedOn: *ts("2026-01-01T00:00:00Z")},
		},
		{
			name: "ListWorkflows",
			want: []exchange{{method: "GET", path: A + "/workflows", query: "page=1&per_page=100", resp: okInfo(`[{"id":"w1","name":"a","script_name":"s","class_name":"C","created_on":"2026-01-01T00:00:00Z","modified_on":"2026-01-01T00:00:00Z"}]`, `{"page":1,"per_page":100,"count":1,"total_count":1}`)}},
			call: func(c *cloudflare.Client) (any, error) { return c.ListWorkflows(ctx) },
			out: []cloudflare.Workflow{{ID: "w1", Name: "a", ScriptName: "s", ClassName: "C",
				CreatedOn: *ts("2026-01-01T00:00:00Z"), ModifiedOn: *ts("2026-01-01T00:00:00Z")}},
		},
		{
			name: "DeleteWorkflow",
			want: []exchange{{method: "DELETE", path: A + "/workflows/demo", resp: ok(`{"status":"ok","success":true}`)}},
			call: func(c *cloudflare.Client) (any, error) { return nil, c.DeleteWorkflow(ctx, "demo") },
		},
		{
			name: "CreateInstance with id and params",
			want: []exchange{{method: "POST", path: A + "/workflows/demo/instances", body: `{"instance_id":"i-1","params":{"n":21,"s":"x"}}`,
				resp: ok(`{"id":"i-1","status":"queued","version_id":"v1","workflow_id":"w-id"}`)}},
			call: func(c *cloudflare.Client) (any, error) {
				return c.CreateInstance(ctx, "demo", "i-1", json.RawMessage(`{"n":21,"s":"x"}`))
			},
			out: cloudflare.Instance{ID: "i-1", Status: "queued", VersionID: "v1", WorkflowID: "w-id"},
		},
		{
			name: "CreateInstances object form",
			want: []exchange{{method: "POST", path: A + "/workflows/demo/instances/batch", body: `{"instances":[{"instance_id":"i-1","params":{"n":1}},{"instance_id":"i-2"}]}`,
				resp: ok(`{"created":[{"id":"i-1","status":"queued","version_id":"v1","workflow_id":"w-id"}],"errors":[{"index":1,"id":"i-2","code":10405,"message":"workflows.api.error.instance.already_exists"}]}`)}},
			call: func(c *cloudflare.Client) (any, error) {
				return c.CreateInstances(ctx, "demo", []cloudflare.NewInstance{{ID: "i-1", Params: json.RawMessage(`{"n":1}`)}, {ID: "i-2"}})
			},
			out: cloudflare.InstancesCreated{Created: []cloudflare.Instance{{ID: "i-1", Status: "queued", VersionID: "v1", WorkflowID: "w-id"}},
				Errors: []cloudflare.InstanceCreateError{{Index: 1, ID: "i-2", Code: 10405, Message: "workflows.api.error.instance.already_exists"}}},
		},
		{
			name: "CreateInstance bare",
			want: []exchange{{method: "POST", path: A + "/workflows/demo/instances", body: `{}`, resp: ok(`{"id":"gen","status":"queued","version_id":"v1","workflow_id":"w-id"}`)}},
			call: func(c *cloudflare.Client) (any, error) { return c.CreateInstance(ctx, "demo", "", nil) },
			out:  cloudflare.Instance{ID: "gen", Status: "queued", VersionID: "v1", WorkflowID: "w-id"},
		},
		{
			name: "GetInstance object output",
			want: []exchange{{method: "GET", path: A + "/workflows/demo/instances/i-1", resp: ok(`{"status":"errored","params":{"n":1},"trigger":{"source":"api"},"versionId":"v1",
				"queued":"2026-01-01T00:00:00.000Z","start":"2026-01-01T00:00:01.000Z","end":"2026-01-01T00:00:02.500Z","success":false,
				"error":{"name":"Error","message":"kaboom"},"output":{"a":[1,2]},"step_count":2,
				"steps":[{"type":"step","name":"s1","start":"2026-01-01T00:00:01Z","end":"2026-01-01T00:00:02Z","success":true,"output":"x",
				"attempts":[{"start":"2026-01-01T00:00:01Z","end":"2026-01-01T00:00:02Z","success":true,"error":null}],"config":{"retries":{"limit":1}}},
				{"type":"sleep","name":"nap","start":"2026-01-01T00:00:02Z","end":null,"finished":false}]}`)}},
			call: func(c *cloudflare.Client) (any, error) { return c.GetInstance(ctx, "demo", "i-1") },
			out: cloudflare.InstanceStatus{Status: "errored", Params: json.RawMessage(`{"n":1}`), Output: json.RawMessage(`{"a":[1,2]}`),
				Error: &cloudflare.InstanceError{Name: "Error", Message: "kaboom"}, Success: ptr(false), VersionID: "v1", Trigger: "api",
				Queued: ts("2026-01-01T00:00:00Z"), Start: ts("2026-01-01T00:00:01Z"), End: ts("2026-01-01T00:00:02.5Z"), StepCount: 2,
				Steps: []cloudflare.InstanceStep{
					{Type: "step", Name: "s1", Start: ts("2026-01-01T00:00:01Z"), End: ts("2026-01-01T00:00:02Z"), Success: ptr(true), Output: json.RawMessage(`"x"`),
						Attempts: []cloudflare.StepAttempt{{Start: ts("2026-01-01T00:00:01Z"), End: ts("2026-01-01T00:00:02Z"), Success: ptr(true)}},
						Config:   &cloudflare.StepConfig{}},
					{Type: "sleep", Name: "nap", Start: ts("2026-01-01T00:00:02Z"), Finished: ptr(false)},
				}},
		},
		{
			name: "ReadInstances",
			want: []exchange{{method: "POST", path: A + "/workflows/demo/instances/read", body: `{"ids":["i-1","i-9"]}`,
				resp: ok(`[{"id":"i-1","result":{"status":"running","params":{"n":1},"output":null,"trigger":{"source":"api"},"steps":[]}},
				{"id":"i-9","errors":[{"code":10201,"message":"Workflow instance 'i-9' not found in workflow 'demo'"}]}]`)}},
			call: func(c *cloudflare.Client) (any, error) {
				got, err := c.ReadInstances(ctx, "demo", []string{"i-1", "i-9"})
				// APIError's unexported fields kept out of the comparison
				out := []any{}
				for _, g := range got {
					if g.Err != nil {
						out = append(out, g.ID, g.Err.Op, g.Err.Status, g.Err.Errors)
					} else {
						out = append(out, g.ID, g.Instance)
					}
				}
				return out, err
			},
			out: []any{
				"i-1", cloudflare.InstanceStatus{Status: "running", Params: json.RawMessage(`{"n":1}`), Trigger: "api", Steps: []cloudflare.InstanceStep{}},
				"i-9", "GET accounts/acc1/workflows/demo/instances/i-9", 404,
				[]cloudflare.ErrorDetail{{Code: 10201, Message: "Workflow instance 'i-9' not found in workflow 'demo'"}},
			},
		},
		{
			name: "GetInstance null output",
			want: []exchange{{method: "GET", path: A + "/workflows/demo/instances/i-2", resp: ok(`{"status":"running","params":null,"output":null,"error":null,"steps":[]}`)}},
			call: func(c *cloudflare.Client) (any, error) { return c.GetInstance(ctx, "demo", "i-2") },
			out:  cloudflare.InstanceStatus{Status: "running", Steps: []cloudflare.InstanceStep{}},
		},
		{
			name: "ListInstances",
			want: []exchange{{method: "GET", path: A + "/workflows/demo/instances", query: "status=running&page=2&per_page=25",
				resp: okInfo(`[{"id":"i-1","status":"running","version_id":"v1","workflow_id":"w","created_on":"2026-01-01T00:00:00Z","modified_on":"2026-01-01T00:00:00Z","started_on":null,"ended_on":null}]`, `{"page":2,"per_page":25,"count":1,"total_count":26}`)}},
			call: func(c *cloudflare.Client) (any, error) {
				return c.ListInstances(ctx, "demo", cloudflare.InstancesQuery{Status: "running", Page: 2, PerPage: 25})
			},
			out: []cloudflare.InstanceSummary{{ID: "i-1", Status: "running", VersionID: "v1", WorkflowID: "w", CreatedOn: ts("2026-01-01T00:00:00Z"), ModifiedOn: ts("2026-01-01T00:00:00Z")}},
		},
		{
			name: "ChangeInstanceStatus",
			want: []exchange{{method: "PATCH", path: A + "/workflows/demo/instances/i-1/status", body: `{"status":"terminate"}`, resp: ok(`{"status":"terminated","timestamp":"2026-01-01T00:00:00Z"}`)}},
			call: func(c *cloudflare.Client) (any, error) {
				return nil, c.ChangeInstanceStatus(ctx, "demo", "i-1", "terminate")
			},
		},
		{
			name: "SendEvent",
			want: []exchange{{method: "POST", path: A + "/workflows/demo/instances/i-1/events/approval", body: `{"approved":true,"by":"ann"}`, resp: ok(`{}`)}},
			call: func(c *cloudflare.Client) (any, error) {
				return nil, c.SendEvent(ctx, "demo", "i-1", "approval", json.RawMessage(`{"approved":true,"by":"ann"}`))
			},
		},
		{
			name: "ListKVNamespaces",
			want: []exchange{{method: "GET", path: A + "/storage/kv/namespaces", query: "page=1&per_page=100", resp: okInfo(`[{"id":"ns1","title":"cache","supports_url_encoding":true}]`, `{"page":1,"per_page":100,"count":1,"total_count":1}`)}},
			call: func(c *cloudflare.Client) (any, error) { return c.ListKVNamespaces(ctx) },
			out:  []cloudflare.KVNamespace{{ID: "ns1", Title: "cache"}},
		},
		{
			name: "EnsureKVNamespace creates",
			want: []exchange{
				{method: "GET", path: A + "/storage/kv/namespaces", query: "page=1&per_page=100", resp: okInfo(`[{"id":"ns1","title":"other"}]`, `{"page":1,"per_page":100,"count":1,"total_count":1}`)},
				{method: "POST", path: A + "/storage/kv/namespaces", body: `{"title":"cache"}`, resp: ok(`{"id":"ns2","title":"cache","supports_url_encoding":true}`)},
			},
			call: func(c *cloudflare.Client) (any, error) { return c.EnsureKVNamespace(ctx, "cache") },
			out:  cloudflare.KVNamespace{ID: "ns2", Title: "cache"},
		},
		{
			name: "EnsureKVNamespace finds",
			want: []exchange{{method: "GET", path: A + "/storage/kv/namespaces", query: "page=1&per_page=100", resp: okInfo(`[{"id":"ns1","title":"cache"}]`, `{"page":1,"per_page":100,"count":1,"total_count":1}`)}},
			call: func(c *cloudflare.Client) (any, error) { return c.EnsureKVNamespace(ctx, "cache") },
			out:  cloudflare.KVNamespace{ID: "ns1", Title: "cache"},
		},
		{
			name: "ListKVKeys",
			want: []exchange{{method: "GET", path: A + "/storage/kv/namespaces/ns1/keys", query: "prefix=user/&cursor=c1&limit=10",
				resp: okInfo(`[{"name":"user/1","expiration":1893456000,"metadata":{"v":1}},{"name":"user/2"}]`, `{"count":2,"cursor":"c2"}`)}},
			call: func(c *cloudflare.Client) (any, error) {
				return c.ListKVKeys(ctx, "ns1", cloudflare.KVKeysQuery{Prefix: "user/", Cursor: "c1", Limit: 10})
			},
			out: cloudflare.KVKeyPage{Keys: []cloudflare.KVKey{{Name: "user/1", Expiration: 1893456000, Metadata: json.RawMessage(`{"v":1}`)}, {Name: "user/2"}}, Cursor: "c2"},
		},
		{
			name: "GetKVValue escapes the key",
			want: []exchange{{method: "GET", path: A + "/storage/kv/namespaces/ns1/values/k%201%2Fx%3F", resp: "raw \x00 bytes", respType: "application/octet-stream"}},
			call: func(c *cloudflare.Client) (any, error) {
				v, err := c.GetKVValue(ctx, "ns1", "k 1/x?")
				return string(v), err
			},
			out: "raw \x00 bytes",
		},
		{
			name: "GetKVValue JSON value",
			want: []exchange{{method: "GET", path: A + "/storage/kv/namespaces/ns1/values/j", resp: `{"a":1}`}},
			call: func(c *cloudflare.Client) (any, error) {
				v, err := c.GetKVValue(ctx, "ns1", "j")
				return string(v), err
			},
			out: `{"a":1}`,
		},
		{
			name: "ListD1Databases",
			want: []exchange{{method: "GET", path: A + "/d1/database", query: "page=1&per_page=100", resp: okInfo(`[{"uuid":"u1","name":"main","version":"production","created_at":"2026-01-01T00:00:00Z","num_tables":1}]`, `{"page":1,"per_page":100,"count":1,"total_count":1}`)}},
			call: func(c *cloudflare.Client) (any, error) { return c.ListD1Databases(ctx) },
			out:  []cloudflare.D1Database{{UUID: "u1", Name: "main", Version: "production", CreatedAt: ts("2026-01-01T00:00:00Z")}},
		},
		{
			name: "EnsureD1Database creates",
			want: []exchange{
				{method: "GET", path: A + "/d1/database", query: "name=main&page=1&per_page=100", resp: okInfo(`[]`, `{"page":1,"per_page":100,"count":0,"total_count":0}`)},
				{method: "POST", path: A + "/d1/database", body: `{"name":"main"}`, resp: ok(`{"uuid":"u9","name":"main","version":"production","created_at":"2026-01-01T00:00:00Z"}`)},
			},
			call: func(c *cloudflare.Client) (any, error) { return c.EnsureD1Database(ctx, "main") },
			out:  cloudflare.D1Database{UUID: "u9", Name: "main", Version: "production", CreatedAt: ts("2026-01-01T00:00:00Z")},
		},
		{
			name: "QueryD1",
			want: []exchange{{method: "POST", path: A + "/d1/database/u1/raw", body: `{"sql":"SELECT ?1 AS a, ?2 AS b","params":[12345678901234567,"x"]}`,
				resp: ok(`[{"results":{"columns":["a","b"],"rows":[[12345678901234567,"x"],[null,1.5]]},"success":true,"meta":{"duration":0.5,"changes":0,"last_row_id":0,"changed_db":false,"size_after":8192,"rows_read":1,"rows_written":0}}]`)}},
			call: func(c *cloudflare.Client) (any, error) {
				return c.QueryD1(ctx, "u1", "SELECT ?1 AS a, ?2 AS b", []any{json.Number("12345678901234567"), "x"})
			},
			out: cloudflare.D1Result{Columns: []string{"a", "b"}, Rows: [][]any{{json.Number("12345678901234567"), "x"}, {nil, json.Number("1.5")}},
				Meta: cloudflare.D1Meta{Duration: 0.5, SizeAfter: 8192, RowsRead: 1}},
		},
		{
			name: "QueryD1ReadOnly",
			want: []exchange{{method: "POST", path: A + "/d1/database/u1/raw", query: "edgeflow_read_only=true", body: `{"sql":"SELECT 1 AS a"}`,
				resp: ok(`[{"results":{"columns":["a"],"rows":[[1]]},"success":true,"meta":{}}]`)}},
			call: func(c *cloudflare.Client) (any, error) { return c.QueryD1ReadOnly(ctx, "u1", "SELECT 1 AS a", nil) },
			out:  cloudflare.D1Result{Columns: []string{"a"}, Rows: [][]any{{json.Number("1")}}},
		},
		{
			name: "ListR2Buckets cursor pages",
			want: []exchange{
				{method: "GET", path: A + "/r2/buckets", query: "per_page=1000", resp: okInfo(`{"buckets":[{"name":"a","creation_date":"2026-01-01T00:00:00Z","location":"ENAM"}]}`, `{"cursor":"n1","per_page":1000}`)},
				{method: "GET", path: A + "/r2/buckets", query: "per_page=1000&cursor=n1", resp: okInfo(`{"buckets":[{"name":"b"}]}`, `{"cursor":"","per_page":1000}`)},
			},
			call: func(c *cloudflare.Client) (any, error) { return c.ListR2Buckets(ctx) },
			out:  []cloudflare.R2Bucket{{Name: "a", CreationDate: "2026-01-01T00:00:00Z", Location: "ENAM"}, {Name: "b"}},
		},
		{
			name: "EnsureR2Bucket creates",
			want: []exchange{
				{method: "GET", path: A + "/r2/buckets/files", status: 404, resp: fail(10006, "The specified bucket does not exist.")},
				{method: "POST", path: A + "/r2/buckets", body: `{"name":"files"}`, resp: ok(`{"name":"files","creation_date":"2026-01-01T00:00:00Z","location":"ENAM"}`)},
			},
			call: func(c *cloudflare.Client) (any, error) { return c.EnsureR2Bucket(ctx, "files") },
			out:  cloudflare.R2Bucket{Name: "files", CreationDate: "2026-01-01T00:00:00Z", Location: "ENAM"},
		},
		{
			name: "ListR2Objects",
			want: []exchange{{method: "GET", path: A + "/r2/buckets/files/objects", query: "prefix=img/&cursor=c&delimiter=/&per_page=2",
				resp: okInfo(`[{"key":"img/a.png","size":10,"etag":"e1","last_modified":"2026-01-01T00:00:00Z","http_metadata":{"contentType":"image/png"},"custom_metadata":{}}]`,
					`{"cursor":"c2","delimited":["img/sub/"],"is_truncated":"true","per_page":2}`)}},
			call: func(c *cloudflare.Client) (any, error) {
				return c.ListR2Objects(ctx, "files", cloudflare.R2ObjectsQuery{Prefix: "img/", Cursor: "c", Delimiter: "/", Limit: 2})
			},
			out: cloudflare.R2ObjectPage{Objects: []cloudflare.R2Object{{Key: "img/a.png", Size: 10, ETag: "e1", LastModified: "2026-01-01T00:00:00Z", ContentType: "image/png"}},
				Prefixes: []string{"img/sub/"}, Cursor: "c2", Truncated: true},
		},
		{
			name: "GetR2Object escapes the key and keeps the metadata",
			want: []exchange{{method: "GET", path: A + "/r2/buckets/files/objects/img%2Fa%20b.png", resp: "\x89PNG\x00bytes", respType: "image/png",
				header: map[string]string{"ETag": `"e1"`, "Last-Modified": "Fri, 27 Nov 2026 06:40:12 GMT"}}},
			call: func(c *cloudflare.Client) (any, error) { return c.GetR2Object(ctx, "files", "img/a b.png") },
			out: cloudflare.R2ObjectData{Body: []byte("\x89PNG\x00bytes"), ContentType: "image/png", ETag: `"e1"`,
				LastModified: "Fri, 27 Nov 2026 06:40:12 GMT"},
		},
		{
			name: "GetR2Object missing key",
			want: []exchange{{method: "GET", path: A + "/r2/buckets/files/objects/gone.txt", status: 404, resp: fail(10007, "The specified key does not exist.")}},
			call: func(c *cloudflare.Client) (any, error) {
				_, err := c.GetR2Object(ctx, "files", "gone.txt")
				if !cloudflare.IsNotFound(err) {
					return nil, fmt.Errorf("missing object: %v, want not found", err)
				}
				return nil, nil
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newStub(t, tt.want...)
			c := newClient(t, s, nil)
			got, err := tt.call(c)
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if tt.out != nil {
				if diff := cmp.Diff(tt.out, got); diff != "" {
					t.Errorf("result (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestWorkersBaseURL(t *testing.T) {
	t.Parallel()
	s := newStub(t)
	c := newClient(t, s, func(o *cloudflare.Options) { o.WorkersBaseURL = "http://127.0.0.1:9/workers/" })
	got, err := c.WorkersDevURL(context.Background(), "wf-demo")
	if err != nil || got != "http://127.0.0.1:9/workers/wf-demo" {
		t.Fatalf("WorkersDevURL = %q, %v", got, err)
	}
}

func TestErrors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	getWF := func(c *cloudflare.Client) error { _, err := c.GetWorkflow(ctx, "demo"); return err }
	create := func(c *cloudflare.Client) error { _, err := c.CreateInstance(ctx, "demo", "i", nil); return err }
	const wfOK = `{"id":"w","name":"demo","script_name":"s","class_name":"C","created_on":"2026-01-01T00:00:00Z","modified_on":"2026-01-01T00:00:00Z"}`
	type preds struct{ notFound, unauthorized, conflict, rateLimited, unreachable, invalid bool }
	tests := []struct {
		name   string
		want   []exchange
		call   func(c *cloudflare.Client) error
		status int
		errs   []cloudflare.ErrorDetail
		is     preds
	}{
		{
			name: "404 with code", call: getWF, status: 404,
			want: []exchange{{method: "GET", path: A + "/workflows/demo", status: 404, resp: fail(10200, "workflow.not_found")}},
			errs: []cloudflare.ErrorDetail{{Code: 10200, Message: "workflow.not_found"}}, is: preds{notFound: true},
		},
		{
			name: "401", call: getWF, status: 401,
			want: []exchange{{method: "GET", path: A + "/workflows/demo", status: 401, resp: fail(10000, "Authentication error")}},
			errs: []cloudflare.ErrorDetail{{Code: 10000, Message: "Authentication error"}}, is: preds{unauthorized: true},
		},
		{
			name: "403 code 9109", call: getWF, status: 403,
			want: []exchange{{method: "GET", path: A + "/workflows/demo", status: 403, resp: fail(9109, "Unauthorized to access requested resource")}},
			errs: []cloudflare.ErrorDetail{{Code: 9109, Message: "Unauthorized to access requested resource"}}, is: preds{unauthorized: true},
		},
		{
			name: "409 on POST is not retried", call: create, status: 409,
			want: []exchange{{method: "POST", path: A + "/workflows/demo/instances", body: `{"instance_id":"i"}`, status: 409, resp: fail(10202, "instance.already_exists")}},
			errs: []cloudflare.ErrorDetail{{Code: 10202, Message: "instance.already_exists"}}, is: preds{conflict: true},
		},
		{
			name: "500 on POST is not retried", call: create, status: 500,
			want: []exchange{{method: "POST", path: A + "/workflows/demo/instances", body: `{"instance_id":"i"}`, status: 500, resp: fail(10001, "internal")}},
			errs: []cloudflare.ErrorDetail{{Code: 10001, Message: "internal"}},
		},
		{
			name: "429 on GET retried after Retry-After", call: getWF,
			want: []exchange{
				{method: "GET", path: A + "/workflows/demo", status: 429, header: map[string]string{"Retry-After": "0"}, resp: fail(971, "Please wait and consider throttling your request speed")},
				{method: "GET", path: A + "/workflows/demo", resp: ok(wfOK)},
			},
		},
		{
			name: "503 on GET retried until MaxRetries", call: getWF, status: 503,
			want: []exchange{
				{method: "GET", path: A + "/workflows/demo", status: 503, header: map[string]string{"Retry-After": "0"}, resp: fail(1, "a")},
				{method: "GET", path: A + "/workflows/demo", status: 502, header: map[string]string{"Retry-After": "0"}, resp: "<html>bad gateway</html>", respType: "text/html"},
				{method: "GET", path: A + "/workflows/demo", status: 503, header: map[string]string{"Retry-After": "0"}, resp: fail(3, "c")},
			},
			errs: []cloudflare.ErrorDetail{{Code: 3, Message: "c"}},
		},
		{
			name: "429 exhausted", call: getWF, status: 429,
			want: []exchange{
				{method: "GET", path: A + "/workflows/demo", status: 429, header: map[string]string{"Retry-After": "0"}, resp: fail(971, "slow down")},
				{method: "GET", path: A + "/workflows/demo", status: 429, header: map[string]string{"Retry-After": "0"}, resp: fail(971, "slow down")},
				{method: "GET", path: A + "/workflows/demo", status: 429, header: map[string]string{"Retry-After": "0"}, resp: fail(971, "slow down")},
			},
			errs: []cloudflare.ErrorDetail{{Code: 971, Message: "slow down"}}, is: preds{rateLimited: true},
		},
		{
			name: "HTML error page", call: create, status: 502,
			want: []exchange{{method: "POST", path: A + "/workflows/demo/instances", body: `{"instance_id":"i"}`, status: 502, resp: "<html>bad gateway</html>", respType: "text/html"}},
		},
		{
			name: "400 from upload", status: 400, is: preds{invalid: true},
			call: func(c *cloudflare.Client) error {
				return c.UploadScript(ctx, "w", cloudflare.Script{MainModule: "a.js", Modules: []cloudflare.Module{{Name: "a.js", Content: []byte("x")}}})
			},
			want: []exchange{{method: "PUT", path: A + "/workers/scripts/w", status: 400, resp: fail(10021, "Uncaught SyntaxError: Unexpected identifier"),
				parts: []part{{Name: "metadata", ContentType: "application/json", Content: `{"main_module":"a.js","bindings":[]}`}, {Name: "a.js", Filename: "a.js", ContentType: "application/javascript+module", Content: "x"}}}},
			errs: []cloudflare.ErrorDetail{{Code: 10021, Message: "Uncaught SyntaxError: Unexpected identifier"}},
		},
		{
			name: "success false on 200", call: getWF, status: 200,
			want: []exchange{{method: "GET", path: A + "/workflows/demo", resp: fail(7000, "odd")}},
			errs: []cloudflare.ErrorDetail{{Code: 7000, Message: "odd"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newStub(t, tt.want...)
			c := newClient(t, s, nil)
			err := tt.call(c)
			if tt.status == 0 {
				if err != nil {
					t.Fatalf("error: %v", err)
				}
				return
			}
			ae, ok := err.(*cloudflare.APIError)
			if !ok {
				t.Fatalf("error %T %v, want *APIError", err, err)
			}
			if ae.Status != tt.status {
				t.Errorf("status %d, want %d", ae.Status, tt.status)
			}
			if diff := cmp.Diff(tt.errs, ae.Errors); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
			got := preds{cloudflare.IsNotFound(err), cloudflare.IsUnauthorized(err), cloudflare.IsConflict(err),
				cloudflare.IsRateLimited(err), cloudflare.IsUnreachable(err), cloudflare.IsInvalidArgument(err)}
			if got != tt.is {
				t.Errorf("predicates %+v, want %+v", got, tt.is)
			}
			if strings.Contains(err.Error(), testToken) {
				t.Errorf("error text holds the token: %v", err)
			}
		})
	}
}

func TestUnreachable(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	base := srv.URL
	srv.Close()
	var logs bytes.Buffer
	var mu sync.Mutex
	c, err := cloudflare.New(cloudflare.Options{BaseURL: base + "/client/v4", APIToken: testToken, AccountID: testAccount, MaxRetries: 1,
		Logger: slog.New(slog.NewTextHandler(&lockedWriter{w: &logs, mu: &mu}, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.GetWorkflow(context.Background(), "demo")
	if !cloudflare.IsUnreachable(err) {
		t.Fatalf("error %v, want unreachable", err)
	}
	ue := err.(*cloudflare.UnreachableError)
	if ue.Timeout {
		t.Errorf("Timeout = true for a refused connection")
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Contains(err.Error(), testToken) || strings.Contains(logs.String(), testToken) {
		t.Errorf("token leaked: err=%v logs=%s", err, logs.String())
	}
	if n := strings.Count(logs.String(), "cloudflare request failed; retrying"); n != 1 {
		t.Errorf("%d retries logged, want 1:\n%s", n, logs.String())
	}
}

type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func TestTimeout(t *testing.T) {
	t.Parallel()
	s := newStub(t,
		exchange{method: "GET", path: A + "/workflows/demo", delay: 2 * time.Second, resp: ok(`{}`)},
		exchange{method: "GET", path: A + "/workflows/demo", resp: ok(`{"name":"demo"}`)},
	)
	c := newClient(t, s, func(o *cloudflare.Options) { o.Timeout = 100 * time.Millisecond; o.MaxRetries = 1 })
	w, err := c.GetWorkflow(context.Background(), "demo")
	if err != nil || w.Name != "demo" {
		t.Fatalf("GetWorkflow after a timed-out attempt = %+v, %v", w, err)
	}

	s2 := newStub(t, exchange{method: "POST", path: A + "/workflows/demo/instances", body: `{}`, delay: 2 * time.Second, resp: ok(`{}`)})
	c2 := newClient(t, s2, func(o *cloudflare.Options) { o.Timeout = 100 * time.Millisecond })
	_, err = c2.CreateInstance(context.Background(), "demo", "", nil)
	ue, ok := err.(*cloudflare.UnreachableError)
	if !ok || !ue.Timeout {
		t.Fatalf("error %T %v, want a timeout UnreachableError", err, err)
	}
}

func TestCancelled(t *testing.T) {
	t.Parallel()
	s := newStub(t)
	c := newClient(t, s, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := c.GetWorkflow(ctx, "demo")
	if err == nil || !strings.Contains(err.Error(), "context canceled") || cloudflare.IsUnreachable(err) {
		t.Fatalf("error %v, want context canceled", err)
	}
}

func TestArgumentErrors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tests := []struct {
		name  string
		call  func(c *cloudflare.Client) error
		field string
	}{
		{"bad action", func(c *cloudflare.Client) error { return c.ChangeInstanceStatus(ctx, "demo", "i", "explode") }, "action"},
		{"main module missing", func(c *cloudflare.Client) error {
			return c.UploadScript(ctx, "w", cloudflare.Script{MainModule: "index.js", Modules: []cloudflare.Module{{Name: "other.js"}}})
		}, "script.mainModule"},
		{"no modules", func(c *cloudflare.Client) error {
			return c.UploadScript(ctx, "w", cloudflare.Script{MainModule: "index.js"})
		}, "script.modules"},
		{"duplicate module", func(c *cloudflare.Client) error {
			return c.UploadScript(ctx, "w", cloudflare.Script{MainModule: "a.js", Modules: []cloudflare.Module{{Name: "a.js"}, {Name: "a.js"}}})
		}, "script.modules[1].name"},
		{"script name with slash", func(c *cloudflare.Client) error { return c.DeleteScript(ctx, "a/b") }, "scriptName"},
		{"kv limit", func(c *cloudflare.Client) error {
			_, err := c.ListKVKeys(ctx, "ns", cloudflare.KVKeysQuery{Limit: 5})
			return err
		}, "limit"},
		{"instance id too long", func(c *cloudflare.Client) error {
			_, err := c.CreateInstance(ctx, "demo", strings.Repeat("x", 101), nil)
			return err
		}, "instanceId"},
		{"params not JSON", func(c *cloudflare.Client) error {
			_, err := c.CreateInstance(ctx, "demo", "", json.RawMessage(`{`))
			return err
		}, "params"},
		{"empty sql", func(c *cloudflare.Client) error { _, err := c.QueryD1(ctx, "db", " ", nil); return err }, "sql"},
		{"event type", func(c *cloudflare.Client) error { return c.SendEvent(ctx, "demo", "i", "a/b", nil) }, "eventType"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newStub(t)
			c := newClient(t, s, nil)
			err := tt.call(c)
			ae, ok := err.(*cloudflare.ArgumentError)
			if !ok || !cloudflare.IsInvalidArgument(err) {
				t.Fatalf("error %T %v, want *ArgumentError", err, err)
			}
			if ae.Field != tt.field {
				t.Errorf("field %q, want %q", ae.Field, tt.field)
			}
		})
	}
}

func TestNew(t *testing.T) {
	t.Parallel()
	for _, o := range []cloudflare.Options{
		{},
		{APIToken: "t", BaseURL: "ftp://x"},
		{APIToken: "t", BaseURL: "https://user:pw@api.example.com/client/v4"},
		{APIToken: "t", BaseURL: "/relative"},
		{APIToken: "t", AccountID: "a/b"},
		{APIToken: "t\nX-Evil: 1"},
	} {
		if _, err := cloudflare.New(o); !cloudflare.IsInvalidArgument(err) {
			t.Errorf("New(%+v) error = %v, want invalid argument", o, err)
		}
	}
	c, err := cloudflare.New(cloudflare.Options{APIToken: "t"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ListKVNamespaces(context.Background()); !cloudflare.IsInvalidArgument(err) {
		t.Errorf("account call without AccountID: %v, want invalid argument", err)
	}
}

// TestEnvCredentialsNotSent checks that CLOUDFLARE_* variables read by the SDK do not add credentials.
func TestEnvCredentialsNotSent(t *testing.T) {
	t.Setenv("CLOUDFLARE_API_KEY", "env-key")
	t.Setenv("CLOUDFLARE_EMAIL", "env@example.com")
	t.Setenv("CLOUDFLARE_API_TOKEN", "env-token")
	t.Setenv("CLOUDFLARE_BASE_URL", "http://127.0.0.1:1/")
	s := newStub(t, exchange{method: "GET", path: "/client/v4/user/tokens/verify", resp: ok(`{"id":"t","status":"active"}`)})
	c := newClient(t, s, nil)
	if _, err := c.VerifyToken(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestBindingRedactsSecrets(t *testing.T) {
	t.Parallel()
	b := cloudflare.SecretText("API_KEY", "s3cr3t-value")
	var logs bytes.Buffer
	slog.New(slog.NewJSONHandler(&logs, nil)).Info("x", "binding", b)
	for _, s := range []string{b.String(), b.GoString(), logs.String()} {
		if strings.Contains(s, "s3cr3t-value") {
			t.Errorf("secret shown: %s", s)
		}
	}
	if p := cloudflare.PlainText("A", "visible"); !strings.Contains(p.String(), "visible") {
		t.Errorf("plain text hidden: %s", p)
	}
}
