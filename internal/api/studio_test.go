package api_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/ratelimit"
	"github.com/edgeflow/edgeflow/internal/secret"
	"github.com/edgeflow/edgeflow/internal/sqlite"
	"github.com/edgeflow/edgeflow/internal/studio"
)

// TestStudioServing: the server answers Studio at every client path, keeps
// its JSON 404s for /api/… and missing files, puts the security headers on
// every response, and does not rate limit Studio's files.
func TestStudioServing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "edgeflow.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	sealer, err := secret.New(bytes.Repeat([]byte{1}, secret.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	index := `<!doctype html><html><head><script type="module" src="/assets/app-1.js"></script></head><body><div id="root"></div></body></html>`
	ui, err := studio.New(fstest.MapFS{
		"index.html":      {Data: []byte(index)},
		"assets/app-1.js": {Data: []byte(strings.Repeat("console.log('studio');\n", 100))},
	})
	if err != nil {
		t.Fatal(err)
	}
	s, err := api.New(api.Config{Store: st, Sealer: sealer, Studio: ui, Limits: ratelimit.Limits{Global: 5, Write: 5, Verify: 5}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)

	do := func(method, path string) (*http.Response, string) {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if res.Header.Get("Content-Security-Policy") != studio.ContentSecurityPolicy || res.Header.Get("X-Content-Type-Options") != "nosniff" ||
			res.Header.Get("Referrer-Policy") == "" {
			t.Errorf("%s %s: security headers missing: %v", method, path, res.Header)
		}
		return res, string(b)
	}
	// Far more Studio requests than the address's budget of 5: none is limited.
	for range 3 {
		for _, p := range []string{"/", "/workflows/wf_1", "/workflows/wf_1/runs/run_2", "/sign-in", "/assets/app-1.js"} {
			res, body := do("GET", p)
			if res.StatusCode != 200 {
				t.Fatalf("GET %s: %d %s", p, res.StatusCode, body)
			}
			if p != "/assets/app-1.js" && body != index {
				t.Fatalf("GET %s answered %.100s", p, body)
			}
		}
	}
	if res, body := do("HEAD", "/workflows/x"); res.StatusCode != 200 || body != "" || res.Header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("HEAD: %d %v", res.StatusCode, res.Header)
	}
	// JSON 404s: the API, missing files.
	for _, p := range []string{"/api/nope", "/api", "/assets/missing.js", "/robots.txt"} {
		res, body := do("GET", p)
		if res.StatusCode != 404 || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") || !strings.Contains(body, `"not_found"`) {
			t.Errorf("GET %s: %d %s %s", p, res.StatusCode, res.Header.Get("Content-Type"), body)
		}
	}
	// Other methods on a client path are no endpoint.
	if res, body := do("POST", "/workflows/x"); res.StatusCode != 404 || !strings.Contains(body, `"not_found"`) {
		t.Errorf("POST /workflows/x: %d %s", res.StatusCode, body)
	}
	// The operations endpoints stay theirs.
	if res, body := do("GET", "/healthz"); res.StatusCode != 200 || !strings.Contains(body, `"ok"`) {
		t.Errorf("healthz: %d %s", res.StatusCode, body)
	}
	_, metrics := do("GET", "/metrics")
	if !strings.Contains(metrics, `route="studio"`) {
		t.Errorf("metrics lack the studio route:\n%.2000s", metrics)
	}
}
