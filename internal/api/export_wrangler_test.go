package api_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/examples"
	"github.com/edgeflow/edgeflow/internal/localedge"
	"github.com/edgeflow/edgeflow/internal/testenv"
)

// wranglerCLI finds wrangler 4 (from the npm registry) and a Node it runs
// on: EDGEFLOW_WRANGLER (the path of wrangler's bin/wrangler.js) or the
// copy the conformance harness keeps in ~/.cache/edgeflow/wrangler4, with
// the Node of edge/node-runtime or PATH.
func wranglerCLI(t *testing.T) (node, script string) {
	t.Helper()
	script = os.Getenv("EDGEFLOW_WRANGLER")
	if script == "" {
		cache := os.Getenv("XDG_CACHE_HOME")
		if cache == "" {
			home, _ := os.UserHomeDir()
			cache = filepath.Join(home, ".cache")
		}
		script = filepath.Join(cache, "edgeflow", "wrangler4", "node_modules", "wrangler", "bin", "wrangler.js")
	}
	if _, err := os.Stat(script); err != nil {
		testenv.Missing(t, "wrangler 4 is not installed: `npm install wrangler@4` in ~/.cache/edgeflow/wrangler4, or set EDGEFLOW_WRANGLER to its bin/wrangler.js")
	}
	node, err := localedge.FindNode(context.Background(), "", filepath.Join(testenv.Root(), "edge", "server.mjs"))
	if err != nil {
		testenv.Missing(t, "%v", err)
	}
	return node, script
}

// TestExportWranglerDryRun exports every example of examples/ as the API
// answers it and has wrangler 4 build each project (`wrangler deploy
// --dry-run`), which bundles src/index.ts against wrangler.jsonc as a
// deploy would, without an account; no file of the archive holds a value
// of the world's secrets.
func TestExportWranglerDryRun(t *testing.T) {
	t.Parallel()
	node, script := wranglerCLI(t)
	w := newWorld(t)
	for _, ex := range examples.All() {
		t.Run(ex.Name, func(t *testing.T) {
			var meta struct {
				Kind string `json:"kind"`
			}
			_ = json.Unmarshal(ex.IR, &meta)
			kind := "workflow"
			if meta.Kind == "script" {
				kind = "script"
			}
			wf := w.must(201, "POST", "/api/workflows", `{"name":"Example `+ex.Name+`","kind":"`+kind+`"}`, w.a.keyAll).str(t, "id")
			w.must(200, "PATCH", "/api/workflows/"+wf, `{"envVars":[{"name":"SIGNING_KEY","value":"example-secret-value","isSecret":true},{"name":"REGION","value":"eu-west"}]}`, w.a.keyAll)
			ver := w.must(201, "POST", "/api/workflows/"+wf+"/versions", `{"ir":`+string(ex.IR)+`}`, w.a.keyAll).str(t, "id")
			r := w.must(200, "GET", "/api/workflows/"+wf+"/versions/"+ver+"/export?format=wrangler", "", w.a.keyAll)
			files := untar(t, r.body)
			dir := t.TempDir()
			for name, data := range files {
				for _, secret := range []string{"example-secret-value", "wf-secret-", "org-secret-", w.a.keyAll.key} {
					if strings.Contains(string(data), secret) {
						t.Errorf("%s holds the secret value %q", name, secret)
					}
				}
				p := filepath.Join(dir, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if !strings.Contains(string(files["README.md"]), "wrangler secret put SIGNING_KEY") {
				t.Errorf("the README does not name the secret SIGNING_KEY")
			}
			if !strings.Contains(string(files["wrangler.jsonc"]), `"REGION"`) {
				t.Errorf("wrangler.jsonc does not name the variable REGION")
			}
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, node, script, "deploy", "--dry-run", "--outdir", "dist")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "WRANGLER_SEND_METRICS=false", "CI=1", "HOME="+dir, "XDG_CONFIG_HOME="+filepath.Join(dir, ".config"))
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("wrangler deploy --dry-run: %v\n%s\nwrangler.jsonc:\n%s", err, out, files["wrangler.jsonc"])
			}
			if _, err := os.Stat(filepath.Join(dir, "dist", "index.js")); err != nil {
				t.Errorf("wrangler wrote no dist/index.js: %v\n%s", err, out)
			}
		})
	}
}
