package e2e_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestInvokeFunction: POST /api/workflows/:id/invoke calls the function
// deployed on the real local edge and answers its answer: the EXPORT_
// values of a POST, a GET that does not run the graph, a failing call's
// 500 inside a 200 answer, an answer over 1 MiB cut and marked; after
// takedown the function is not deployed (409).
func TestInvokeFunction(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	validate := step("validate", "if (event.payload.fail) throw new Error('refused: ' + event.payload.fail); return { ok: true };")
	validate["name"] = "validate"
	sum := step("sum", "return {{validate.ok}} ? event.payload.a + event.payload.b : 0;")
	sum["name"] = "EXPORT_sum"
	big := step("big", "return event.payload.big ? 'x'.repeat(event.payload.big) : '';")
	big["name"] = "EXPORT_big"
	wf, _ := s.workflow("Adder", "script", script("Adder", validate, sum, big))
	s.deploy(wf)
	path := "/api/workflows/" + wf + "/invoke"

	type answer struct {
		Status        int               `json:"status"`
		Headers       map[string]string `json:"headers"`
		Body          string            `json:"body"`
		BodyTruncated bool              `json:"bodyTruncated"`
		DurationMs    *int64            `json:"durationMs"`
	}
	invoke := func(req map[string]any) answer {
		t.Helper()
		req["connectionId"] = s.conn
		var a answer
		s.must(200, "POST", path, req).into(&a)
		if a.DurationMs == nil || *a.DurationMs < 0 {
			t.Fatalf("durationMs = %v", a.DurationMs)
		}
		return a
	}

	a := invoke(map[string]any{"body": map[string]any{"a": 2, "b": 3}})
	if a.Status != 200 || !strings.HasPrefix(a.Headers["content-type"], "application/json") || a.BodyTruncated {
		t.Fatalf("POST: %+v", a)
	}
	jsonEqual(t, json.RawMessage(a.Body), `{"sum":5,"big":""}`)
	for name := range a.Headers {
		if name == "set-cookie" || strings.HasPrefix(name, "cf-") {
			t.Fatalf("unsafe answer header %s: %+v", name, a.Headers)
		}
	}

	// Method, path with a query and a header of the caller's.
	a = invoke(map[string]any{"method": "PUT", "path": "/orders/A-1001?dry=1", "headers": map[string]string{"X-Trace": "t-1"},
		"body": map[string]any{"a": 1, "b": 1}})
	if a.Status != 200 {
		t.Fatalf("PUT: %+v", a)
	}
	if a = invoke(map[string]any{"method": "GET"}); a.Status != 200 {
		t.Fatalf("GET: %+v", a)
	}

	// The function's own error is its answer, not edgeflow's.
	a = invoke(map[string]any{"body": map[string]any{"fail": "no"}})
	var msg struct {
		Message string `json:"message"`
	}
	if err := json.Unmarshal([]byte(a.Body), &msg); a.Status != 500 || err != nil || !strings.Contains(msg.Message, "refused: no") {
		t.Fatalf("failing call: %+v", a)
	}

	// An answer over 1 MiB is cut at 1 MiB.
	a = invoke(map[string]any{"body": map[string]any{"a": 0, "b": 0, "big": 1<<20 + 1000}})
	if a.Status != 200 || !a.BodyTruncated || len(a.Body) != 1<<20 || !strings.Contains(a.Body, "xxxx") {
		t.Fatalf("large answer: status %d, truncated %v, %d bytes", a.Status, a.BodyTruncated, len(a.Body))
	}

	// A function has no runs, invoked or not.
	if runs := s.runs(wf); len(runs) != 0 {
		t.Fatalf("an invoked function has runs: %+v", runs)
	}

	// Tricks are refused before anything is called.
	r := wantError(t, s.do("POST", path, map[string]any{"connectionId": s.conn, "path": "//127.0.0.1:1/"}), 422, "validation_failed")
	if d := r["details"].([]any); len(d) != 1 || d[0].(map[string]any)["path"] != "/path" {
		t.Fatalf("details = %v", r["details"])
	}
	wantError(t, s.do("POST", path, map[string]any{"connectionId": s.conn, "headers": map[string]string{"Host": "127.0.0.1"}}), 422, "validation_failed")
	// miniflare's headers would forge the function's request.cf or pick another worker on the local edge: refused
	// by name (the twin is the X-Trace call above, whose header passes).
	for _, h := range []string{"MF-CF-Blob", "mf-route-override"} {
		r := wantError(t, s.do("POST", path, map[string]any{"connectionId": s.conn, "headers": map[string]string{h: `{"country":"ZZ"}`}}), 422, "validation_failed")
		if d := r["details"].([]any); len(d) != 1 || d[0].(map[string]any)["path"] != "/headers/"+h {
			t.Fatalf("%s: details = %v", h, r["details"])
		}
	}

	s.must(200, "POST", "/api/workflows/"+wf+"/takedown", map[string]any{"connectionId": s.conn})
	wantError(t, s.do("POST", path, map[string]any{"connectionId": s.conn}), 409, "conflict")
}
