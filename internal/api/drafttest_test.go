package api_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// wantPath checks that r is a 422 validation_failed naming path.
func wantPath(t *testing.T, what string, r response, path string) {
	t.Helper()
	if r.status != 422 || !strings.Contains(string(r.body), `"code":"validation_failed"`) || !strings.Contains(string(r.body), `"path":"`+path+`"`) {
		t.Errorf("%s: %d %s, want 422 at %s", what, r.status, r.body, path)
	}
}

// TestDraftTestRefusals: POST /api/workflows/:id/test checks the IR and
// the request before anything runs (the server of this world has no local
// edge, so a request that passes every check meets 502
// provider_unavailable): 422 with the path of the bad field, 400
// invalid_ir with every problem, 404 for another organization's workflow
// whatever the body, 413 over the body's bound.
func TestDraftTestRefusals(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.a
	path := "/api/workflows/" + a.workflowID + "/test"
	ok := `{"ir":` + minimalIR + `,"params":{"n":1}}`

	wantPath(t, "no ir", w.do("POST", path, `{"params":{}}`, a.keyAll), "/ir")
	wantPath(t, "ir not an object", w.do("POST", path, `{"ir":"x"}`, a.keyAll), "/ir")
	wantPath(t, "timeout over 600", w.do("POST", path, `{"ir":`+minimalIR+`,"timeoutSeconds":601}`, a.keyAll), "/timeoutSeconds")
	wantPath(t, "params not an object", w.do("POST", path, `{"ir":`+minimalIR+`,"params":[1]}`, a.keyAll), "/params")
	wantPath(t, "mock of a node the IR lacks", w.do("POST", path, `{"ir":`+minimalIR+`,"mocks":{"nowhere":1}}`, a.keyAll), "/mocks/nowhere")
	wantPath(t, "reserved params key", w.do("POST", path, `{"ir":`+minimalIR+`,"params":{"__edgeflowReplay":{}}}`, a.keyAll), "/params/__edgeflowReplay")
	bad := strings.Replace(minimalIR, `"entryNodeId":"start"`, `"entryNodeId":"missing"`, 1)
	if r := w.do("POST", path, `{"ir":`+bad+`}`, a.keyAll); r.status != 400 || !strings.Contains(string(r.body), `"code":"invalid_ir"`) || !strings.Contains(string(r.body), `"path":"/entryNodeId"`) {
		t.Errorf("invalid IR: %d %s", r.status, r.body)
	}
	// Nothing was stored by the attempts: the workflow still has one version.
	if n := len(w.must(200, "GET", "/api/workflows/"+a.workflowID+"/versions", "", a.keyAll).json(t)["data"].([]any)); n != 1 {
		t.Errorf("versions after draft tests: %d", n)
	}
	// Another organization: not found, whatever the body; a read-only key
	// is refused the run.
	w.must(404, "POST", path, ok, w.b.keyAll)
	w.must(404, "POST", path, `{"ir":"x"}`, w.b.keyAll)
	w.must(404, "POST", "/api/workflows/wf_nope/test", ok, a.keyAll)
	// Bound: a body over the IR's bound plus a megabyte is 413.
	huge := `{"ir":` + minimalIR + `,"params":{"pad":"` + strings.Repeat("x", 9<<20+1) + `"}}`
	if r := w.do("POST", path, huge, a.keyAll); r.status != 413 {
		t.Errorf("oversized draft test: %d %.300s", r.status, r.body)
	}
	// params over 100 KB: 413 too, before anything runs.
	big := `{"ir":` + minimalIR + `,"params":{"pad":"` + strings.Repeat("x", 101<<10) + `"}}`
	if r := w.do("POST", path, big, a.keyAll); r.status != 413 {
		t.Errorf("params over 100 KB: %d %.300s", r.status, r.body)
	}
	// Past every check, this world has no edge to run on.
	if r := w.do("POST", path, ok, a.keyAll); r.status != 502 || !strings.Contains(string(r.body), "provider_unavailable") {
		t.Errorf("a draft test without the local edge: %d %s", r.status, r.body)
	}
}

// TestPinnedOutputs: a workflow's pinned outputs are none until set, are
// replaced as a whole, checked (node ids, count, size: 422 with the path),
// and invisible to another organization (404); a read key may read them,
// not set them.
func TestPinnedOutputs(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.a
	path := "/api/workflows/" + a.workflowID + "/pinned-outputs"
	if got := strings.TrimSpace(string(w.must(200, "GET", path, "", a.keyAll).body)); got != `{"outputs":{},"updatedAt":null,"updatedBy":""}` {
		t.Fatalf("pinned outputs never set: %s", got)
	}
	put := w.must(200, "PUT", path, `{"outputs":{"start":{"total":42},"gone":"kept anyway"}}`, a.keyAll).json(t)
	if put["updatedBy"] != a.userID || put["updatedAt"] == nil {
		t.Errorf("put answer: %v", put)
	}
	var got struct {
		Outputs map[string]json.RawMessage `json:"outputs"`
	}
	if err := json.Unmarshal(w.must(200, "GET", path, "", a.keyAll).body, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Outputs) != 2 || string(got.Outputs["start"]) != `{"total":42}` {
		t.Errorf("read back: %v", got.Outputs)
	}

	wantPath(t, "no outputs", w.do("PUT", path, `{}`, a.keyAll), "/outputs")
	wantPath(t, "a key that is no node id", w.do("PUT", path, `{"outputs":{"bad id":1}}`, a.keyAll), "/outputs/bad id")
	wantPath(t, "a key with a slash", w.do("PUT", path, `{"outputs":{"a/b":1}}`, a.keyAll), "/outputs/a~1b")
	var many strings.Builder
	many.WriteString(`{"outputs":{`)
	for i := range 201 {
		if i > 0 {
			many.WriteString(",")
		}
		fmt.Fprintf(&many, `"n%d":%d`, i, i)
	}
	many.WriteString(`}}`)
	wantPath(t, "201 nodes", w.do("PUT", path, many.String(), a.keyAll), "/outputs")
	big := `{"outputs":{"a":"` + strings.Repeat("x", 300<<10) + `","b":"` + strings.Repeat("y", 300<<10) + `"}}`
	wantPath(t, "over 512 KB", w.do("PUT", path, big, a.keyAll), "/outputs")
	// The refusals changed nothing.
	if err := json.Unmarshal(w.must(200, "GET", path, "", a.keyAll).body, &got); err != nil || len(got.Outputs) != 2 {
		t.Errorf("after refusals: %v %v", got.Outputs, err)
	}

	w.must(404, "GET", path, "", w.b.keyAll)
	w.must(404, "PUT", path, `{"outputs":{}}`, w.b.keyAll)
	w.must(404, "GET", path, "", a.keyOtherProject)
	w.must(200, "GET", path, "", a.keyRead)
	w.must(403, "PUT", path, `{"outputs":{}}`, a.keyRead)
	w.must(403, "POST", "/api/workflows/"+a.workflowID+"/test", `{"ir":`+minimalIR+`}`, a.keyRead)
	w.must(200, "PUT", path, `{"outputs":{}}`, a.keyAll)
	got.Outputs = nil
	if err := json.Unmarshal(w.must(200, "GET", path, "", a.keyAll).body, &got); err != nil || len(got.Outputs) != 0 {
		t.Errorf("after unpinning all: %v %v", got.Outputs, err)
	}
}
