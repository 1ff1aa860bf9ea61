package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// TestInvokeRefusals: POST /api/workflows/:id/invoke checks who asks, what
// is invoked and every field before anything is called; the successful
// call on the real local edge is TestInvokeFunction in internal/e2e.
func TestInvokeRefusals(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	fn := w.must(201, "POST", "/api/workflows", `{"name":"Fn","kind":"script"}`, w.a.keyAll).str(t, "id")
	path := "/api/workflows/" + fn + "/invoke"
	conn := w.a.connectionID
	body := func(extra string) string {
		return `{"connectionId":"` + conn + `"` + extra + `}`
	}

	// The legitimate request reaches the deployment check: the function is
	// not deployed on the connection.
	checkError(t, w.do("POST", path, body(`,"method":"POST","path":"/orders?x=1","body":{"a":1},"headers":{"X-Trace":"t1","Accept":"application/json"}`), w.a.keyAll), 409, "conflict", "")
	checkError(t, w.do("POST", path, body(""), w.a.keyAll), 409, "conflict", "")

	// Who asks: another tenant does not see the function; a viewer and a
	// read-only key may not invoke; a member may.
	checkError(t, w.do("POST", path, body(""), w.b.keyAll), 404, "not_found", "")
	checkError(t, w.do("POST", path, body(""), w.a.keyRead), 403, "forbidden", "")
	checkError(t, w.do("POST", path, body(""), w.a.team[edgeflow.RoleViewer].keyProject), 403, "forbidden", "")
	checkError(t, w.do("POST", path, body(""), w.a.team[edgeflow.RoleMember].keyProject), 409, "conflict", "")
	// Another tenant's connection is not found either.
	checkError(t, w.do("POST", path, `{"connectionId":"`+w.b.connectionID+`"}`, w.a.keyAll), 404, "not_found", "")

	// What is invoked: a workflow is triggered, not invoked.
	checkError(t, w.do("POST", "/api/workflows/"+w.a.workflowID+"/invoke", body(""), w.a.keyAll), 400, "bad_request", "")

	// Every field.
	checkError(t, w.do("POST", path, `{}`, w.a.keyAll), 422, "validation_failed", "/connectionId")
	for _, m := range []string{"PATCH", "CONNECT", "TRACE", "post", "GET /"} {
		checkError(t, w.do("POST", path, body(`,"method":"`+m+`"`), w.a.keyAll), 422, "validation_failed", "/method")
	}
	for _, p := range []string{
		"orders", "//evil.example/x", "http://evil.example/", "@evil.example/", "/a//b", "/../other-worker",
		"/a/./b", "/a/%2e%2e/b", "/a%2Fb", "/a%5cb", `/a\\b`, "/a b", "/a\tb", "/a#frag", "/%00", "/a\u0000",
		"/" + strings.Repeat("a", 2048),
	} {
		b := jsonOf(t, map[string]any{"connectionId": conn, "path": p})
		checkError(t, w.do("POST", path, b, w.a.keyAll), 422, "validation_failed", "/path")
	}
	for name, want := range map[string]string{
		"Host": "/headers/Host", "authorization": "/headers/authorization", "Cookie": "/headers/Cookie",
		"X-Edgeflow-Signature": "/headers/X-Edgeflow-Signature", "x-edgeflow-timestamp": "/headers/x-edgeflow-timestamp",
		"Proxy-Authorization": "/headers/Proxy-Authorization", "Transfer-Encoding": "/headers/Transfer-Encoding",
		"Content-Length": "/headers/Content-Length", "X-Forwarded-For": "/headers/X-Forwarded-For",
		"CF-Connecting-IP": "/headers/CF-Connecting-IP", "Connection": "/headers/Connection", "Bad Name": "/headers/Bad Name",
		"a/b": "/headers/a~1b", "": "/headers/",
		// miniflare's instructions to the local edge: a forged request.cf, another worker, another URL
		"MF-CF-Blob": "/headers/MF-CF-Blob", "mf-route-override": "/headers/mf-route-override", "Mf-Original-Url": "/headers/Mf-Original-Url",
	} {
		b := jsonOf(t, map[string]any{"connectionId": conn, "headers": map[string]string{name: "v"}})
		checkError(t, w.do("POST", path, b, w.a.keyAll), 422, "validation_failed", want)
	}
	checkError(t, w.do("POST", path, body(`,"headers":{"X-Trace":"a\r\nHost: evil.example"}`), w.a.keyAll), 422, "validation_failed", "/headers/X-Trace")
	checkError(t, w.do("POST", path, body(`,"headers":{"X-Trace":"`+strings.Repeat("v", 4097)+`"}`), w.a.keyAll), 422, "validation_failed", "/headers/X-Trace")
	many := make([]string, 21)
	for i := range many {
		many[i] = fmt.Sprintf(`"X-H%d":"v"`, i)
	}
	checkError(t, w.do("POST", path, body(`,"headers":{`+strings.Join(many, ",")+`}`), w.a.keyAll), 422, "validation_failed", "/headers")
	checkError(t, w.do("POST", path, body(`,"method":"GET","body":{"a":1}`), w.a.keyAll), 422, "validation_failed", "/body")
	checkError(t, w.do("POST", path, body(`,"body":"`+strings.Repeat("x", 100*1024)+`"`), w.a.keyAll), 413, "payload_too_large", "")
	checkError(t, w.do("POST", path, body(`,"headers":["X"]`), w.a.keyAll), 422, "validation_failed", "/headers")
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestInvokeUnreachable: a function whose deployment's worker cannot be
// reached is 502 provider_unavailable, nothing else of the request lost.
func TestInvokeUnreachable(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	fn := w.must(201, "POST", "/api/workflows", `{"name":"Fn","kind":"script"}`, w.a.keyAll).str(t, "id")
	ver := w.submitVersion(w.a, fn, `{"kind":"script","metadata":{"name":"Fn"},"trigger":{"type":"http"},
"nodes":[{"id":"s","type":"step","name":"S","data":{"code":"return 1;"}}],"edges":[],"entryNodeId":"s"}`)
	// The test world reaches no provider: the deployment goes straight into
	// the store, at an address where nothing listens (port 1 of loopback).
	d := &edgeflow.Deployment{WorkflowID: fn, VersionID: ver, ConnectionID: w.a.connectionID, URL: "http://127.0.0.1:1/workers/acc/fn", ScriptName: "fn"}
	if err := w.store.RecordDeployment(context.Background(), d); err != nil {
		t.Fatal(err)
	}
	r := w.do("POST", "/api/workflows/"+fn+"/invoke", `{"connectionId":"`+w.a.connectionID+`","body":{"a":1}}`, w.a.keyAll)
	checkError(t, r, 502, "provider_unavailable", "")
	if strings.Contains(string(r.body), "127.0.0.1") {
		t.Errorf("the error names the worker's address: %s", r.body)
	}
}
