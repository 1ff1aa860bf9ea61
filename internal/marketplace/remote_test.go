package marketplace_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/marketplace"
	"github.com/edgeflow/edgeflow/internal/nodes/registry"
	"github.com/edgeflow/edgeflow/internal/sqlite"
)

// TestInstallFromRemoteRegistry installs a node that only a remote registry
// (EDGEFLOW_REGISTRY_URL) serves, and keeps using its snapshot after the
// remote stops serving it.
func TestInstallFromRemoteRegistry(t *testing.T) {
	t.Parallel()
	def := `{"id":"echo-remote","name":"Echo","description":"Returns its text.","category":"Utilities",
		"author":"tests","license":"MIT","version":"0.9.0",
		"configSchema":{"text":{"type":"string","label":"Text","required":true}},
		"outputSchema":{"text":{"type":"string"}},"allowedInFunctions":true}`
	tmpl := "interface Config { text: string }\n\nexport default async function echo(ctx: { config: Config; env: Record<string, unknown> }): Promise<{ text: string }> {\n  return { text: ctx.config.text };\n}\n"
	files := fstest.MapFS{
		"nodes/echo-remote/0.9.0/node.json":   {Data: []byte(def)},
		"nodes/echo-remote/0.9.0/template.ts": {Data: []byte(tmpl)},
	}
	idx, err := registry.Build(files)
	if err != nil {
		t.Fatal(err)
	}
	data, err := registry.MarshalIndex(idx)
	if err != nil {
		t.Fatal(err)
	}
	files[registry.IndexFile] = &fstest.MapFile{Data: data}
	var mu sync.Mutex
	remote := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		http.FileServer(http.FS(files)).ServeHTTP(w, r)
	}))
	t.Cleanup(remote.Close)

	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "edgeflow.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	reg, err := registry.New(registry.Options{RemoteURL: remote.URL, HTTPClient: remote.Client()})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := marketplace.New(marketplace.Options{Store: st, Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{store: st, svc: svc}
	org, user := f.newOrg(t, "acme")

	inst, err := svc.Install(ctx, org, user, "echo-remote", "")
	if err != nil {
		t.Fatal(err)
	}
	if inst.Version != "0.9.0" {
		t.Fatalf("installed %+v", inst)
	}
	// The embedded nodes are still there.
	if _, err := svc.Install(ctx, org, user, "kv-get", ""); err != nil {
		t.Fatal(err)
	}

	// The remote drops the node: the organization keeps its snapshot.
	mu.Lock()
	files[registry.IndexFile] = &fstest.MapFile{Data: []byte(`{"formatVersion":1,"nodes":[]}` + "\n")}
	mu.Unlock()
	if err := reg.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Node(ctx, "echo-remote"); err == nil {
		t.Fatal("the registry still serves the dropped node")
	}
	cat, err := svc.NodeCatalog(ctx, org)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := cat.Lookup("echo-remote", "0.9.0"); !ok {
		t.Fatal("the installed remote node left the organization's catalog")
	}
	d, err := svc.Details(ctx, org, "echo-remote")
	if err != nil || !d.Installed || d.Installation == nil {
		t.Fatalf("details = %+v, %v", d, err)
	}
	other, _ := f.newOrg(t, "other")
	if _, err := svc.Details(ctx, other, "echo-remote"); edgeflow.ErrorCode(err) != edgeflow.ENotFound {
		t.Fatalf("details for another organization: %v, want not_found", err)
	}
	found := false
	nodes, err := svc.Catalog(ctx, org)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range nodes {
		if n.ID == "echo-remote" {
			found = n.Installed && *n.InstalledVersion == "0.9.0"
		}
	}
	if !found {
		t.Fatal("the catalog does not list the installed node the registry dropped")
	}
}
