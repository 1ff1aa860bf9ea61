package studio_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/edgeflow/edgeflow/internal/studio"
)

var bigJS = strings.Repeat("export const answer = 42; // the app\n", 200)

func testBuild() fstest.MapFS {
	return fstest.MapFS{
		"index.html":              {Data: []byte(`<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>`)},
		"assets/index-abc123.js":  {Data: []byte(bigJS)},
		"assets/index-abc123.css": {Data: []byte("body{margin:0}")},
		"favicon.svg":             {Data: []byte(`<svg xmlns="http://www.w3.org/2000/svg"></svg>`)},
	}
}

func get(t *testing.T, h *studio.Handler, method, path string, header map[string]string) (*http.Response, bool) {
	t.Helper()
	req := httptest.NewRequest(method, path, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	served := h.Serve(rec, req)
	return rec.Result(), served
}

func body(t *testing.T, res *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestServe(t *testing.T) {
	t.Parallel()
	h, err := studio.New(testBuild())
	if err != nil {
		t.Fatal(err)
	}
	index := string(testBuild()["index.html"].Data)
	for _, tt := range []struct {
		path, contentType, cache, body string
	}{
		{"/", "text/html; charset=utf-8", "no-cache", index},
		{"/index.html", "text/html; charset=utf-8", "no-cache", index},
		{"/workflows/wf_123", "text/html; charset=utf-8", "no-cache", index},
		{"/workflows/wf_123/runs/run_9", "text/html; charset=utf-8", "no-cache", index},
		{"/sign-in?next=/x", "text/html; charset=utf-8", "no-cache", index},
		{"/assets/index-abc123.js", "text/javascript; charset=utf-8", "public, max-age=31536000, immutable", bigJS},
		{"/assets/index-abc123.css", "text/css; charset=utf-8", "public, max-age=31536000, immutable", "body{margin:0}"},
		{"/favicon.svg", "image/svg+xml", "no-cache", `<svg xmlns="http://www.w3.org/2000/svg"></svg>`},
	} {
		res, served := get(t, h, "GET", tt.path, nil)
		if !served || res.StatusCode != 200 {
			t.Fatalf("GET %s: served %v, status %d", tt.path, served, res.StatusCode)
		}
		if got := res.Header.Get("Content-Type"); got != tt.contentType {
			t.Errorf("GET %s: Content-Type %q, want %q", tt.path, got, tt.contentType)
		}
		if got := res.Header.Get("Cache-Control"); got != tt.cache {
			t.Errorf("GET %s: Cache-Control %q, want %q", tt.path, got, tt.cache)
		}
		if got := body(t, res); got != tt.body {
			t.Errorf("GET %s: body %.80q", tt.path, got)
		}
		// HEAD: the same headers, no body.
		head, served := get(t, h, "HEAD", tt.path, nil)
		if !served || head.StatusCode != 200 || head.Header.Get("Content-Type") != tt.contentType ||
			head.Header.Get("Content-Length") != res.Header.Get("Content-Length") || body(t, head) != "" {
			t.Errorf("HEAD %s: %d %v", tt.path, head.StatusCode, head.Header)
		}
	}

	// Not Studio's: a missing asset or file, other methods.
	for _, p := range []string{"/assets/missing.js", "/assets/", "/assets", "/missing.js", "/logo.png", "/workflows/x/app.css"} {
		if _, served := get(t, h, "GET", p, nil); served {
			t.Errorf("GET %s answered the app", p)
		}
	}
	if _, served := get(t, h, "POST", "/", nil); served {
		t.Error("POST / served")
	}
	if _, served := get(t, h, "DELETE", "/workflows/x", nil); served {
		t.Error("DELETE served")
	}
}

func TestServeGzipAndConditional(t *testing.T) {
	t.Parallel()
	h, err := studio.New(testBuild())
	if err != nil {
		t.Fatal(err)
	}
	res, _ := get(t, h, "GET", "/assets/index-abc123.js", map[string]string{"Accept-Encoding": "br, gzip;q=0.8"})
	if res.Header.Get("Content-Encoding") != "gzip" || res.Header.Get("Vary") != "Accept-Encoding" {
		t.Fatalf("headers %v", res.Header)
	}
	zr, err := gzip.NewReader(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil || string(plain) != bigJS {
		t.Fatalf("gunzipped body differs (%v)", err)
	}
	// gzip;q=0 and no Accept-Encoding: identity, still Vary.
	for _, ae := range []string{"gzip;q=0", "", "br"} {
		res, _ := get(t, h, "GET", "/assets/index-abc123.js", map[string]string{"Accept-Encoding": ae})
		if res.Header.Get("Content-Encoding") != "" || body(t, res) != bigJS || res.Header.Get("Vary") != "Accept-Encoding" {
			t.Errorf("Accept-Encoding %q: %v", ae, res.Header)
		}
	}
	// Small files are not compressed.
	if res, _ := get(t, h, "GET", "/assets/index-abc123.css", map[string]string{"Accept-Encoding": "gzip"}); res.Header.Get("Content-Encoding") != "" {
		t.Errorf("tiny css compressed")
	}
	// If-None-Match with the ETag: 304, no body.
	etag := res.Header.Get("ETag")
	if etag == "" {
		t.Fatal("no ETag")
	}
	res, _ = get(t, h, "GET", "/assets/index-abc123.js", map[string]string{"If-None-Match": etag})
	if res.StatusCode != http.StatusNotModified || body(t, res) != "" {
		t.Fatalf("If-None-Match: %d", res.StatusCode)
	}
	res, _ = get(t, h, "GET", "/workflows/a", map[string]string{"If-None-Match": `"other"`})
	if res.StatusCode != 200 {
		t.Fatalf("other ETag: %d", res.StatusCode)
	}
}

func TestNewNeedsIndex(t *testing.T) {
	t.Parallel()
	if _, err := studio.New(fstest.MapFS{"assets/a.js": {Data: []byte("x")}}); err == nil {
		t.Fatal("a build without index.html accepted")
	}
}

func TestNotBuilt(t *testing.T) {
	t.Parallel()
	h := studio.NotBuilt()
	res, served := get(t, h, "GET", "/workflows/x", nil)
	if !served || res.StatusCode != 404 || !strings.Contains(res.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("%v %d %v", served, res.StatusCode, res.Header)
	}
	b := body(t, res)
	if !strings.Contains(b, "make build") || strings.Contains(b, "<script") {
		t.Fatalf("page: %s", b)
	}
	if _, served := get(t, h, "GET", "/assets/index.js", nil); served {
		t.Fatal("asset served without a build")
	}
}

func TestIsClientPath(t *testing.T) {
	t.Parallel()
	for p, want := range map[string]bool{
		"/": true, "/workflows/x": true, "/sign-in": true, "/apix": true, "/assets/a.js": true,
		"/api": false, "/api/": false, "/api/nope": false, "/healthz": false, "/readyz": false, "/metrics": false,
	} {
		if got := studio.IsClientPath(p); got != want {
			t.Errorf("IsClientPath(%q) = %v", p, got)
		}
	}
}

func TestHeaders(t *testing.T) {
	t.Parallel()
	h := http.Header{}
	studio.Headers(h)
	csp := h.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'self'", "script-src 'self';", "frame-ancestors 'none'", "base-uri 'self'", "form-action 'self'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "*") || strings.Contains(csp, "unsafe-eval") || bytes.Count([]byte(csp), []byte("unsafe-inline")) != 1 {
		t.Errorf("CSP %q allows too much", csp)
	}
	if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") == "" {
		t.Errorf("headers %v", h)
	}
}
