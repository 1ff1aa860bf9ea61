package registry_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestTemplatesTypeCheck type-checks every template.ts with `tsc --strict`
// against @cloudflare/workers-types, as the compiler will inline them.
func TestTemplatesTypeCheck(t *testing.T) {
	t.Parallel()
	harness := nodeHarness(t)
	versions := loadNodeVersions(t)
	files := make([]string, 0, len(versions))
	for _, nv := range versions {
		abs, err := filepath.Abs(nv.template)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, abs)
	}
	modules := filepath.Join(harness, "node_modules")
	config := map[string]any{
		"compilerOptions": map[string]any{
			"strict":                           true,
			"noEmit":                           true,
			"target":                           "ES2022",
			"module":                           "ES2022",
			"moduleResolution":                 "Bundler",
			"lib":                              []string{"ES2022"},
			"types":                            []string{"workers-types"},
			"typeRoots":                        []string{filepath.Join(modules, "@cloudflare")},
			"noUnusedLocals":                   true,
			"noUnusedParameters":               true,
			"noImplicitReturns":                true,
			"noFallthroughCasesInSwitch":       true,
			"exactOptionalPropertyTypes":       false,
			"forceConsistentCasingInFileNames": true,
			"skipLibCheck":                     true,
			// Each template is its own module in the bundle.
			"isolatedModules": true,
		},
		"files": files,
	}
	data, err := json.Marshal(config)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	tsconfig := filepath.Join(dir, "tsconfig.json")
	if err := os.WriteFile(tsconfig, data, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", filepath.Join(modules, "typescript", "bin", "tsc"), "-p", tsconfig, "--pretty", "false")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tsc --strict found errors in templates:\n%s", out)
	}
}
