package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/testenv"
	"github.com/edgeflow/edgeflow/web"
)

// TestServeAndBootstrap builds the binary, starts `edgeflow serve` on a
// temporary data dir, bootstraps a user and key while it runs (twice: the
// second run reuses user, organization and project), uses the key, and stops
// the server with SIGTERM.
//
// With EDGEFLOW_TEST_POSTGRES_URL set it runs a second time on PostgreSQL,
// with rate limits on (counted in the database).
func TestServeAndBootstrap(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "edgeflow")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		testServeAndBootstrap(t, bin, "", "off", "")
	})
	t.Run("edge packages missing", func(t *testing.T) {
		t.Parallel()
		edgeDir := t.TempDir() // a server.mjs without node_modules
		if err := os.WriteFile(filepath.Join(edgeDir, "server.mjs"), []byte("// not the edge\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		testServeAndBootstrap(t, bin, "", "off", edgeDir)
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		url := testenv.PostgresURL(t)
		testServeAndBootstrap(t, bin, url, "global=1000,write=100", "")
	})
}

// testServeAndBootstrap runs serve with --no-edge, or, when edgeDir is set,
// with EDGEFLOW_EDGE_DIR=edgeDir, which must make it warn and go on without
// the edge.
func testServeAndBootstrap(t *testing.T, bin, databaseURL, limits, edgeDir string) {
	dataDir := filepath.Join(t.TempDir(), "data")
	email := fmt.Sprintf("ci-%d@example.com", time.Now().UnixNano())
	args := []string{"serve", "--addr", "127.0.0.1:0", "--data-dir", dataDir}
	if edgeDir == "" {
		args = append(args, "--no-edge")
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "EDGEFLOW_RATE_LIMITS="+limits, "EDGEFLOW_SECRET_KEY=", "EDGEFLOW_DATABASE_URL="+databaseURL,
		"EDGEFLOW_EDGE_DIR="+edgeDir)
	secure := databaseURL == "" && edgeDir == "" // the SQLite run also checks --secure-cookies (by its variable)
	if secure {
		cmd.Env = append(cmd.Env, "EDGEFLOW_SECURE_COOKIES=1")
	}
	// The PostgreSQL run trusts the loopback proxy (by its variable), whose
	// X-Forwarded-Proto then makes the cookie Secure; the run without edge
	// packages trusts no proxy, so the same header changes nothing.
	if databaseURL != "" {
		secure = true
		cmd.Env = append(cmd.Env, "EDGEFLOW_TRUSTED_PROXIES=127.0.0.1/32", "EDGEFLOW_AUDIT_RETENTION=30d")
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var base string
	select {
	case line := <-lines:
		var ok bool
		if base, ok = strings.CutPrefix(line, "edgeflow listening on "); !ok {
			cmd.Wait()
			t.Fatalf("first line %q; stderr:\n%s", line, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("serve did not start; stderr:\n%s", stderr.String())
	}
	if databaseURL == "" {
		// A fresh database: serve prints the one-time setup link of the
		// first user, who signs up with it (once).
		var link string
		select {
		case line := <-lines:
			if !strings.HasPrefix(line, "No user exists yet.") {
				t.Fatalf("second line %q, want the setup link's", line)
			}
			link = strings.TrimSpace(<-lines)
		case <-time.After(10 * time.Second):
			t.Fatal("serve printed no setup link")
		}
		token, ok := strings.CutPrefix(link, base+"/setup?token=")
		if !ok {
			t.Fatalf("setup link %q is not %s/setup?token=…", link, base)
		}
		signUp := func() int {
			res, err := http.Post(base+"/api/auth/sign-up", "application/json",
				strings.NewReader(`{"email":"owner@example.com","password":"password-1","setupToken":"`+token+`"}`))
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			return res.StatusCode
		}
		if code := signUp(); code != 201 {
			t.Fatalf("sign-up with the setup token: %d", code)
		}
		if code := signUp(); code != 403 {
			t.Fatalf("second sign-up with the setup token: %d, want 403", code)
		}
	}
	if st, err := os.Stat(filepath.Join(dataDir, "secret.key")); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("secret key file: %v %v", st, err)
	}

	bootstrap := func() map[string]string {
		c := exec.Command(bin, "admin", "bootstrap", "--data-dir", dataDir, "--email", email,
			"--password", "password-1", "--org", "CI", "--project", "Main", "--json")
		c.Env = append(os.Environ(), "EDGEFLOW_DATABASE_URL="+databaseURL)
		out, err := c.Output()
		if err != nil {
			t.Fatalf("bootstrap: %v %s", err, out)
		}
		var m map[string]string
		if err := json.Unmarshal(out, &m); err != nil || len(m) != 4 {
			t.Fatalf("bootstrap printed %q: %v", out, err)
		}
		return m
	}
	first, second := bootstrap(), bootstrap()
	if !strings.HasPrefix(first["apiKey"], "ask_") || first["apiKey"] == second["apiKey"] {
		t.Fatalf("keys %q %q", first["apiKey"], second["apiKey"])
	}
	for _, f := range []string{"userId", "organizationId", "projectId"} {
		if first[f] == "" || first[f] != second[f] {
			t.Fatalf("%s not reused: %q %q", f, first[f], second[f])
		}
	}

	do := func(method, path, body string) (int, string) {
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+second["apiKey"])
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if code, body := do("POST", "/api/workflows", `{"name":"from CI"}`); code != 201 || !strings.Contains(body, first["projectId"]) {
		t.Fatalf("create workflow: %d %s", code, body)
	}
	if code, body := do("GET", "/api/workflows", ""); code != 200 || !strings.Contains(body, "from CI") {
		t.Fatalf("list workflows: %d %s", code, body)
	}
	if code, body := do("GET", "/api/audit?action=workflow.create", ""); code != 200 || !strings.Contains(body, `"outcome":201`) {
		t.Fatalf("audit log: %d %s", code, body)
	}
	for _, p := range []string{"/healthz", "/readyz"} {
		if code, body := do("GET", p, ""); code != 200 {
			t.Fatalf("%s: %d %s", p, code, body)
		}
	}
	// Studio at every client path: the build compiled in, or the page saying how to build it.
	_, built := web.Build()
	for _, p := range []string{"/", "/workflows/wf_x"} {
		res, err := http.Get(base + p)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		want := 200
		if !built {
			want = 404
		}
		if res.StatusCode != want || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") ||
			!strings.Contains(res.Header.Get("Content-Security-Policy"), "script-src 'self'") || (!built && !strings.Contains(string(b), "make build")) {
			t.Fatalf("GET %s (Studio built: %v): %d %v\n%.300s", p, built, res.StatusCode, res.Header, b)
		}
	}
	// The session cookie is Secure exactly when the server is told it is behind HTTPS.
	signIn, _ := http.NewRequest("POST", base+"/api/auth/sign-in", strings.NewReader(`{"email":"`+email+`","password":"password-1"}`))
	signIn.Header.Set("Content-Type", "application/json")
	signIn.Header.Set("X-Forwarded-Proto", "https")
	res, err := http.DefaultClient.Do(signIn)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 || len(res.Cookies()) == 0 || res.Cookies()[0].Secure != secure {
		t.Fatalf("sign-in: %d, cookies %v, want Secure %v", res.StatusCode, res.Header.Values("Set-Cookie"), secure)
	}
	if limits != "off" {
		head := func(path string) http.Header {
			res, err := http.Get(base + path)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			return res.Header
		}
		if h := head("/api/openapi.json"); h.Get("RateLimit-Limit") != "1000" || h.Get("RateLimit-Remaining") == "" {
			t.Fatalf("rate limit headers: %v", h)
		}
		if h := head("/healthz"); h.Get("RateLimit-Limit") != "" { // probes are never limited
			t.Fatalf("/healthz is rate limited: %v", h)
		}
	}

	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve exited with %v; stderr:\n%s", err, stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not stop on SIGTERM")
	}
	log := stderr.String()
	if edgeDir != "" && !strings.Contains(log, "local edge not started: the edge's npm packages are missing") {
		t.Fatalf("no warning about the missing edge packages:\n%s", log)
	}
	if !strings.Contains(log, `"msg":"request"`) || strings.Contains(log, second["apiKey"]) || strings.Contains(log, "password-1") {
		t.Fatalf("log lines missing or leaking secrets:\n%s", log)
	}
}

func TestServeFlags(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"serve", "--rate-limits", "global=x"},
		{"serve", "--stream-limits", "user=x"},
		{"serve", "--stream-limits", "total=0"},
		{"serve", "--stream-limits", "lifetime=10ms"},
		{"serve", "--allow-hosts", "10.0.0.0/40"},
		{"serve", "--allow-hosts", "http://intranet/"},
		{"serve", "--bogus"},
		{"serve", "--access-log", "verbose"},
		{"serve", "--access-log", "sample:0"},
		{"serve", "--signup", "maybe"},
		{"serve", "--public-url", "ftp://edgeflow.example.com"},
		{"serve", "--public-url", "https://edgeflow.example.com/?x=1"},
		{"serve", "--cloudflare-api-url", "api.cloudflare.com"},
		{"serve", "--cloudflare-api-url", "https://cf-proxy.example.com/client/v4#x"},
		{"serve", "--pprof-addr", "0.0.0.0:6060"},
		{"serve", "--pprof-addr", "10.1.2.3:6060"},
		{"serve", "--pprof-addr", "127.0.0.1"},
		{"serve", "--pprof-addr", "example.com:6060"},
		{"serve", "extra"},
		{"admin", "setup-link", "extra"},
		{"admin"},
		{"admin", "bootstrap", "--email", "a@b.c"},
		{"admin", "nope"},
	} {
		var out, errOut strings.Builder
		if code := dispatch(t.Context(), args, &out, &errOut); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, errOut.String())
		}
	}
	var out strings.Builder
	dispatch(t.Context(), []string{"help"}, &out, &out)
	for _, c := range []string{"serve", "admin", "version"} {
		if !strings.Contains(out.String(), c) {
			t.Errorf("help lacks %s:\n%s", c, out.String())
		}
	}
}

// TestPprofAddr: --pprof-addr takes loopback addresses only, and the
// profiles answer there.
func TestPprofAddr(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"127.0.0.1:6060", "[::1]:0", "localhost:6060", "127.0.0.2:0"} {
		if err := checkPprofAddr(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"0.0.0.0:6060", ":6060", "[::]:6060", "192.168.1.2:6060", "127.0.0.1", "example.com:6060", "127.0.0.1:"} {
		if err := checkPprofAddr(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
	url, stop, err := startPprof("127.0.0.1:0", slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	res, err := http.Get(url + "goroutine?debug=1")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(string(body), "goroutine profile") {
		t.Fatalf("%s: %d %.200s", url, res.StatusCode, body)
	}
}

// TestServeTracingVariables: serve refuses OTEL_* values it cannot use and a
// trace link template that is not an http(s) URL holding {traceId}, naming
// the variable, before it opens anything. (Not parallel: it sets the
// process environment.)
func TestServeTracingVariables(t *testing.T) {
	for _, tc := range []struct{ env map[string]string }{
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"}},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "127.0.0.1:4318"}},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_TRACES_SAMPLER": "often"}},
		{map[string]string{"EDGEFLOW_TRACE_URL_TEMPLATE": "https://jaeger.example/trace/"}},
		{map[string]string{"EDGEFLOW_TRACE_URL_TEMPLATE": "javascript:alert({traceId})"}},
	} {
		t.Run("", func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			var out, errOut strings.Builder
			if code := dispatch(t.Context(), []string{"serve", "--data-dir", t.TempDir()}, &out, &errOut); code != 2 {
				t.Errorf("%v: exit %d, want 2 (%s)", tc.env, code, errOut.String())
			}
			named := false
			for k := range tc.env {
				named = named || strings.Contains(errOut.String(), k) || strings.Contains(errOut.String(), "OTLP endpoint")
			}
			if !named {
				t.Errorf("%v: the message names no variable: %s", tc.env, errOut.String())
			}
		})
	}
	for _, tpl := range []string{"https://ui.honeycomb.io/t/environments/e/trace?trace_id={traceId}", "http://127.0.0.1:16686/trace/{traceId}"} {
		if !validTraceURLTemplate(tpl) {
			t.Errorf("%s refused", tpl)
		}
	}
}
