package api_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// defaultsIR omits every key docs/ir.md gives a default: node position,
// version and provider, metadata version, createdAt and updatedAt.
const defaultsIR = `{"metadata":{"name":"Short"},
"nodes":[
 {"id":"start","type":"step","name":"Start","data":{"code":"return {n: 1};"}},
 {"id":"notify","type":"slack-message","name":"Notify","data":{"channel":"C1","text":"n = {{start.n}}"}}
],
"edges":[{"id":"e1","source":"start","target":"notify"}],"entryNodeId":"start"}`

type storedIR struct {
	Metadata struct {
		Name                 string
		Version              int
		CreatedAt, UpdatedAt string
	}
	Nodes []struct {
		ID, Version, Provider string
		Position              *struct{ X, Y float64 }
	}
}

func readStoredIR(t *testing.T, w *world, tn *tenant, wf, vid string) (storedIR, int) {
	t.Helper()
	var v struct {
		Version int
		IR      json.RawMessage
	}
	if err := json.Unmarshal(w.must(200, "GET", "/api/workflows/"+wf+"/versions/"+vid, "", tn.keyRead).body, &v); err != nil {
		t.Fatal(err)
	}
	var s storedIR
	if err := json.Unmarshal(v.IR, &s); err != nil {
		t.Fatalf("stored IR: %v: %s", err, v.IR)
	}
	return s, v.Version
}

// TestVersionIRDefaults: an IR that omits the keys with defaults is
// accepted, and the stored version holds the filled-in IR (builtin nodes at
// 1.0.0, marketplace nodes at the installed version, provider cloudflare,
// position {0,0}, metadata.version the version's number, createdAt and
// updatedAt the submission time). A complete IR is stored as sent. Wrong
// values are still refused.
func TestVersionIRDefaults(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.a
	w.must(201, "POST", "/api/marketplace/install", `{"nodeId":"slack-message","version":"1.0.0"}`, a.keyAll)
	wf := w.must(201, "POST", "/api/workflows", `{"name":"Short"}`, a.keyAll).str(t, "id")

	before := time.Now().UTC().Add(-time.Second)
	vid := w.submitVersion(a, wf, defaultsIR)
	got, number := readStoredIR(t, w, a, wf, vid)
	if got.Metadata.Version != number || got.Metadata.Name != "Short" {
		t.Errorf("metadata = %+v, version number %d", got.Metadata, number)
	}
	for _, ts := range []string{got.Metadata.CreatedAt, got.Metadata.UpdatedAt} {
		at, err := time.Parse(time.RFC3339, ts)
		if err != nil || at.Before(before.Truncate(time.Second)) {
			t.Errorf("server-assigned time %q: %v", ts, err)
		}
	}
	type node struct{ ID, Version, Provider, Position string }
	var nodes []node
	for _, n := range got.Nodes {
		pos := "missing"
		if n.Position != nil {
			pos = strings.TrimSpace(strings.ReplaceAll(strings.ReplaceAll(jsonString(t, n.Position), " ", ""), "\n", ""))
		}
		nodes = append(nodes, node{n.ID, n.Version, n.Provider, pos})
	}
	want := []node{{"start", "1.0.0", "cloudflare", `{"X":0,"Y":0}`}, {"notify", "1.0.0", "cloudflare", `{"X":0,"Y":0}`}}
	if diff := cmp.Diff(want, nodes); diff != "" {
		t.Errorf("stored nodes (-want +got):\n%s", diff)
	}

	// The stored, filled-in IR is itself a valid submission (revert).
	w.must(201, "POST", "/api/workflows/"+wf+"/versions/"+vid+"/revert", "", a.keyAll)

	// A complete IR keeps what it says.
	vid = w.submitVersion(a, wf, slackIR("1.0.0"))
	got, number = readStoredIR(t, w, a, wf, vid)
	if got.Metadata.CreatedAt != "2026-01-01T00:00:00Z" || got.Metadata.Version != number {
		t.Errorf("complete IR stored as %+v", got.Metadata)
	}

	// Defaults never hide a wrong value, and a marketplace node that is not
	// installed is still unknown.
	bad := strings.Replace(defaultsIR, `"name":"Start",`, `"name":"Start","provider":"aws","version":"",`, 1)
	if diff := cmp.Diff([]irProblem{{"/nodes/0/provider", "start", "provider"}, {"/nodes/0/version", "start", "node-type"}},
		irProblems(t, w.do("POST", "/api/workflows/"+wf+"/versions", `{"ir":`+bad+`}`, a.keyAll))); diff != "" {
		t.Errorf("explicit wrong values (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]irProblem{{"/nodes/1/type", "notify", "node-type"}},
		irProblems(t, w.do("POST", "/api/workflows/"+w.b.workflowID+"/versions", `{"ir":`+defaultsIR+`}`, w.b.keyAll))); diff != "" {
		t.Errorf("omitted version of a node not installed (-want +got):\n%s", diff)
	}
	// A key that carries meaning is still required.
	noData := strings.Replace(defaultsIR, `,"data":{"code":"return {n: 1};"}`, ``, 1)
	if diff := cmp.Diff([]irProblem{{"/nodes/0/data", "start", "schema"}},
		irProblems(t, w.do("POST", "/api/workflows/"+wf+"/versions", `{"ir":`+noData+`}`, a.keyAll))); diff != "" {
		t.Errorf("node without data (-want +got):\n%s", diff)
	}
}

// TestIRSchemaDefaults: the served JSON Schema requires only the keys that
// carry meaning and states the defaults.
func TestIRSchemaDefaults(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	var doc struct {
		Required []string
		Defs     map[string]struct {
			Required   []string
			Properties map[string]map[string]any
		} `json:"$defs"`
	}
	if err := json.Unmarshal(w.must(200, "GET", "/api/ir/schema.json", "", cred{}).body, &doc); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"id", "type", "name", "data"}, doc.Defs["node"].Required); diff != "" {
		t.Errorf("node required (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"name"}, doc.Defs["metadata"].Required); diff != "" {
		t.Errorf("metadata required (-want +got):\n%s", diff)
	}
	if p := doc.Defs["node"].Properties["provider"]["default"]; p != "cloudflare" {
		t.Errorf("provider default = %v", p)
	}
}

func jsonString(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
