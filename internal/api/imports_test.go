package api_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// n8nGreeting is a small n8n workflow as n8n exports it: a manual trigger
// and a Set node.
const n8nGreeting = `{"name": "Greeting", "nodes": [
 {"id": "1", "name": "Start", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "position": [0, 0], "parameters": {}},
 {"id": "2", "name": "Greet", "type": "n8n-nodes-base.set", "typeVersion": 3.4, "position": [220, 0],
  "parameters": {"assignments": {"assignments": [{"id": "a", "name": "greeting", "value": "={{ 'Hello ' + $json.name }}", "type": "string"}]}, "options": {}}}],
 "connections": {"Start": {"main": [[{"node": "Greet", "type": "main", "index": 0}]]}}}`

// errBody is an error answer.
type errBody struct {
	Code    string                `json:"code"`
	Error   string                `json:"error"`
	Details []edgeflow.FieldError `json:"details"`
}

func decodeErr(t *testing.T, r response) errBody {
	t.Helper()
	var e errBody
	if err := json.Unmarshal(r.body, &e); err != nil {
		t.Fatalf("the error is not JSON: %v\n%s", err, r.body)
	}
	return e
}

// TestImportN8nPreviewStoresNothing: an import without create answers the
// IR and the report, for the wrapped body and for the n8n file as the body,
// and creates no workflow; a read-only key may preview.
func TestImportN8nPreviewStoresNothing(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	before := w.must(200, "GET", "/api/workflows", "", w.a.keyAll).body
	for _, body := range []string{`{"workflow": ` + n8nGreeting + `, "name": "Hello"}`, n8nGreeting} {
		r := w.must(200, "POST", "/api/import/n8n", body, w.a.keyRead)
		var out struct {
			IR struct {
				Metadata struct{ Name string } `json:"metadata"`
				Nodes    []struct{ ID string } `json:"nodes"`
			} `json:"ir"`
			Report struct {
				Converted []struct {
					N8nNode string   `json:"n8nNode"`
					NodeIDs []string `json:"nodeIds"`
				} `json:"converted"`
				Unsupported []any `json:"unsupported"`
			} `json:"report"`
			Workflow any `json:"workflow"`
		}
		if err := json.Unmarshal(r.body, &out); err != nil {
			t.Fatal(err)
		}
		if len(out.IR.Nodes) != 2 || len(out.Report.Converted) != 2 || len(out.Report.Unsupported) != 0 || out.Workflow != nil {
			t.Fatalf("answer %s", r.body)
		}
		if out.Report.Converted[1].N8nNode != "Greet" || out.Report.Converted[1].NodeIDs[0] != "greet" {
			t.Errorf("converted %+v", out.Report.Converted)
		}
	}
	if after := w.must(200, "GET", "/api/workflows", "", w.a.keyAll).body; !bytes.Equal(before, after) {
		t.Errorf("a preview changed the workflows:\n%s\n%s", before, after)
	}
}

// TestImportN8nCreate: ?create=true creates the workflow with the IR as its
// first version (201); a read-only key and a viewer may not.
func TestImportN8nCreate(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r := w.must(201, "POST", "/api/import/n8n?create=true", `{"workflow": `+n8nGreeting+`}`, w.a.keyAll)
	var out struct {
		Workflow struct{ ID, Name, CurrentVersionID string } `json:"workflow"`
		Version  struct {
			ID     string `json:"id"`
			Number int    `json:"version"`
		} `json:"version"`
	}
	if err := json.Unmarshal(r.body, &out); err != nil {
		t.Fatal(err)
	}
	if out.Workflow.Name != "Greeting" || out.Version.Number != 1 || out.Workflow.CurrentVersionID != out.Version.ID {
		t.Fatalf("answer %s", r.body)
	}
	got := w.must(200, "GET", "/api/workflows/"+out.Workflow.ID+"/versions/"+out.Version.ID, "", w.a.keyAll).json(t)
	if !strings.Contains(fmt.Sprint(got["code"]), "Hello ") {
		t.Errorf("the version's code does not hold the Set node's expression")
	}

	if r := w.do("POST", "/api/import/n8n?create=true", n8nGreeting, w.a.keyRead); r.status != 403 {
		t.Errorf("create with a read key: %d %s", r.status, r.body)
	}
	if r := w.do("POST", "/api/import/n8n?create=true", n8nGreeting, w.a.team[edgeflow.RoleViewer].keyProject); r.status != 403 {
		t.Errorf("create by a viewer: %d %s", r.status, r.body)
	}
	if r := w.do("POST", "/api/import/n8n", n8nGreeting, w.a.team[edgeflow.RoleViewer].keyProject); r.status != 200 {
		t.Errorf("preview by a viewer: %d %s", r.status, r.body)
	}
	if r := w.do("POST", "/api/import/n8n?create=yes", n8nGreeting, w.a.keyAll); r.status != 422 || decodeErr(t, r).Details[0].Path != "/create" {
		t.Errorf("create=yes: %d %s", r.status, r.body)
	}
}

// TestImportAwaitStepExamples: every AwaitStep example IR of the importer's
// testdata imports as it is, and creates a workflow.
func TestImportAwaitStepExamples(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	files, _ := filepath.Glob("../importer/awaitstep/testdata/examples/*.json")
	if len(files) < 10 {
		t.Fatalf("%d AwaitStep examples", len(files))
	}
	for _, f := range files {
		if filepath.Base(f) == "SOURCES.json" {
			continue
		}
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		r := w.do("POST", "/api/import/awaitstep?create=true", string(raw), w.a.keyAll)
		switch {
		case r.status == 201:
		case r.status == 400 && strings.Contains(string(r.body), "marketplace nodes"):
			// It uses marketplace nodes the world's organization has not
			// installed: the preview must still answer.
			w.must(200, "POST", "/api/import/awaitstep", string(raw), w.a.keyAll)
		default:
			t.Errorf("%s: %d %s", filepath.Base(f), r.status, r.body)
		}
	}
}

// TestImportBadInput: documents that are not what the route imports get
// 422 with the path of the bad field, never 500.
func TestImportBadInput(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	cases := []struct {
		route, body, path string
	}{
		{"n8n", `{"workflow": null}`, "/workflow"},
		{"n8n", `{"workflow": [1]}`, "/workflow"},
		{"n8n", `{"workflow": {"nodes": "none"}}`, "/workflow/nodes"},
		{"n8n", `{"workflow": {"nodes": []}}`, "/workflow/nodes"},
		{"n8n", `{"workflow": {"nodes": [{"name": "A", "type": 5}]}}`, "/workflow/nodes/0"},
		{"n8n", `{"workflow": ` + n8nGreeting + `, "extra": 1}`, "/extra"},
		{"n8n", `{"workflow": ` + n8nGreeting + `, "name": 7}`, "/name"},
		{"n8n", `{"workflow": ` + n8nGreeting + `, "subWorkflows": {"": "wf"}}`, "/subWorkflows/"},
		{"awaitstep", `{"ir": "x"}`, "/ir"},
		{"awaitstep", `{"ir": {"nodes": "none"}}`, "/ir/nodes"},
		{"awaitstep", `{"nodes": [{"id": 1}], "edges": []}`, "/nodes/0/id"},
	}
	for _, c := range cases {
		r := w.do("POST", "/api/import/"+c.route, c.body, w.a.keyAll)
		if r.status != 422 {
			t.Errorf("%s %s: %d %s", c.route, c.body, r.status, r.body)
			continue
		}
		found := false
		for _, d := range decodeErr(t, r).Details {
			found = found || strings.HasPrefix(d.Path, c.path)
		}
		if !found {
			t.Errorf("%s %s: %s, want the path %s", c.route, c.body, r.body, c.path)
		}
	}
	for _, body := range []string{``, `nul`, `{"workflow": {`, "\xff\xfe"} {
		if r := w.do("POST", "/api/import/n8n", body, w.a.keyAll); r.status != 400 && r.status != 422 {
			t.Errorf("%q: %d %s", body, r.status, r.body)
		}
	}
}

// TestImportCaps: a body past MaxImportBytes gets 413 and a workflow of
// more nodes than an import takes gets 422 naming /workflow/nodes; one
// node under the cap is imported.
func TestImportCaps(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	big := `{"workflow": {"nodes": [], "pad": "` + strings.Repeat("x", api.MaxImportBytes) + `"}}`
	if r := w.do("POST", "/api/import/n8n", big, w.a.keyAll); r.status != 413 {
		t.Errorf("a body over %d bytes: %d %.300s", api.MaxImportBytes, r.status, r.body)
	}
	nodes := func(n int) string {
		var b strings.Builder
		b.WriteString(`{"workflow": {"nodes": [{"id": "t", "name": "Start", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "position": [0, 0], "parameters": {}}`)
		for i := 1; i < n; i++ {
			fmt.Fprintf(&b, `, {"id": "%d", "name": "N%d", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}}`, i, i)
		}
		b.WriteString(`], "connections": {}}}`)
		return b.String()
	}
	r := w.do("POST", "/api/import/n8n", nodes(api.MaxImportNodes+1), w.a.keyAll)
	if r.status != 422 || decodeErr(t, r).Details[0].Path != "/workflow/nodes" {
		t.Errorf("%d nodes: %d %.300s", api.MaxImportNodes+1, r.status, r.body)
	}
	w.must(200, "POST", "/api/import/n8n", nodes(api.MaxImportNodes), w.a.keyAll)
}

// TestVersionExport: the export is a gzipped tar with a safe file name,
// holding the project's files, the workflow's secrets named and never
// valued; an unknown format is refused with the path /format; another
// tenant's version is not found.
func TestVersionExport(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	path := "/api/workflows/" + w.a.workflowID + "/versions/" + w.a.versionID + "/export"
	r := w.must(200, "GET", path+"?format=wrangler", "", w.a.keyRead)
	if ct := r.header.Get("Content-Type"); ct != "application/gzip" {
		t.Errorf("Content-Type %q", ct)
	}
	if cd := r.header.Get("Content-Disposition"); !strings.HasPrefix(cd, `attachment; filename="orders-v1-wrangler.tar.gz"`) {
		t.Errorf("Content-Disposition %q", cd)
	}
	files := untar(t, r.body)
	for _, f := range []string{"wrangler.jsonc", "package.json", "README.md", "src/index.ts", ".gitignore"} {
		if _, ok := files[f]; !ok {
			t.Errorf("the archive holds no %s", f)
		}
	}
	for name, data := range files {
		for _, secret := range []string{"wf-secret-", "org-secret-", w.a.keyAll.key, w.a.keyRead.key} {
			if bytes.Contains(data, []byte(secret)) {
				t.Errorf("%s holds the secret %q", name, secret)
			}
		}
	}
	if !strings.Contains(string(files["README.md"]), "wrangler secret put TOKEN") {
		t.Errorf("the README does not say to set the workflow's secret TOKEN:\n%s", files["README.md"])
	}
	if !strings.Contains(string(files["wrangler.jsonc"]), `"class_name"`) {
		t.Errorf("wrangler.jsonc binds no Workflow:\n%s", files["wrangler.jsonc"])
	}

	for _, q := range []string{"", "?format=zip"} {
		r := w.do("GET", path+q, "", w.a.keyAll)
		if r.status != 422 || decodeErr(t, r).Details[0].Path != "/format" {
			t.Errorf("%q: %d %s", q, r.status, r.body)
		}
	}
	if r := w.do("GET", path+"?format=wrangler", "", w.b.keyAll); r.status != 404 {
		t.Errorf("another tenant: %d", r.status)
	}
}

// untar reads a gzipped tar's regular files.
func untar(t *testing.T, data []byte) map[string][]byte {
	t.Helper()
	gz, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	out := map[string][]byte{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		out[h.Name] = b
	}
}
