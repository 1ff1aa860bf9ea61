package e2e_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestAbridgedIRRuns: an IR written with only the keys that carry meaning
// (no positions, node versions, providers or metadata beyond the name) is
// stored filled in, deploys to the local edge and runs to completion; a
// typo in a step is refused at submit, in the step's own line and column.
func TestAbridgedIRRuns(t *testing.T) {
	t.Parallel()
	requireEdge(t)
	s := newServer(t, serverOptions{})
	wf := s.must(201, "POST", "/api/workflows", map[string]any{"name": "Short"}).str("id")
	abridged := func(second string) map[string]any {
		return map[string]any{
			"metadata": map[string]any{"name": "Short"},
			"nodes": []any{
				map[string]any{"id": "read", "type": "step", "name": "Read", "data": map[string]any{"code": "return { n: event.payload.n };"}},
				map[string]any{"id": "double", "type": "step", "name": "Double", "data": map[string]any{"code": second}},
			},
			"edges":       []any{map[string]any{"id": "e1", "source": "read", "target": "double"}},
			"entryNodeId": "read",
		}
	}

	r := s.do("POST", "/api/workflows/"+wf+"/versions", map[string]any{"ir": abridged("const n = {{read.n}};\nreturn { doubled: n * 2 ;")})
	m := wantError(t, r, 422, "validation_failed")
	details, _ := json.Marshal(m["details"])
	if !strings.Contains(string(details), `"nodeId":"double"`) || !strings.Contains(string(details), `"line":2`) ||
		!strings.Contains(string(details), `"path":"/nodes/1/data/code"`) {
		t.Fatalf("typo answer: %s", r.body)
	}

	ver := s.version(wf, abridged("const n = {{read.n}};\nreturn { doubled: n * 2 };"))
	stored := s.must(200, "GET", "/api/workflows/"+wf+"/versions/"+ver, nil).body
	for _, want := range []string{`"provider":"cloudflare"`, `"version":"1.0.0"`, `"position":{"x":0,"y":0}`, `"createdAt":"`} {
		if !strings.Contains(string(stored), want) {
			t.Errorf("stored IR lacks %s: %s", want, stored)
		}
	}
	wantError(t, s.do("POST", "/api/workflows/"+wf+"/deploy", nil), 422, "validation_failed")
	s.deploy(wf)
	runID := s.trigger(wf, map[string]any{"n": 21})
	out := s.waitStatus(wf, runID, "complete", 60*time.Second)
	jsonEqual(t, out.Output, `{"doubled":42}`)
}
