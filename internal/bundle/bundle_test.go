package bundle_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/bundle"
	"github.com/google/go-cmp/cmp"
)

func TestBundle(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		files    map[string]string
		contains []string
		absent   []string
	}{
		{
			name: "single module keeps cloudflare imports",
			files: map[string]string{"index.ts": `import { WorkflowEntrypoint } from "cloudflare:workers";
export class W extends WorkflowEntrypoint { async run(): Promise<number> { const n: number = 1; return n; } }
export default { async fetch(): Promise<Response> { return new Response("ok"); } };`},
			contains: []string{`from "cloudflare:workers"`, "class W extends WorkflowEntrypoint"},
			absent:   []string{": number", "Promise<"},
		},
		{
			name: "template modules are inlined",
			files: map[string]string{
				"index.ts": `import slack_1_0_0 from "./nodes/slack@1.0.0";
export default { async fetch(): Promise<Response> { return Response.json(await slack_1_0_0({ config: {}, env: {} })); } };`,
				"nodes/slack@1.0.0.ts": `interface Config {}
export default async function slack(ctx: { config: Config; env: Record<string, unknown> }): Promise<string> { return "posted:" + Object.keys(ctx.env).length; }`,
			},
			contains: []string{`"posted:"`, "async function slack("},
			absent:   []string{"./nodes/", "interface Config"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out, err := bundle.Bundle(context.Background(), bundle.Input{Files: tt.files, Entry: "index.ts"})
			if err != nil {
				t.Fatal(err)
			}
			code := string(out.Code)
			for _, s := range tt.contains {
				if !strings.Contains(code, s) {
					t.Errorf("bundle lacks %q:\n%s", s, code)
				}
			}
			for _, s := range tt.absent {
				if strings.Contains(code, s) {
					t.Errorf("bundle still has %q:\n%s", s, code)
				}
			}
		})
	}
}

func TestBundleErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		files map[string]string
		want  []bundle.Problem
	}{
		{
			name:  "syntax error in the entry",
			files: map[string]string{"index.ts": "const a = 1;\nconst b = ;\n"},
			want:  []bundle.Problem{{File: "index.ts", Line: 2, Column: 10, Message: `Unexpected ";"`}},
		},
		{
			name: "syntax error in a template module",
			files: map[string]string{
				"index.ts":         `import t from "./nodes/t@1.0.0"; export default t;`,
				"nodes/t@1.0.0.ts": "export default function (\n",
			},
			want: []bundle.Problem{{File: "nodes/t@1.0.0.ts", Line: 2, Column: 0, Message: `Expected identifier but found end of file`}},
		},
		{
			name:  "unknown package without dependencies",
			files: map[string]string{"index.ts": `import x from "left-pad"; export default x;`},
			want:  []bundle.Problem{{File: "index.ts", Line: 0, Message: `cannot resolve import "left-pad": not among the files or the dependencies`}},
		},
		{
			name: "missing relative module",
			files: map[string]string{
				"index.ts": `import x from "./nodes/missing"; export default x;`,
				"other.ts": `export const y = 1;`,
			},
			want: []bundle.Problem{{File: "index.ts", Line: 1, Column: 14, Message: `cannot find module "./nodes/missing"`}},
		},
		{
			name:  "entry not in the files",
			files: map[string]string{"main.ts": ""},
			want:  []bundle.Problem{{File: "index.ts", Message: "entry module not found in the files"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := bundle.Bundle(context.Background(), bundle.Input{Files: tt.files, Entry: "index.ts"})
			var be *bundle.Error
			if !errors.As(err, &be) {
				t.Fatalf("error %v, want *bundle.Error", err)
			}
			if diff := cmp.Diff(tt.want, be.Problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// TestBundleDependencies installs a local npm package into the cache with
// npm (offline: a file: dependency) and bundles it; the second bundle reuses
// the cache.
func TestBundleDependencies(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("npm"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI: npm is required: %v", err)
		}
		t.Skip("npm not installed")
	}
	pkg := t.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(pkg, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("package.json", `{"name": "edgeflow-test-shout", "version": "1.0.0", "type": "module", "main": "index.js"}`)
	write("index.js", `export function shout(s) { return s.toUpperCase() + "!"; }`)
	cache := t.TempDir()
	in := bundle.Input{
		Files:        map[string]string{"index.ts": `import * as shout from "edgeflow-test-shout"; export default { fetch() { return new Response(shout.shout("hi")); } };`},
		Entry:        "index.ts",
		Dependencies: map[string]string{"edgeflow-test-shout": "file:" + pkg},
		CacheDir:     cache,
	}
	out, err := bundle.Bundle(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out.Code), "toUpperCase") || strings.Contains(string(out.Code), `from "edgeflow-test-shout"`) {
		t.Errorf("dependency not bundled:\n%s", out.Code)
	}
	dirs, err := filepath.Glob(filepath.Join(cache, "npm", "*"))
	if err != nil || len(dirs) != 1 {
		t.Fatalf("cache holds %v (%v), want one installed set", dirs, err)
	}
	// Remove the package source: the cached install must be used.
	if err := os.RemoveAll(pkg); err != nil {
		t.Fatal(err)
	}
	in.NoCache = true
	if _, err := bundle.Bundle(context.Background(), in); err != nil {
		t.Fatalf("second bundle from the cache: %v", err)
	}
}

func TestInstallWithoutCacheDir(t *testing.T) {
	t.Parallel()
	_, err := bundle.Bundle(context.Background(), bundle.Input{
		Files: map[string]string{"index.ts": ""}, Entry: "index.ts",
		Dependencies: map[string]string{"x": "1.0.0"},
	})
	var ie *bundle.InstallError
	if !errors.As(err, &ie) {
		t.Fatalf("error %v, want *bundle.InstallError", err)
	}
}

// TestBundleCache checks that a module differing only in its opening comment
// lines gets the same bundle, and that other changes do not.
func TestBundleCache(t *testing.T) {
	t.Parallel()
	src := "const answer: number = 42;\nexport default { fetch() { return new Response(String(answer)); } };\n"
	build := func(header, body string) string {
		t.Helper()
		out, err := bundle.Bundle(context.Background(), bundle.Input{Files: map[string]string{"index.ts": header + body}, Entry: "index.ts"})
		if err != nil {
			t.Fatal(err)
		}
		return string(out.Code)
	}
	v1 := build("// cache test: version 1.\n// generated\n", src)
	v2 := build("// cache test: version 2.\n// generated\n", src)
	fresh, err := bundle.Bundle(context.Background(), bundle.Input{Files: map[string]string{"index.ts": src}, Entry: "index.ts", NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	if v1 != v2 || v1 != string(fresh.Code) {
		t.Errorf("bundles differ:\n%s\n%s\n%s", v1, v2, fresh.Code)
	}
	if other := build("// cache test\n", strings.Replace(src, "42", "43", 1)); !strings.Contains(other, "43") {
		t.Errorf("changed module got a stale bundle:\n%s", other)
	}
}
