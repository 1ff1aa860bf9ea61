package studio_test

import (
	"io/fs"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/studio"
	"github.com/edgeflow/edgeflow/web"
)

// TestEmbeddedBuild checks the Studio build compiled into this binary: its
// index.html loads only hashed scripts from /assets/ (no inline script, which
// the CSP would refuse), every file it names is in the build, and the
// handler serves it. Under CI the build must be there (the CI builds web/
// before the Go tests); elsewhere a checkout that has not built web/ skips
// the test, saying so.
func TestEmbeddedBuild(t *testing.T) {
	build, ok := web.Build()
	if !ok {
		if os.Getenv("CI") != "" {
			t.Fatal("web/dist/app/index.html is missing: CI must run `npm run build` in web/ before the Go tests (make test does)")
		}
		t.Skip("Studio is not built (web/dist/app): run `make build` or `npm run build` in web/ to test the embedded build")
	}
	index, err := fs.ReadFile(build, "index.html")
	if err != nil {
		t.Fatal(err)
	}
	html := string(index)
	scripts := regexp.MustCompile(`(?s)<script\b([^>]*)>(.*?)</script>`).FindAllStringSubmatch(html, -1)
	if len(scripts) == 0 {
		t.Fatal("index.html loads no script")
	}
	for _, s := range scripts {
		if strings.TrimSpace(s[2]) != "" {
			t.Errorf("index.html has an inline script: %.200s", s[0])
		}
		if !regexp.MustCompile(`\bsrc="/assets/[^"/]+\.js"`).MatchString(s[1]) {
			t.Errorf("index.html loads a script from outside /assets/: %s", s[0])
		}
	}
	if regexp.MustCompile(`(?i)\son[a-z]+=`).MatchString(html) {
		t.Error("index.html has an inline event handler")
	}
	h, err := studio.New(build)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile(`(?:src|href)="(/[^"]+)"`).FindAllStringSubmatch(html, -1) {
		rec := httptest.NewRecorder()
		if !h.Serve(rec, httptest.NewRequest("GET", m[1], nil)) || rec.Code != 200 {
			t.Errorf("index.html names %s, which the build does not serve", m[1])
		}
	}
}
