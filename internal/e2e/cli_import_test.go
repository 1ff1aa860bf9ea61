package e2e_test

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCLIImportExport runs `edgeflow import` and `edgeflow export` (the built
// binary) against a running server: a preview stores nothing, --out writes
// the IR the API answers, --create creates the workflow (n8n and AwaitStep),
// the imported workflow deploys and runs, and export writes the project the
// API's archive holds, refusing a directory that is not empty and a workflow
// that does not exist; a file that is not a workflow fails with the reason.
func TestCLIImportExport(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	u := newCLIUser(t)
	if code, out, errOut := u.run(s.key+"\n", nil, "login", "--url", s.url+"/api", "--api-key-stdin"); code != 0 {
		t.Fatalf("login: exit %d\n%s%s", code, out, errOut)
	}
	raw, err := os.ReadFile(filepath.Join(n8nCorpusDir, "z-if-split-items.json"))
	if err != nil {
		t.Fatal(err)
	}
	u.write("if.json", raw)
	workflows := func() int {
		var page struct {
			Data []struct{ ID string } `json:"data"`
		}
		s.must(200, "GET", "/api/workflows", nil).into(&page)
		return len(page.Data)
	}

	// A preview prints the report and stores nothing; --out writes the API's IR.
	out := u.must(0, "import", "n8n", "if.json")
	if !strings.Contains(out, "Converted 5 nodes, 0 not converted") || !strings.Contains(out, "Nothing was stored") {
		t.Errorf("import n8n:\n%s", out)
	}
	u.must(0, "import", "n8n", "if.json", "--out", "if.ir.json")
	if n := workflows(); n != 0 {
		t.Fatalf("a preview and --out stored %d workflows", n)
	}
	var api struct {
		IR json.RawMessage `json:"ir"`
	}
	s.must(200, "POST", "/api/import/n8n", map[string]any{"workflow": json.RawMessage(raw)}).into(&api)
	var fromFile, fromAPI any
	if err := json.Unmarshal(u.read("if.ir.json"), &fromFile); err != nil {
		t.Fatalf("if.ir.json: %v", err)
	}
	json.Unmarshal(api.IR, &fromAPI)
	if !sameJSON(fromFile, fromAPI) {
		t.Errorf("--out wrote another IR than the API answers:\n%s\n%s", u.read("if.ir.json"), api.IR)
	}

	// --create creates the workflow; it deploys and runs as n8n ran it.
	var created importResult
	if err := json.Unmarshal([]byte(u.must(0, "import", "n8n", "if.json", "--create", "--name", "split items", "--json")), &created); err != nil || created.Workflow.ID == "" {
		t.Fatalf("import --create --json: %v %+v", err, created)
	}
	s.deploy(created.Workflow.ID)
	r := s.runExample(created.Workflow.ID, map[string]any{})
	var last []struct{ JSON map[string]any }
	for _, st := range r.Steps {
		if st.NodeID == "set1" {
			json.Unmarshal(st.Output, &last)
		}
	}
	if len(last) != 1 || last[0].JSON["name"] != "nodemation" {
		t.Errorf("the imported workflow's step set1 = %+v (steps %+v)", last, r.Steps)
	}
	hello, err := os.ReadFile(filepath.Join(awaitStepDir, "template-hello-world.json"))
	if err != nil {
		t.Fatal(err)
	}
	u.write("hello.json", hello)
	if out := u.must(0, "import", "awaitstep", "hello.json", "--create"); !strings.Contains(out, "Created workflow") {
		t.Errorf("import awaitstep --create:\n%s", out)
	}
	if n := workflows(); n != 2 {
		t.Errorf("%d workflows after two imports with --create", n)
	}

	// Export writes what the API's archive holds.
	out = u.must(0, "export", "split items", "--format", "wrangler", "--out", "project")
	if !strings.Contains(out, "as a wrangler project") {
		t.Errorf("export:\n%s", out)
	}
	var wf struct {
		CurrentVersionID string `json:"currentVersionId"`
	}
	s.must(200, "GET", "/api/workflows/"+created.Workflow.ID, nil).into(&wf)
	want := s.exportTo(created.Workflow.ID, wf.CurrentVersionID)
	got := filepath.Join(u.dir, "project")
	wantFiles, gotFiles := treeFiles(t, want), treeFiles(t, got)
	if len(gotFiles) == 0 || len(gotFiles) != len(wantFiles) {
		t.Errorf("export wrote %d files; the archive holds %d", len(gotFiles), len(wantFiles))
	}
	for name, data := range wantFiles {
		if !bytes.Equal(gotFiles[name], data) {
			t.Errorf("%s differs from the archive's", name)
		}
	}
	for _, f := range []string{"wrangler.jsonc", "package.json", "README.md", "src/index.ts"} {
		if _, ok := gotFiles[f]; !ok {
			t.Errorf("export wrote no %s", f)
		}
	}

	// Refusals: a directory that is not empty, a workflow that does not exist, a file that is not a workflow.
	if code, _, errOut := u.run("", nil, "export", "split items", "--format", "wrangler", "--out", "project"); code == 0 || !strings.Contains(errOut, "not empty") {
		t.Errorf("export into a directory that is not empty: exit %d %s", code, errOut)
	}
	if code, _, errOut := u.run("", nil, "export", "no-such-workflow", "--format", "wrangler", "--out", "elsewhere"); code == 0 || errOut == "" {
		t.Errorf("export of a workflow that does not exist: exit %d %s", code, errOut)
	}
	u.write("bad.json", []byte(`{"nodes": [{"name": "A"}], "connections": {}}`))
	if code, _, errOut := u.run("", nil, "import", "n8n", "bad.json"); code == 0 || !strings.Contains(errOut, "/workflow/nodes/0/type") {
		t.Errorf("import of a node without a type: exit %d %s", code, errOut)
	}
	if n := workflows(); n != 2 {
		t.Errorf("%d workflows after the refusals, want 2", n)
	}
}

// treeFiles reads every file under dir, by slash path.
func treeFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		files[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
