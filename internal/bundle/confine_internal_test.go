package bundle

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeInstall lays out an install directory with packages that try to
// reach a secret file outside it, and returns the directory and the
// secret file's path.
func fakeInstall(t *testing.T) (dir, secretFile string) {
	t.Helper()
	base := t.TempDir()
	outside := filepath.Join(base, "outside")
	dir = filepath.Join(base, "install")
	secretFile = filepath.Join(outside, "secret.json")
	write := func(p, src string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(secretFile, `{"secret": "S3CRET-ON-THE-HOST"}`)
	nm := filepath.Join(dir, "node_modules")
	write(filepath.Join(nm, "ms", "package.json"), `{"name": "ms", "version": "2.1.3", "main": "index.js"}`)
	write(filepath.Join(nm, "ms", "index.js"), `module.exports = function ms(s) { return s.length; };`)
	write(filepath.Join(nm, "absolute", "package.json"), `{"name": "absolute", "version": "1.0.0", "main": "index.js"}`)
	write(filepath.Join(nm, "absolute", "index.js"), `module.exports = require(`+jsonQuote(secretFile)+`);`)
	write(filepath.Join(nm, "climb", "package.json"), `{"name": "climb", "version": "1.0.0", "main": "index.js"}`)
	write(filepath.Join(nm, "climb", "index.js"), `module.exports = require("../../../outside/secret.json");`)
	write(filepath.Join(nm, "glob", "package.json"), `{"name": "glob", "version": "1.0.0", "main": "index.js"}`)
	write(filepath.Join(nm, "glob", "index.js"), "export default (x) => require(`../../../outside/${x}`);")
	write(filepath.Join(nm, "dyn", "package.json"), `{"name": "dyn", "version": "1.0.0", "main": "index.js"}`)
	write(filepath.Join(nm, "dyn", "index.js"), `export default () => import(`+jsonQuote(secretFile)+`);`)
	if err := os.Symlink(outside, filepath.Join(nm, "linked")); err != nil {
		t.Fatal(err)
	}
	write(filepath.Join(nm, "vialink", "package.json"), `{"name": "vialink", "version": "1.0.0", "main": "index.js"}`)
	write(filepath.Join(nm, "vialink", "index.js"), `module.exports = require("linked/secret.json");`)
	return dir, secretFile
}

func jsonQuote(s string) string { return `"` + strings.ReplaceAll(s, `\`, `\\`) + `"` }

// TestAttackBundleEscapesInstall: imports that resolve outside the install
// directory — from the user's code or from a package, by "..", an absolute
// path, a dynamic import or a symlink — fail the bundle, the secret is not
// in any output, and no message shows a server path.
func TestAttackBundleEscapesInstall(t *testing.T) {
	t.Parallel()
	dir, secretFile := fakeInstall(t)
	tests := map[string]string{
		"user subpath climbs":       `const x = require("ms/../../../outside/secret.json"); export default x;`,
		"user subpath climbs (esm)": `import x from "ms/../../../outside/secret.json"; export default x;`,
		"user absolute":             `const x = require(` + jsonQuote(secretFile) + `); export default x;`,
		"user dynamic absolute":     `export default () => import(` + jsonQuote(secretFile) + `);`,
		"package absolute":          `import * as a from "absolute"; export default a;`,
		"package climbs":            `import * as c from "climb"; export default c;`,
		"package dynamic":           `import d from "dyn"; export default d;`,
		"package via symlink":       `import * as v from "vialink"; export default v;`,
		"user via symlink":          `import x from "linked/secret.json"; export default x;`,
		"user glob climbs":          "export default (x) => require(`../../outside/${x}`);",
		"package glob climbs":       `import g from "glob"; export default g;`,
	}
	for name, src := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			out, err := buildFrom(Input{Files: map[string]string{"index.ts": src}, Entry: "index.ts", NoCache: true}, dir)
			if err == nil {
				t.Fatalf("bundled:\n%s", out.Code)
			}
			var be *Error
			if !errors.As(err, &be) {
				t.Fatalf("error %v, want *Error", err)
			}
			msg := err.Error()
			if strings.Contains(msg, "S3CRET") || strings.Contains(msg, filepath.Dir(dir)) || strings.Contains(msg, os.TempDir()) {
				t.Errorf("message shows the secret or a server path: %s", msg)
			}
		})
	}
}

// TestLegitBundleInsideInstall: a package of the install bundles.
func TestLegitBundleInsideInstall(t *testing.T) {
	t.Parallel()
	dir, _ := fakeInstall(t)
	out, err := buildFrom(Input{Files: map[string]string{"index.ts": `import * as ms from "ms"; export default ms;`}, Entry: "index.ts", NoCache: true}, dir)
	if err != nil {
		t.Fatal(err)
	}
	if code := string(out.Code); !strings.Contains(code, "s.length") || strings.Contains(code, dir) {
		t.Errorf("bundle:\n%s", code)
	}
}

func TestNPMOutputHidesPaths(t *testing.T) {
	t.Parallel()
	out := "npm error code E404\nnpm error 404 Not Found - GET https://registry.npmjs.org/nope - Not found\n" +
		"npm error A complete log of this run can be found in: /root/.npm/_logs/x.log\nnpm error path /var/cache/edgeflow/builds/build-1/x\n"
	got := npmOutput(out, []string{"/var/cache/edgeflow"})
	if strings.Contains(got, "/root") || strings.Contains(got, "/var") || !strings.Contains(got, "E404") || !strings.Contains(got, "https://registry.npmjs.org/nope") {
		t.Errorf("npmOutput = %q", got)
	}
}
