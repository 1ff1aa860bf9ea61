package registry_test

import (
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/nodes/registry"
)

func TestCheckPackageName(t *testing.T) {
	t.Parallel()
	good := []string{"ms", "left-pad", "lodash.merge", "date-fns", "@acme/left-pad", "@types/node", "a", "x~y", "under_score", "9to5",
		strings.Repeat("a", 214)}
	bad := []string{"", "Ms", "@Acme/x", ".hidden", "_private", "@acme/.x", "@_acme/x", "@acme/", "@acme", "@/x",
		"a/b", "../x", "@acme/../x", "a b", "a:b", "file:x", "node_modules", "favicon.ico", "é", "a!b", "a'b", "a(b)", "a*b",
		strings.Repeat("a", 215)}
	for _, n := range good {
		if err := registry.CheckPackageName(n); err != nil {
			t.Errorf("CheckPackageName(%q) = %v, want nil", n, err)
		}
	}
	for _, n := range bad {
		if err := registry.CheckPackageName(n); err == nil {
			t.Errorf("CheckPackageName(%q) = nil, want an error", n)
		}
	}
}

func TestCheckVersionSpec(t *testing.T) {
	t.Parallel()
	good := []string{
		"1.2.3", "v1.2.3", "=1.2.3", "^1.2.3", "~1.2.3", "~>1.2", "^0.0.1", "1", "1.2", "1.x", "1.2.X", "*", "x",
		">=1.2.3 <2.0.0", ">= 1.2.3 < 2", "1.2.3 - 2.3.4", "1.2 - 2", "1.x || >=2.5.0 || 5.0.0 - 7.2.3",
		"^1.0.0-beta.1", "1.2.3-0", "1.2.3+build.5", "1.2.3-rc.1+sha-abc", "<1.0.0-0", "  ^2.1.3  ",
		"latest", "next", "beta", "canary-2", "v", "Legacy_1.x",
	}
	bad := map[string]string{
		"":                                 "empty",
		"   ":                              "empty",
		"file:../x":                        "local file",
		"file:/etc":                        "local file",
		"link:../x":                        "local file",
		"git+https://github.com/a/b.git":   "git",
		"git://github.com/a/b":             "git",
		"git+ssh://git@github.com:a/b.git": "git",
		"github:owner/repo":                "git",
		"https://example.com/x.tgz":        "URL",
		"http://127.0.0.1:1/x.tgz":         "URL",
		"npm:ms@2":                         "npm: aliases",
		"workspace:*":                      "workspace:",
		"/etc/passwd":                      "path",
		"./x":                              "path",
		"../../x":                          "path",
		"~/x":                              "path",
		"owner/repo":                       "owner/repo",
		"owner/repo#main":                  "owner/repo",
		"x.tgz":                            "tarball",
		"1.2.3.4":                          "neither",
		"01.2.3":                           "neither",
		"^1.2.3 ||":                        "neither",
		"1.2.3 -":                          "neither",
		"1.2.3 - ":                         "neither",
		">=":                               "neither",
		"1.2-beta":                         "neither",
		"1.2.3-":                           "neither",
		"1.2.3-a..b":                       "neither",
		"1.2.3+":                           "neither",
		"1.2.3 ; rm -rf /":                 "not allowed",
		"latest\n":                         "printable",
		"0\n":                              "printable",
		"9latest":                          "neither",
		strings.Repeat("1", 300):           "longer",
	}
	for _, s := range good {
		if err := registry.CheckVersionSpec(s); err != nil {
			t.Errorf("CheckVersionSpec(%q) = %v, want nil", s, err)
		}
	}
	for s, want := range bad {
		err := registry.CheckVersionSpec(s)
		if err == nil {
			t.Errorf("CheckVersionSpec(%q) = nil, want an error", s)
			continue
		}
		if !strings.Contains(err.Error(), want) {
			t.Errorf("CheckVersionSpec(%q) = %q, want it to mention %q", s, err, want)
		}
	}
}

// FuzzCheckVersionSpec checks that an accepted spec never holds what npm
// reads as a non-registry source.
func FuzzCheckVersionSpec(f *testing.F) {
	for _, s := range []string{"^1.2.3", "1.x || 2", "1.2.3 - 2", "latest", "file:x", "a/b", "npm:x@1", "http://x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if registry.CheckVersionSpec(s) != nil {
			return
		}
		if strings.ContainsAny(s, ":/\\@#\n\r\t") {
			t.Errorf("accepted %q", s)
		}
	})
}

func TestCheckImportSpecifier(t *testing.T) {
	t.Parallel()
	good := []string{"ms", "ms/index.js", "@acme/util", "@acme/util/sub/x.js", "cloudflare:workers", "node:buffer", "date-fns/format"}
	bad := []string{"", "/etc/passwd", "./x", "../x", ".", "..", "ms/../x", "ms/./x", "ms//x", "ms/", "@acme/x/../../y",
		"file:///etc/passwd", "data:text/javascript,1", "https://x/y.js", "C:\\x", "ms\\..\\x", "Ms", "@acme", "node:../x", "node:/etc/passwd", "cloudflare:", "node:a b"}
	for _, s := range good {
		if err := registry.CheckImportSpecifier(s); err != nil {
			t.Errorf("CheckImportSpecifier(%q) = %v, want nil", s, err)
		}
	}
	for _, s := range bad {
		if err := registry.CheckImportSpecifier(s); err == nil {
			t.Errorf("CheckImportSpecifier(%q) = nil, want an error", s)
		}
	}
}

// TestAttackTemplateImportEscapes: a marketplace template may not climb out
// of a declared dependency with a subpath.
func TestAttackTemplateImportEscapes(t *testing.T) {
	t.Parallel()
	deps := map[string]string{"ms": "^2.1.3"}
	for _, src := range []string{
		"import x from \"ms/../../../etc/passwd\";\nexport default async function run() { return x; }\n",
		"export default async function run() { return await import('ms/./../x'); }\n",
	} {
		if err := registry.CheckTemplate(src, deps); err == nil {
			t.Errorf("CheckTemplate accepted:\n%s", src)
		}
	}
	if err := registry.CheckTemplate("import ms from \"ms\";\nexport default async function run() { return ms('1d'); }\n", deps); err != nil {
		t.Errorf("legit template refused: %v", err)
	}
}

// FuzzCheckImportSpecifier checks that an accepted specifier never names a
// path, a '..' segment or a scheme other than cloudflare: and node:.
func FuzzCheckImportSpecifier(f *testing.F) {
	for _, s := range []string{"ms", "ms/index.js", "@acme/x/y", "node:buffer", "cloudflare:workers", "/etc/passwd", "ms/../x", "./x", "file:x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if registry.CheckImportSpecifier(s) != nil {
			return
		}
		runtime := strings.HasPrefix(s, "cloudflare:") || strings.HasPrefix(s, "node:")
		if strings.HasPrefix(s, "/") || strings.HasPrefix(s, ".") || strings.Contains(s, "/../") || strings.HasSuffix(s, "/..") ||
			strings.ContainsAny(s, "\\\x00") || !runtime && strings.Contains(s, ":") {
			t.Errorf("accepted %q", s)
		}
	})
}
