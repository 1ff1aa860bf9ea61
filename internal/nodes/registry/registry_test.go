package registry_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/edgeflow/edgeflow/internal/nodes/registry"
)

func errorIs(err, target error) bool { return errors.Is(err, target) }

func newEmbedded(t *testing.T) *registry.Registry {
	t.Helper()
	r, err := registry.New(registry.Options{})
	if err != nil {
		t.Fatalf("load the embedded registry: %v", err)
	}
	return r
}

// copyRegistry returns an in-memory copy of the repository's registry
// (index.json, node.json and template.ts files).
func copyRegistry(t *testing.T) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	src := os.DirFS(registryDir)
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if p != registry.IndexFile && path.Base(p) != registry.NodeFile && path.Base(p) != registry.TemplateFile {
			return nil
		}
		data, err := fs.ReadFile(src, p)
		m[p] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// rebuildIndex writes index.json of m from its node files.
func rebuildIndex(t *testing.T, m fstest.MapFS) {
	t.Helper()
	idx, err := registry.Build(m)
	if err != nil {
		t.Fatal(err)
	}
	data, err := registry.MarshalIndex(idx)
	if err != nil {
		t.Fatal(err)
	}
	m[registry.IndexFile] = &fstest.MapFile{Data: data}
}

func TestCommittedIndexIsCurrent(t *testing.T) {
	t.Parallel()
	idx, err := registry.Build(os.DirFS(registryDir))
	if err != nil {
		t.Fatal(err)
	}
	want, err := registry.MarshalIndex(idx)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(registryDir + "/index.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("registry/index.json is out of date: run `go run ./cmd/edgeflow registry build`\n%s", cmp.Diff(string(want), string(got)))
	}
}

func TestEmbeddedCatalog(t *testing.T) {
	t.Parallel()
	r := newEmbedded(t)
	nodes := r.Nodes(t.Context())
	if len(nodes) < 15 {
		t.Errorf("the embedded registry has %d nodes, want at least 15", len(nodes))
	}
	multi := 0
	for _, n := range nodes {
		if len(n.Versions) < 2 {
			continue
		}
		// Versions differ in their config schema or in what their template
		// does (a version that only sends trace headers keeps its fields).
		newest, err := r.Bundle(t.Context(), n.ID, n.Versions[0].Version)
		if err != nil {
			t.Fatal(err)
		}
		oldest, err := r.Bundle(t.Context(), n.ID, n.Versions[len(n.Versions)-1].Version)
		if err != nil {
			t.Fatal(err)
		}
		if cmp.Equal(keys(newest.Definition.ConfigSchema), keys(oldest.Definition.ConfigSchema)) && newest.Template == oldest.Template {
			t.Errorf("%s: versions %s and %s have the same config fields and template", n.ID, newest.Definition.Version, oldest.Definition.Version)
		}
		multi++
	}
	if multi < 2 {
		t.Errorf("%d nodes have several versions, want at least 2", multi)
	}

	d, err := r.Details(t.Context(), "slack-message")
	if err != nil {
		t.Fatal(err)
	}
	wantVersions := []registry.VersionInfo{{Version: "2.2.0"}, {Version: "2.1.0"}, {Version: "2.0.0"}, {Version: "1.0.0"}}
	if diff := cmp.Diff(wantVersions, d.Versions, cmpIgnoreChecksum); diff != "" {
		t.Errorf("slack-message versions (-want +got):\n%s", diff)
	}
	if d.Latest != "2.2.0" || !bytes.Contains(d.Definition, []byte(`"version":"2.2.0"`)) {
		t.Errorf("details: latest %s, definition %s", d.Latest, d.Definition)
	}
	if _, err := r.Details(t.Context(), "nope"); !errorIs(err, registry.ErrNodeNotFound) {
		t.Errorf("Details(nope) err = %v, want ErrNodeNotFound", err)
	}
}

var cmpIgnoreChecksum = cmp.Comparer(func(a, b registry.VersionInfo) bool { return a.Version == b.Version })

func keys[V any](m map[string]V) map[string]bool {
	out := map[string]bool{}
	for k := range m {
		out[k] = true
	}
	return out
}

func TestBundleLookup(t *testing.T) {
	t.Parallel()
	r := newEmbedded(t)
	tests := []struct {
		id, version string
		want        string
		wantErr     error
	}{
		{id: "openai-chat", version: "", want: "1.3.0"},
		{id: "openai-chat", version: "1.0.0", want: "1.0.0"},
		{id: "openai-chat", version: "9.9.9", wantErr: registry.ErrVersionNotFound},
		{id: "no-such-node", version: "", wantErr: registry.ErrNodeNotFound},
	}
	for _, tt := range tests {
		b, err := r.Bundle(t.Context(), tt.id, tt.version)
		if tt.wantErr != nil {
			if !errorIs(err, tt.wantErr) {
				t.Errorf("Bundle(%s, %q) err = %v, want %v", tt.id, tt.version, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("Bundle(%s, %q): %v", tt.id, tt.version, err)
			continue
		}
		if b.Definition.Version != tt.want || b.Template == "" || b.Checksum == "" {
			t.Errorf("Bundle(%s, %q) = version %s, %d bytes of template, checksum %q", tt.id, tt.version, b.Definition.Version, len(b.Template), b.Checksum)
		}
		again, err := registry.VerifyBundle(b.NodeJSON, b.Template, b.Checksum)
		if err != nil || again.Checksum != b.Checksum {
			t.Errorf("the bundle does not verify against its own checksum: %v", err)
		}
	}
}

func TestLoadVerifiesChecksums(t *testing.T) {
	t.Parallel()
	const tmpl = "nodes/slack-message/1.0.0/template.ts"
	const def = "nodes/slack-message/1.0.0/node.json"
	tests := []struct {
		name    string
		change  func(m fstest.MapFS)
		wantErr error
		want    string
	}{
		{
			name: "tampered template",
			change: func(m fstest.MapFS) {
				m[tmpl].Data = bytes.Replace(m[tmpl].Data, []byte("chat.postMessage`"), []byte("chat.postMessage?steal=1`"), 1)
			},
			wantErr: registry.ErrChecksumMismatch,
			want:    "nodes/slack-message/1.0.0",
		},
		{
			name: "tampered definition",
			change: func(m fstest.MapFS) {
				m[def].Data = bytes.Replace(m[def].Data, []byte(`"SLACK_BOT_TOKEN"`), []byte(`"OTHER_TOKEN"`), 1)
			},
			wantErr: registry.ErrChecksumMismatch,
			want:    "nodes/slack-message/1.0.0",
		},
		{
			name: "version folder missing from the index",
			change: func(m fstest.MapFS) {
				m["nodes/slack-message/1.0.1/node.json"] = &fstest.MapFile{Data: bytes.Replace(m[def].Data, []byte(`"version": "1.0.0"`), []byte(`"version": "1.0.1"`), 1)}
				m["nodes/slack-message/1.0.1/template.ts"] = &fstest.MapFile{Data: m[tmpl].Data}
			},
			wantErr: registry.ErrStaleIndex,
			want:    "slack-message 1.0.1 is not in index.json",
		},
		{
			name: "index lists a version without files",
			change: func(m fstest.MapFS) {
				delete(m, def)
				delete(m, tmpl)
			},
			wantErr: registry.ErrStaleIndex,
			want:    "index.json lists slack-message 1.0.0",
		},
		{
			name:    "no index",
			change:  func(m fstest.MapFS) { delete(m, registry.IndexFile) },
			wantErr: fs.ErrNotExist,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := copyRegistry(t)
			tt.change(m)
			_, err := registry.Load(m)
			if !errorIs(err, tt.wantErr) {
				t.Fatalf("Load err = %v, want %v", err, tt.wantErr)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not name %q", err, tt.want)
			}
		})
	}
}

func TestLoadAcceptsReformattedNodeJSON(t *testing.T) {
	t.Parallel()
	m := copyRegistry(t)
	const def = "nodes/slack-message/1.0.0/node.json"
	var generic map[string]any
	if err := json.Unmarshal(m[def].Data, &generic); err != nil {
		t.Fatal(err)
	}
	reformatted, err := json.MarshalIndent(generic, "", "\t") // keys sorted, tabs
	if err != nil {
		t.Fatal(err)
	}
	m[def].Data = reformatted
	if _, err := registry.Load(m); err != nil {
		t.Errorf("a reformatted node.json (same content) was refused: %v", err)
	}
}

func TestBuildRejectsInvalidNodes(t *testing.T) {
	t.Parallel()
	const def = "nodes/kv-get/1.0.0/node.json"
	const tmpl = "nodes/kv-get/1.0.0/template.ts"
	editJSON := func(edit func(d map[string]any)) func(m fstest.MapFS) {
		return func(m fstest.MapFS) {
			var d map[string]any
			if err := json.Unmarshal(m[def].Data, &d); err != nil {
				panic(err)
			}
			edit(d)
			data, err := json.Marshal(d)
			if err != nil {
				panic(err)
			}
			m[def].Data = data
		}
	}
	field := func(d map[string]any, name string) map[string]any {
		return d["configSchema"].(map[string]any)[name].(map[string]any)
	}
	tests := []struct {
		name   string
		change func(m fstest.MapFS)
		want   string
	}{
		{"id differs from its folder", editJSON(func(d map[string]any) { d["id"] = "kv-read" }), `id "kv-read" does not match its folder`},
		{"version differs from its folder", editJSON(func(d map[string]any) { d["version"] = "1.0.1" }), `version "1.0.1" does not match its folder`},
		{"unknown key", editJSON(func(d map[string]any) { d["icon"] = "x.svg" }), `unknown field "icon"`},
		{"bad category", editJSON(func(d map[string]any) { d["category"] = "Misc" }), `category: "Misc" is not one of`},
		{"builtin id", editJSON(func(d map[string]any) { d["id"] = "step" }), `"step" is a builtin node type`},
		{"secret without env var", editJSON(func(d map[string]any) {
			d["configSchema"].(map[string]any)["token"] = map[string]any{"type": "secret", "label": "Token"}
		}), "configSchema.token.envVarName"},
		{"select without options", editJSON(func(d map[string]any) { delete(field(d, "type"), "options") }), "configSchema.type.options: required"},
		{"default not an option", editJSON(func(d map[string]any) { field(d, "type")["default"] = "xml" }), "configSchema.type.default: must be one of the options"},
		{"unknown field type", editJSON(func(d map[string]any) { field(d, "key")["type"] = "binary" }), `configSchema.key.type: "binary"`},
		{"bad pattern", editJSON(func(d map[string]any) { field(d, "binding")["validation"] = map[string]any{"pattern": "("} }), "configSchema.binding.validation.pattern"},
		{"min on a string", editJSON(func(d map[string]any) { field(d, "key")["validation"] = map[string]any{"min": 1} }), "min, max and integer apply to number fields"},
		{"integer on a string", editJSON(func(d map[string]any) { field(d, "key")["validation"] = map[string]any{"integer": true} }), "min, max and integer apply to number fields"},
		{"claims to be builtin", editJSON(func(d map[string]any) { d["builtin"] = true }), "builtin: only edgeflow's own node types are builtin"},
		{"field name not an identifier", editJSON(func(d map[string]any) {
			d["configSchema"].(map[string]any)["cache-ttl"] = map[string]any{"type": "number", "label": "x"}
		}), "configSchema.cache-ttl: field name"},
		{"bad output type", editJSON(func(d map[string]any) {
			d["outputSchema"].(map[string]any)["found"] = map[string]any{"type": "bool"}
		}), `outputSchema.found.type: "bool"`},
		{"changelog ending with a space", editJSON(func(d map[string]any) { d["changelog"] = strings.Repeat("Fixes things. ", 80) }), "changelog: must not start or end with spaces"},
		{"changelog over 1000 characters", editJSON(func(d map[string]any) { d["changelog"] = strings.Repeat("x", 1001) }), "changelog: longer than 1000 characters (1001)"},
		{"changelog over 20 lines", editJSON(func(d map[string]any) { d["changelog"] = strings.TrimSuffix(strings.Repeat("Line.\n", 21), "\n") }), "changelog: more than 20 lines (21)"},
		{"changelog with a tab", editJSON(func(d map[string]any) { d["changelog"] = "Adds\ttabs." }), "changelog: line 1 holds a control character (U+0009)"},
		{"changelog in Markdown", editJSON(func(d map[string]any) { d["changelog"] = "Changes:\n- adds a field" }), `changelog: line 2 starts with "-": the changelog is plain text`},
		{"changelog with a heading", editJSON(func(d map[string]any) { d["changelog"] = "## 1.0.0" }), `changelog: line 1 starts with "##"`},
		{"changelog with a link", editJSON(func(d map[string]any) { d["changelog"] = "See [the docs](https://example.com)." }), "changelog: holds an HTML tag or a Markdown link"},
		{"changelog with HTML", editJSON(func(d map[string]any) { d["changelog"] = "Adds <b>bold</b> text." }), "changelog: holds an HTML tag or a Markdown link"},
		{"changelog not a string", editJSON(func(d map[string]any) { d["changelog"] = []any{"a"} }), "changelog"},
		{"no export default", func(m fstest.MapFS) {
			m[tmpl].Data = bytes.Replace(m[tmpl].Data, []byte("export default async function"), []byte("async function"), 1)
		}, "export default async function"},
		{"undeclared import", func(m fstest.MapFS) {
			m[tmpl].Data = append([]byte("import { z } from \"zod\";\n"), m[tmpl].Data...)
		}, `imports "zod", which is not in dependencies`},
		{"relative import", func(m fstest.MapFS) {
			m[tmpl].Data = append([]byte("import helper from \"../shared.ts\";\n"), m[tmpl].Data...)
		}, `imports "../shared.ts"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := copyRegistry(t)
			tt.change(m)
			_, err := registry.Build(m)
			if !errorIs(err, registry.ErrInvalidNode) {
				t.Fatalf("Build err = %v, want ErrInvalidNode", err)
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "nodes/kv-get/1.0.0") {
				t.Errorf("error %q does not name nodes/kv-get/1.0.0 and %q", err, tt.want)
			}
		})
	}
}

// TestChangelogs: every version of the embedded registry has a changelog,
// which its catalog entry carries; a plain-text changelog with several lines
// and punctuation passes the checks.
func TestChangelogs(t *testing.T) {
	t.Parallel()
	r := newEmbedded(t)
	for _, n := range r.Nodes(t.Context()) {
		for _, v := range n.Versions {
			if v.Changelog == "" {
				t.Errorf("%s %s has no changelog", n.ID, v.Version)
			}
		}
	}
	m := copyRegistry(t)
	const def = "nodes/kv-get/1.0.0/node.json"
	var d map[string]any
	if err := json.Unmarshal(m[def].Data, &d); err != nil {
		t.Fatal(err)
	}
	d["changelog"] = "Reads values as text, JSON or bytes (type).\n1.0.0 is the first release; 2 < 3 and a*b stay plain text."
	data, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	m[def].Data = data
	idx, err := registry.Build(m)
	if err != nil {
		t.Fatalf("a plain-text changelog is refused: %v", err)
	}
	for _, n := range idx.Nodes {
		if n.ID == "kv-get" && n.Versions[0].Changelog != d["changelog"] {
			t.Errorf("index changelog = %q", n.Versions[0].Changelog)
		}
	}
}

func TestDeclaredDependencyMayBeImported(t *testing.T) {
	t.Parallel()
	m := copyRegistry(t)
	const def = "nodes/kv-get/1.0.0/node.json"
	const tmpl = "nodes/kv-get/1.0.0/template.ts"
	var d map[string]any
	if err := json.Unmarshal(m[def].Data, &d); err != nil {
		t.Fatal(err)
	}
	d["dependencies"] = map[string]any{"@scope/lib": "^1.2.0"}
	data, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	m[def].Data = data
	m[tmpl].Data = append([]byte("import { x } from \"@scope/lib/sub\";\n"), m[tmpl].Data...)
	if _, err := registry.Build(m); err != nil {
		t.Errorf("Build refused a declared dependency: %v", err)
	}
}

func TestNodeReferenceNamesEveryVersion(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../../../docs/marketplace-nodes.md")
	if err != nil {
		t.Fatal(err)
	}
	r := newEmbedded(t)
	for _, n := range r.Nodes(t.Context()) {
		for _, v := range n.Versions {
			b, err := r.Bundle(t.Context(), n.ID, v.Version)
			if err != nil {
				t.Fatal(err)
			}
			heading := "### " + b.Definition.Name + " " + v.Version
			if !bytes.Contains(doc, []byte(heading)) {
				t.Errorf("docs/marketplace-nodes.md has no section %q", heading)
			}
			for field := range b.Definition.ConfigSchema {
				if !bytes.Contains(doc, []byte("| `"+field+"` |")) {
					t.Errorf("docs/marketplace-nodes.md does not describe %s's field %s", n.ID, field)
				}
			}
		}
	}
}
