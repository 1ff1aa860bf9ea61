package bundle_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/bundle"
	"github.com/edgeflow/edgeflow/internal/testenv"
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

// needNPM skips a test without npm, and fails it under CI.
func needNPM(t *testing.T) {
	t.Helper()
	testenv.Command(t, "npm")
}

// TestLegitBundleRegistryDependency installs a registry package (ms, from
// the npm registry) with a semver range and bundles it; the cache entry is
// keyed by the resolved lock and read-only; a second build reuses it.
func TestLegitBundleRegistryDependency(t *testing.T) {
	t.Parallel()
	needNPM(t)
	cache := t.TempDir()
	in := bundle.Input{
		Files:        map[string]string{"index.ts": `import * as ms from "ms"; export default { fetch() { return new Response(String(ms.default("2 days"))); } };`},
		Entry:        "index.ts",
		Dependencies: map[string]string{"ms": "^2.1.0"},
		CacheDir:     cache,
	}
	out, err := bundle.Bundle(context.Background(), in)
	if err != nil {
		var ie *bundle.InstallError
		if errors.As(err, &ie) && strings.Contains(ie.Message, "ENOTFOUND") {
			testenv.Missing(t, "the npm registry is not reachable: %v", err)
		}
		t.Fatal(err)
	}
	code := string(out.Code)
	if !strings.Contains(code, "node_modules/ms/index.js") || strings.Contains(code, `from "ms"`) || strings.Contains(code, cache) {
		t.Errorf("dependency not bundled, or the bundle names a server path:\n%s", code)
	}
	dirs, err := filepath.Glob(filepath.Join(cache, "npm", "*"))
	if err != nil || len(dirs) != 1 {
		t.Fatalf("cache holds %v (%v), want one installed set", dirs, err)
	}
	info, err := os.Stat(filepath.Join(dirs[0], "node_modules", "ms", "index.js"))
	if err != nil || info.Mode().Perm()&0o222 != 0 {
		t.Errorf("cached file mode %v (%v), want read-only", info.Mode(), err)
	}
	if left, _ := filepath.Glob(filepath.Join(cache, "builds", "*")); len(left) != 0 {
		t.Errorf("build directories left behind: %v", left)
	}
	in.NoCache = true
	if _, err := bundle.Bundle(context.Background(), in); err != nil {
		t.Fatalf("second bundle from the cache: %v", err)
	}
	if again, _ := filepath.Glob(filepath.Join(cache, "npm", "*")); len(again) != 1 {
		t.Errorf("cache holds %v after the second build, want the same entry", again)
	}
}

// TestAttackBundleDependencySpecs: Install refuses every spec that is not a
// registry package with a semver range or dist-tag, before running npm.
func TestAttackBundleDependencySpecs(t *testing.T) {
	t.Parallel()
	for _, spec := range []string{"file:/etc", "file:../../x", "link:/", "git+https://github.com/vercel/ms.git", "github:vercel/ms",
		"vercel/ms", "https://registry.npmjs.org/ms/-/ms-2.1.3.tgz", "npm:ms@2", "/etc", "ms.tgz", "workspace:*"} {
		cache := t.TempDir()
		_, err := bundle.Bundle(context.Background(), bundle.Input{
			Files: map[string]string{"index.ts": `import * as ms from "ms"; export default ms;`}, Entry: "index.ts",
			Dependencies: map[string]string{"ms": spec}, CacheDir: cache, NoCache: true,
		})
		var ie *bundle.InstallError
		if !errors.As(err, &ie) || !strings.Contains(ie.Message, `dependency "ms"`) {
			t.Errorf("spec %q: error %v, want an *InstallError naming the dependency", spec, err)
		}
		if entries, _ := os.ReadDir(cache); len(entries) != 0 {
			t.Errorf("spec %q: the cache was written", spec)
		}
	}
}

// TestAttackBundleUserSpecifiers: what user code imports is checked before
// resolution: absolute and relative paths and package subpaths with ".."
// are refused, with no server path in the message.
func TestAttackBundleUserSpecifiers(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		`const x = require("/etc/passwd"); export default x;`,
		`export default await import("/etc/passwd");`,
		`import x from "/etc/hostname"; export default x;`,
		`const x = require("ms/../../../../../etc/passwd"); export default x;`,
		`const x = require("ms/./../x"); export default x;`,
		`const x = require("../../../etc/passwd"); export default x;`,
	} {
		_, err := bundle.Bundle(context.Background(), bundle.Input{
			Files: map[string]string{"index.ts": src, "other.ts": "export const y = 1;"}, Entry: "index.ts", NoCache: true,
		})
		var be *bundle.Error
		if !errors.As(err, &be) {
			t.Errorf("%s: error %v, want a *bundle.Error", src, err)
			continue
		}
		if strings.Contains(err.Error(), os.TempDir()) {
			t.Errorf("%s: message shows a server path: %v", src, err)
		}
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
