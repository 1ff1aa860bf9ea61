package codegen_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/bundle"
	"github.com/edgeflow/edgeflow/internal/codegen"
	"github.com/google/go-cmp/cmp"
)

type behaviourCase struct {
	name    string
	fixture string
	method  string
	path    string // appended to the worker's URL, e.g. "?instanceId=x"
	body    any
	headers map[string]string
	// noToken sends a workflow's request without the deployment token
	// (every other workflow request carries it).
	noToken bool
	events  []map[string]any
	header  string // response header to report

	wantStatus   int
	wantBody     any // compared when not nil
	wantInstance *instanceResult
	// wantInstanceID, when set, must be the instance id answered.
	wantInstanceID string
	// errorContains replaces an exact instance error comparison.
	errorContains string
	wantHeader    string
}

type instanceResult struct {
	Status string `json:"status"`
	Output any    `json:"output"`
	Error  any    `json:"error"`
}

type caseResult struct {
	Status   int             `json:"status"`
	Body     any             `json:"body"`
	Header   string          `json:"header"`
	Instance *instanceResult `json:"instance"`
}

// TestBehaviour compiles and bundles fixtures, runs them on workerd through
// miniflare (testdata/run/run.mjs) and checks what they do: outputs, errors,
// retries, timeouts, event delivery and function responses.
//
// It runs twice: on the bundles of the TypeScript output, and on those of
// the JavaScript output (Options.JavaScript, bundled with its regions),
// which must behave the same.
func TestBehaviour(t *testing.T) {
	t.Parallel()
	for _, js := range []bool{false, true} {
		name := "typescript"
		if js {
			name = "javascript"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			behaviour(t, js)
		})
	}
}

func behaviour(t *testing.T, js bool) {
	harness := nodeHarness(t)
	if _, err := os.Stat(filepath.Join(harness, "node_modules", "miniflare")); err != nil {
		t.Fatalf("miniflare missing in %s: run npm ci there", harness)
	}
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasPrefix(r.URL.Path, "/item/"):
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"id": %q, "token": %q}`, strings.TrimPrefix(r.URL.Path, "/item/"), r.Header.Get("X-Token"))
		case r.URL.Path == "/echo" && r.Method == http.MethodPost:
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			_, _ = io.Copy(w, r.Body)
		default:
			http.Error(w, "no such thing", http.StatusNotFound)
		}
	}))
	defer api.Close()
	vars := map[string]map[string]string{
		"http_behaviour": {"API_BASE": api.URL, "TOKEN": "t0k"},
		"http_error":     {"API_BASE": api.URL},
		"public_trigger": {codegen.TriggerSecretBinding: triggerSecret},
	}
	now := time.Now().Unix()
	createPath := strings.TrimPrefix(codegen.CreatePath, "/")
	signedBody := `{"name":"signed"}`
	signed := signedHeaders(triggerSecret, now, signedBody)
	signedEvent := `{"instanceId":"x","eventType":"go","payload":{}}`
	stale := signedHeaders(triggerSecret, now-int64(codegen.SignatureWindowSeconds)-60, signedBody)
	forged := signedHeaders("not-the-secret", now, signedBody)
	withInstanceID := signedHeaders(triggerSecret, now, `{"name":"chosen"}`)
	withInstanceID["X-Edgeflow-Instance-Id"] = "run_chosen"
	withBatch := func(h map[string]string) map[string]string {
		out := map[string]string{codegen.BatchHeader: "1"}
		for k, v := range h {
			out[k] = v
		}
		return out
	}
	cases := []behaviourCase{
		{name: "http_request answers status, headers and parsed body", fixture: "http_behaviour", body: map[string]any{"id": "x1"}, wantStatus: 200,
			wantInstance: &instanceResult{Status: "complete", Output: map[string]any{
				"got":         map[string]any{"id": "x1", "token": "t0k"},
				"echoed":      map[string]any{"item": map[string]any{"id": "x1", "token": "t0k"}, "note": "n x1"},
				"missing":     404.0,
				"missingBody": "no such thing\n",
				"type":        "application/json",
			}}},
		{name: "http_request fails on a non-2xx status", fixture: "http_error", wantStatus: 200,
			wantInstance: &instanceResult{Status: "errored"}, errorContains: "HTTP 404"},
		{name: "sub_workflow waits for the child's output and starts another without waiting", fixture: "sub_workflow",
			body: map[string]any{"orderId": 7}, headers: map[string]string{"X-Edgeflow-Instance-Id": "parent1"}, wantStatus: 200,
			wantInstance: &instanceResult{Status: "complete", Output: map[string]any{"child": map[string]any{"doubled": 14.0}, "notified": "parent1-notify"}}},
		{name: "child workflow deployed beside the parent", fixture: "child", body: map[string]any{"orderId": 1}, wantStatus: 200,
			wantInstance: &instanceResult{Status: "complete", Output: map[string]any{"doubled": 2.0}}},
		{name: "second child deployed beside the parent", fixture: "notify", method: "GET", wantStatus: 200, wantBody: "OK"},
		{name: "chain of steps passes values", fixture: "step_chain", wantStatus: 200,
			wantInstance: &instanceResult{Status: "complete", Output: map[string]any{"total": 20.0, "from": map[string]any{"n": 1.0}}}},
		{name: "retries succeed on the third attempt", fixture: "retry_third_attempt", wantStatus: 200,
			wantInstance: &instanceResult{Status: "complete", Output: map[string]any{"attempts": 3.0}}},
		{name: "a step over its timeout fails the run", fixture: "step_timeout", wantStatus: 200,
			wantInstance: &instanceResult{Status: "errored"}, errorContains: ""},
		{name: "a failing parallel lane fails the node", fixture: "parallel_failing_lane", wantStatus: 200,
			wantInstance: &instanceResult{Status: "errored"}, errorContains: "lane b failed"},
		{name: "try, catch, finally, then run in order", fixture: "try_catch_order", wantStatus: 200,
			wantInstance: &instanceResult{Status: "complete", Output: map[string]any{
				"order": []any{"start", "try", "try fails", "catch: try failed after 2", "finally", "then"},
				"error": map[string]any{"name": "Error", "message": "try failed after 2"},
			}}},
		{name: "loop with break keeps completed iterations", fixture: "loop_times_break", wantStatus: 200,
			wantInstance: &instanceResult{Status: "complete", Output: map[string]any{"ticks": []any{0.0, 10.0, 20.0}}}},
		{name: "forEach loop exposes item and index", fixture: "loop_foreach", wantStatus: 200,
			wantInstance: &instanceResult{Status: "complete", Output: map[string]any{"greetings": []any{"hi ada #0", "hi grace #1", "hi linus #2"}}}},
		{name: "waitForEvent resumes with the event payload", fixture: "wait_for_event", body: map[string]any{"orderId": 7},
			events:     []map[string]any{{"type": "approval", "payload": map[string]any{"approved": true, "by": "ada"}}, {"type": "shipped-7", "payload": map[string]any{"carrier": "post"}}},
			wantStatus: 200,
			wantInstance: &instanceResult{Status: "complete", Output: map[string]any{
				"approved": true, "by": "ada", "shipped": map[string]any{"carrier": "post"}}}},
		{name: "branch takes the first matching arm", fixture: "branch", body: map[string]any{"score": 70}, wantStatus: 200,
			wantInstance: &instanceResult{Status: "complete", Output: map[string]any{"arm": "mid"}}},
		{name: "branch falls to else", fixture: "branch", body: map[string]any{"score": 10}, wantStatus: 200,
			wantInstance: &instanceResult{Status: "complete", Output: map[string]any{"arm": "low"}}},
		// The run's output is the last node that completed on the path taken, never a container's label
		// (decision 583); a sleep has none, so the step before it gives it.
		{name: "a workflow ending in a branch outputs the arm's last step", fixture: "branch_end", body: map[string]any{"score": 70}, wantStatus: 200,
			wantInstance: &instanceResult{Status: "complete", Output: map[string]any{"arm": "high", "score": float64(70)}}},
		{name: "a workflow ending in a branch outputs the other arm's step", fixture: "branch_end", body: map[string]any{"score": 10}, wantStatus: 200,
			wantInstance: &instanceResult{Status: "complete", Output: map[string]any{"arm": "low"}}},
		{name: "outputNodeId chooses the output", fixture: "output_node", body: map[string]any{"score": 70}, wantStatus: 200,
			wantInstance: &instanceResult{Status: "complete", Output: map[string]any{"value": float64(70)}}},
		{name: "join continues after the branch", fixture: "join", body: map[string]any{"left": true}, wantStatus: 200,
			wantInstance: &instanceResult{Status: "complete", Output: map[string]any{"picked": "left"}}},
		{name: "caller chooses the instance id", fixture: "step_basic", body: map[string]any{"name": "ada"},
			headers: map[string]string{"X-Edgeflow-Instance-Id": "run_123"}, wantStatus: 200, wantInstanceID: "run_123",
			wantInstance: &instanceResult{Status: "complete", Output: map[string]any{"greeting": "hello ada"}}},
		{name: "GET without instanceId answers 200", fixture: "step_basic", method: "GET", wantStatus: 200, wantBody: "OK"},

		// The deployment token (Authorization: Bearer) guards create, status and events.
		{name: "create without the token answers 401", fixture: "step_basic", body: map[string]any{"name": "x"}, noToken: true,
			wantStatus: 401, wantBody: map[string]any{"message": tokenRequired}},
		{name: "create with a wrong token answers 401", fixture: "step_basic", body: map[string]any{"name": "x"}, noToken: true,
			headers:    map[string]string{"Authorization": "Bearer " + workerToken("step_basic") + "x"},
			wantStatus: 401, wantBody: map[string]any{"message": tokenRequired}},
		{name: "create with another worker's token answers 401", fixture: "step_basic", body: map[string]any{"name": "x"}, noToken: true,
			headers:    map[string]string{"Authorization": "Bearer " + workerToken("step_chain")},
			wantStatus: 401, wantBody: map[string]any{"message": tokenRequired}},
		{name: "status without the token answers 401", fixture: "step_basic", method: "GET", path: "?instanceId=run_123", noToken: true,
			wantStatus: 401, wantBody: map[string]any{"message": tokenRequired}},
		{name: "status with a wrong token answers 401", fixture: "step_basic", method: "GET", path: "?instanceId=run_123", noToken: true,
			headers:    map[string]string{"Authorization": "Bearer " + workerToken("step_basic")[1:]},
			wantStatus: 401, wantBody: map[string]any{"message": tokenRequired}},
		{name: "status with the token answers the instance", fixture: "step_basic", method: "GET", path: "?instanceId=run_123",
			wantStatus: 200, wantInstanceID: "run_123"},
		{name: "event without the token answers 401", fixture: "step_basic", body: map[string]any{"instanceId": "run_123", "eventType": "go", "payload": map[string]any{}},
			noToken: true, wantStatus: 401, wantBody: map[string]any{"message": tokenRequired}},
		{name: "a signature does not replace the token where no public trigger is bound", fixture: "step_basic", body: signedBody, noToken: true,
			headers: signed, wantStatus: 401, wantBody: map[string]any{"message": tokenRequired}},

		// The public trigger (a bound EDGEFLOW_TRIGGER_SECRET): signed creates only.
		{name: "public trigger: a signed request creates an instance", fixture: "public_trigger", body: signedBody, noToken: true, headers: signed,
			wantStatus: 200, wantInstanceID: "sig_" + signed["X-Edgeflow-Signature"][3:43],
			wantInstance: &instanceResult{Status: "complete", Output: map[string]any{"greeting": "hello signed"}}},
		{name: "public trigger: the same signed request again answers 409", fixture: "public_trigger", body: signedBody, noToken: true, headers: signed,
			wantStatus: 409, wantBody: map[string]any{"message": "this signed request was already accepted"}},
		{name: "public trigger: an unsigned request answers 401", fixture: "public_trigger", body: signedBody, noToken: true,
			wantStatus: 401, wantBody: map[string]any{"message": tokenRequired + ", or a signed request (X-Edgeflow-Timestamp, X-Edgeflow-Signature)"}},
		{name: "public trigger: a wrong signature answers 401", fixture: "public_trigger", body: signedBody, noToken: true, headers: forged,
			wantStatus: 401, wantBody: map[string]any{"message": "the signature does not match the request"}},
		{name: "public trigger: a changed body answers 401", fixture: "public_trigger", body: `{"name":"changed"}`, noToken: true, headers: signed,
			wantStatus: 401, wantBody: map[string]any{"message": "the signature does not match the request"}},
		{name: "public trigger: a stale timestamp answers 401", fixture: "public_trigger", body: signedBody, noToken: true, headers: stale,
			wantStatus: 401, wantBody: map[string]any{"message": "X-Edgeflow-Timestamp must be the current time in Unix seconds (within 5 minutes)"}},
		{name: "public trigger: a signed event answers 401", fixture: "public_trigger", body: signedEvent, noToken: true,
			headers: signedHeaders(triggerSecret, now, signedEvent), wantStatus: 401, wantBody: map[string]any{"message": "sending an event needs the deployment token"}},
		{name: "public trigger: status still needs the token", fixture: "public_trigger", method: "GET", path: "?instanceId=x", noToken: true, headers: signed,
			wantStatus: 401, wantBody: map[string]any{"message": tokenRequired}},
		{name: "public trigger: a signed request cannot choose the instance id", fixture: "public_trigger", body: `{"name":"chosen"}`, noToken: true,
			headers: withInstanceID, wantStatus: 200, wantInstanceID: "sig_" + withInstanceID["X-Edgeflow-Signature"][3:43],
			wantInstance: &instanceResult{Status: "complete", Output: map[string]any{"greeting": "hello chosen"}}},
		{name: "public trigger: the token still works", fixture: "public_trigger", body: map[string]any{"name": "token"}, wantStatus: 200,
			wantInstance: &instanceResult{Status: "complete", Output: map[string]any{"greeting": "hello token"}}},

		// A workflow's trigger code runs only for a caller with the token.
		{name: "workflow trigger code runs with the token", fixture: "workflow_trigger_code", body: map[string]any{"name": "ada"}, wantStatus: 200,
			wantInstance: &instanceResult{Status: "complete", Output: map[string]any{"greeting": "hello trigger ada"}}},
		{name: "workflow trigger code without the token answers 401", fixture: "workflow_trigger_code", body: map[string]any{"name": "ada"}, noToken: true,
			wantStatus: 401, wantBody: map[string]any{"message": tokenRequired}},

		// edgeflow's own create path (codegen.CreatePath): the token only, answered before any trigger code.
		{name: "create path: the token creates the instance with the chosen id", fixture: "step_basic", path: createPath, body: map[string]any{"name": "path"},
			headers: map[string]string{codegen.InstanceIDHeader: "run_path_1"}, wantStatus: 200, wantInstanceID: "run_path_1",
			wantInstance: &instanceResult{Status: "complete", Output: map[string]any{"greeting": "hello path"}}},
		{name: "create path: an id already taken answers 409", fixture: "step_basic", path: createPath, body: map[string]any{"name": "again"},
			headers: map[string]string{codegen.InstanceIDHeader: "run_path_1"}, wantStatus: 409,
			wantBody: map[string]any{"message": "instance 'run_path_1' already exists"}},
		{name: "create path: a new id the caller made is created without the lookup", fixture: "step_basic", path: createPath, body: map[string]any{"name": "new"},
			headers: map[string]string{codegen.InstanceIDHeader: "run_path_new", codegen.NewInstanceHeader: "1"}, wantStatus: 200, wantInstanceID: "run_path_new",
			header: codegen.BatchesHeader, wantHeader: "1",
			wantInstance: &instanceResult{Status: "complete", Output: map[string]any{"greeting": "hello new"}}},
		{name: "create path: a taken id answers 409 without the header", fixture: "step_basic", path: createPath, body: map[string]any{"name": "again"},
			headers: map[string]string{codegen.InstanceIDHeader: "run_path_new", codegen.NewInstanceHeader: "0"}, wantStatus: 409,
			wantBody: map[string]any{"message": "instance 'run_path_new' already exists"}},
		{name: "create path: a batch creates its instances and answers their ids", fixture: "step_basic", path: createPath,
			body:    []any{map[string]any{"id": "run_batch_1", "params": map[string]any{"name": "one"}}, map[string]any{"id": "run_batch_2"}},
			headers: map[string]string{codegen.BatchHeader: "1"}, wantStatus: 200, wantBody: map[string]any{"instanceIds": []any{"run_batch_1", "run_batch_2"}}},
		{name: "create path: an instance of the batch exists", fixture: "step_basic", path: createPath, body: map[string]any{"name": "again"},
			headers: map[string]string{codegen.InstanceIDHeader: "run_batch_2"}, wantStatus: 409,
			wantBody: map[string]any{"message": "instance 'run_batch_2' already exists"}},
		{name: "create path: a batch that is not a list of ids answers 400", fixture: "step_basic", path: createPath,
			body: []any{map[string]any{"params": map[string]any{}}}, headers: map[string]string{codegen.BatchHeader: "1"}, wantStatus: 400,
			wantBody: map[string]any{"message": "a batch is a JSON array of 1 to 100 {id, params} objects"}},
		{name: "create path: a signed batch without the token answers 401", fixture: "public_trigger", path: createPath, body: signedBody, noToken: true,
			headers: withBatch(signed), wantStatus: 401, wantBody: map[string]any{"message": tokenRequired}},
		{name: "create path: a batch without the token answers 401", fixture: "step_basic", path: createPath, noToken: true,
			body: []any{map[string]any{"id": "run_batch_3"}}, headers: map[string]string{codegen.BatchHeader: "1"}, wantStatus: 401,
			wantBody: map[string]any{"message": tokenRequired}},
		{name: "create path: without the token answers 401", fixture: "step_basic", path: createPath, body: map[string]any{"name": "x"}, noToken: true,
			headers: map[string]string{codegen.InstanceIDHeader: "run_path_2"}, wantStatus: 401, wantBody: map[string]any{"message": tokenRequired}},
		{name: "create path: a wrong token answers 401", fixture: "step_basic", path: createPath, body: map[string]any{"name": "x"}, noToken: true,
			headers:    map[string]string{"Authorization": "Bearer " + workerToken("step_basic") + "x", codegen.InstanceIDHeader: "run_path_3"},
			wantStatus: 401, wantBody: map[string]any{"message": tokenRequired}},
		{name: "create path: a signature does not replace the token", fixture: "public_trigger", path: createPath, body: signedBody, noToken: true,
			headers: signed, wantStatus: 401, wantBody: map[string]any{"message": tokenRequired}},
		{name: "create path: without an instance id answers 400", fixture: "step_basic", path: createPath, body: map[string]any{"name": "x"},
			wantStatus: 400, wantBody: map[string]any{"message": "X-Edgeflow-Instance-Id must name the instance"}},
		{name: "create path: GET answers 405", fixture: "step_basic", method: "GET", path: createPath, wantStatus: 405,
			wantBody: map[string]any{"message": "use POST"}},
		{name: "create path: trigger code does not see it", fixture: "workflow_trigger_code", path: createPath, body: map[string]any{"name": "ada"},
			headers: map[string]string{codegen.InstanceIDHeader: "run_path_4"}, wantStatus: 200, wantInstanceID: "run_path_4",
			wantInstance: &instanceResult{Status: "complete", Output: map[string]any{"greeting": "hello ada"}}},
		{name: "create path: trigger code's worker refuses it without the token", fixture: "workflow_trigger_code", path: createPath,
			body: map[string]any{"name": "ada"}, noToken: true, headers: map[string]string{codegen.InstanceIDHeader: "run_path_5"},
			wantStatus: 401, wantBody: map[string]any{"message": tokenRequired}},
		{name: "function answers its EXPORT_ values", fixture: "script_exports", body: map[string]any{"a": 5, "b": 7}, wantStatus: 200,
			wantBody: map[string]any{"sum": map[string]any{"total": 12.0}, "check": map[string]any{"label": "big"}, "size": "big"}},
		{name: "function GET answers 200 without running", fixture: "script_exports", method: "GET", wantStatus: 200, wantBody: "OK"},
		{name: "function unhandled error answers 500", fixture: "script_error", body: map[string]any{"ok": false}, wantStatus: 500,
			wantBody: map[string]any{"message": "payload not ok"}},
		{name: "function success", fixture: "script_error", body: map[string]any{"ok": true}, wantStatus: 200,
			wantBody: map[string]any{"valid": true}},
		{name: "function invalid JSON answers 400", fixture: "script_error", body: "{not json", wantStatus: 400,
			wantBody: map[string]any{"message": "the request body is not valid JSON"}},
		{name: "function trigger code overrides the response", fixture: "script_trigger_code", body: map[string]any{"n": 4},
			header: "X-Custom", wantStatus: 200, wantBody: "double=8", wantHeader: "yes"},
		{name: "TypeScript in code fields: small arm", fixture: "typescript_code", body: map[string]any{"n": 3, "tags": []string{"a"}}, wantStatus: 200,
			wantInstance: &instanceResult{Status: "complete", Output: map[string]any{"size": "small", "squares": []any{36.0, 144.0, 324.0}}}},
		{name: "TypeScript in code fields: big arm", fixture: "typescript_code", body: map[string]any{"n": 6}, wantStatus: 200,
			wantInstance: &instanceResult{Status: "complete", Output: map[string]any{"size": "big", "squares": []any{144.0, 576.0, 1296.0}}}},
		{name: "TypeScript in a function's code and trigger code", fixture: "typescript_script", body: map[string]any{"n": 4},
			header: "X-Custom", wantStatus: 200, wantBody: "result=5", wantHeader: "ts"},
	}

	dir := t.TempDir()
	type worker struct {
		Name         string            `json:"name"`
		Bundle       string            `json:"bundle"`
		WorkflowName string            `json:"workflowName,omitempty"`
		ClassName    string            `json:"className,omitempty"`
		Vars         map[string]string `json:"vars,omitempty"`
		Workflows    map[string]any    `json:"workflows,omitempty"`
	}
	type planCase struct {
		Worker  string            `json:"worker"`
		Method  string            `json:"method,omitempty"`
		Path    string            `json:"path,omitempty"`
		Body    any               `json:"body,omitempty"`
		Headers map[string]string `json:"headers,omitempty"`
		Events  []map[string]any  `json:"events,omitempty"`
		Header  string            `json:"header,omitempty"`
	}
	var plan struct {
		Workers []worker   `json:"workers"`
		Cases   []planCase `json:"cases"`
	}
	built := map[string]bool{}
	isWorkflow := map[string]bool{}
	for _, c := range cases {
		name := codegen.ScriptName(fixtureID(c.fixture))
		if !built[c.fixture] {
			built[c.fixture] = true
			f := loadFixture(t, c.fixture)
			f.opts.JavaScript = js
			out, err := codegen.Generate(f.ir, f.opts)
			if err != nil {
				t.Fatalf("%s: %v", c.fixture, err)
			}
			b, err := bundle.Bundle(context.Background(), bundle.Input{Files: out.Files, Entry: out.MainModule, Regions: out.Regions})
			if err != nil {
				t.Fatalf("%s: %v", c.fixture, err)
			}
			path := filepath.Join(dir, c.fixture, "index.js")
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, b.Code, 0o644); err != nil {
				t.Fatal(err)
			}
			w := worker{Name: name, Bundle: path, WorkflowName: out.WorkflowName, ClassName: out.ClassName, Vars: map[string]string{}}
			for k, v := range vars[c.fixture] {
				w.Vars[k] = v
			}
			if out.ClassName != "" {
				isWorkflow[c.fixture] = true
				w.Vars[codegen.WorkerTokenBinding] = workerToken(c.fixture)
			}
			for _, b := range out.Bindings {
				if b.Type == codegen.BindingWorkflow && b.ScriptName != "" {
					if w.Workflows == nil {
						w.Workflows = map[string]any{}
					}
					w.Workflows[b.Name] = map[string]string{"name": b.WorkflowName, "className": b.ClassName, "scriptName": b.ScriptName}
				}
			}
			plan.Workers = append(plan.Workers, w)
		}
		headers := map[string]string{}
		if isWorkflow[c.fixture] && !c.noToken {
			headers["Authorization"] = "Bearer " + workerToken(c.fixture)
		}
		for k, v := range c.headers {
			headers[k] = v
		}
		plan.Cases = append(plan.Cases, planCase{Worker: name, Method: c.method, Path: c.path, Body: c.body, Headers: headers, Events: c.events, Header: c.header})
	}
	data, err := json.Marshal(plan)
	if err != nil {
		t.Fatal(err)
	}
	planPath := filepath.Join(dir, "plan.json")
	if err := os.WriteFile(planPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", filepath.Join(harness, "run.mjs"), planPath)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		t.Fatalf("harness failed: %v\n%s\n%s", err, stdout, stderr.String())
	}
	var results []caseResult
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var r caseResult
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("harness line %q: %v", sc.Text(), err)
		}
		results = append(results, r)
	}
	if len(results) != len(cases) {
		t.Fatalf("harness answered %d cases, want %d\n%s", len(results), len(cases), stderr.String())
	}
	for i, c := range cases {
		r := results[i]
		t.Run(c.name, func(t *testing.T) {
			if r.Status != c.wantStatus {
				t.Errorf("status %d, want %d (body %v)", r.Status, c.wantStatus, r.Body)
			}
			if c.wantBody != nil {
				if diff := cmp.Diff(c.wantBody, r.Body); diff != "" {
					t.Errorf("body (-want +got):\n%s", diff)
				}
			}
			if c.wantHeader != "" && r.Header != c.wantHeader {
				t.Errorf("header %s = %q, want %q", c.header, r.Header, c.wantHeader)
			}
			if c.wantInstanceID != "" {
				body, _ := r.Body.(map[string]any)
				if body["instanceId"] != c.wantInstanceID {
					t.Errorf("instanceId %v, want %s", body["instanceId"], c.wantInstanceID)
				}
			}
			if c.wantInstance == nil {
				return
			}
			if r.Instance == nil {
				t.Fatalf("no instance result (body %v)", r.Body)
			}
			got := *r.Instance
			want := *c.wantInstance
			if want.Status == "errored" {
				msg, _ := got.Error.(string)
				if !strings.Contains(msg, c.errorContains) || msg == "" {
					t.Errorf("error %q, want one containing %q", msg, c.errorContains)
				}
				got.Error, got.Output = nil, nil
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("instance (-want +got):\n%s", diff)
			}
		})
	}
}

// The secrets the behaviour tests bind.
const (
	triggerSecret = "whsec_behaviour-test-secret"
	tokenRequired = "this workflow's worker needs the deployment's token: Authorization: Bearer <token>"
)

// workerToken is the deployment token bound to a fixture's workflow worker.
func workerToken(fixture string) string {
	return "tok_" + fixture + "_0123456789abcdef0123456789abcdef"
}

// signedHeaders signs body as a public trigger caller does: HMAC-SHA256 of
// "<timestamp>.<body>" with the secret, hex, after "v1=".
func signedHeaders(secret string, timestamp int64, body string) map[string]string {
	mac := hmac.New(sha256.New, []byte(secret))
	ts := strconv.FormatInt(timestamp, 10)
	mac.Write([]byte(ts + "." + body))
	return map[string]string{
		codegen.SignatureTimestampHeader: ts,
		codegen.SignatureHeader:          "v1=" + hex.EncodeToString(mac.Sum(nil)),
	}
}
